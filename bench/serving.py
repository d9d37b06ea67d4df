"""Benchmark: the front door (templates/_serving.py) against plain uvicorn, per HTTP parser.

Not part of the test suite. Each server runs tests/serving_child.py's tiny app in its own process.
Prints, all measured in this one run:
- the median round trip of a tiny keep-alive GET, plain uvicorn vs the front door, and the ratio
  (rounds alternate between the two servers so drift on a shared machine hits both);
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


def round_trips(port: int, count: int) -> list[float]:
    """Seconds per GET on one keep-alive connection (the first 50 are warm-up, dropped)."""
    samples = []
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        for i in range(count + 50):
            start = time.perf_counter()
            sock.sendall(GET)
            data = b""
            while not data.endswith(b"\r\n\r\nok"):
                data += sock.recv(65536)
            if i >= 50:
                samples.append(time.perf_counter() - start)
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
            for _ in range(args.rounds):
                times["plain"] += round_trips(plain[0], args.requests)
                times["door"] += round_trips(door[0], args.requests)
            p50 = {name: statistics.median(samples) * 1e6 for name, samples in times.items()}
            print(
                f"{http:9} tiny GET p50: plain uvicorn {p50['plain']:.1f} us, front door "
                f"{p50['door']:.1f} us, ratio {p50['door'] / p50['plain']:.3f} "
                f"({len(times['door'])} requests each)"
            )
            plain_cpu = flood_cpu(*plain, args.flood_mib)
            door_cpu = flood_cpu(*door, args.flood_mib)
            print(
                f"{http:9} {args.flood_mib} MiB header: server CPU plain {plain_cpu:.2f} s, "
                f"front door {door_cpu:.2f} s"
            )


if __name__ == "__main__":
    main()
