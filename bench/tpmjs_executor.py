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
`--json F` saves the medians; `--baseline F` prints them beside this run's (before/after: run
the older checkout with `--json`, then this one with `--baseline`). `--soak SECONDS` instead
runs one executor under a bounded mixed load (loopback only) and samples its RSS, open
descriptors and processes, which must stay flat. `--network-ab PAIRS` instead times the
tools' network: two executors, network on (slirp4netns) and off, called in turn with a fresh
sandbox per call, so that both see the same machine load.
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
import threading
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
    registry: NpmRegistry, work: Path, pool: int, *, runs: int, cold: int, isolation: str,
    network: bool = True,
) -> dict[str, list[float]]:
    """Cold and warm samples from one executor process."""
    store = work / f"store-pool{pool}"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("EXECUTOR_", "npm_config"))}
    args = ["--registry", registry.url, "--store-dir", str(store), "--pool-size", str(pool),
            "--isolation", isolation, "--log-level", "warning"]  # fmt: skip
    args += [] if network else ["--no-network"]
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
            # Kept-alive round trips: ~40 ms each if answers waited on Nagle and delayed ACKs
            # (the suite checks TCP_NODELAY on accepted connections; this is the latency).
            client.get("/health")
            health = []
            for _ in range(runs):
                start = time.perf_counter()
                client.get("/health")
                health.append(time.perf_counter() - start)
            out["health keep-alive"] = health
    finally:
        server.stop()
    return out


def network_ab(registry: NpmRegistry, work: Path, pairs: int) -> None:
    """Warm one-file tool, fresh process per call, network on and off interleaved."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("EXECUTOR_", "npm_config"))}
    servers = {}
    for label, extra in (("on", []), ("off", ["--no-network"])):
        args = ["--registry", registry.url, "--store-dir", str(work / f"store-{label}"),
                "--pool-size", "0", "--isolation", "bwrap", "--log-level", "warning"]  # fmt: skip
        args += extra
        servers[label] = ExecutorProcess(args, env, work / f"server-{label}.log")
    body = {"packageName": "@bench/small-0", "name": "echoTool", "version": "1.0.0"}
    samples: dict[str, list[float]] = {"on": [], "off": []}
    try:
        clients = {k: httpx.Client(base_url=v.url, timeout=60) for k, v in servers.items()}
        for client in clients.values():
            call(client, body)  # install
        for i in range(pairs):
            for label in ("on", "off") if i % 2 else ("off", "on"):
                samples[label].append(call(clients[label], body))
        for client in clients.values():
            client.close()
    finally:
        for server in servers.values():
            server.stop()
    print("tpmjs-executor warm one-file tool, fresh sandbox per call, interleaved")
    for label in ("off", "on"):
        print(row(f"network {label}", samples[label]))
    extra = [a - b for a, b in zip(samples["on"], samples["off"], strict=True)]
    print(f"  on - off per pair: median {statistics.median(extra) * 1000:+.1f} ms")


def before_after(registry: NpmRegistry, work: Path, before_python: str, runs: int) -> None:
    """The same calls against this checkout's executor and another's (`before_python` runs
    it), in turn, on one machine at one time: the ratio is not at the mercy of the load."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("EXECUTOR_", "npm_config"))}
    small = {"packageName": "@bench/small-0", "name": "echoTool", "version": "1.0.0",
             "params": {"x": 1}}  # fmt: skip
    print(f"tpmjs-executor before ({before_python}) and after (this checkout), interleaved")
    for pool in (0, 2):
        servers = {}
        for label, python in (("before", before_python), ("after", sys.executable)):
            args = ["--registry", registry.url, "--store-dir", str(work / f"store-{label}{pool}"),
                    "--pool-size", str(pool), "--isolation", "bwrap", "--log-level", "warning"]  # fmt: skip
            servers[label] = ExecutorProcess(
                args, env, work / f"server-{label}{pool}.log", python=python
            )
        try:
            clients = {k: httpx.Client(base_url=v.url, timeout=60) for k, v in servers.items()}
            for name, body in (("small", small), ("hello", HELLO)):
                for client in clients.values():
                    call(client, body)  # installs, fills the pool
                samples: dict[str, list[float]] = {"before": [], "after": []}
                for i in range(runs):
                    for label in ("before", "after") if i % 2 else ("after", "before"):
                        # A pooled call finds its pool refilled (as in the plain bench).
                        time.sleep(0.1 if pool else 0.0)
                        samples[label].append(call(clients[label], body))
                kind = "pre-started process (pool 2)" if pool else "fresh process per call"
                medians = {k: statistics.median(v) * 1000 for k, v in samples.items()}
                for label in ("before", "after"):
                    print(row(f"warm {name}, {kind}, {label}", samples[label]))
                print(f"  after / before: {medians['after'] / medians['before']:.2f}x")
            for client in clients.values():
                client.close()
        finally:
            for server in servers.values():
                server.stop()


