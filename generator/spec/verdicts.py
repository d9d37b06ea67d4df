"""Cache validation verdicts: the problem list of a document, per content and validator version.

openapi-spec-validator stays the validator of record; its verdict is a pure function of the
document (its data, its text, for positions, and its path, which problems name) and of the code
that judges it, so `validate`, `generate` and `check` of an unchanged contract read the verdict
back instead of re-validating (seconds on a large contract). The key covers the versions of
openapi-spec-validator and jsonschema and a hash of contractgen's own sources, so an edited
lint or a new validator release never serves an old verdict.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
from collections.abc import Callable
from importlib import metadata
from pathlib import Path

from ..cache import TextCache
from ..problems import Level, Problem
from .loader import Document

Validator = Callable[[Document], list[Problem]]


@functools.cache
def _code_fingerprint() -> str:
    """A hash of contractgen's Python sources (what decides the problems we report)."""
    package = Path(__file__).resolve().parent.parent
    digest = hashlib.sha256()
    for path in sorted(package.rglob("*.py")):
        digest.update(path.relative_to(package).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:32]


def _cache() -> TextCache:
    versions = "-".join(metadata.version(name) for name in ("openapi-spec-validator", "jsonschema"))
    return TextCache(f"verdicts-{versions}-{_code_fingerprint()}")


def _identity(doc: Document) -> str:
    data = json.dumps(doc.data, sort_keys=True, default=repr, separators=(",", ":"))
    return "\0".join([str(doc.path), str(doc.path.resolve()), str(doc.overlay_path),
                      os.getcwd(), doc.text, data])


def _dump(problems: list[Problem]) -> str:
    return json.dumps([[p.level.value, p.message, p.file, p.line, p.col, p.pointer, p.hint]
                       for p in problems])


def _load(text: str) -> list[Problem] | None:
    try:
        return [Problem(Level(level), message, file, line, col, pointer, hint)
                for level, message, file, line, col, pointer, hint in json.loads(text)]
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
        cache.put_many({key: _dump(problems)})
        return problems

    return wrapper
