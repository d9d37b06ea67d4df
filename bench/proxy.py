"""Benchmark: the proxy's own cost. Sessions created per second and calls per second through
deploy/'s nginx over three otari-sandbox instances (and over one), as a ratio to one instance
without the proxy, in the same run, on the same machine; and the memory of an idle session (PSS), which
sizes a pod (deploy/README.md).

Run: `.venv/bin/python bench/proxy.py [--seconds 5] [--clients 4]` (needs nginx: make setup).
On one small machine the three instances share its cores, so the ratio is the proxy's cost
plus the sharing, not the gain of more hosts.
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from deploy_support import Nginx, OtariInstance, missing_nginx  # noqa: E402

TOKEN = "bench-token"
CODE = {"tool": "code_execution", "input": {"code": "print(1)"}}


def _tree_pss() -> Callable[[int], int]:
    spec = importlib.util.spec_from_file_location("bench_otari", ROOT / "bench/otari_sandbox.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.tree_pss  # type: ignore[no-any-return]


def _client(url: str) -> httpx.Client:
    return httpx.Client(base_url=url, headers={"Authorization": f"Bearer {TOKEN}"}, timeout=60)


def _load(url: str, clients: int, seconds: float, work: Callable[[httpx.Client], None],
          setup: Callable[[httpx.Client], None] = lambda c: None) -> float:
    """Operations per second of ``clients`` threads each doing ``work`` for ``seconds``."""
    counts = [0] * clients
    start = threading.Barrier(clients + 1)
    deadline = [0.0]

    def run(index: int) -> None:
        with _client(url) as client:
            setup(client)
            start.wait()
            while time.monotonic() < deadline[0]:
                work(client)
                counts[index] += 1

    threads = [threading.Thread(target=run, args=(i,)) for i in range(clients)]
    for thread in threads:
        thread.start()
    deadline[0] = time.monotonic() + seconds
    start.wait()
    began = time.monotonic()
    for thread in threads:
        thread.join()
    return sum(counts) / (time.monotonic() - began)


def _create_destroy(client: httpx.Client) -> None:
    response = client.post("/sessions", json={})
    response.raise_for_status()
    client.delete(f"/sessions/{response.json()['session_id']}").raise_for_status()


def measure(url: str, clients: int, seconds: float) -> dict[str, float]:
    """Sessions/s (create + destroy) and calls/s (each client in a session of its own)."""
    sessions = _load(url, clients, seconds, _create_destroy)
    held: dict[int, str] = {}

    def open_session(client: httpx.Client) -> None:
        held[id(client)] = client.post("/sessions", json={}).json()["session_id"]

    def call(client: httpx.Client) -> None:
        client.post(f"/sessions/{held[id(client)]}/exec", json=CODE).raise_for_status()

    calls = _load(url, clients, seconds, call, open_session)
    return {"sessions/s": sessions, "calls/s": calls}


def pss_per_session(instance: OtariInstance, count: int = 20) -> float:
    """MiB of PSS an idle session adds to its instance's process tree."""
    tree_pss = _tree_pss()
    assert instance.proc is not None
    with _client(instance.url) as client:
        time.sleep(1.0)
        before = tree_pss(instance.proc.pid)
        ids = [client.post("/sessions", json={}).json()["session_id"] for _ in range(count)]
        time.sleep(2.0)  # the pool refilled: only the leased sessions differ
        after = tree_pss(instance.proc.pid)
        for session_id in ids:
            client.delete(f"/sessions/{session_id}")
    return (after - before) / count / (1 << 20)


def main() -> int:
    """Measure the three set-ups in alternating rounds (the load of a shared machine drifts)
    and print the medians."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--pool-size", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    if (why := missing_nginx()) is not None:
        print(f"bench/proxy.py: {why}", file=sys.stderr)
        return 2
    solo = OtariInstance("solo", 0, token=TOKEN, pool_size=args.pool_size)
    trio = [OtariInstance(f"otari-{i}", i + 1, token=TOKEN, pool_size=args.pool_size)
            for i in range(3)]
    proxies = [Nginx({"solo": f"127.0.0.1:{solo.port}"}, ["127.0.0.1:9"]),
               Nginx({i.name: f"127.0.0.1:{i.port}" for i in trio}, ["127.0.0.1:9"])]
    urls = {"1 direct": solo.url, "1 + nginx": proxies[0].otari_url, "3 + nginx": proxies[1].otari_url}
    runs: dict[str, list[dict[str, float]]] = {label: [] for label in urls}
    try:
        for _ in range(args.rounds):
            for label, url in urls.items():
                runs[label].append(measure(url, args.clients, args.seconds))
        pss = pss_per_session(solo)
    finally:
        for proxy in proxies:
            proxy.stop()
        for instance in (solo, *trio):
            instance.stop()
    median = {label: {key: statistics.median(r[key] for r in rs) for key in rs[0]}
              for label, rs in runs.items()}
    base = median["1 direct"]
    print(f"{args.clients} clients, {args.seconds:g} s each, pool {args.pool_size}, "
          f"median of {args.rounds} alternating rounds (ratio: to 1 direct)")
    print(f"{'':12}" + "".join(f"{label:>12} {'ratio':>6}" for label in urls))
    for key in base:
        cells = "".join(f"{median[label][key]:12.1f} {median[label][key] / base[key]:6.2f}" for label in urls)
        print(f"{key:12}{cells}")
    print(f"idle session: {pss:.1f} MiB PSS")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
