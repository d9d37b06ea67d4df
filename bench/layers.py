"""Does each speed layer around the pipeline still pay? (issue 29)

For each contract, each configuration (every layer on; one layer off at a time) and each round,
interleaved: a cold `contractgen generate` (empty cache, new output folder) in a fresh process,
then, the cache as that run left it, a one-field edit (one property's description, as
`bench/generate.py` edits) in another fresh process. Each process reports its own wall time and
how long formatting took (black's cost, which the black-layout emitter takes to ~0), so a
layer's saving can be judged against a run without black. Layers switched off here:
- `fork`: validation in a forked child beside building the IR and rendering (inline instead);
- `memo`: server.py's and client.py's text reused after a model-only edit (`emit.memo`);
- `verdicts`: the validation verdict cache (`spec.verdicts`).
Run: `.venv/bin/python bench/layers.py [--rounds 3] [spec.json ...]` (default: Twilio 2010, Box
from /tmp/corpus).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from generate import edit_one_field

CONFIGS = ("all", "fork", "memo", "verdicts")  # "fork" = every layer but the fork, ...
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
if off == "fork":
    try:
        from contractgen import pipeline
        pipeline.FORK_VALIDATION = False
    except ImportError:  # before the pipeline module
        from contractgen import api
        from contractgen.spec.validate import validate_document
        api._start_validation = lambda d: api._Validation(d, problems=validate_document(d))
spent = {"format": 0.0, "wait": 0.0}
real = formatting.format_package
def timed(sources, previous, verbatim=frozenset(), ready=None):
    def waiting():
        start = time.perf_counter()
        try:
            if ready is not None:
                ready()
        finally:
            spent["wait"] += time.perf_counter() - start
    start = time.perf_counter()
    try:
        return real(sources, previous, verbatim, waiting)
    finally:
        spent["format"] += time.perf_counter() - start
formatting.format_package = timed
from contractgen.cli import main
start = time.perf_counter()
code = main(["generate", sys.argv[2], "--out", sys.argv[3]])
seconds = time.perf_counter() - start
print(json.dumps({"code": code, "seconds": seconds, "format": spent["format"] - spent["wait"]}))
"""


def one(off: str, spec: Path, out: Path, cache: Path) -> dict[str, float]:
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", PROBE, off, str(spec), str(out)],
                          capture_output=True, text=True, check=False,
                          env={**os.environ, "XDG_CACHE_HOME": str(cache)})
    wall = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{off} {spec}: {done.stderr[-2000:]}")
    found = json.loads(done.stdout.strip().splitlines()[-1])
    return {"wall": wall, "format": found["format"], "rest": wall - found["format"]}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("specs", nargs="*", type=Path, default=DEFAULT)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as temp:
        work = Path(temp)
        for spec in args.specs:
            plain = json.loads(spec.read_text(encoding="utf-8"))
            original, edited = work / "api.json", work / "edited.json"
            original.write_text(json.dumps(plain))
            edited.write_text(json.dumps(edit_one_field(plain)))
            samples: dict[tuple[str, str, str], list[float]] = {}
            for _ in range(args.rounds):
                for off in CONFIGS:
                    cache, out = work / "cache", work / "out"
                    shutil.rmtree(cache, ignore_errors=True)
                    shutil.rmtree(out, ignore_errors=True)
                    for kind, source in (("cold", original), ("edit", edited)):
                        for key, value in one(off, source, out, cache).items():
                            samples.setdefault((kind, off, key), []).append(value)
            print(f"{spec.name} (medians of {args.rounds}; seconds: wall / format / wall - format)")
            for kind in ("cold", "edit"):
                for off in CONFIGS:
                    wall, fmt, rest = (statistics.median(samples[(kind, off, key)])
                                       for key in ("wall", "format", "rest"))
                    label = "all layers" if off == "all" else f"without {off}"
                    print(f"  {kind:5} {label:18} {wall:6.2f} {fmt:6.2f} {rest:6.2f}")


if __name__ == "__main__":
    main()
