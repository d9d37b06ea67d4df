"""The server an operation declares of its own (`servers` on it or on its path item: GitHub's
asset upload at `uploads.github.com`): where the client sends it and the stub routes it."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any
from urllib.parse import urlsplit

from ..spec.tree import split_pointer
from .ir import Server

Warn = Callable[[str, str], None]


def servers_of(raw: Any) -> tuple[Server, ...]:
    """The servers a `servers` list declares (variables with their defaults)."""
    servers: list[Server] = []
    for entry in raw if isinstance(raw, list) else []:
        if not isinstance(entry, dict) or not isinstance(entry.get("url"), str):
            continue
        variables = tuple((str(name), str(spec.get("default", "")))
                          for name, spec in (entry.get("variables") or {}).items()
                          if isinstance(spec, dict))
        description = entry.get("description")
        servers.append(Server(entry["url"], description.strip() if isinstance(description, str)
                              else None, variables))
    return tuple(servers)


def own_server(document: Mapping[str, Any], item: Mapping[str, Any], operation: Mapping[str, Any],
               at: str, warn: Warn) -> str | None:
    """The URL (variables at their defaults) of the first server the operation (else its path
    item) declares, where it is not the API's first one; None where it declares none. A
    relative URL is warned about and left out: the operation goes where the others do."""
    where, declared = (at, operation.get("servers")) if operation.get("servers") else (
        at.rsplit("/", 1)[0], item.get("servers"))
    servers = servers_of(declared)
    if not servers:
        return None
    _, path, method = split_pointer(at)  # named: the pointer may be into a $ref'd file
    named = f"`{method.upper()} {path}`: "
    url = servers[0].default_url.rstrip("/")
    main = servers_of(document.get("servers"))
    if main and main[0].default_url.rstrip("/") == url:
        return None
    if not urlsplit(url).netloc:  # relative, or a scheme alone (DigitalOcean's `https://`)
        what = "relative server URL" if not urlsplit(url).scheme else "server URL without a host"
        warn(f"{named}the {what} `{servers[0].url}` is not used: the operation is sent "
             "to, and served at, the API's own base URL and path (hint: write the URL whole)",
             f"{where}/servers/0")
        return None
    if not any(urlsplit(server.default_url).scheme for server in main):
        # the client sends own servers where declared only when base_url is one of the API's
        warn(f"{named}the API declares no server with a host (OpenAPI's default is `/`), so no "
             f"base_url is one of its servers: the client sends this operation to its "
             f"base_url's host under `{urlsplit(url).path or '/'}`, not to `{url}`, unless "
             "`servers=` says so (hint: declare the API's servers, whole)", f"{where}/servers/0")
    return url
