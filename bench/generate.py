"""Benchmark: whole `contractgen generate` runs against peer generators, on the same specs.

Not part of the test suite. Prints medians and ratios, all measured in this one run, on the two
seed contracts, the corpus contracts (`../shared/corpus/*.json.gz` and `*.yaml.gz`: GitHub,
Stripe..., decompressed into a temp
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
- `--parts models`, `--parts server` and `--parts client` against datamodel-codegen's models
  alone (issue 37: each part, and all three, <= 0.5x), and `--parts client` against
  openapi-python-client (client only), each cold and interleaved; our models module's import against
  datamodel-codegen's; and the floor: a bare `python -c pass`.
Every run's CPU time (user + system of the process and the children it waited for: our
validation's fork) is kept beside its wall time, and a closing table gives the CPU ratios to
datamodel-codegen's per part: on a shared machine wall time is mostly waiting for a core.
Each contract's figures are marked against the issues' goals (cold <= 0.5x datamodel-codegen,
`--parts models` <= 0.3x, `--parts client` <= 0.3x openapi-python-client, one-field regenerate
<= 0.15x, under watch <= 0.05x, unchanged regenerate and check <= 0.1x, import < 1 s, the models
module's import no slower than datamodel-codegen's, create_app < 0.5 s, peak RSS < 1 GB), and a closing table sums them up with cold time per operation, which
should stay flat as contracts grow.
Run: `make bench` or `.venv/bin/python bench/generate.py [--runs N] [--corpus-runs N] [--only X]
[--contract NAME=PATH]`.
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
# Issue 29's goals per part: all three parts and `--parts models` against datamodel-codegen's
# models, `--parts client` against openapi-python-client's client, the models module's import
# against datamodel-codegen's models module.
RATIO_GOALS = {"cold": 0.5, "regen_edit": 0.15, "regen_same": 0.1, "check_same": 0.1,
               "watch_edit": 0.05, "models": 0.3, "server": 0.5, "client": 0.5}
CLIENT_GOAL, MODELS_IMPORT_GOAL = 0.3, 1.0
IMPORT_GOAL, APP_GOAL, RSS_GOAL_MB = 1.0, 0.5, 1024.0


@dataclass
class Run:
    """Wall time (s), CPU time (user + system, s) and peak RSS (KiB) of one child process (and
    the children it waited for: our validation's fork)."""

    seconds: float
    rss_kib: int
    ok: bool
    stdout: str
    stderr: str
    cpu: float = 0.0


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
               chunks["out"].decode(), chunks["err"].decode(), usage.ru_utime + usage.ru_stime)


