"""Does each speed layer around the pipeline still pay? (issue 29)

For each contract, each configuration (every layer on; one layer off at a time) and each round,
interleaved: a cold `contractgen generate` (empty cache, new output folder) in a fresh process,
then, the cache as that run left it, a one-field edit (one property's description, as
`bench/generate.py` edits) in another fresh process. Each process's wall time and CPU time (its
own and its forked child's: steadier than wall time on a busy machine) are measured, and it
reports how long formatting took (black's cost, which the black-layout emitter takes to ~0), so
a layer's saving can be judged against a run without black. Layers switched off here:
- `fork`: validation in a forked child beside building the IR and rendering (inline instead);
- `memo`: server.py's and client.py's text reused after a model-only edit (`emit.memo`);
- `verdicts`: the validation verdict cache (`spec.verdicts`);
- `gc`: the garbage collector's raised threshold around a run (`pipeline.fewer_collections`).
`--stages` prints the CPU time of each stage with and without each cache instead, and
`--edits N` a series of N one-field edits per configuration (interleaved) after one cold run.
Run: `.venv/bin/python bench/layers.py [--rounds 3] [--stages | --edits N] [--off LAYER]
[spec.json ...]`
(default: Twilio 2010, Box from /tmp/corpus).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from generate import edit_one_field

CONFIGS = ("all", "fork", "memo", "verdicts", "gc")  # "fork" = every layer but the fork, ...
DEFAULT = [Path("/tmp/corpus/twilio-api-v2010.openapi.json"), Path("/tmp/corpus/box.openapi.json")]

# Runs `contractgen generate SPEC --out OUT` with the layer named by argv[1] switched off;
# prints {"seconds": in-process time, "format": time in format_package less its wait for the
# validation verdict}.
PROBE = """
import json, sys, time
off = sys.argv[1]
from contractgen import cache
from contractgen.emit import formatting
get = cache.TextCache.get
if off in ("memo", "verdicts"):
    prefix = {"memo": "rendered-", "verdicts": "verdicts-"}[off]
    cache.TextCache.get = lambda self, key: None if self.namespace.startswith(prefix) else get(self, key)
if off == "gc":
    import contextlib
    from contractgen import pipeline
    pipeline.fewer_collections = contextlib.nullcontext
if off == "fork":
    try:
        from contractgen import verdict
        verdict.FORK = False
    except ImportError:  # before verdict.py
        from contractgen import api
        from contractgen.spec.validate import validate_document
        api._start_validation = lambda d: api._Validation(d, problems=validate_document(d))
spent = {"format": 0.0, "wait": 0.0}
real = formatting.format_package
def timed(sources, verbatim=frozenset(), ready=None, **keywords):
    def waiting():
        start = time.perf_counter()
        try:
            if ready is not None:
                ready()
        finally:
            spent["wait"] += time.perf_counter() - start
    start = time.perf_counter()
    try:
        return real(sources, verbatim, waiting, **keywords)
    finally:
        spent["format"] += time.perf_counter() - start
formatting.format_package = timed
from contractgen.cli import main
start = time.perf_counter()
code = main(["generate", sys.argv[2], "--out", sys.argv[3]])
seconds = time.perf_counter() - start
print(json.dumps({"code": code, "seconds": seconds, "format": spent["format"] - spent["wait"]}))
"""


# The work each layer saves, as CPU time of this one process (steadier than wall time on a busy
# machine): prints {stage: seconds}. argv: original spec, edited spec.
STAGES = """
import json, os, sys, time
from contractgen import pipeline
from contractgen.options import Options
from contractgen.spec.inputs import Inputs
from contractgen.spec.validate import validate_document
options, found = Options(), {}
def timed(name, call):
    start = time.process_time()
    value = call()
    found[name] = time.process_time() - start
    return value
def stages(spec, tag):
    inputs = timed(f"{tag} read", lambda: Inputs.read(spec))
    document, _ = timed(f"{tag} load", lambda: pipeline.load(inputs, options))
    os.environ["CONTRACTGEN_NO_CACHE"] = "1"
    timed(f"{tag} validate, no verdict cache", lambda: validate_document(document))
    api = timed(f"{tag} IR", lambda: pipeline.build(document, options))
    timed(f"{tag} render, no memo", lambda: pipeline.render(api, options))
    del os.environ["CONTRACTGEN_NO_CACHE"]
    timed(f"{tag} validate", lambda: validate_document(document))
    timed(f"{tag} render", lambda: pipeline.render(api, options))