SOAK_LOAD: list[tuple[str, str, dict[str, Any]]] = [
    ("@fixture/esm-tools", "echoTool", {"i": 1}),
    ("@tpmjs/hello", "helloWorldTool", {"includeTimestamp": True}),
    ("@fixture/esm-tools", "throwTool", {"message": "soak"}),
    ("@fixture/esm-tools", "printTool", {}),
    ("@fixture/esm-tools", "spawnTool", {"seconds": "30.5"}),
    ("@fixture/esm-tools", "hangTool", {}),  # times out (3 s)
    ("@fixture/esm-tools", "bigOutputTool", {"size": 200_000}),
    ("@fixture/hostile", "bufferTool", {"mb": 400}),  # over the 256 MB cap
    ("@fixture/hostile", "forkTool", {"count": 50}),
    ("@fixture/hostile", "forgeTool", {}),
    ("@fixture/hostile", "deepTool", {"depth": 100_000}),
    ("@fixture/nope", "x", {}),  # PACKAGE_NOT_FOUND
]


def _descendants(pid: int) -> list[int]:
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(entry.name))
    out, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            out.append(child)
            todo.append(child)
    return out


def _sample(pid: int) -> tuple[float, int, int]:
    """(RSS in MiB, open descriptors, descendant processes) of the executor."""
    status = Path(f"/proc/{pid}/status").read_text()
    rss = next(int(line.split()[1]) for line in status.splitlines() if line.startswith("VmRSS"))
    return rss / 1024, len(list(Path(f"/proc/{pid}/fd").iterdir())), len(_descendants(pid))


