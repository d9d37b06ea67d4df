"""Benchmark: the front door (templates/_serving.py) against plain uvicorn, per HTTP parser.

Not part of the test suite. Each server runs tests/serving_child.py's tiny app in its own process.
Prints, all measured in this one run:
- the median round trip of a tiny keep-alive GET, plain uvicorn vs the front door, and the ratio
  (the two servers take turns request by request, so load on a shared machine hits both alike),
  and the server CPU time per request, which waiting on a busy machine does not inflate;
- the server CPU spent on one connection that sends a huge header (default 32 MiB in 64 KiB
  writes, never reading): httptools accumulates it with quadratic cost, the front door stops
  at `max_header_bytes`.
Run: `.venv/bin/python bench/serving.py [--requests N] [--rounds N] [--flood-mib N]`.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHILD = ROOT / "tests" / "serving_child.py"
GET = b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"


@contextlib.contextmanager
def server(http: str, plain: bool) -> Iterator[tuple[int, int]]:
    """(port, pid) of a child serving the tiny app."""
    options = {"http": http, "plain": plain}
    proc = subprocess.Popen(
        [sys.executable, str(CHILD), json.dumps(options)],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    try:
        assert proc.stdout is not None
        port = int(proc.stdout.readline().split()[1])
        yield port, proc.pid
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def one_get(sock: socket.socket) -> float:
    start = time.perf_counter()
    sock.sendall(GET)
    data = b""
    while not data.endswith(b"\r\n\r\nok"):
        data += sock.recv(65536)
    return time.perf_counter() - start


def round_trips(ports: dict[str, int], count: int) -> dict[str, list[float]]:
    """Seconds per GET on one keep-alive connection per server, the servers taking turns
    request by request, so that load from elsewhere hits both alike (50 warm-ups dropped)."""
    samples: dict[str, list[float]] = {name: [] for name in ports}
    socks = {name: socket.create_connection(("127.0.0.1", port), timeout=30) for name, port in ports.items()}
    try:
        for i in range(count + 50):
            for name, sock in socks.items():
                elapsed = one_get(sock)
                if i >= 50:
                    samples[name].append(elapsed)
    finally:
        for sock in socks.values():
            sock.close()
    return samples


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def flood_cpu(port: int, pid: int, mib: int) -> float:
    """Server CPU seconds for one connection sending a `mib` MiB header without reading."""
    before = cpu_seconds(pid)
    chunk = b"a" * 65536
    with socket.create_connection(("127.0.0.1", port), timeout=120) as sock:
        with contextlib.suppress(OSError):
            sock.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ")
            for _ in range(mib * 16):
                sock.sendall(chunk)
            sock.sendall(b"\r\n\r\n")
            sock.recv(100)
    # the server is done with it once it answers the next request
    with socket.create_connection(("127.0.0.1", port), timeout=120) as sock:
        sock.sendall(GET)
        sock.recv(100)
    return cpu_seconds(pid) - before


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=500, help="GETs per round")
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--flood-mib", type=int, default=32)
    args = parser.parse_args()
    for http in ("httptools", "h11"):
        with server(http, plain=True) as plain, server(http, plain=False) as door:
            times: dict[str, list[float]] = {"plain": [], "door": []}
            cpu = {"plain": -cpu_seconds(plain[1]), "door": -cpu_seconds(door[1])}
            for _ in range(args.rounds):
                ports = {"plain": plain[0], "door": door[0]}
                for name, samples in round_trips(ports, args.requests).items():
                    times[name] += samples
            cpu["plain"] += cpu_seconds(plain[1])
            cpu["door"] += cpu_seconds(door[1])
            count = len(times["door"]) + 50 * args.rounds
            p50 = {name: statistics.median(samples) * 1e6 for name, samples in times.items()}
            per = {name: seconds / count * 1e6 for name, seconds in cpu.items()}
            print(
                f"{http:9} tiny GET p50: plain uvicorn {p50['plain']:.1f} us, front door "
                f"{p50['door']:.1f} us, ratio {p50['door'] / p50['plain']:.3f}; server CPU per "
                f"request {per['plain']:.1f} us vs {per['door']:.1f} us, ratio "
                f"{per['door'] / per['plain']:.3f} ({count} requests each)"
            )
            plain_cpu = flood_cpu(*plain, args.flood_mib)
            door_cpu = flood_cpu(*door, args.flood_mib)
            print(
                f"{http:9} {args.flood_mib} MiB header: server CPU plain {plain_cpu:.2f} s, "
                f"front door {door_cpu:.2f} s"
            )


if __name__ == "__main__":
    main()
