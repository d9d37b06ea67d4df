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
First, the row of two versions of GitHub's contract (874 operations), the newer one a
mechanical release (`edit_release`: operations removed, deprecated, parameters and properties
added, a bound set), diffed in process and by the whole command.
Run: `.venv/bin/python bench/diff.py [--runs N] [--github-only]`.
"""

from __future__ import annotations

import argparse
import copy
import gzip
import json
import re
import resource
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


def edit_release(document: dict[str, Any]) -> dict[str, Any]:
    """A copy of `document` edited as a release might edit it, the same way on every run: every
    40th operation removed, every 30th deprecated with an x-sunset, an optional query parameter
    added to every 25th, an optional property added to every 20th component schema with
    properties and a maxLength set on the first string property of every 50th."""
    edited = copy.deepcopy(document)
    methods = ("get", "put", "post", "delete", "patch")
    ops = [(item, m) for _, item in sorted(edited["paths"].items()) for m in methods if m in item]
    for index, (item, method) in enumerate(ops):
        op = item[method]
        if index % 40 == 39:
            del item[method]
        elif index % 30 == 29:
            op.update({"deprecated": True, "x-sunset": "2099-01-01"})
        elif index % 25 == 24:
            op.setdefault("parameters", []).append(
                {"name": "release_bench", "in": "query", "schema": {"type": "string"}})
    named = sorted(edited.get("components", {}).get("schemas", {}).items())
    for index, (_, schema) in enumerate(named):
        properties = schema.get("properties") if isinstance(schema, dict) else None
        if not isinstance(properties, dict) or not properties:
            continue
        if index % 20 == 19:
            properties["release_bench"] = {"type": "string"}
        strings = [p for _, p in sorted(properties.items()) if p.get("type") == "string"]
        if index % 50 == 49 and strings:
            strings[0]["maxLength"] = 64
    return edited


def github_release(runs: int, work: Path) -> None:
    """The row the issue asks for: two versions of GitHub's contract, the newer made by
    `edit_release`, through the whole `contractgen diff` command."""
    source = CORPUS / "github-api.json.gz"
    if not source.is_file():
        print(f"(no {source}: the GitHub row is skipped)")
        return
    old = json.loads(gzip.decompress(source.read_bytes()))
    new = edit_release(old)
    old_file, new_file = work / "github.json", work / "github.release.json"
    old_file.write_text(json.dumps(old), encoding="utf-8")
    new_file.write_text(json.dumps(new), encoding="utf-8")
    ours = median_ms(runs, diff_documents, old, new)
    command = [str(BIN / "contractgen"), "diff", str(old_file), str(new_file)]
    subprocess.run(command, capture_output=True, check=False)  # verdicts cached
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    whole = median_ms(runs, subprocess.run, command, capture_output=True, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime) / runs * 1000
    # on a shared machine the wall time waits for a core; the CPU time is the command's own
    print(f"{'github-api':28} {'release':10} {len(diff_documents(old, new)):7} "
          f"{ours:6.0f}ms {'':>10} {'':>6} {whole:6.0f}ms  (CPU {cpu:.0f} ms a run)")


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
    parser.add_argument("--github-only", action="store_true",
                        help="only the GitHub release row (two versions of GitHub's contract)")
    args = parser.parse_args()
    runs = args.runs
    floor = median_ms(runs, subprocess.run, [sys.executable, "-c", "pass"], check=True)
    print(f"floor: python -c pass {floor:.0f} ms (median of {runs})")
    print(f"{'contract':28} {'edit':10} {'changes':>7} {'diff':>8} {'full walk':>10} "
          f"{'ratio':>6} {'command':>8}")
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        github_release(runs, work)
        if args.github_only:
            return
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
