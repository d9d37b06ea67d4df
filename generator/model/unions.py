"""Open unions: a union of models a response carries keeps a member the client does not know.

A `oneOf`/`anyOf` of two or more object schemas (discriminated or not) that a response may
carry (in a response body, or in a model or alias a response reaches) is generated open: `Annotated[A | B | UnknownMember, OpenUnion(...)]`
(the package's `_enums`). While the client reads a response, a value no member matches (a new
discriminator value) is an `UnknownMember` keeping the data; everywhere else (a server reading
a request) the union stays closed. A union only requests carry keeps its closed type (a
union both carry is open in both: the server never receives an unknown member). A union schema marked `x-enum-closed: true` (or named in the configuration's
`closed_enums`) stays closed.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping
from typing import Any, TypeVar

from .ir import AliasDef, Definition, ModelDef, Operation, Response
from .typeref import TypeRef

CLOSED = "x-enum-closed"
_T = TypeVar("_T")


def open_unions(definitions: Iterable[Definition], operations: Iterable[Operation],
                closed: Collection[str]) -> tuple[list[Definition], list[Operation]]:
    """The definitions and operations with their unions of models open, but those of the
    aliases named in `closed`."""
    definitions, operations = list(definitions), list(operations)
    classes = {d.name for d in definitions if isinstance(d, ModelDef)}
    opened = _Opener(classes)
    read = _read(definitions, operations)
    found = [_definition(d, opened, closed) if d.name in read else d for d in definitions]
    return found, [_operation(op, opened) for op in operations]


def _read(definitions: list[Definition], operations: list[Operation]) -> set[str]:
    """The definitions a response reaches: only their unions are opened (a union only
    requests carry keeps its closed type, which the server's implementation reads)."""
    by_name = {d.name: d for d in definitions}
    pending = [name for op in operations for r in _responses(op) if r.type is not None
               for name in r.type.model_names()]
    seen: set[str] = set()
    while pending:
        name = pending.pop()
        if name not in seen and name in by_name:
            seen.add(name)
            pending.extend(by_name[name].dependencies())
    return seen


def _responses(op: Operation) -> Iterator[Response]:
    yield from op.success
    yield from (e.response for e in op.errors)


def closed_unions(data: Mapping[str, Any], name_of: Callable[[str], str | None]) -> set[str]:
    """The definitions of the component schemas marked `x-enum-closed: true`."""
    schemas = (data.get("components") or {}).get("schemas") or {}
    refs = ["#/components/schemas/" + name.replace("~", "~0").replace("/", "~1")
            for name, schema in schemas.items()
            if isinstance(schema, dict) and schema.get(CLOSED) is True]
    return {name for name in map(name_of, refs) if name}


class _Opener:
    """Opens the unions of models in a type expression (and in those it holds)."""

    def __init__(self, classes: Collection[str]) -> None:
        self.classes = classes

    def __call__(self, ref: TypeRef) -> TypeRef:
        if not ref.args:  # most are: a builtin, a model's name
            return ref
        args = tuple(self(a) for a in ref.args)
        changed = any(a is not b for a, b in zip(args, ref.args, strict=True))
        opens = ref.kind == "union" and not ref.open and self._of_models(ref)
        if not (changed or opens):
            return ref
        return dataclasses.replace(ref, args=args, open=ref.open or opens)

    def _of_models(self, ref: TypeRef) -> bool:
        members = [a for a in ref.args if not (a.kind == "builtin" and a.name == "None")]
        return len(members) >= 2 and all(
            a.kind == "model" and a.name in self.classes and not a.constraints for a in members)


def _definition(definition: _T, opened: _Opener, closed: Collection[str]) -> _T:
    if isinstance(definition, AliasDef) and definition.name not in closed:
        return _typed(definition, opened(definition.type))
    if isinstance(definition, ModelDef):
        fields = _kept(definition.fields, [_typed(f, opened(f.type)) for f in definition.fields])
        extra = opened(definition.extra_type) if definition.extra_type else None
        return _replaced(definition, fields=fields, extra_type=extra)
    return definition


def _operation(op: Operation, opened: Callable[[TypeRef], TypeRef]) -> Operation:
    success = _kept(op.success, [_response(r, opened) for r in op.success])
    errors = _kept(op.errors, [_replaced(e, response=_response(e.response, opened))
                               for e in op.errors])
    paging = op.paging
    if paging is not None and paging.item is not None:
        paging = _replaced(paging, item=opened(paging.item))
    return _replaced(op, success=success, errors=errors, paging=paging)


def _response(response: Response, opened: Callable[[TypeRef], TypeRef]) -> Response:
    """`response` with its primary JSON body open: what the client reads (`emit.source`
    spells the server's answers closed)."""
    first = response.primary
    if first.kind != "json" or first.type is None:
        return response
    reps = [_typed(r, opened(first.type)) if r is first else r for r in response.representations]
    return _replaced(response, representations=_kept(response.representations, reps))


def _typed(item: _T, ref: TypeRef) -> _T:
    """`item` (with a `type`) typed `ref`: itself when that is its type."""
    return item if ref is getattr(item, "type") else dataclasses.replace(item, type=ref)  # type: ignore[type-var]  # noqa: B009


def _kept(old: tuple[_T, ...], new: list[_T]) -> tuple[_T, ...]:
    """`new` as a tuple, or `old` itself when each of its items is the same."""
    return old if all(a is b for a, b in zip(old, new, strict=True)) else tuple(new)


def _replaced(old: _T, **values: Any) -> _T:
    """`old` with `values`, or `old` itself when they are the values it has."""
    changes = {k: v for k, v in values.items() if getattr(old, k) is not v}
    return dataclasses.replace(old, **changes) if changes else old  # type: ignore[type-var]
