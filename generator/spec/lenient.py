"""`generate --lenient`: published contracts often carry small schema errors. The operations
an error sits in are left out; every error becomes a located warning saying what was skipped,
or that the part was generated as written."""

from __future__ import annotations

from dataclasses import replace

from ..problems import Level, Problem
from .loader import Document
from .tree import copy_data, split_pointer

_METHODS = frozenset({"get", "put", "post", "delete", "options", "head", "patch", "trace"})


def leniently(document: Document) -> tuple[Document, list[Problem]]:
    """`document` without the operations its errors sit in, and the errors as warnings."""
    from .validate import validate_document

    problems = validate_document(document)
    errors = [p for p in problems if p.level is Level.ERROR]
    if not errors:
        return document, problems
    skipped: set[tuple[str, str]] = set()
    out: list[Problem] = [p for p in problems if p.level is not Level.ERROR]
    for error in errors:
        tokens = split_pointer(error.pointer)
        if len(tokens) >= 3 and tokens[0] == "paths" and tokens[2] in _METHODS:
            skipped.add((tokens[1], tokens[2]))
            what = f"skipped {tokens[2].upper()} {tokens[1]}"
        else:
            what = "generated as written"
        out.append(replace(error, level=Level.WARNING, message=f"{error.message} ({what})"))
    data = copy_data(document.data)
    for path, method in skipped:
        item = data.get("paths", {}).get(path)
        if isinstance(item, dict):
            item.pop(method, None)
    return replace(document, data=data), out