def soak(registry: NpmRegistry, work: Path, seconds: float, isolation: str) -> None:
    """A bounded mixed load (4 clients) for `seconds`; RSS, fds and processes sampled."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("EXECUTOR_", "npm_config"))}
    args = ["--registry", registry.url, "--store-dir", str(work / "store-soak"), "--pool-size",
            "2", "--isolation", isolation, "--log-level", "warning", "--memory-mb", "256",
            "--execution-timeout-s", "3", "--max-concurrency", "4", "--max-queue", "8"]  # fmt: skip
    server = ExecutorProcess(args, env, work / "server-soak.log")
    counts: dict[str, int] = {}
    stop = time.monotonic() + seconds
    samples: list[tuple[float, float, int, int]] = []

    def client(index: int) -> None:
        with httpx.Client(base_url=server.url, timeout=60) as http:
            i = index
            while time.monotonic() < stop:
                package, name, params = SOAK_LOAD[i % len(SOAK_LOAD)]
                i += 1
                if i % 7 == 0:
                    name = "(malformed body)"
                    response = http.post("/execute-tool", content=b'{"packageName": [NaN')
                else:
                    body = {"packageName": package, "name": name, "params": params}
                    response = http.post("/execute-tool", json=body)
                answer = response.json()
                code = "ok" if answer.get("success") else answer["error"]["code"]
                key = f"{name} {response.status_code} {code}"
                counts[key] = counts.get(key, 0) + 1

    try:
        # Warm-up: install everything once, so installs do not count as growth.
        with httpx.Client(base_url=server.url, timeout=120) as http:
            for package, name, params in SOAK_LOAD:
                http.post("/execute-tool", json={"packageName": package, "name": name,
                                                 "params": params})  # fmt: skip
        started = time.monotonic()
        stop = started + seconds
        threads = [threading.Thread(target=client, args=(i,)) for i in range(4)]
        for thread in threads:
            thread.start()
        while any(t.is_alive() for t in threads):
            samples.append((time.monotonic() - started, *_sample(server.proc.pid)))
            time.sleep(5)
        for thread in threads:
            thread.join()
        time.sleep(3)  # let the last teardowns finish
        samples.append((time.monotonic() - started, *_sample(server.proc.pid)))
    finally:
        server.stop()
    print(f"tpmjs-executor soak: {seconds:.0f} s of mixed load, 4 clients (isolation: {isolation})")
    print(
        f"  answers: {sum(counts.values())}  "
        + ", ".join(f"{k}: {v}" for k, v in sorted(counts.items()))
    )
    window = max(1, len(samples) // 5)
    for index, label in ((1, "RSS MiB"), (2, "open fds"), (3, "processes")):
        first = [s[index] for s in samples[1 : 1 + window]]
        last = [s[index] for s in samples[-window - 1 : -1]]
        print(f"  {label:10} first fifth median {statistics.median(first):7.1f}   last fifth "
              f"median {statistics.median(last):7.1f}   max {max(s[index] for s in samples):7.1f}"
              f"   after the load {samples[-1][index]:7.1f}")  # fmt: skip


def compare(medians: dict[str, float], baseline_file: Path) -> None:
    """This run's medians beside a saved run's (the 10% budget of issue 9 applies to warm)."""
    before = json.loads(baseline_file.read_text())
    print(f"  before/after medians ({baseline_file.name} -> this run):")
    for label, after in medians.items():
        if label in before:
            ratio = after / before[label] if before[label] else float("nan")
            print(f"    {label:44} {before[label]:7.1f} -> {after:7.1f} ms  ({ratio:5.2f}x)")


def main() -> None:
    """Measure and print."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=30, help="warm samples per case")
    parser.add_argument("--cold", type=int, default=6, help="cold samples per case")
    parser.add_argument("--isolation", default="auto", choices=["auto", "bwrap", "process"])
    parser.add_argument("--json", type=Path, help="save the medians (ms) to this file")
    parser.add_argument("--baseline", type=Path, help="medians saved by an earlier --json")
    parser.add_argument("--soak", type=float, help="run a soak of this many seconds instead")
    parser.add_argument(
        "--no-network", action="store_true", help="tools without network (no slirp4netns)"
    )
    parser.add_argument("--network-ab", type=int, help="pairs of calls, network on and off")
    parser.add_argument(
        "--before",
        metavar="PYTHON",
        help="interleave calls with the executor this interpreter runs (an older checkout's "
        "venv): before/after medians measured together",
    )
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="tpmjs-bench-"))
    if args.before:
        try:
            with NpmRegistry() as registry:
                registry.publish_tree(FIXTURES)
                publish_cold_packages(registry, work, 1)
                before_after(registry, work, args.before, args.runs)
        finally:
            shutil.rmtree(work, ignore_errors=True)
        return
    if args.network_ab:
        try:
            with NpmRegistry() as registry:
                publish_cold_packages(registry, work, 1)
                network_ab(registry, work, args.network_ab)
        finally:
            shutil.rmtree(work, ignore_errors=True)
        return
    if args.soak:
        try:
            with NpmRegistry() as registry:
                registry.publish_tree(FIXTURES)
                soak(registry, work, args.soak, args.isolation)
        finally:
            shutil.rmtree(work, ignore_errors=True)
        return
    try:
        with NpmRegistry() as registry:
            registry.publish_tree(FIXTURES)
            publish_cold_packages(registry, work, max(args.cold, 1))
            node_floor = floor(args.runs)
            net = not args.no_network
            fresh = measure(
                registry, work, 0, runs=args.runs, cold=args.cold, isolation=args.isolation,
                network=net,
            )  # fmt: skip
            pooled = measure(
                registry, work, 2, runs=args.runs, cold=0, isolation=args.isolation, network=net
            )
    finally:
        shutil.rmtree(work, ignore_errors=True)
    isolation = (
        args.isolation
        if args.isolation != "auto"
        else ("bwrap" if shutil.which("bwrap") else "process")
    )
    network = "off" if args.no_network else "on"
    print(f"tpmjs-executor execute-tool latency over HTTP (isolation: {isolation}, "
          f"network: {network})")  # fmt: skip
    print(row("floor: node -e 0", node_floor))
    medians = {"floor": statistics.median(node_floor) * 1000}
    for label in ("cold small", "cold hello"):
        if label in fresh:
            print(row(f"{label} (npm install + run)", fresh[label]))
            medians[label] = statistics.median(fresh[label]) * 1000
    for label in ("warm small", "warm hello"):
        print(row(f"{label}, fresh process per call", fresh[label]))
        print(row(f"{label}, pre-started process (pool 2)", pooled[label]))
        medians[f"{label} fresh"] = statistics.median(fresh[label]) * 1000
        medians[f"{label} pooled"] = statistics.median(pooled[label]) * 1000
    print(row("GET /health on a kept-alive connection", fresh["health keep-alive"]))
    medians["health keep-alive"] = statistics.median(fresh["health keep-alive"]) * 1000
    print(f"  targets: warm p50 <= 100 ms fresh, <= 30 ms pooled, /health p50 < 30 ms; "
          f"median floor {statistics.median(node_floor) * 1000:.1f} ms")  # fmt: skip
    if args.json:
        args.json.write_text(json.dumps(medians, indent=1))
    if args.baseline:
        compare(medians, args.baseline)


if __name__ == "__main__":
    main()
