"""Cache validation verdicts: the problem list of a document, per content and validator version.

openapi-spec-validator stays the validator of record; its verdict is a pure function of the
document (its data, its text, for positions, and its path, which problems name) and of the code
that judges it, so `validate`, `generate` and `check` of an unchanged contract read the verdict
back instead of re-validating (seconds on a large contract). The key covers the versions of
openapi-spec-validator, jsonschema and openapi-spec-validator-rs and a hash of contractgen's own
sources, so an edited lint or a new validator release never serves an old verdict.

A contract edited in its prose only (the common edit) keeps the validator's verdict too: every
`description` of the OpenAPI objects is a plain string to openapi-spec-validator (no length,
pattern or format), so a document the validator found valid stays valid when only the text of
its descriptions changes. `known_valid` and `remember_valid` record that verdict under the
document's *shape*: its data with each such description blanked. Values that are the contract's
own data (examples, defaults, enums, `const`, extensions, discriminator mappings) are kept as
written, since defaults are checked against their schemas; only a "no problems" verdict is
recorded (a problem's message may quote the text).
"""

from __future__ import annotations

import functools
import json
import os
from collections.abc import Callable
from typing import Any

from ..cache import TextCache, code_fingerprint, version_of
from ..problems import Level, Problem
from .loader import Document

Validator = Callable[[Document], list[Problem]]


def _version(distribution: str) -> str:
    try:
        return version_of(distribution)
    except ImportError:  # importlib.metadata.PackageNotFoundError: not installed
        return "none"


def _cache() -> TextCache:
    versions = "-".join(_version(name) for name in (
        "openapi-spec-validator", "jsonschema", "openapi-spec-validator-rs"))
    return TextCache(f"verdicts-{versions}-{code_fingerprint()[:32]}")


def _identity(doc: Document) -> str:
    data = json.dumps(doc.data, sort_keys=True, default=repr, separators=(",", ":"))
    return "\0".join([str(doc.path), str(doc.path.resolve()), str(doc.overlay_path),
                      os.getcwd(), doc.text, data])


# Keys whose values are data rather than OpenAPI objects: kept as they are in a shape.
_DATA_KEYS = frozenset({"example", "examples", "default", "enum", "const", "value", "mapping"})


def _shape(node: Any, external: list[str]) -> Any:
    if isinstance(node, dict):
        shaped = {}
        for key, value in node.items():
            if key == "description" and isinstance(value, str):
                shaped[key] = ""
            elif key in _DATA_KEYS or (isinstance(key, str) and key.startswith("x-")):
                shaped[key] = value
            else:
                if key == "$ref" and isinstance(value, str) and not value.startswith("#"):
                    external.append(value)
                shaped[key] = _shape(value, external)
        return shaped
    if isinstance(node, list):
        return [_shape(value, external) for value in node]
    return node


def shape_key(doc: Document) -> str:
    """The address of the validator's verdict on `doc` whatever its descriptions say (a
    reference to another file also keeps the document's path in it: it is resolved from there)."""
    external: list[str] = []
    data = json.dumps(_shape(doc.data, external), sort_keys=True, default=repr,
                      separators=(",", ":"))
    where = str(doc.path.resolve()) if external else ""
    return _cache().key(f"shape\0{where}\0{data}")


def known_valid(key: str) -> bool:
    """True when the validator found a document of this shape valid."""
    return _cache().get(key) == "valid"


def remember_valid(key: str) -> None:
    """Record that the validator found a document of this shape valid."""
    _cache().put_many({key: "valid"})


def problem_rows(problems: list[Problem]) -> list[list[Any]]:
    """`problems` as JSON values (what the verdict and run caches store)."""
    return [[p.level.value, p.message, p.file, p.line, p.col, p.pointer, p.hint]
            for p in problems]


def problems_of(rows: list[list[Any]]) -> list[Problem]:
    """The problems `problem_rows` stored; ValueError or TypeError when they are not that."""
    return [Problem(Level(level), message, file, line, col, pointer, hint)
            for level, message, file, line, col, pointer, hint in rows]


def _load(text: str) -> list[Problem] | None:
    try:
        return problems_of(json.loads(text))
    except (ValueError, TypeError):
        return None


def cached(validate: Validator) -> Validator:
    """`validate`, answering from the cache when the same document was judged before."""

    @functools.wraps(validate)
    def wrapper(doc: Document) -> list[Problem]:
        cache = _cache()
        key = cache.key(_identity(doc))
        stored = cache.get(key)
        found = _load(stored) if stored is not None else None
        if found is not None:
            return found
        problems = validate(doc)
        cache.put_many({key: json.dumps(problem_rows(problems))})
        return problems

    return wrapper
