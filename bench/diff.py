"""Benchmark: `contractgen diff` on the corpus contracts, against the full walk in this process.

Not part of the test suite. For each corpus contract (`../shared/corpus/*.json.gz`) and two
edits, the bench's one-field edit (a property's description, as `bench/generate.py` makes it) and
a breaking one (the first property of the most referenced component schema turned into an
integer), it prints medians of:
- `diff_documents` as `contractgen diff` runs it (schemas that read the same skipped,
  `contractgen/diff/same.py`), and the full walk (every schema compared), in this process on
  documents loaded once, and their ratio;
- the whole `contractgen diff` command (a fresh process: load, validation verdicts cached, diff,
  report), and the floor beside it: a bare `python -c pass`.
Run: `.venv/bin/python bench/diff.py [--runs N]`.
"""

from __future__ import annotations

import argparse
import copy
import gzip
import json
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from contractgen.diff import diff_documents
from contractgen.diff.same import Unchanged
from generate import BIN, CORPUS, edit_one_field


def edit_most_used(document: dict[str, Any]) -> dict[str, Any]:
    """A copy of `document` whose most referenced component schema's first property became an
    integer: a breaking change that reaches many operations."""
    uses = Counter(re.findall(r'"\$ref": "#/components/schemas/([^"/]+)"', json.dumps(document)))
    edited = copy.deepcopy(document)
    schemas = edited["components"]["schemas"]
    for name, _ in uses.most_common():
        properties = schemas.get(name, {}).get("properties")
        if isinstance(properties, dict) and properties:
            properties[sorted(properties)[0]] = {"type": "integer"}
            return edited
    raise ValueError("no component schema with properties")


def median_ms(runs: int, action: Callable[..., object], *args: Any, **kwargs: Any) -> float:
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        action(*args, **kwargs)
        samples.append(time.perf_counter() - start)
    return statistics.median(samples) * 1000


def full_walk(old: dict[str, Any], new: dict[str, Any]) -> object:
    same = Unchanged.same
    Unchanged.same = lambda self, old, new: False  # type: ignore[method-assign]
    try:
        return diff_documents(old, new)
    finally:
        Unchanged.same = same  # type: ignore[method-assign]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    runs = parser.parse_args().runs
    floor = median_ms(runs, subprocess.run, [sys.executable, "-c", "pass"], check=True)
    print(f"floor: python -c pass {floor:.0f} ms (median of {runs})")
    print(f"{'contract':28} {'edit':10} {'changes':>7} {'diff':>8} {'full walk':>10} "
          f"{'ratio':>6} {'command':>8}")
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        for source in sorted(CORPUS.glob("*.json.gz")):
            name = source.name.removesuffix(".openapi.json.gz")
            old = json.loads(gzip.decompress(source.read_bytes()))
            old_file = work / f"{name}.json"
            old_file.write_text(json.dumps(old), encoding="utf-8")
            for edit_name, edit in (("one-field", edit_one_field), ("breaking", edit_most_used)):
                new = edit(old)
                new_file = work / f"{name}.{edit_name}.json"
                new_file.write_text(json.dumps(new), encoding="utf-8")
                changes = len(diff_documents(old, new))
                ours = median_ms(runs, diff_documents, old, new)
                walk = median_ms(runs, full_walk, old, new)
                command = [str(BIN / "contractgen"), "diff", str(old_file), str(new_file)]
                subprocess.run(command, capture_output=True, check=False)  # verdicts cached
                whole = median_ms(runs, subprocess.run, command, capture_output=True, check=False)
                print(f"{name:28} {edit_name:10} {changes:7} {ours:6.0f}ms {walk:8.0f}ms "
                      f"{ours / walk:5.2f}x {whole:6.0f}ms")


if __name__ == "__main__":
    main()