@dataclass
class Figures:
    """Samples per measurement of one spec."""

    operations: int
    samples: dict[str, list[float]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    def add(self, key: str, value: float) -> None:
        self.samples.setdefault(key, []).append(value)

    def timed(self, key: str, result: Run) -> None:
        """`result`'s wall time as `key`, its CPU time as `key`_cpu."""
        self.add(key, result.seconds)
        self.add(f"{key}_cpu", result.cpu)

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
# A module, or a package with every module in it (datamodel-codegen writes one per dotted name).
PROBE_MODULE = """
import importlib, pkgutil, sys, time
sys.path.insert(0, {folder!r})
start = time.perf_counter()
module = importlib.import_module({module!r})
for info in pkgutil.walk_packages(getattr(module, "__path__", []), module.__name__ + "."):
    importlib.import_module(info.name)
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


@dataclass
class Bench:
    """One contract's files in the bench's folder, and the commands run on them."""

    name: str
    work: Path
    original: Path  # the contract as loaded (overlay applied), JSON
    edited: Path  # the same with one property's description changed
    peer_spec: Path  # what the peers read (the same document)
    dotted: bool  # dotted schema names: datamodel-codegen writes a package

    @property
    def pkg(self) -> str:
        return f"gen_{self.name.replace('-', '_')}"

    @property
    def out(self) -> Path:
        return self.work / self.pkg

    def ours(self, spec: Path, out: Path, *parts: str) -> list[str]:
        extra = ["--parts", ",".join(parts)] if parts else []
        return [str(BIN / "contractgen"), "generate", str(spec), "--out", str(out), *extra]


def prepare(name: str, spec: Path, overlay: Path | None, work: Path) -> tuple[Bench, Figures]:
    from contractgen.api import load

    document, _ = load(spec, overlay=overlay)
    plain = json.loads(json.dumps(document.data, default=str))
    dotted = any("." in str(schema) for schema in (plain.get("components") or {}).get("schemas")
                 or {})
    bench = Bench(name, work, work / f"{name}.json", work / f"{name}.edited.json",
                  work / f"{name}.peer.json", dotted)
    for path, data in ((bench.peer_spec, plain), (bench.original, plain),
                       (bench.edited, edit_one_field(plain))):
        path.write_text(json.dumps(data))
    (work / "pyproject.toml").write_text(
        f'[tool.contractgen]\n[[tool.contractgen.targets]]\nspec = "{bench.original.name}"\n'
        f'out = "{bench.pkg}"\n')
    return bench, Figures(operation_count(plain))


def bench_spec(name: str, spec: Path, overlay: Path | None, work: Path, runs: int) -> Figures:
    bench, figures = prepare(name, spec, overlay, work)
    for index in range(runs):
        cache = work / f"cache-{name}-{index}"
        env = {**os.environ, "XDG_CACHE_HOME": str(cache)}
        shutil.rmtree(bench.out, ignore_errors=True)
        # Interleaved: ours cold, then the peers, on the same (overlaid) document.
        cold = run(bench.ours(bench.original, bench.out), work, env)
        if not cold.ok:
            figures.notes.append(f"generate failed: {cold.stderr.strip()[-300:]}")
            break
        figures.timed("cold", cold)
        figures.add("cold_rss", cold.rss_kib / 1024)
        if index == 0:
            figures.add("tokens", python_tokens(bench.out))
        cold_parts(bench, figures, index, env)
        regenerations(bench, figures, index, env)
        imports(bench, figures, index, env)
        shutil.rmtree(cache, ignore_errors=True)
    if figures.samples.get("cold"):
        watch_env = {**os.environ, "XDG_CACHE_HOME": str(work / f"cache-{name}-watch")}
        # Five edits at least: each is cheap, and a median of two is at the machine's mercy.
        watch_edits(figures, json.loads(bench.original.read_text()), bench.original,
                    work / f"{bench.pkg}_watch", runs=max(runs, 5), env=watch_env)
    return figures


def note_failure(figures: Figures, index: int, what: str, result: Run) -> None:
    if index == 0:
        figures.notes.append(f"{what} failed: {(result.stdout + result.stderr).strip()[-200:]}")


def cold_parts(bench: Bench, figures: Figures, index: int, env: dict[str, str]) -> None:
    """datamodel-codegen against all three parts and `--parts models`; openapi-python-client
    against `--parts client`: each cold (the cache of this run is empty but for the first run's
    entries, so ours run each part into a cache of its own)."""
    work = bench.work
    dm_out = work / "dm_out"
    shutil.rmtree(dm_out, ignore_errors=True)
    dm_out.mkdir()
    if (BIN / "datamodel-codegen").exists():
        target = dm_out if bench.dotted else dm_out / "models.py"
        dm = run([str(BIN / "datamodel-codegen"), "--input", str(bench.peer_spec),
                  "--input-file-type", "openapi", "--output-model-type",
                  "pydantic_v2.BaseModel", "--output", str(target)], work, env)
        if dm.ok:
            figures.timed("dmcg", dm)
            figures.add("dmcg_rss", dm.rss_kib / 1024)
            if "dmcg_tokens" not in figures.samples:
                figures.add("dmcg_tokens", python_tokens(dm_out))
        else:
            note_failure(figures, index, "datamodel-codegen", dm)
    for part in ("models", "server", "client"):
        out = work / f"{bench.pkg}_{part}"
        shutil.rmtree(out, ignore_errors=True)
        part_env = {**env, "XDG_CACHE_HOME": str(work / f"cache-{part}-{index}")}
        alone = run(bench.ours(bench.original, out, part), work, part_env)
        if alone.ok:
            figures.timed(part, alone)
        else:
            note_failure(figures, index, f"--parts {part}", alone)
        shutil.rmtree(work / f"cache-{part}-{index}", ignore_errors=True)
    if (BIN / "openapi-python-client").exists():
        opc = run([str(BIN / "openapi-python-client"), "generate", "--path",
                   str(bench.peer_spec), "--output-path", str(work / "opc_out"), "--overwrite"],
                  work, env)
        if opc.ok:
            figures.timed("opc", opc)
        else:
            note_failure(figures, index, "openapi-python-client", opc)


def regenerations(bench: Bench, figures: Figures, index: int, env: dict[str, str]) -> None:
    """Regenerating and `check` of the unchanged contract, then after a one-field edit."""
    work = bench.work
    same = run(bench.ours(bench.original, bench.out), work, env)
    figures.timed("regen_same", same)
    check = run([str(BIN / "contractgen"), "check", "--config", str(work / "pyproject.toml")],
                work, env)
    if check.ok:
        figures.timed("check_same", check)
    else:
        note_failure(figures, index, "check", check)
    one = run(bench.ours(bench.edited, bench.out), work, env)
    figures.timed("regen_edit", one)
    run(bench.ours(bench.original, bench.out), work, env)  # back to the original


def imports(bench: Bench, figures: Figures, index: int, env: dict[str, str]) -> None:
    """The package's import from source, then with bytecode (as installed), its floor, its
    models module beside datamodel-codegen's, and `create_app`."""
    work, out, pkg = bench.work, bench.out, bench.pkg
    # From source first: no bytecode beside it, and none written by the probe.
    for cached in out.rglob("__pycache__"):
        shutil.rmtree(cached, ignore_errors=True)
    source = run([sys.executable, "-c", PROBE_IMPORT.format(pkg=pkg)], work,
                 {**env, "PYTHONDONTWRITEBYTECODE": "1"})
    probes = [("import_source", source)]
    # Then as installed (pip compiles on install) or after a project's first import.
    for folder in (out, work / "dm_out"):
        run([sys.executable, "-m", "compileall", "-q", str(folder)], work, env)
    probes += [
        ("import", run([sys.executable, "-c", PROBE_IMPORT.format(pkg=pkg)], work, env)),
        ("import_dependencies", run([sys.executable, "-c", PROBE_DEPENDENCIES], work, env)),
        ("import_models", run([sys.executable, "-c", PROBE_MODULE.format(
            folder=str(work), module=f"{pkg}.models")], work, env)),
        ("app", run([sys.executable, "-c", PROBE_APP.format(pkg=pkg)], work, env))]
    if "dmcg" in figures.samples:
        # Dotted schema names made it write a package (dm_out/__init__.py and submodules).
        folder, module = (work, "dm_out") if bench.dotted else (work / "dm_out", "models")
        probes.append(("dmcg_import", run([sys.executable, "-c", PROBE_MODULE.format(
            folder=str(folder), module=module)], work, env)))
    for key, result in probes:
        if result.ok:
            figures.add(key, float(result.stdout.split()[0]))
        else:
            note_failure(figures, index, key, result)


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


def ratio_of(figures: Figures, key: str, cpu: bool = False) -> float | None:
    """The median of `key` over datamodel-codegen's cold run: wall times, or (`cpu`) CPU times."""
    suffix = "_cpu" if cpu else ""
    ours, dm = figures.median(key + suffix), figures.median("dmcg" + suffix)
    return ours / dm if ours and dm else None


def cpu_beside(figures: Figures, key: str) -> str:
    """`key`'s CPU time (user + system) and its ratio to datamodel-codegen's: what a loaded
    machine measures fairly, where wall time is mostly waiting for a core."""
    value, goal = ratio_of(figures, key, cpu=True), RATIO_GOALS[key]
    return (f"  cpu {ms(figures.median(key + '_cpu')):>8} = "
            f"{'n/a' if value is None else f'{value:.2f}x'} ({verdict(value, goal)})")


def per_operation(figures: Figures, key: str) -> float | None:
    value = figures.median(key)
    return value / figures.operations if value and figures.operations else None


def report(name: str, figures: Figures) -> None:
    m = figures.median
    dm = m("dmcg")

    def versus(key: str) -> str:
        goal = RATIO_GOALS[key]
        return (f"{ms(m(key)):>9}  = {ratio(m(key), dm):>6} of dmcg"
                f"  (goal <= {goal}x: {verdict(ratio_of(figures, key), goal)})"
                + (cpu_beside(figures, key) if f"{key}_cpu" in figures.samples else ""))

    ours_op, dm_op = per_operation(figures, "cold"), per_operation(figures, "dmcg")
    print(f"\n{name}: {figures.operations} operations")
    print(f"  cold generate      {ms(m('cold')):>9}  vs dmcg {ms(dm):>9}  = {ratio(m('cold'), dm):>6}"
          f"  (goal <= {RATIO_GOALS['cold']}x: {verdict(ratio_of(figures, 'cold'), RATIO_GOALS['cold'])})"
          f"{cpu_beside(figures, 'cold')}; dmcg cpu {ms(m('dmcg_cpu'))}")
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
    print(f"  --parts models     {versus('models')}")
    print(f"  --parts server     {versus('server')}")
    print(f"  --parts client     {versus('client')}")
    client, opc = m("client"), m("opc")
    print(f"  --parts client     {ms(client):>9}  = {ratio(client, opc):>6} of "
          f"openapi-python-client {ms(opc)}  (goal <= {CLIENT_GOAL}x: "
          f"{verdict(client / opc if client and opc else None, CLIENT_GOAL)})")
    print(f"  regen, 1 field     {versus('regen_edit')}")
    print(f"  1 field, watch     {versus('watch_edit')}")
    print(f"  regen, unchanged   {versus('regen_same')}")
    print(f"  check, unchanged   {versus('check_same')}")
    print(f"  import package     {ms(m('import')):>9}  (bytecode present; goal < {IMPORT_GOAL:.0f}s: "
          f"{verdict(m('import'), IMPORT_GOAL)}; pydantic, fastapi and httpx alone "
          f"{ms(m('import_dependencies'))})")
    print(f"  import, no bytecode{ms(m('import_source')):>9}  (compiled from source)")
    ours_models, dm_models = m("import_models"), m("dmcg_import")
    print(f"  import models      {ms(ours_models):>9}  vs dmcg's models {ms(dm_models)}  = "
          f"{ratio(ours_models, dm_models)}  (goal <= {MODELS_IMPORT_GOAL}x: "
          f"{verdict(ours_models / dm_models if ours_models and dm_models else None, 1.0)})")
    print(f"  create_app         {ms(m('app')):>9}  (bytecode present; goal < {APP_GOAL}s: "
          f"{verdict(m('app'), APP_GOAL)})")
    rss, dm_rss = m("cold_rss"), m("dmcg_rss")
    print(f"  peak RSS           {rss or 0:7.0f}MB  vs dmcg {dm_rss or 0:7.0f}MB"
          f"  (goal < {RSS_GOAL_MB / 1024:.0f}GB at {SYNTHETIC_OPERATIONS:,} operations: "
          f"{verdict(rss, RSS_GOAL_MB)})")
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

    def versus(figures: Figures, key: str, peer: str, goal: float) -> str:
        ours, theirs = figures.median(key), figures.median(peer)
        return cell(ours / theirs if ours and theirs else None, goal,
                    f"{ours / theirs:.2f}x" if ours and theirs else "")

    header = ("contract", "ops", "cold ms/op", "tokens", "cold/dmcg", "models/dmcg",
              "client/opc", "1-field", "watch", "unchanged", "check", "import",
              "models import/dmcg", "create_app", "peak RSS")
    goals = ("", "", "flat", "vs dmcg", f"<= {RATIO_GOALS['cold']}x",
             f"<= {RATIO_GOALS['models']}x", f"<= {CLIENT_GOAL}x",
             f"<= {RATIO_GOALS['regen_edit']}x", f"<= {RATIO_GOALS['watch_edit']}x",
             f"<= {RATIO_GOALS['regen_same']}x", f"<= {RATIO_GOALS['check_same']}x",
             f"< {IMPORT_GOAL:.0f}s", f"<= {MODELS_IMPORT_GOAL}x", f"< {APP_GOAL}s",
             f"< {RSS_GOAL_MB / 1024:.0f}GB")
    rows = [header, goals]
    for name, figures in results.items():
        m = figures.median
        op = per_operation(figures, "cold")
        rows.append((
            name, str(figures.operations), "n/a" if op is None else f"{op * 1000:.1f}",
            volume(figures), ratio_cell(figures, "cold"), ratio_cell(figures, "models"),
            versus(figures, "client", "opc", CLIENT_GOAL), ratio_cell(figures, "regen_edit"),
            ratio_cell(figures, "watch_edit"),
            ratio_cell(figures, "regen_same"), ratio_cell(figures, "check_same"),
            cell(m("import"), IMPORT_GOAL, ms(m("import"))),
            versus(figures, "import_models", "dmcg_import", MODELS_IMPORT_GOAL),
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
    cpu_summary(results)


def cpu_summary(results: dict[str, Figures]) -> None:
    """CPU time (user + system of each process and the children it waited for) against
    datamodel-codegen's, per part: on a shared machine wall time is mostly waiting for a core."""
    keys = ("cold", "models", "server", "client", "regen_edit", "regen_same")
    header = ("contract", "ops", "dmcg cpu", "cold cpu", "cpu ms/op",
              *(f"{key}/dmcg" for key in keys))
    rows = [header, ("", "", "", "", "flat", *(f"<= {RATIO_GOALS[key]}x" for key in keys))]
    for name, figures in results.items():
        op = per_operation(figures, "cold_cpu")
        cells = []
        for key in keys:
            value = ratio_of(figures, key, cpu=True)
            cells.append("n/a" if value is None else
                         f"{value:.2f}x {verdict(value, RATIO_GOALS[key])}")
        rows.append((name, str(figures.operations), ms(figures.median("dmcg_cpu")),
                     ms(figures.median("cold_cpu")), "n/a" if op is None else f"{op * 1000:.1f}",
                     *cells))
    widths = [max(len(row[i]) for row in rows) for i in range(len(header))]
    print("\nCPU time (user + system; medians; ratios to datamodel-codegen's CPU time):")
    for index, row in enumerate(rows):
        print("  " + "  ".join(text.ljust(width) if i == 0 else text.rjust(width)
                               for i, (text, width) in enumerate(zip(row, widths, strict=True))))
        if index == 1:
            print("  " + "  ".join("-" * width for width in widths))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5, help="runs per seed contract")
    parser.add_argument("--corpus-runs", type=int, default=3,
                        help=f"runs per corpus contract (and {SYNTHETIC})")
    parser.add_argument("--only", action="append", help="bench only these specs (by name)")
    parser.add_argument("--contract", action="append", default=[], metavar="NAME=PATH",
                        help="bench this contract too (e.g. discord=openapi.json from the "
                             "discord/discord-api-spec repository; never committed)")
    args = parser.parse_args()
    # An installed wheel has bytecode (pip compiles it); an editable checkout under
    # PYTHONDONTWRITEBYTECODE would recompile the generator on every run instead.
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "generator")], check=True)
    work = Path(tempfile.mkdtemp(prefix="contractgen-bench-"))
    specs: dict[str, tuple[Path, Path | None, int]] = {
        name: (spec, overlay, args.runs) for name, (spec, overlay) in SEEDS.items()}
    if not CORPUS.is_dir():
        print(f"no corpus at {CORPUS}: seeds only")
    packs = [*CORPUS.glob("*.json.gz"), *CORPUS.glob("*.yaml.gz")]
    for packed in sorted(packs, key=lambda p: p.stat().st_size):
        kind = ".yaml" if packed.name.endswith(".yaml.gz") else ".json"
        name = packed.name.removesuffix(f"{kind}.gz").removesuffix(".openapi")
        target = work / f"{name}.upstream{kind}"
        target.write_bytes(gzip.decompress(packed.read_bytes()))
        specs[name] = (target, None, args.corpus_runs)
    for extra in args.contract:
        name, _, path = extra.partition("=")
        specs[name] = (Path(path).resolve(), None, args.corpus_runs)
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
