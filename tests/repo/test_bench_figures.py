"""The bench's token figure counts what black formats: tokens, not bytes, and not the runtime
modules a package copies as they are (`bench/generate.py`, `python_tokens`)."""

from __future__ import annotations

import sys
from pathlib import Path

_ROOT = Path(__file__).resolve().parents[2]


def test_the_bench_counts_the_tokens_black_formats(tmp_path: Path) -> None:
    sys.path.insert(0, str(_ROOT / "bench"))
    try:
        from generate import python_tokens
    finally:
        sys.path.remove(str(_ROOT / "bench"))
    # A docstring is one token however long; layout (newlines, indents) and comments are none.
    (tmp_path / "models.py").write_text(f'"""{"word " * 500}"""\n\n# a comment\nA = 1\n',
                                        encoding="utf-8")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "client.py").write_text("def f(a, b):\n    return a + b\n",
                                                encoding="utf-8")
    assert python_tokens(tmp_path) == 4 + 12
    # A runtime module copied verbatim is not formatted, so not counted.
    (tmp_path / "_serving.py").write_text("B = 2\n" * 50, encoding="utf-8")
    (tmp_path / "notes.txt").write_text("C = 3\n", encoding="utf-8")
    assert python_tokens(tmp_path) == 16
