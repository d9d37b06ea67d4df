"""Benchmark: whole `contractgen generate` runs against peer generators, on the same specs.

Not part of the test suite. Prints medians and ratios, all measured in this one run, on the two
seed contracts and the corpus contracts (`../shared/corpus/*.json.gz`, decompressed into a temp
folder, never into the repository):
- cold `generate` (models + server + client, validated, formatted) into an empty directory with
  an empty formatting cache, interleaved with datamodel-codegen (models only) on the same file,
  and their peak RSS;
- regenerating after a one-field change (one property description edited in a copy of the spec);
- regenerating, and `check`, of an unchanged contract;
- importing the generated package, and building its app (`create_app` of a trivial subclass),
  each timed inside a fresh interpreter;
- openapi-python-client (client only) on the seeds, and the floor: a bare `python -c pass`.
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


def edit_one_field(document: dict[str, Any]) -> dict[str, Any]:
    """A copy of `document` with one property's description changed (a one-field edit)."""
    edited = copy.deepcopy(document)
    schemas = (edited.get("components") or {}).get("schemas") or {}
    for name in sorted(schemas):
        properties = schemas[name].get("properties") if isinstance(schemas[name], dict) else None
        if isinstance(properties, dict) and properties:
            prop = properties[sorted(properties)[0]]
            if isinstance(prop, dict) and "$ref" not in prop:
                prop["description"] = str(prop.get("description", "")) + " (edited)"
                return edited
    raise ValueError("no schema property to edit")


PROBE_IMPORT = """
import sys, time
start = time.perf_counter()
import {pkg}.models, {pkg}.server, {pkg}.client
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
        dm_out = work / "dm_out"
        shutil.rmtree(dm_out, ignore_errors=True)
        dm_out.mkdir()
        if (BIN / "datamodel-codegen").exists():
            # Dotted schema names (Twilio's `api.v2010.account`) make it write a package.
            target = dm_out if name.startswith("twilio") else dm_out / "models.py"
            dm = run([str(BIN / "datamodel-codegen"), "--input", str(peer_spec),
                      "--input-file-type", "openapi", "--output-model-type",
                      "pydantic_v2.BaseModel", "--output", str(target)], work, env)
            if dm.ok:
                figures.add("dmcg", dm.seconds)
                figures.add("dmcg_rss", dm.rss_kib / 1024)
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
        imported = run([sys.executable, "-c", PROBE_IMPORT.format(pkg=pkg)], work, env)
        if imported.ok:
            figures.add("import", float(imported.stdout.split()[0]))
        elif index == 0:
            figures.notes.append(f"import failed: {imported.stderr.strip()[-200:]}")
        app = run([sys.executable, "-c", PROBE_APP.format(pkg=pkg)], work, env)
        if app.ok:
            figures.add("app", float(app.stdout.split()[0]))
        elif index == 0:
            figures.notes.append(f"create_app failed: {app.stderr.strip()[-200:]}")
        shutil.rmtree(cache, ignore_errors=True)
    if name in SEEDS and (BIN / "openapi-python-client").exists():
        for _ in range(runs):
            opc = run([str(BIN / "openapi-python-client"), "generate", "--path", str(peer_spec),
                       "--output-path", str(work / "opc_out"), "--overwrite"], work, base_env)
            if opc.ok:
                figures.add("opc", opc.seconds)
    return figures


def ms(value: float | None) -> str:
    return "n/a" if value is None else f"{value * 1000:.0f}ms"


def ratio(ours: float | None, theirs: float | None) -> str:
    return "n/a" if not ours or not theirs else f"{ours / theirs:.2f}x"


def report(name: str, figures: Figures) -> None:
    m = figures.median
    dm = m("dmcg")
    ops = figures.operations
    per_op = f"{m('cold') / ops * 1000:.1f}ms/op" if m("cold") and ops else "n/a"
    print(f"\n{name}: {ops} operations")
    print(f"  cold generate      {ms(m('cold')):>9}  vs dmcg {ms(dm):>9}  = {ratio(m('cold'), dm):>6}"
          f"  ({per_op}; dmcg {m('dmcg') / ops * 1000 if dm and ops else 0:.1f}ms/op)")
    print(f"  regen, 1 field     {ms(m('regen_edit')):>9}  = {ratio(m('regen_edit'), dm):>6} of dmcg")
    print(f"  regen, unchanged   {ms(m('regen_same')):>9}  = {ratio(m('regen_same'), dm):>6} of dmcg")
    print(f"  check, unchanged   {ms(m('check_same')):>9}  = {ratio(m('check_same'), dm):>6} of dmcg")
    print(f"  import package     {ms(m('import')):>9}")
    print(f"  create_app         {ms(m('app')):>9}")
    rss, dm_rss = m("cold_rss"), m("dmcg_rss")
    print(f"  peak RSS           {rss or 0:8.0f}MB  vs dmcg {dm_rss or 0:6.0f}MB")
    if m("opc"):
        print(f"  openapi-python-client (client only) {ms(m('opc'))}: "
              f"{ratio(m('cold'), m('opc'))}")
    for note in figures.notes:
        print(f"  ! {note}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5, help="runs per seed contract")
    parser.add_argument("--corpus-runs", type=int, default=3, help="runs per corpus contract")
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
    floor = statistics.median(run([sys.executable, "-c", "pass"], work).seconds
                              for _ in range(5))
    print(f"floor: python -c pass {ms(floor)}; {os.cpu_count()} cores; "
          f"load average {os.getloadavg()[0]:.1f}")
    try:
        for name, (spec, overlay, runs) in specs.items():
            if args.only and name not in args.only:
                continue
            spec_work = work / name
            spec_work.mkdir()
            report(name, bench_spec(name, spec, overlay, spec_work, runs))
            sys.stdout.flush()
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
