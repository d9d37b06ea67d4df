"""Paths whose key carries a `#fragment` or a `?query`, paths of one shape, and which operation
answers their requests.

Some contracts list one URL twice by adding a fragment to the path key (Box:
`/files/{file_id}#get_shared_link` beside `/files/{file_id}`, a GET that differs only by its
query) or a query (OpenAI: `/responses?beta=true` beside `/responses`). A request never carries
a fragment (clients strip it), and its query is not part of its path, so the client sends such
an operation to the bare path (with the query), and on the server only one operation per method
and bare path can answer: the one spelled without a fragment or query when there is one, else
the first the contract lists. The server registers no route for the others, and the generator
says so.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from ..spec.media import media_base
from ..spec.tree import escape
from .ir import Operation
from .typeref import TypeRef


def bare(path: str) -> str:
    """The path a request for `path` goes to: without its `#fragment` or `?query`."""
    return path.partition("#")[0].partition("?")[0]


def _urls(operations: Iterable[Operation]) -> list[list[Operation]]:
    """The operations of each method and bare path, in the contract's order."""
    groups: dict[tuple[str, str], list[Operation]] = {}
    for op in operations:
        groups.setdefault((op.http_method.upper(), bare(op.path)), []).append(op)
    return list(groups.values())


def _by_media(group: list[Operation]) -> bool:
    """Whether the server tells a URL's operations apart by the request's Content-Type: each
    has a body in one media type of its own (Box's `PUT .../schema#add`, JSON, and
    `.../schema#update`, JSON Patch)."""
    media = [media_base(op.body.media_type) if op.body and not op.body.also_form else ""
             for op in group]
    return len(group) > 1 and "" not in media and len(set(media)) == len(media)


def answered_by(operations: Iterable[Operation]) -> dict[str, Operation]:
    """Each operation the server cannot route to (its id) -> the operation that answers the
    requests it describes: of a URL's operations not told apart by Content-Type, the one
    spelled without a fragment or query when there is one, else the first."""
    shadowed: dict[str, Operation] = {}
    for group in _urls(operations):
        if len(group) > 1 and not _by_media(group):
            serving = next((op for op in group if op.path == bare(op.path)), group[0])
            shadowed.update((op.id, serving) for op in group if op is not serving)
    return shadowed


def content_types(operations: Iterable[Operation]) -> dict[str, str]:
    """Each route the server matches only for a body in its own media type (its id -> that
    type): all of a URL's operations told apart by Content-Type but the last."""
    return {op.id: media_base(op.body.media_type) for group in _urls(operations)
            if _by_media(group) for op in group[:-1] if op.body}


def fragment_notes(operations: Iterable[Operation]) -> list[tuple[str, str]]:
    """(pointer, message) warnings for the operations the server cannot route to, and for
    those it tells apart by their body's Content-Type."""
    ops = list(operations)
    by_id = {op.id: op for op in ops}
    notes = []
    for op_id, other in answered_by(ops).items():
        op = by_id[op_id]
        method = op.http_method.upper()
        notes.append((
            f"/paths/{escape(op.path)}/{op.http_method.lower()}",
            f"`{method} {op.path}`: requests carry {_carried(op)}, so the server routes them "
            f"to `{method} {other.path}` ({other.id}) and never calls `{op.method_name}` (the "
            f"client sends it to `{bare(op.path)}`; hint: one operation per method and path: "
            f"merge the variants, or give each a path of its own)",
        ))
    for group in filter(_by_media, _urls(ops)):
        told = ", ".join(f"`{op.body.media_type}` to `{op.method_name}`"
                         for op in group if op.body)
        notes.extend((
            f"/paths/{escape(op.path)}/{op.http_method.lower()}",
            f"`{op.http_method.upper()} {op.path}`: requests carry {_carried(op)}, so "
            f"{len(group)} operations share `{bare(op.path)}`: the server tells them apart by "
            f"the body's Content-Type ({told}; any other to `{group[-1].method_name}`), and "
            "the client sends each in its own (hint: give each a path of its own)",
        ) for op in group if op.path != bare(op.path))
    return notes


