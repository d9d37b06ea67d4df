"""The operations of one side of a diff, and the parameters, headers and security of each."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..spec.paths import iter_operations
from ..spec.tree import escape
from .rules import Json, Side, as_list, as_mapping

_TEMPLATE = re.compile(r"\{([^}/]*)\}")
_JSON = "application/json"


@dataclass(frozen=True)
class _Operation:
    method: str
    path: str
    node: Mapping[str, Json]
    pointer: str
    shared_parameters: tuple[tuple[Json, str], ...]  # from the path item, with pointers

    @property
    def label(self) -> str:
        return f"{self.method.upper()} {self.path}"


def _items(node: Json) -> list[tuple[str, Json]]:
    """A mapping's items with string keys (YAML reads `200:` as an int), sorted."""
    return sorted((str(k), v) for k, v in node.items()) if isinstance(node, Mapping) else []


def _headers(side: Side, response: Mapping[str, Json], pointer: str
             ) -> dict[str, tuple[str, Mapping[str, Json], str]]:
    """A response's headers keyed by case-folded name: (name as written, header, pointer)."""
    found = {}
    for name, raw in _items(response.get("headers")):
        header, at = side.resolve(raw, f"{pointer}/headers/{escape(name)}")
        found[name.lower()] = (name, as_mapping(header), at)
    return found


def _operations(doc: Side) -> dict[tuple[str, str], _Operation]:
    """Operations keyed by (method, path with parameter names blanked)."""
    found: dict[tuple[str, str], _Operation] = {}
    for site in iter_operations(doc.data, doc.resolve):
        shared = tuple((p, f"{site.item_pointer}/parameters/{i}")
                       for i, p in enumerate(as_list(site.item.get("parameters"))))
        key = (site.method, _TEMPLATE.sub("{}", site.path))
        found[key] = _Operation(site.method, site.path, site.operation, site.pointer, shared)
    return found


def _parameters(doc: Side, op: _Operation) -> dict[tuple[str, str], tuple[Mapping[str, Json], str]]:
    """An operation's parameters, the operation's own overriding its path item's.

    Keyed by (location, name), header names case-folded and path parameters by position,
    so renaming `{id}` to `{name}` matches.
    """
    names = _TEMPLATE.findall(op.path)
    own = tuple((p, f"{op.pointer}/parameters/{i}")
                for i, p in enumerate(as_list(op.node.get("parameters"))))
    found: dict[tuple[str, str], tuple[Mapping[str, Json], str]] = {}
    for raw, at in op.shared_parameters + own:
        param, ptr = doc.resolve(raw, at)
        if not isinstance(param, Mapping) or "name" not in param:
            continue
        location, name = str(param.get("in")), str(param["name"])
        if location == "header":
            name = name.lower()
        elif location == "path" and name in names:
            name = f"#{names.index(name)}"
        found[(location, name)] = (param, ptr)
    return found


def _parameter_schema(param: Mapping[str, Json], pointer: str) -> tuple[Json, str]:
    if "schema" in param:
        return param["schema"], f"{pointer}/schema"
    for media, body in _items(param.get("content")):
        return as_mapping(body).get("schema", {}), f"{pointer}/content/{escape(media)}/schema"
    return {}, pointer


def _alternatives(requirements: Json) -> dict[frozenset[str], dict[str, frozenset[str]]]:
    """Security requirements as {scheme names: {scheme: scopes}}; none means anonymous."""
    found: dict[frozenset[str], dict[str, frozenset[str]]] = {}
    for requirement in requirements if isinstance(requirements, list) else []:
        schemes = {str(k): frozenset(map(str, as_list(v))) for k, v in _items(requirement)}
        found[frozenset(schemes)] = schemes
    return found or {frozenset(): {}}


def _honoured(old: Mapping[str, frozenset[str]], news: Mapping[frozenset[str], Any]) -> bool:
    """Whether credentials that satisfied `old` satisfy one of the new alternatives."""
    return any(key <= old.keys() and all(news[key][s] <= old[s] for s in key) for key in news)


def _show_alt(key: frozenset[str]) -> str:
    return " and ".join(sorted(key)) or "anonymous"
