"""Benchmark: whole `contractgen generate` runs against peer generators, on the same specs.

Not part of the test suite. Prints medians and ratios, all measured in this one run, on the two
seed contracts, the corpus contracts (`../shared/corpus/*.json.gz`, decompressed into a temp
folder, never into the repository) and `synthetic-1000`, a 1,000-operation contract merged from
prefixed copies of the corpus contracts (`bench/synthetic.py`; written into the temp folder):
- cold `generate` (models + server + client, validated, formatted) into an empty directory with
  an empty formatting cache, interleaved with datamodel-codegen (models only) on the same file,
  and their peak RSS; and how many tokens of Python each formatted with black (ours without the
  runtime modules it copies) and its cold time per thousand of them;
- regenerating after a one-field change (one property description edited in a copy of the spec);
  and the same edit under `contractgen watch`, from the save to the watch's report of the
  package written;
- regenerating, and `check`, of an unchanged contract;
- importing the generated package (beside its floor: pydantic, fastapi and httpx alone), and
  building its app (`create_app` of a trivial subclass), each timed inside a fresh interpreter
  with the package's bytecode compiled first (`compileall`, as pip does on install and a
  project's first import does); and the import from source too (no `__pycache__`,
  PYTHONDONTWRITEBYTECODE=1), printed on its own line;
- openapi-python-client (client only) on the seeds, and the floor: a bare `python -c pass`.
Each contract's figures are marked against the issue's goals (cold <= 0.5x datamodel-codegen,
one-field regenerate <= 0.15x, unchanged regenerate and check <= 0.1x, import < 1 s, create_app
< 0.5 s, peak RSS < 1 GB), and a closing table sums them up with cold time per operation, which
should stay flat as contracts grow.
Run: `make bench` or `.venv/bin/python bench/generate.py [--runs N] [--corpus-runs N] [--only X]`.
"""

from __future__ import annotations

import argparse
import copy
import gzip
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from synthetic import build as build_synthetic
from synthetic import corpus_sources

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
# `../shared/corpus` beside the main checkout; worktrees sit deeper, so look upwards.
CORPUS = next((p / "shared" / "corpus" for p in ROOT.parents if (p / "shared" / "corpus").is_dir()),
              ROOT.parent / "shared" / "corpus")
SEEDS = {
    "otari": (ROOT / "specs/otari-code-execution.openapi.yaml", None),
    "tpmjs": (ROOT / "specs/tpmjs-executor.openapi.yaml", ROOT / "specs/tpmjs-executor.overlay.yaml"),
}
HTTP_METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
SYNTHETIC, SYNTHETIC_OPERATIONS = "synthetic-1000", 1000
# The goals: ratios to datamodel-codegen's cold run, seconds, and megabytes.
RATIO_GOALS = {"cold": 0.5, "regen_edit": 0.15, "regen_same": 0.1, "check_same": 0.1,
               "watch_edit": 0.15}
IMPORT_GOAL, APP_GOAL, RSS_GOAL_MB = 1.0, 0.5, 1024.0


@dataclass
class Run:
    """Wall time (s) and peak RSS (KiB) of one child process (and the children it waited for)."""

    seconds: float
    rss_kib: int
    ok: bool
    stdout: str
    stderr: str


def run(command: list[str], cwd: Path, env: dict[str, str] | None = None) -> Run:
    """Run `command`; its wall time and its own peak RSS (wait4, not the running maximum)."""
    start = time.perf_counter()
    process = subprocess.Popen(command, cwd=cwd, env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE)
    # Drain the pipes without reaping, then reap with wait4 for the child's own rusage.
    assert process.stdout is not None and process.stderr is not None
    import threading

    chunks: dict[str, bytes] = {}
    readers = [threading.Thread(target=lambda n, s: chunks.__setitem__(n, s.read()),
                                args=(name, stream))
               for name, stream in (("out", process.stdout), ("err", process.stderr))]
    for reader in readers:
        reader.start()
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - start
    for reader in readers:
        reader.join()
    process.returncode = os.waitstatus_to_exitcode(status)
    return Run(seconds, usage.ru_maxrss, process.returncode == 0,
               chunks["out"].decode(), chunks["err"].decode())