def _carried(op: Operation) -> str:
    extra = op.path[len(bare(op.path)):]
    return f"no `{extra}`" if extra.startswith("#") else f"`{extra}` as their query"


_TEMPLATED = re.compile(r"\{[^{}/]*\}")


def same_shape_groups(operations: Iterable[Operation]) -> list[list[Operation]]:
    """The routed operations of one method whose paths have one shape (Xero's
    `/Invoices/{InvoiceID}/Attachments/{AttachmentID}` and `.../Attachments/{FileName}`), two
    or more, in the contract's order, which is the server's order among them."""
    ops = list(operations)
    unreachable = answered_by(ops)
    groups: dict[tuple[str, str], list[Operation]] = {}
    for op in ops:
        if op.id not in unreachable:
            key = (op.http_method.upper(), _TEMPLATED.sub("{}", bare(op.path)))
            groups.setdefault(key, []).append(op)
    return [group for group in groups.values() if len({bare(op.path) for op in group}) > 1]


def narrowed(operations: Iterable[Operation]) -> dict[str, tuple[str, ...]]:
    """Each route the server matches only when its path parameters validate (its id -> their
    names): all of a group of one shape but the last, so that a URL whose values one route's
    parameters refuse (`receipt.pdf` is no uuid) goes on to the next."""
    return {op.id: tuple(p.name for p in op.path_params)
            for group in same_shape_groups(operations) for op in group[:-1]}


def _takes_any(type_ref: TypeRef) -> bool:
    """Whether a path parameter of this type takes every value of a URL segment."""
    if type_ref.kind == "union":
        return any(_takes_any(arg) for arg in type_ref.args)
    return type_ref.kind == "any" or (
        type_ref.kind == "builtin" and type_ref.name in ("str", "Any")
        and not type_ref.constraints and not type_ref.checks)


def _refusing(earlier: Operation, later: Operation) -> str | None:
    """The first of `earlier`'s path parameters that refuses some value `later` takes at the
    same place of the URL (by name), or None: then `later` never gets a request."""
    segments = bare(earlier.path).split("/"), bare(later.path).split("/")
    by_wire = {p.wire: p for p in (*earlier.path_params, *later.path_params)}
    for mine, theirs in zip(*segments, strict=True):
        if mine == theirs or not (mine.startswith("{") and theirs.startswith("{")):
            continue
        param, other = by_wire.get(mine.strip("{}")), by_wire.get(theirs.strip("{}"))
        if param and other and param.type != other.type and not _takes_any(param.type):
            return param.wire
    return None


def same_shape_notes(operations: Iterable[Operation]) -> list[tuple[str, str]]:
    """(pointer, message) warnings for templated paths of one shape, which OpenAPI says MUST
    NOT exist: located on each after the first, saying which operation the server calls."""
    notes = []
    for group in same_shape_groups(operations):
        first = group[0]
        for position, op in enumerate(group[1:], start=1):
            method = op.http_method.upper()
            said = f"`{method} {op.path}` has the shape of `{method} {first.path}` (templated " \
                   "paths of one shape MUST NOT exist): a URL cannot say which of the two it is"
            taking = next((e for e in group[:position] if _refusing(e, op) is None), None)
            if taking is not None:
                does = (f"so the server routes every such request to `{taking.method_name}` "
                        f"({taking.id}) and never calls `{op.method_name}`")
            else:
                refusals = ", ".join(f"`{e.path}` by `{_refusing(e, op)}`"
                                     for e in group[:position])
                does = (f"the server calls `{op.method_name}` when the URL's values are refused "
                        f"by the paths before it ({refusals}), else the first that takes them: "
                        "a value valid for both goes to the first")
            notes.append((
                f"/paths/{escape(op.path)}/{op.http_method.lower()}",
                f"{said}: {does}; the client sends both to the same URLs (hint: give it a path "
                "of its own, or merge the two operations)",
            ))
    return notes
