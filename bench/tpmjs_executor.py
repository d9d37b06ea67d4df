"""Benchmark: execute-tool latency of the TPMJS executor, cold and warm, beside the Node floor.

Not part of the test suite. Everything is measured in this one run, over real HTTP against the
real `tpmjs-executor` command, installing from a loopback npm registry (no internet):
- floor: spawning `node -e 0` with the tool processes' minimal environment;
- cold: the package is not in the store (npm install + run); every sample is a package of its
  own, so npm's cache only knows the shared dependency (`ai`) after the first one;
- warm: the package is installed; a fresh sandboxed process per call (pool 0), or a process
  started ahead of the call (pool 2; calls 100 ms apart so the pool refills between them).
Tools: a one-file ESM tool ("small") and the replica of the Verify package @tpmjs/hello@0.0.2
(CommonJS, depends on an `ai` stand-in).
Run: `make bench` or `.venv/bin/python bench/tpmjs_executor.py [--runs N] [--isolation process]`.
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
from typing import Any

import httpx

# This file's name is the package's: drop bench/ from the path so the import finds the package.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]
# The loopback registry and the process driver are test helpers, kept with the tests.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "backends/tpmjs-executor/tests"))
from tpmjs_support import ExecutorProcess, NpmRegistry, build_tarball  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "backends/tpmjs-executor/tests/fixtures/packages"
HELLO = {"packageName": "@tpmjs/hello", "name": "helloWorldTool", "version": "0.0.2",
         "params": {"includeTimestamp": True}}  # fmt: skip
SMALL_SOURCE = (
    "export const echoTool = { description: 'echo', execute: async (p) => ({ echo: p }) };\n"
)


def pct(samples: list[float], q: float) -> float:
    """The q-th percentile (nearest rank) in milliseconds."""
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))] * 1000


def row(label: str, samples: list[float]) -> str:
    """One line of the report."""
    return f"  {label:46} p50 {pct(samples, 50):7.1f} ms   p95 {pct(samples, 95):7.1f} ms   (n={len(samples)})"


def floor(runs: int) -> list[float]:
    """Wall time of `node -e 0` with the minimal environment tools get."""
    node = shutil.which("node") or "node"
    env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": "/tmp", "LANG": "C.UTF-8"}
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run([node, "-e", "0"], env=env, check=True)
        samples.append(time.perf_counter() - start)
    return samples


def publish_cold_packages(registry: NpmRegistry, work: Path, count: int) -> None:
    """`@bench/small-<i>` (one ESM file) and `@bench/hello-<i>` (the hello replica)."""
    hello_dist = (FIXTURES / "tpmjs-hello-0.0.2" / "dist" / "index.js").read_text()
    for i in range(count):
        small = work / f"small-{i}"
        small.mkdir()
        manifest: dict[str, Any] = {"name": f"@bench/small-{i}", "version": "1.0.0", "type": "module",
                                    "main": "index.js"}  # fmt: skip
        (small / "package.json").write_text(json.dumps(manifest))
        (small / "index.js").write_text(SMALL_SOURCE)
        registry.publish(manifest, build_tarball(small))
        hello = work / f"hello-{i}"
        (hello / "dist").mkdir(parents=True)
        manifest = {"name": f"@bench/hello-{i}", "version": "0.0.2", "main": "dist/index.js",
                    "dependencies": {"ai": "6.0.0-beta.124"}}  # fmt: skip
        (hello / "package.json").write_text(json.dumps(manifest))
        (hello / "dist" / "index.js").write_text(hello_dist)
        registry.publish(manifest, build_tarball(hello))


def call(client: httpx.Client, body: dict[str, Any]) -> float:
    """One execute-tool round trip; must succeed."""
    start = time.perf_counter()
    response = client.post("/execute-tool", json=body)
    elapsed = time.perf_counter() - start
    result = response.json()
    if response.status_code != 200 or not result.get("success"):
        raise RuntimeError(f"execute-tool failed: {response.status_code} {response.text[:300]}")
    return elapsed


def measure(
    registry: NpmRegistry, work: Path, pool: int, *, runs: int, cold: int, isolation: str
) -> dict[str, list[float]]:
    """Cold and warm samples from one executor process."""
    store = work / f"store-pool{pool}"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("EXECUTOR_", "npm_config"))}
    args = ["--registry", registry.url, "--store-dir", str(store), "--pool-size", str(pool),
            "--isolation", isolation, "--log-level", "warning"]  # fmt: skip
    server = ExecutorProcess(args, env, work / f"server-pool{pool}.log")
    gap = 0.1 if pool else 0.0
    out: dict[str, list[float]] = {}
    try:
        with httpx.Client(base_url=server.url, timeout=60) as client:
            if cold:
                out["cold small"] = [
                    call(
                        client,
                        {
                            "packageName": f"@bench/small-{i}",
                            "name": "echoTool",
                            "version": "1.0.0",
                        },
                    )
                    for i in range(cold)
                ]
                out["cold hello"] = [
                    call(client, {**HELLO, "packageName": f"@bench/hello-{i}"}) for i in range(cold)
                ]
            small = {
                "packageName": "@bench/small-0",
                "name": "echoTool",
                "version": "1.0.0",
                "params": {"x": 1},
            }
            for label, body in (("small", small), ("hello", HELLO)):
                call(client, body)  # installs if needed, fills the pool
                samples = []
                for _ in range(runs):
                    time.sleep(gap)
                    samples.append(call(client, body))
                out[f"warm {label}"] = samples
    finally:
        server.stop()
    return out


def main() -> None:
    """Measure and print."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=30, help="warm samples per case")
    parser.add_argument("--cold", type=int, default=6, help="cold samples per case")
    parser.add_argument("--isolation", default="auto", choices=["auto", "bwrap", "process"])
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="tpmjs-bench-"))
    try:
        with NpmRegistry() as registry:
            registry.publish_tree(FIXTURES)
            publish_cold_packages(registry, work, max(args.cold, 1))
            node_floor = floor(args.runs)
            fresh = measure(
                registry, work, 0, runs=args.runs, cold=args.cold, isolation=args.isolation
            )
            pooled = measure(registry, work, 2, runs=args.runs, cold=0, isolation=args.isolation)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    isolation = (
        args.isolation
        if args.isolation != "auto"
        else ("bwrap" if shutil.which("bwrap") else "process")
    )
    print(f"tpmjs-executor execute-tool latency over HTTP (isolation: {isolation})")
    print(row("floor: node -e 0", node_floor))
    for label in ("cold small", "cold hello"):
        print(row(f"{label} (npm install + run)", fresh[label]))
    for label in ("warm small", "warm hello"):
        print(row(f"{label}, fresh process per call", fresh[label]))
        print(row(f"{label}, pre-started process (pool 2)", pooled[label]))
    print(f"  targets: warm p50 <= 100 ms fresh, <= 30 ms pooled; "
          f"median floor {statistics.median(node_floor) * 1000:.1f} ms")  # fmt: skip


if __name__ == "__main__":
    main()
