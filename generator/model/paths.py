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

from ..spec.tree import escape
from .ir import Operation


def bare(path: str) -> str:
    """The path a request for `path` goes to: without its `#fragment` or `?query`."""
    return path.partition("#")[0].partition("?")[0]


def answered_by(operations: Iterable[Operation]) -> dict[str, Operation]:
    """Each operation the server cannot route to (its id) -> the operation that answers the
    requests it describes."""
    serving: dict[tuple[str, str], Operation] = {}
    variants: list[Operation] = []
    for op in operations:
        key = (op.http_method.upper(), bare(op.path))
        if key[1] == op.path:
            serving[key] = op
        else:
            variants.append(op)
    shadowed: dict[str, Operation] = {}
    for op in variants:
        key = (op.http_method.upper(), bare(op.path))
        if key in serving:
            shadowed[op.id] = serving[key]
        else:
            serving[key] = op
    return shadowed


def fragment_notes(operations: Iterable[Operation]) -> list[tuple[str, str]]:
    """(pointer, message) warnings for the operations the server cannot route to."""
    by_id = {op.id: op for op in operations}
    notes = []
    for op_id, other in answered_by(by_id.values()).items():
        op = by_id[op_id]
        method = op.http_method.upper()
        extra = op.path[len(bare(op.path)):]
        carried = f"no `{extra}`" if extra.startswith("#") else f"`{extra}` as their query"
        notes.append((
            f"/paths/{escape(op.path)}/{op.http_method.lower()}",
            f"`{method} {op.path}`: requests carry {carried}, so the server routes them "
            f"to `{method} {other.path}` ({other.id}) and never calls `{op.method_name}` (the "
            f"client sends it to `{bare(op.path)}`; hint: one operation per method and path: "
            f"merge the variants, or give each a path of its own)",
        ))
    return notes


_TEMPLATED = re.compile(r"\{[^{}/]*\}")


def same_shape_notes(operations: Iterable[Operation]) -> list[tuple[str, str]]:
    """(pointer, message) warnings for templated paths of one shape (Xero's
    `/Invoices/{InvoiceID}/Attachments/{AttachmentID}` and `.../Attachments/{FileName}`),
    which OpenAPI says MUST NOT exist: a URL cannot say which one it is, so the server routes
    every request of a method both declare to the first path's operation."""
    ops = list(operations)
    unreachable = answered_by(ops)
    first: dict[tuple[str, str], Operation] = {}
    notes = []
    for op in ops:
        if op.id in unreachable:
            continue
        method, path = op.http_method.upper(), bare(op.path)
        key = (method, _TEMPLATED.sub("{}", path))
        taken = first.setdefault(key, op)
        if taken is op or bare(taken.path) == path:
            continue
        notes.append((
            f"/paths/{escape(op.path)}/{op.http_method.lower()}",
            f"`{method} {op.path}` has the shape of `{method} {taken.path}` (templated paths of "
            "one shape MUST NOT exist): a URL cannot say which of the two it is, so the server "
            f"routes every such request to `{taken.method_name}` ({taken.id}) and never calls "
            f"`{op.method_name}`; the client sends it to the same URLs (hint: give it a path "
            "of its own, or merge the two operations)",
        ))
    return notes
