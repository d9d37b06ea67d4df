"""Addressing nodes of a parsed spec: RFC 6901 JSON pointers and an OpenAPI-aware walk."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any
from urllib.parse import unquote

Part = str | int

# Keys whose values are data (examples, defaults, enums), never spec objects: a `$ref` or a
# `type` inside them means nothing.
_DATA_KEYS = frozenset({"example", "default", "enum", "const", "value"})
# Keys whose mapping values are keyed by names chosen by the author (a property called
# `default`, a response called `default`), so the names are not keywords.
_NAME_MAPS = frozenset({
    "properties", "patternProperties", "dependentSchemas", "$defs", "definitions", "paths",
    "webhooks", "responses", "content", "headers", "callbacks", "links", "encoding", "variables",
    "schemas", "parameters", "requestBodies", "securitySchemes", "pathItems", "examples",
    "mapping", "scopes"})


def escape(token: Part) -> str:
    """One pointer token: `~` -> `~0`, `/` -> `~1`."""
    return str(token).replace("~", "~0").replace("/", "~1")


def unescape(token: str) -> str:
    """The inverse of `escape`: `~1` -> `/`, `~0` -> `~`."""
    return token.replace("~1", "/").replace("~0", "~")


def make_pointer(parts: Iterable[Part]) -> str:
    """`("paths", "/a", 0)` -> `/paths/~1a/0`."""
    return "".join("/" + escape(p) for p in parts)


def split_pointer(pointer: str) -> list[str]:
    """`/paths/~1a` or `#/paths/~1a` (a URI fragment, percent-decoded) -> `["paths", "/a"]`."""
    if pointer.startswith("#"):
        pointer = unquote(pointer[1:])
    if not pointer:
        return []
    if not pointer.startswith("/"):
        raise ValueError(f"not a JSON pointer: {pointer!r}")
    return [unescape(t) for t in pointer[1:].split("/")]


def resolve_pointer(data: Any, pointer: str) -> Any:
    """The node at `pointer`; LookupError when there is none."""
    node = data
    for token in split_pointer(pointer):
        if isinstance(node, dict):
            node = node[token]
        elif isinstance(node, list) and _is_index(token) and int(token) < len(node):
            node = node[int(token)]
        else:
            raise LookupError(token)
    return node


def _is_index(token: str) -> bool:
    return token == "0" or (token.isdigit() and not token.startswith("0"))


def copy_data(value: Any) -> Any:
    """A deep copy of JSON-like data that also unshares YAML aliases."""
    if isinstance(value, dict):
        return {k: copy_data(v) for k, v in value.items()}
    if isinstance(value, list):
        return [copy_data(v) for v in value]
    return value


def holds_data(path: tuple[Part, ...], key: Part) -> bool:
    """Whether the value of `key` in the object at `path` is data (an example, an extension),
    never spec objects; a name map's keys are names (a property called `default`)."""
    if path and path[-1] in _NAME_MAPS:
        return False
    return key in _DATA_KEYS or str(key).startswith("x-")


def walk_objects(data: Any) -> Iterator[tuple[tuple[Part, ...], dict[str, Any]]]:
    """Every spec object (operation, schema, reference...) with its path, skipping example data."""
    # Only containers are stacked (a scalar holds no object, and a path tuple was made for each
    # one): a large contract has several scalars per object.
    stack: list[tuple[tuple[Part, ...], Any, bool]] = [((), data, False)]
    containers = (dict, list)
    while stack:
        path, node, names = stack.pop()
        if isinstance(node, list):
            stack.extend([((*path, i), node[i], False) for i in range(len(node) - 1, -1, -1)
                          if isinstance(node[i], containers)])
            continue
        if not isinstance(node, dict):
            continue
        if not names:
            yield path, node
        children = []
        for key, value in node.items():
            if not isinstance(value, containers):
                continue
            if names:
                children.append(((*path, key), value, False))
            elif key in _DATA_KEYS or key.startswith("x-"):
                continue
            elif key in _NAME_MAPS and isinstance(value, dict):
                children.append(((*path, key), value, True))
            elif key == "examples" and isinstance(value, list):
                continue  # JSON Schema `examples`: a list of data
            else:
                children.append(((*path, key), value, False))
        stack.extend(reversed(children))


def through_refs(data: Any, parts: tuple[Part, ...]) -> tuple[Part, ...]:
    """The path of the node `parts` reaches, with every local `$ref` on the way followed."""
    node, out = data, list[Part]()
    for part in parts:
        target = node.get("$ref") if isinstance(node, dict) else None
        if isinstance(target, str) and target.startswith("#") and part != "$ref":
            try:
                node, out = resolve_pointer(data, target), list(split_pointer(target))
            except (LookupError, ValueError):
                return parts
        try:
            node = node[part] if isinstance(node, dict) else node[int(part)]
        except (LookupError, ValueError, TypeError):
            return parts
        out.append(part)
    return tuple(out)
