"""What the configuration says of a contract its user does not own (`options.ContractSettings`):
`x-pagination` by operation and `x-enum-closed` by schema.

They are written into the document as the extensions they stand for before the model is built
(the bundled `openapi.json` the server serves stays the contract as written), so a setting
means exactly what the extension means. A name the contract does not declare is an error,
located in the configuration.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Iterator
from typing import Any

from ..options import ContractSettings
from ..problems import Level, Problem, SpecError
from .paging import EXTENSION as PAGINATION
from .unions import CLOSED

_METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")


def applied(data: dict[str, Any], settings: ContractSettings | None) -> dict[str, Any]:
    """`data` with the settings written in (only what changes is copied)."""
    if settings is None or not (settings.pagination or settings.closed_enums):
        return data
    out = dict(data)
    problems = [*_paginate(out, settings), *_close(out, settings)]
    if problems:
        raise SpecError(problems)
    return out


def _paginate(out: dict[str, Any], settings: ContractSettings) -> Iterator[Problem]:
    wanted = {name: json.loads(text) for name, text in settings.pagination}
    if not wanted:
        return
    paths = out["paths"] = dict(out.get("paths") or {})
    seen: list[str] = []
    for path, item in paths.items():
        if not isinstance(item, dict):
            continue
        for method in _METHODS:
            op = item.get(method)
            if not isinstance(op, dict) or not isinstance(op.get("operationId"), str):
                continue
            seen.append(op["operationId"])
            if op["operationId"] in wanted:
                setting = wanted[op["operationId"]]
                item = paths[path] = {**item, method: {**op, PAGINATION: setting}}
    for name in sorted(set(wanted) - set(seen)):
        yield _unknown(settings, f"pagination/{name}", f"operation `{name}`", seen)


def _close(out: dict[str, Any], settings: ContractSettings) -> Iterator[Problem]:
    components = out["components"] = dict(out.get("components") or {})
    schemas = components["schemas"] = dict(components.get("schemas") or {})
    for index, name in enumerate(settings.closed_enums):
        if isinstance(schemas.get(name), dict):
            schemas[name] = {**schemas[name], CLOSED: True}
        else:
            yield _unknown(settings, f"closed_enums/{index}", f"schema `{name}`", schemas)


def _unknown(settings: ContractSettings, where: str, what: str, known: Any) -> Problem:
    name = what.split("`")[1]
    close = difflib.get_close_matches(name, [str(k) for k in known], n=3)
    hint = f"did you mean {', '.join(f'`{c}`' for c in close)}?" if close else None
    return Problem(Level.ERROR, f"[tool.contractgen] names {what}, which the contract does "
                   "not declare", settings.source, None, None, f"{settings.pointer}/{where}", hint)