stages(sys.argv[1], "cold")  # fills the caches (and warms the imports)
stages(sys.argv[1], "same")
stages(sys.argv[2], "edit")
print(json.dumps(found))
"""


def stage_costs(original: Path, edited: Path, cache: Path) -> dict[str, float]:
    shutil.rmtree(cache, ignore_errors=True)
    done = subprocess.run([sys.executable, "-c", STAGES, str(original), str(edited)],
                          capture_output=True, text=True, check=True,
                          env={**os.environ, "XDG_CACHE_HOME": str(cache)})
    found: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return found


def one(off: str, spec: Path, out: Path, cache: Path) -> dict[str, float]:
    start, used = time.perf_counter(), resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run([sys.executable, "-c", PROBE, off, str(spec), str(out)],
                          capture_output=True, text=True, check=False,
                          env={**os.environ, "XDG_CACHE_HOME": str(cache)})
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - used.ru_utime - used.ru_stime
    if done.returncode != 0:
        raise SystemExit(f"{off} {spec}: {done.stderr[-2000:]}")
    found = json.loads(done.stdout.strip().splitlines()[-1])
    return {"wall": wall, "cpu": cpu, "format": found["format"], "rest": wall - found["format"]}


def edit_series(plain: dict[str, object], work: Path, edits: int, configs: tuple[str, ...]
                ) -> None:
    """Each configuration cold once, then `edits` one-field edits (each new, so none is
    replayed) interleaved across the configurations; medians of wall and wall - format."""
    spec = work / "api.json"
    spec.write_text(json.dumps(plain))
    for off in configs:
        shutil.rmtree(work / f"cache-{off}", ignore_errors=True)
        shutil.rmtree(work / f"out-{off}", ignore_errors=True)
        one(off, spec, work / f"out-{off}", work / f"cache-{off}")
    samples: dict[str, list[tuple[float, float]]] = {}
    for index in range(edits):
        edited = work / f"edited-{index}.json"
        edited.write_text(json.dumps(edit_one_field(plain, f" (edited {index})")))
        for off in configs:
            found = one(off, edited, work / f"out-{off}", work / f"cache-{off}")
            samples.setdefault(off, []).append((found["wall"], found["rest"]))
    print(f"one-field edits, medians of {edits} (seconds: wall / wall - format)")
    for off, values in samples.items():
        label = "all layers" if off == "all" else f"without {off}"
        print(f"  {label:18} {statistics.median(v[0] for v in values):6.2f} "
              f"{statistics.median(v[1] for v in values):6.2f}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--stages", action="store_true", help="CPU time per stage instead")
    parser.add_argument("--edits", type=int, default=0, help="a series of one-field edits instead")
    parser.add_argument("--off", action="append", choices=CONFIGS[1:],
                        help="compare only with these layers off (default: each)")
    parser.add_argument("specs", nargs="*", type=Path, default=DEFAULT)
    args = parser.parse_args()
    configs = ("all", *(args.off or CONFIGS[1:]))
    with tempfile.TemporaryDirectory() as temp:
        work = Path(temp)
        for spec in args.specs:
            plain = json.loads(spec.read_text(encoding="utf-8"))
            original, edited = work / "api.json", work / "edited.json"
            original.write_text(json.dumps(plain))
            edited.write_text(json.dumps(edit_one_field(plain)))
            samples: dict[tuple[str, str, str], list[float]] = {}
            if args.edits:
                print(spec.name)
                edit_series(plain, work, args.edits, configs)
                continue
            if args.stages:
                costs: dict[str, list[float]] = {}
                for _ in range(args.rounds):
                    for key, value in stage_costs(original, edited, work / "cache").items():
                        costs.setdefault(key, []).append(value)
                print(f"{spec.name} (CPU seconds, medians of {args.rounds})")
                for key, values in costs.items():
                    print(f"  {key:40} {statistics.median(values):6.3f}")
                continue
            for _ in range(args.rounds):
                for off in configs:
                    cache, out = work / "cache", work / "out"
                    shutil.rmtree(cache, ignore_errors=True)
                    shutil.rmtree(out, ignore_errors=True)
                    for kind, source in (("cold", original), ("edit", edited)):
                        for key, value in one(off, source, out, cache).items():
                            samples.setdefault((kind, off, key), []).append(value)
            print(f"{spec.name} (medians of {args.rounds}; seconds: wall / CPU (the process and"
                  f" its children) / format / wall - format; load average {os.getloadavg()[0]:.1f})")
            for kind in ("cold", "edit"):
                for off in configs:
                    wall, cpu, fmt, rest = (statistics.median(samples[(kind, off, key)])
                                            for key in ("wall", "cpu", "format", "rest"))
                    label = "all layers" if off == "all" else f"without {off}"
                    print(f"  {kind:5} {label:18} {wall:6.2f} {cpu:6.2f} {fmt:6.2f} {rest:6.2f}")


if __name__ == "__main__":
    main()