@dataclass
class Figures:
    """Samples per measurement of one spec."""

    operations: int
    samples: dict[str, list[float]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    def add(self, key: str, value: float) -> None:
        self.samples.setdefault(key, []).append(value)

    def median(self, key: str) -> float | None:
        values = self.samples.get(key)
        return statistics.median(values) if values else None


def operation_count(document: dict[str, Any]) -> int:
    return sum(1 for item in (document.get("paths") or {}).values() if isinstance(item, dict)
               for method in HTTP_METHODS if method in item)


def edit_one_field(document: dict[str, Any], mark: str = " (edited)") -> dict[str, Any]:
    """A copy of `document` with one property's description changed (a one-field edit):
    `mark` appended to it."""
    edited = copy.deepcopy(document)
    schemas = (edited.get("components") or {}).get("schemas") or {}
    for name in sorted(schemas):
        properties = schemas[name].get("properties") if isinstance(schemas[name], dict) else None
        if isinstance(properties, dict) and properties:
            prop = properties[sorted(properties)[0]]
            if isinstance(prop, dict) and "$ref" not in prop:
                prop["description"] = str(prop.get("description", "")) + mark
                return edited
    raise ValueError("no schema property to edit")


PROBE_IMPORT = """
import sys, time
start = time.perf_counter()
import {pkg}.models, {pkg}.server, {pkg}.client
print(time.perf_counter() - start)
"""
# The floor of that import: the libraries every generated package imports, alone.
PROBE_DEPENDENCIES = """
import time
start = time.perf_counter()
import pydantic, fastapi, httpx
print(time.perf_counter() - start)
"""
PROBE_APP = """
import time
from {pkg} import ServiceBase, create_app
class Service(ServiceBase):
    pass
start = time.perf_counter()
app = create_app(Service(), verify_bearer=lambda token: True)
print(time.perf_counter() - start, len(app.routes))
"""


def bench_spec(name: str, spec: Path, overlay: Path | None, work: Path, runs: int) -> Figures:
    from contractgen.api import load

    document, _ = load(spec, overlay=overlay)
    plain = json.loads(json.dumps(document.data, default=str))
    figures = Figures(operation_count(plain))
    dotted = any("." in str(schema) for schema in (plain.get("components") or {}).get("schemas")
                 or {})
    peer_spec = work / f"{name}.peer.json"
    peer_spec.write_text(json.dumps(plain))
    edited = work / f"{name}.edited.json"
    edited.write_text(json.dumps(edit_one_field(plain)))
    original = work / f"{name}.json"
    original.write_text(json.dumps(plain))
    pkg = f"gen_{name.replace('-', '_')}"
    out = work / pkg
    base_env = dict(os.environ)
    ours = [str(BIN / "contractgen"), "generate"]
    (work / "pyproject.toml").write_text(
        f'[tool.contractgen]\n[[tool.contractgen.targets]]\nspec = "{original.name}"\n'
        f'out = "{pkg}"\n')
    for index in range(runs):
        cache = work / f"cache-{name}-{index}"
        env = {**base_env, "XDG_CACHE_HOME": str(cache)}
        shutil.rmtree(out, ignore_errors=True)
        # Interleaved: ours cold, then the peer, on the same (overlaid) document.
        cold = run([*ours, str(original), "--out", str(out)], work, env)
        if not cold.ok:
            figures.notes.append(f"generate failed: {cold.stderr.strip()[-300:]}")
            break
        figures.add("cold", cold.seconds)
        figures.add("cold_rss", cold.rss_kib / 1024)
        if index == 0:
            figures.add("tokens", python_tokens(out))
        dm_out = work / "dm_out"
        shutil.rmtree(dm_out, ignore_errors=True)
        dm_out.mkdir()
        if (BIN / "datamodel-codegen").exists():
            # Dotted schema names (Twilio's `api.v2010.account`) make it write a package.
            target = dm_out if dotted else dm_out / "models.py"
            dm = run([str(BIN / "datamodel-codegen"), "--input", str(peer_spec),
                      "--input-file-type", "openapi", "--output-model-type",
                      "pydantic_v2.BaseModel", "--output", str(target)], work, env)
            if dm.ok:
                figures.add("dmcg", dm.seconds)
                figures.add("dmcg_rss", dm.rss_kib / 1024)
                if "dmcg_tokens" not in figures.samples:
                    figures.add("dmcg_tokens", python_tokens(dm_out))
            elif index == 0:
                figures.notes.append(f"datamodel-codegen failed: {dm.stderr.strip()[-200:]}")
        same = run([*ours, str(original), "--out", str(out)], work, env)
        figures.add("regen_same", same.seconds)
        check = run([str(BIN / "contractgen"), "check", "--config", str(work / "pyproject.toml")],
                    work, env)
        if check.ok:
            figures.add("check_same", check.seconds)
        elif index == 0:
            figures.notes.append(f"check failed: {(check.stdout + check.stderr).strip()[-200:]}")
        one = run([*ours, str(edited), "--out", str(out)], work, env)
        figures.add("regen_edit", one.seconds)
        run([*ours, str(original), "--out", str(out)], work, env)  # back to the original
        # From source first: no bytecode beside it, and none written by the probe.
        for cached in out.rglob("__pycache__"):
            shutil.rmtree(cached, ignore_errors=True)
        source = run([sys.executable, "-c", PROBE_IMPORT.format(pkg=pkg)], work,
                     {**env, "PYTHONDONTWRITEBYTECODE": "1"})
        if source.ok:
            figures.add("import_source", float(source.stdout.split()[0]))
        elif index == 0:
            figures.notes.append(f"import from source failed: {source.stderr.strip()[-200:]}")
        # Then as installed (pip compiles on install) or after a project's first import.
        compiled = run([sys.executable, "-m", "compileall", "-q", str(out)], work, env)
        if not compiled.ok and index == 0:
            figures.notes.append(f"compileall failed: {compiled.stderr.strip()[-200:]}")
        imported = run([sys.executable, "-c", PROBE_IMPORT.format(pkg=pkg)], work, env)
        if imported.ok:
            figures.add("import", float(imported.stdout.split()[0]))
        elif index == 0:
            figures.notes.append(f"import failed: {imported.stderr.strip()[-200:]}")
        floor = run([sys.executable, "-c", PROBE_DEPENDENCIES], work, env)
        if floor.ok:
            figures.add("import_dependencies", float(floor.stdout.split()[0]))
        app = run([sys.executable, "-c", PROBE_APP.format(pkg=pkg)], work, env)
        if app.ok:
            figures.add("app", float(app.stdout.split()[0]))
        elif index == 0:
            figures.notes.append(f"create_app failed: {app.stderr.strip()[-200:]}")
        shutil.rmtree(cache, ignore_errors=True)
    if figures.samples.get("cold"):
        watch_env = {**base_env, "XDG_CACHE_HOME": str(work / f"cache-{name}-watch")}
        # Five edits at least: each is cheap, and a median of two is at the machine's mercy.
        watch_edits(figures, plain, original, work / f"{pkg}_watch", runs=max(runs, 5),
                    env=watch_env)
    if name in SEEDS and (BIN / "openapi-python-client").exists():
        for _ in range(runs):
            opc = run([str(BIN / "openapi-python-client"), "generate", "--path", str(peer_spec),
                       "--output-path", str(work / "opc_out"), "--overwrite"], work, base_env)
            if opc.ok:
                figures.add("opc", opc.seconds)
    return figures


WATCH_INTERVAL = "0.02"


def watch_edits(figures: Figures, plain: dict[str, Any], spec: Path, out: Path, *, runs: int,
                env: dict[str, str]) -> None:
    """One-field edits under `contractgen watch` of `spec` (holding `plain`, as it does again
    afterwards): from saving the edited spec to the watch's line reporting the package written
    (so the poll's wait, at most two intervals of WATCH_INTERVAL, is in), each edit new (its own
    mark) so that its block is formatted."""
    import queue
    import signal
    import threading

    shutil.rmtree(out, ignore_errors=True)
    process = subprocess.Popen(
        [str(BIN / "contractgen"), "watch", str(spec), "--out", str(out), "--interval",
         WATCH_INTERVAL], cwd=spec.parent, env={**env, "PYTHONUNBUFFERED": "1"},
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    lines: queue.Queue[str] = queue.Queue()
    assert process.stdout is not None
    threading.Thread(target=lambda: [lines.put(line) for line in process.stdout or ()],
                     daemon=True).start()

    def next_run() -> str:
        while "watching" in (line := lines.get(timeout=600)):
            pass
        return line

    try:
        if "generated" not in next_run():
            figures.notes.append("watch: the first run failed")
            return
        for index in range(runs):
            saving = spec.with_name(spec.name + ".saving")
            saving.write_text(json.dumps(edit_one_field(plain, f" (edited {index})")))
            start = time.perf_counter()
            saving.replace(spec)
            line = next_run()
            if "generated" not in line:
                figures.notes.append(f"watch: {line.strip()}")
                return
            figures.add("watch_edit", time.perf_counter() - start)
    except queue.Empty:
        figures.notes.append("watch: no answer in 10 minutes")
    finally:
        # SIGTERM, not SIGINT: a bench started in the background (nohup, `&`) ignores SIGINT,
        # and so does the watch it starts.
        process.send_signal(signal.SIGTERM)
        process.wait(60)
        spec.write_text(json.dumps(plain))


def python_tokens(folder: Path) -> int:
    """Tokens of the Python a generator wrote under `folder` and formatted with black (for ours,
    not the runtime modules it copies as they are). black's time goes with tokens, not bytes: a
    docstring is one token however long."""
    import io
    import tokenize

    from contractgen.emit.render import (
        CLIENT_VERBATIM,
        HOOKS_VERBATIM,
        MODELS_VERBATIM,
        VERBATIM,
    )

    layout = {tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT,
              tokenize.ENDMARKER, tokenize.COMMENT}
    count = 0
    for path in folder.rglob("*.py"):
        if path.name not in VERBATIM | CLIENT_VERBATIM | MODELS_VERBATIM | HOOKS_VERBATIM:
            source = io.StringIO(path.read_text(encoding="utf-8"))
            count += sum(1 for token in tokenize.generate_tokens(source.readline)
                         if token.type not in layout)
    return count


def ms(value: float | None) -> str:
    return "n/a" if value is None else f"{value * 1000:.0f}ms"


def ratio(ours: float | None, theirs: float | None) -> str:
    return "n/a" if not ours or not theirs else f"{ours / theirs:.2f}x"


def verdict(value: float | None, goal: float) -> str:
    return "n/a" if value is None else "ok" if value <= goal else "over"


def ratio_of(figures: Figures, key: str) -> float | None:
    ours, dm = figures.median(key), figures.median("dmcg")
    return ours / dm if ours and dm else None


def per_operation(figures: Figures, key: str) -> float | None:
    value = figures.median(key)
    return value / figures.operations if value and figures.operations else None


def report(name: str, figures: Figures) -> None:
    m = figures.median
    dm = m("dmcg")

    def versus(key: str) -> str:
        goal = RATIO_GOALS[key]
        return (f"{ms(m(key)):>9}  = {ratio(m(key), dm):>6} of dmcg"
                f"  (goal <= {goal}x: {verdict(ratio_of(figures, key), goal)})")

    ours_op, dm_op = per_operation(figures, "cold"), per_operation(figures, "dmcg")
    print(f"\n{name}: {figures.operations} operations")
    print(f"  cold generate      {ms(m('cold')):>9}  vs dmcg {ms(dm):>9}  = {ratio(m('cold'), dm):>6}"
          f"  (goal <= {RATIO_GOALS['cold']}x: {verdict(ratio_of(figures, 'cold'), RATIO_GOALS['cold'])})")
    print(f"  cold per operation {ours_op * 1000 if ours_op else 0:7.1f}ms  vs dmcg "
          f"{dm_op * 1000 if dm_op else 0:7.1f}ms")
    tokens, dm_tokens = m("tokens"), m("dmcg_tokens")
    if tokens and dm_tokens:
        # Both run black on all they write, and black's time goes with tokens: the cold ratio is
        # how many more tokens we format times the ratio of cold time per token.
        ours_k, dm_k = (m("cold") or 0) / tokens * 1000, (dm or 0) / dm_tokens * 1000
        print(f"  tokens formatted {tokens:9,.0f}  vs dmcg {dm_tokens:9,.0f}  = "
              f"{tokens / dm_tokens:5.1f}x")
        print(f"  cold per 1k tokens {ours_k * 1000:7.1f}ms  vs dmcg {dm_k * 1000:7.1f}ms"
              f"  = {ratio(ours_k, dm_k):>6}")
    print(f"  regen, 1 field     {versus('regen_edit')}")
    print(f"  1 field, watch     {versus('watch_edit')}")
    print(f"  regen, unchanged   {versus('regen_same')}")
    print(f"  check, unchanged   {versus('check_same')}")
    print(f"  import package     {ms(m('import')):>9}  (bytecode present; goal < {IMPORT_GOAL:.0f}s: "
          f"{verdict(m('import'), IMPORT_GOAL)}; pydantic, fastapi and httpx alone "
          f"{ms(m('import_dependencies'))})")
    print(f"  import, no bytecode{ms(m('import_source')):>9}  (compiled from source)")
    print(f"  create_app         {ms(m('app')):>9}  (bytecode present; goal < {APP_GOAL}s: "
          f"{verdict(m('app'), APP_GOAL)})")
    rss, dm_rss = m("cold_rss"), m("dmcg_rss")
    print(f"  peak RSS           {rss or 0:7.0f}MB  vs dmcg {dm_rss or 0:7.0f}MB"
          f"  (goal < {RSS_GOAL_MB / 1024:.0f}GB at {SYNTHETIC_OPERATIONS:,} operations: "
          f"{verdict(rss, RSS_GOAL_MB)})")
    if m("opc"):
        print(f"  openapi-python-client (client only) {ms(m('opc'))}: "
              f"{ratio(m('cold'), m('opc'))}")
    for note in figures.notes:
        print(f"  ! {note}")


def summary(results: dict[str, Figures]) -> None:
    """One row per contract, each figure marked against its goal; then cold time per operation."""
    if not results:
        return

    def cell(value: float | None, goal: float, text: str) -> str:
        return "n/a" if value is None else f"{text} {verdict(value, goal)}"

    def ratio_cell(figures: Figures, key: str) -> str:
        value = ratio_of(figures, key)
        return cell(value, RATIO_GOALS[key], f"{value or 0:.2f}x")

    def volume(figures: Figures) -> str:
        tokens, theirs = figures.median("tokens"), figures.median("dmcg_tokens")
        return f"{tokens / theirs:.1f}x" if tokens and theirs else "n/a"

    header = ("contract", "ops", "cold ms/op", "tokens", "cold/dmcg", "1-field", "watch", "unchanged",
              "check", "import", "create_app", "peak RSS")
    goals = ("", "", "flat", "vs dmcg", f"<= {RATIO_GOALS['cold']}x",
             f"<= {RATIO_GOALS['regen_edit']}x", f"<= {RATIO_GOALS['watch_edit']}x",
             f"<= {RATIO_GOALS['regen_same']}x", f"<= {RATIO_GOALS['check_same']}x",
             f"< {IMPORT_GOAL:.0f}s", f"< {APP_GOAL}s", f"< {RSS_GOAL_MB / 1024:.0f}GB")
    rows = [header, goals]
    for name, figures in results.items():
        m = figures.median
        op = per_operation(figures, "cold")
        rows.append((
            name, str(figures.operations), "n/a" if op is None else f"{op * 1000:.1f}",
            volume(figures), ratio_cell(figures, "cold"), ratio_cell(figures, "regen_edit"),
            ratio_cell(figures, "watch_edit"),
            ratio_cell(figures, "regen_same"), ratio_cell(figures, "check_same"),
            cell(m("import"), IMPORT_GOAL, ms(m("import"))),
            cell(m("app"), APP_GOAL, ms(m("app"))),
            cell(m("cold_rss"), RSS_GOAL_MB, f"{m('cold_rss') or 0:.0f}MB")))
    widths = [max(len(row[i]) for row in rows) for i in range(len(header))]
    print("\nsummary (medians; ratios to datamodel-codegen's cold run):")
    for index, row in enumerate(rows):
        print("  " + "  ".join(text.ljust(width) if i == 0 else text.rjust(width)
                               for i, (text, width) in enumerate(zip(row, widths, strict=True))))
        if index == 1:
            print("  " + "  ".join("-" * width for width in widths))
    # Flatness: the seeds are too small (fixed start-up dominates), so corpus-sized ones only.
    sized = sorted(((figures.operations, name, op) for name, figures in results.items()
                    if name not in SEEDS and (op := per_operation(figures, "cold"))))
    if len(sized) > 1:
        steps = ", ".join(f"{ops} ops {op * 1000:.1f}ms" for ops, _, op in sized)
        print(f"  cold time per operation by size: {steps}; largest/smallest "
              f"{sized[-1][2] / sized[0][2]:.2f}x")
    print(f"  load average at the end {os.getloadavg()[0]:.1f}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5, help="runs per seed contract")
    parser.add_argument("--corpus-runs", type=int, default=3,
                        help=f"runs per corpus contract (and {SYNTHETIC})")
    parser.add_argument("--only", action="append", help="bench only these specs (by name)")
    args = parser.parse_args()
    # An installed wheel has bytecode (pip compiles it); an editable checkout under
    # PYTHONDONTWRITEBYTECODE would recompile the generator on every run instead.
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "generator")], check=True)
    work = Path(tempfile.mkdtemp(prefix="contractgen-bench-"))
    specs: dict[str, tuple[Path, Path | None, int]] = {
        name: (spec, overlay, args.runs) for name, (spec, overlay) in SEEDS.items()}
    if not CORPUS.is_dir():
        print(f"no corpus at {CORPUS}: seeds only")
    for packed in sorted(CORPUS.glob("*.json.gz"), key=lambda p: p.stat().st_size):
        name = packed.name.removesuffix(".json.gz").removesuffix(".openapi")
        target = work / f"{name}.upstream.json"
        target.write_bytes(gzip.decompress(packed.read_bytes()))
        specs[name] = (target, None, args.corpus_runs)
    if CORPUS.is_dir() and (not args.only or SYNTHETIC in args.only):
        target = work / f"{SYNTHETIC}.upstream.json"
        target.write_text(json.dumps(build_synthetic(corpus_sources(CORPUS),
                                                     SYNTHETIC_OPERATIONS)))
        specs[SYNTHETIC] = (target, None, args.corpus_runs)
    floor = statistics.median(run([sys.executable, "-c", "pass"], work).seconds
                              for _ in range(5))
    print(f"floor: python -c pass {ms(floor)}; {os.cpu_count()} cores; "
          f"load average {os.getloadavg()[0]:.1f}")
    results: dict[str, Figures] = {}
    try:
        for name, (spec, overlay, runs) in specs.items():
            if args.only and name not in args.only:
                continue
            spec_work = work / name
            spec_work.mkdir()
            results[name] = bench_spec(name, spec, overlay, spec_work, runs)
            report(name, results[name])
            sys.stdout.flush()
        summary(results)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
