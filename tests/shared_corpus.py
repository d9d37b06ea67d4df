"""The large real contracts of ../shared/corpus (or $CONTRACTGEN_CORPUS): where they are, the
ones the tests read, and reading one (the test is skipped, saying why, when the corpus is not
here). Every test that reads the corpus finds it through this module: a clone without
../shared beside it skips them, it does not fail."""

from __future__ import annotations

import gzip
import json
import os
from pathlib import Path
from typing import Any

import pytest

_ROOT = Path(__file__).resolve().parent.parent


def _corpus_dir() -> Path:
    """$CONTRACTGEN_CORPUS, else `../shared/corpus` beside the repository (or beside the folder
    of its worktrees); the first of those when none is here (the skip reason names it)."""
    if os.environ.get("CONTRACTGEN_CORPUS"):
        return Path(os.environ["CONTRACTGEN_CORPUS"])
    candidates = (_ROOT.parent / "shared" / "corpus", _ROOT.parent.parent / "shared" / "corpus")
    return next((p for p in candidates if p.is_dir()), candidates[0])


CORPUS = _corpus_dir()
NOT_HERE = (f"the shared corpus is not here ({CORPUS}): put ../shared/corpus beside the "
            "repository or set CONTRACTGEN_CORPUS")
# For a test that reads the corpus itself: `@needs_corpus`.
needs_corpus = pytest.mark.skipif(not CORPUS.is_dir(), reason=NOT_HERE)
# Box and Twilio 2010 take a minute each (generate and mypy): `make test-corpus` runs them.
CORPUS_SPECS = (
    pytest.param("box", marks=pytest.mark.corpus),
    pytest.param("twilio-api-v2010", marks=pytest.mark.corpus),
    "twilio-conversations-v1",
)


def corpus_file(name: str) -> Path:
    """The corpus file `name` (skips the test, saying which file, when it is not here)."""
    source = CORPUS / name
    if not source.is_file():
        pytest.skip(NOT_HERE if not CORPUS.is_dir() else f"corpus file {source} is not here")
    return source


def corpus_files(pattern: str) -> list[Path]:
    """The corpus files matching `pattern` ([] when the corpus is not here)."""
    return sorted(CORPUS.glob(pattern)) if CORPUS.is_dir() else []


def corpus_params(pattern: str) -> list[Any]:
    """`corpus_files(pattern)` to parametrize a test with: one skipped case saying why when the
    corpus is not here (not pytest's "got empty parameter set")."""
    found = corpus_files(pattern)
    return list(found) or [pytest.param(None, marks=pytest.mark.skip(reason=NOT_HERE))]


def corpus_bytes(name: str) -> bytes:
    """A corpus contract's JSON text."""
    return gzip.decompress(corpus_file(f"{name}.openapi.json.gz").read_bytes())


def corpus_spec(name: str, tmp_path: Path) -> Path:
    """A corpus contract written to `tmp_path` as a file generate and validate can read."""
    spec = tmp_path / f"{name}.openapi.json"
    spec.write_bytes(corpus_bytes(name))
    return spec


def corpus_data(name: str) -> dict[str, Any]:
    """A corpus contract's document."""
    data: dict[str, Any] = json.loads(corpus_bytes(name))
    return data
