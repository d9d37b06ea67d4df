"""`readOnly` and `writeOnly`: which properties a request or a response carries, and which
schemas therefore need a request model of their own (`<Name>Request`, see docs/generated-api.md).

A readOnly property is never part of a request model, a writeOnly one never part of a response
model (OpenAPI 3.1 4.8.24.2: "SHOULD NOT be sent as part of the request / response").
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from ..spec.tree import escape
from .schema_facts import SCHEMA_PREFIX, deref, walk

Side = Literal["read", "write"]


def access(document: Mapping[str, Any], prop: Any) -> Side | None:
    """`read` for a readOnly property, `write` for a writeOnly one (its own flags first, then
    those of the schema it refers to, then those of its `allOf` members: Asana's
    `parent: {allOf: [$ref: TaskCompact, {readOnly: true}]}`)."""
    nodes = [prop, deref(document, prop)]
    all_of = prop.get("allOf") if isinstance(prop, dict) else None
    if isinstance(all_of, list):
        nodes.extend(node for m in all_of for node in (m, deref(document, m)))
    for node in nodes:
        if not isinstance(node, dict):
            continue
        if node.get("readOnly") is True:
            return "read"
        if node.get("writeOnly") is True:
            return "write"
    return None


class AccessMap:
    """Which component schemas read differently in a request than in a response."""

    def __init__(self, document: Mapping[str, Any]) -> None:
        self.document = document
        schemas = (document.get("components") or {}).get("schemas") or {}
        refs: dict[str, set[str]] = {}
        split: set[str] = set()
        for key, schema in schemas.items():
            ref = SCHEMA_PREFIX + escape(key)
            flagged, refs[ref] = self._scan(schema)
            if flagged:
                split.add(ref)
        changed = True
        while changed:  # a schema refers to one that splits: it splits too
            changed = False
            for ref, targets in refs.items():
                if ref not in split and targets & split:
                    split.add(ref)
                    changed = True
        self.split = frozenset(split)

    def _scan(self, schema: Any) -> tuple[bool, set[str]]:
        """Whether `schema` (not following `$ref`s) declares a readOnly or writeOnly property,
        and the `$ref`s it holds."""
        flagged = False
        refs: set[str] = set()
        for node in walk(schema):
            ref = node.get("$ref")
            if isinstance(ref, str):
                refs.add(ref)
            properties = node.get("properties")
            if isinstance(properties, dict) and not flagged:
                flagged = any(access(self.document, p) for p in properties.values())
        return flagged, refs

    def splits(self, schema: Any) -> bool:
        """`schema` reads differently as a request than as a response."""
        flagged, refs = self._scan(schema)
        return flagged or bool(refs & self.split)
