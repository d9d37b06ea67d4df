"""Benchmark: whole `contractgen generate` runs against peer generators, on the same specs.

Not part of the test suite. Prints medians and ratios, all measured in this one run:
- contractgen generate (models + server + client, validated, formatted) into an empty directory;
- datamodel-codegen (models only) and openapi-python-client (client only) on the same file;
- contractgen check on both specs (committed code current: the everyday CI case);
- the floor: a bare `python -c pass` spawn.
Run: `make bench` or `.venv/bin/python bench/generate.py [--runs N]`.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
SPECS = {
    "otari": (ROOT / "specs/otari-code-execution.openapi.yaml", None),
    "tpmjs": (ROOT / "specs/tpmjs-executor.openapi.yaml", ROOT / "specs/tpmjs-executor.overlay.yaml"),
}


def timed(command: list[str], cwd: Path, runs: int) -> float | None:
    """Median wall time of `command` over `runs` runs; None when the tool is missing or fails."""
    if shutil.which(command[0]) is None and not Path(command[0]).exists():
        return None
    samples = []
    for _ in range(runs):
        out = cwd / "out"
        shutil.rmtree(out, ignore_errors=True)
        start = time.perf_counter()
        done = subprocess.run(command, cwd=cwd, capture_output=True, check=False)
        samples.append(time.perf_counter() - start)
        if done.returncode != 0:
            print(f"  ! {' '.join(command[:2])} failed: {done.stderr.decode()[-300:]}")
            return None
    return statistics.median(samples)


def fmt(value: float | None) -> str:
    return "   n/a  " if value is None else f"{value * 1000:7.0f}ms"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    # An installed wheel has bytecode (pip compiles it); an editable checkout under
    # PYTHONDONTWRITEBYTECODE would recompile the generator on every run instead.
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "generator")], check=True)
    work = Path(tempfile.mkdtemp(prefix="contractgen-bench-"))
    floor = timed([sys.executable, "-c", "pass"], work, args.runs)
    print(f"floor: python -c pass {fmt(floor)}\n")
    print(f"{'spec':6} {'contractgen(all)':>17} {'datamodel(models)':>18} "
          f"{'opc(client)':>12} {'ratio vs dmcg':>14} {'ratio vs opc':>13}")
    for name, (spec, overlay) in SPECS.items():
        ours = [str(BIN / "contractgen"), "generate", str(spec), "--out", "out"]
        if overlay:
            ours += ["--overlay", str(overlay)]
        # The peers read the overlaid document when the upstream one is not valid 3.0.
        peer_spec = spec
        if overlay:
            import json

            from contractgen.api import load

            document, _ = load(spec, overlay=overlay)
            peer_spec = work / f"{name}.json"
            peer_spec.write_text(json.dumps(document.data))
        ours_t = timed(ours, work, args.runs)
        dm = timed([str(BIN / "datamodel-codegen"), "--input", str(peer_spec), "--input-file-type",
                    "openapi", "--output-model-type", "pydantic_v2.BaseModel", "--output",
                    "out/models.py"], work, args.runs) if (BIN / "datamodel-codegen").exists() else None
        opc = timed([str(BIN / "openapi-python-client"), "generate", "--path", str(peer_spec),
                     "--output-path", "out", "--overwrite"], work, args.runs) if (
            BIN / "openapi-python-client").exists() else None
        r_dm = f"{ours_t / dm:13.2f}x" if ours_t and dm else "      n/a    "
        r_opc = f"{ours_t / opc:12.2f}x" if ours_t and opc else "     n/a    "
        print(f"{name:6} {fmt(ours_t):>17} {fmt(dm):>18} {fmt(opc):>12} {r_dm:>14} {r_opc:>13}")
    check = timed([str(BIN / "contractgen"), "check", "--config", str(ROOT / "pyproject.toml")],
                  ROOT, args.runs)
    print(f"\ncontractgen check (all configured targets, committed code current): {fmt(check)}")
    if floor and check:
        print(f"  = {check / floor:.1f}x a bare python spawn")
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
