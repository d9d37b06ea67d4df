"""Which schemas read the same in both documents, so `SchemaDiff` can skip them.

Every schema rule compares what the two sides say; none fires on two schemas that are equal
and reach equal schemas through every local `$ref` they hold. Large contracts change a few
schemas between versions and share the rest, so skipping those leaves the report as it was and
the walk proportional to the change (Box: 28,000 comparisons for a one-field edit, most of them
of components used by many operations).
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Mapping
from typing import Any
from urllib.parse import unquote

from .rules import Json, Side


class Unchanged:
    """`same(old, new)`: whether two nodes are equal and every target their local `$ref`s reach
    (through the targets' own references) is equal in both documents.

    Each reference target is looked at once: its equality in both documents, and the targets it
    refers to. A target that differs marks, through the recorded uses, every target that reaches
    it, so the answer is exact for recursive schemas too.
    """

    def __init__(self, old: Side, new: Side) -> None:
        self._old, self._new = old, new
        self._known: set[str] = set()
        self._changed: set[str] = set()
        self._users: defaultdict[str, list[str]] = defaultdict(list)
        # id(node) -> (node, its local references); the node is kept so its id stays its own.
        self._refs: dict[int, tuple[Json, frozenset[str]]] = {}

    def same(self, old: Json, new: Json) -> bool:
        if not _equal(old, new):
            return False
        refs = self._refs_in(old)
        self._discover(refs)
        return self._changed.isdisjoint(refs)

    def _refs_in(self, node: Json) -> frozenset[str]:
        """The JSON pointers named by the local `$ref`s anywhere in `node`."""
        entry = self._refs.get(id(node))
        if entry is not None and entry[0] is node:
            return entry[1]
        found: set[str] = set()
        stack = [node]
        while stack:
            item = stack.pop()
            if isinstance(item, Mapping):
                ref = item.get("$ref")
                if isinstance(ref, str) and ref.startswith("#"):
                    found.add(unquote(ref)[1:])
                stack.extend(item.values())
            elif isinstance(item, list):
                stack.extend(item)
        refs = frozenset(found)
        self._refs[id(node)] = (node, refs)
        return refs

    def _discover(self, refs: frozenset[str]) -> None:
        """Look at every target reachable from `refs` not looked at yet."""
        stack = [ref for ref in refs if ref not in self._known]
        while stack:
            target = stack.pop()
            if target in self._known:
                continue
            self._known.add(target)
            old, new = self._old.lookup(target), self._new.lookup(target)
            if not _equal(old, new):
                self._mark(target)
                continue  # what it refers to is looked at when something asks for it
            for inner in self._refs_in(old):
                self._users[inner].append(target)
                if inner in self._changed:
                    self._mark(target)
                elif inner not in self._known:
                    stack.append(inner)

    def _mark(self, target: str) -> None:
        """`target` differs, and so does every target known to reach it."""
        stack = [target]
        while stack:
            item = stack.pop()
            if item in self._changed:
                continue
            self._changed.add(item)
            stack.extend(self._users.get(item, ()))


def _equal(old: Json, new: Json) -> bool:
    """Equal as JSON: Python's `==` takes `true` for `1` and `1` for `1.0`, which the rules do
    not (a 3.0 boolean `exclusiveMinimum` is not the 3.1 number; a default of `1.0` is shown as
    such), so equal values are also compared as their JSON text. Keys in another order read as
    a difference: the schema is then compared rule by rule, as it would be without this."""
    return old is new or (old == new and _text(old) == _text(new))


def _text(value: Json) -> str:
    return json.dumps(value, default=_other)


def _other(value: Any) -> str:
    """A value JSON has no spelling for (a YAML timestamp in an example), by type and value."""
    return f"{type(value).__name__}:{value!r}"
