"""Without a token, the service is reachable by anything on the machine, including a web
page in a local browser. This ASGI guard keeps browsers out:

* DNS rebinding: a page on ``evil.example`` whose name later resolves to 127.0.0.1 sends
  ``Host: evil.example:8080``; only loopback names and the configured hosts are served.
* Cross-origin requests: a page can POST ``text/plain`` to any address without a CORS
  preflight; any request carrying an ``Origin`` of another host (or ``Sec-Fetch-Site:
  cross-site``) is refused.
"""

from __future__ import annotations

import ipaddress
import json
from collections.abc import Iterable
from typing import Any
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Receive, Scope, Send

LOOPBACK_NAMES = frozenset({"localhost", "localhost.localdomain", "ip6-localhost", "ip6-loopback"})


def _host_name(value: str) -> str:
    """The host part of a Host header or netloc, lowercased, without port or brackets."""
    value = value.strip().lower()
    if value.startswith("["):
        return value[1 : value.find("]")] if "]" in value else value
    return value.rsplit(":", 1)[0] if value.count(":") == 1 else value


def is_loopback(host: str) -> bool:
    """True for loopback names and 127.0.0.0/8, ::1 literals."""
    name = _host_name(host)
    if name in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


class HostGuard:
    """Serves only requests addressed to an allowed host and not sent by another origin."""

    def __init__(self, app: ASGIApp, allowed_hosts: Iterable[str] = ()) -> None:
        self.app = app
        self.allowed = frozenset(_host_name(h) for h in allowed_hosts if h.strip())

    def _allowed(self, host: str) -> bool:
        return "*" in self.allowed or is_loopback(host) or _host_name(host) in self.allowed

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
        host = headers.get("host", "")
        problem = None
        if not self._allowed(host):
            problem = f"host {host!r} is not served (DNS rebinding guard; see --allowed-hosts)"
        elif (origin := headers.get("origin")) is not None and (
            origin == "null" or not self._allowed(urlsplit(origin).netloc)
        ):
            problem = "cross-origin requests are refused"
        elif headers.get("sec-fetch-site") == "cross-site":
            problem = "cross-site requests are refused"
        if problem is None:
            await self.app(scope, receive, send)
            return
        body = json.dumps({"detail": problem}).encode()
        response_headers: list[Any] = [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
        ]
        await send({"type": "http.response.start", "status": 403, "headers": response_headers})
        await send({"type": "http.response.body", "body": body})
