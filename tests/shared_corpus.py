"""The large real contracts of ../shared/corpus (or $CONTRACTGEN_CORPUS): where they are, the
ones the tests read, and reading one (the test is skipped when the corpus is not here)."""

from __future__ import annotations

import gzip
import json
import os
from pathlib import Path
from typing import Any

import pytest

_ROOT = Path(__file__).resolve().parent.parent
# `../shared/corpus` beside the repository (or its worktrees' folder), or $CONTRACTGEN_CORPUS
CORPUS = next((p for p in (_ROOT.parent / "shared" / "corpus",
                           _ROOT.parent.parent / "shared" / "corpus") if p.is_dir()),
              _ROOT.parent / "shared" / "corpus")
# Box and Twilio 2010 take a minute each (generate and mypy): `make test-corpus` runs them.
CORPUS_SPECS = (
    pytest.param("box", marks=pytest.mark.corpus),
    pytest.param("twilio-api-v2010", marks=pytest.mark.corpus),
    "twilio-conversations-v1",
)


def corpus_bytes(name: str) -> bytes:
    """A corpus contract's JSON text."""
    source = Path(os.environ.get("CONTRACTGEN_CORPUS", CORPUS)) / f"{name}.openapi.json.gz"
    if not source.exists():
        pytest.skip(f"corpus contract {source} is not here")
    return gzip.decompress(source.read_bytes())


def corpus_spec(name: str, tmp_path: Path) -> Path:
    """A corpus contract written to `tmp_path` as a file generate and validate can read."""
    spec = tmp_path / f"{name}.openapi.json"
    spec.write_bytes(corpus_bytes(name))
    return spec


def corpus_data(name: str) -> dict[str, Any]:
    """A corpus contract's document."""
    data: dict[str, Any] = json.loads(corpus_bytes(name))
    return data
