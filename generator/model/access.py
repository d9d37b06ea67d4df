"""`readOnly` and `writeOnly`: which properties a request or a response carries, and which
schemas therefore need a request model of their own (`<Name>Request`, see docs/generated-api.md).

A readOnly property is never part of a request model, a writeOnly one never part of a response
model (OpenAPI 3.1 4.8.24.2: "SHOULD NOT be sent as part of the request / response").
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from ..spec.tree import escape
from .schema_facts import SCHEMA_PREFIX, all_of_parts, deref, walk

Side = Literal["read", "write"]


def access(document: Mapping[str, Any], prop: Any) -> Side | None:
    """`read` for a readOnly property, `write` for a writeOnly one, wherever the flag sits in
    the compositions of its schema: on it, on what it refers to, on any `allOf` member (Asana's
    `parent: {allOf: [$ref: TaskCompact, {readOnly: true}]}`, PagerDuty's `type` that an
    `allOf` member of the object declares readOnly and another redeclares), or on every member
    of a `oneOf`/`anyOf`. JSON Schema's rule for annotations (2020-12 validation 9.4): one
    `true` among the subschemas that apply marks the property."""
    return _access(document, prop, set())


def _access(document: Mapping[str, Any], node: Any, seen: set[int]) -> Side | None:
    if not isinstance(node, dict) or id(node) in seen:
        return None
    seen.add(id(node))
    if node.get("readOnly") is True:
        return "read"
    if node.get("writeOnly") is True:
        return "write"
    every = [deref(document, node)] if isinstance(node.get("$ref"), str) else []
    every.extend(node.get("allOf") or [])
    for member in every:
        found = _access(document, member, seen)
        if found is not None:
            return found
    for key in ("oneOf", "anyOf"):
        members = node.get(key)
        if isinstance(members, list) and members:
            sides = {_access(document, m, set(seen)) for m in members}
            if len(sides) == 1 and None not in sides:
                return sides.pop()
    return None


_FLAG = {"read": "readOnly", "write": "writeOnly"}


def flagged_apart(document: Mapping[str, Any], schema: Any, name: str, side: Side) -> str | None:
    """Why it is worth a warning that the models of the other side than `side` leave `name` out:
    its `readOnly` (`side` "read", else `writeOnly`) comes only from another `allOf` member than
    every one that lists it in `required` (PagerDuty's references: `{allOf: [{$ref:
    .../Tag/allOf/0} (id readOnly), {required: [id]}]}`). The flag wins, by JSON Schema's rule,
    but the author of the `required` likely meant the property to be sent. None: it is not."""
    requiring = [part for part in all_of_parts(document, deref(document, schema))
                 if name in (part.get("required") or ())]
    if not requiring or any(access(document, (part.get("properties") or {}).get(name)) == side
                            for part in requiring):
        return None
    models, other = ("request", "on responses") if side == "read" else ("response", "on requests")
    return (f"`{name}` is required, but marked {_FLAG[side]} by another `allOf` member, so "
            f"{models} models leave it out (the flag wins, by JSON Schema's rule; `required` "
            f"takes effect {other} only; hint: if it is meant to be sent, drop `{_FLAG[side]}` "
            "there with an overlay)")


class AccessMap:
    """Which component schemas read differently in a request than in a response."""

    def __init__(self, document: Mapping[str, Any]) -> None:
        self.document = document
        schemas = (document.get("components") or {}).get("schemas") or {}
        self._components = {SCHEMA_PREFIX + escape(key) for key in schemas}
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

    def _scan(self, schema: Any, seen: frozenset[str] = frozenset()) -> tuple[bool, set[str]]:
        """Whether `schema` declares a readOnly or writeOnly property, and the components it
        refers to. A `$ref` to a component is listed, not followed; one into a part of a
        component or elsewhere (PagerDuty's `$ref: '#/components/schemas/Tag/allOf/0'`) is read
        as if written in place."""
        flagged = False
        refs: set[str] = set()
        for node in walk(schema):
            ref = node.get("$ref")
            if isinstance(ref, str) and (ref in self._components or not ref.startswith("#")):
                refs.add(ref)
            elif isinstance(ref, str) and ref not in seen:
                inner, more = self._scan(deref(self.document, node), seen | {ref})
                flagged, refs = flagged or inner, refs | more
            properties = node.get("properties")
            if isinstance(properties, dict) and not flagged:
                flagged = any(access(self.document, p) for p in properties.values())
        return flagged, refs

    def splits(self, schema: Any) -> bool:
        """`schema` reads differently as a request than as a response."""
        flagged, refs = self._scan(schema)
        return flagged or bool(refs & self.split)
