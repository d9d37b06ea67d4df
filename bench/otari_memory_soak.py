"""Soak: memory a tenant can pin (issue 27). Uploads up to the quota and a hostile tenant
filling its workspace and /tmp, against the real `otari-sandbox` on loopback, while other
sessions keep answering; the host's available memory must stay above the floor.

Not part of the test suite. The service runs with a small total for all sandboxes
(--total-memory-mb, default 1536) so that the limit is reached within minutes without
starving the machine. The floor is MemAvailable at the start minus that total, minus 256 MiB
for the service itself (what README.md promises for a full service), minus this load
generator's own RSS (the upload bodies it builds). Other processes on the host move
MemAvailable too: run it on a quiet machine. Every 2 s it samples
MemAvailable, Shmem and the sandboxes' memory cgroup; at the end it prints the extremes, the
uploads taken and refused, and the other sessions' latencies and failures (exit 1 if the
floor was crossed or a quiet session failed).
Run: `.venv/bin/python bench/otari_memory_soak.py [--seconds 300] [--total-memory-mb 1536]`.
"""

from __future__ import annotations

import argparse
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx

MIB = 1 << 20


def meminfo(key: str) -> int:
    for line in Path("/proc/meminfo").read_text().splitlines():
        if line.startswith(key + ":"):
            return int(line.split()[1]) * 1024
    return 0


def rss(pid: int | str) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return 0


def start(args: argparse.Namespace) -> tuple[subprocess.Popen[bytes], str]:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    command = [
        sys.executable, "-c", "from otari_sandbox.app import main; raise SystemExit(main())",
        "--port", str(port), "--pool-size", "2", "--log-level", "warning",
        "--total-memory-mb", str(args.total_memory_mb), "--memory-mb", str(args.memory_mb),
        "--workspace-mb", str(args.workspace_mb), "--tmp-mb", str(args.tmp_mb),
    ]
    proc = subprocess.Popen(command)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{url}/health", timeout=1).status_code == 200:
                return proc, url
        except httpx.HTTPError:
            time.sleep(0.05)
    proc.kill()
    raise SystemExit("otari-sandbox did not start")


def memory_parent(pid: int) -> Path | None:
    for line in Path(f"/proc/{pid}/cgroup").read_text().splitlines():
        _, controllers, path = line.split(":", 2)
        if "memory" in controllers.split(","):
            for parent in (Path("/sys/fs/cgroup/memory") / path.lstrip("/")).glob(f"otari-sandbox-{pid}-*"):
                return parent
    return None


def exec_(client: httpx.Client, sid: str, tool: str, **payload: object) -> dict[str, Any]:
    response = client.post(f"/sessions/{sid}/exec", json={"tool": tool, "input": payload}, timeout=120)
    response.raise_for_status()
    content: dict[str, Any] = response.json()["result_block"]["content"]
    return content


def uploader(url: str, stop: threading.Event, counts: dict[str, int], size_mb: int) -> None:
    """Upload files until refused (413), clear the workspace, again."""
    with httpx.Client(base_url=url, timeout=120) as client:
        sid = client.post("/sessions").json()["session_id"]
        blob, n = b"\1" * (size_mb * MIB), 0
        while not stop.is_set():
            n += 1
            answer = client.post(f"/sessions/{sid}/files", files={"file": ("f", blob)}, data={"path": f"f{n}"})
            counts[str(answer.status_code)] = counts.get(str(answer.status_code), 0) + 1
            if answer.status_code == 413:
                exec_(client, sid, "bash_code_execution", command="rm -f f*")


def hostile(url: str, stop: threading.Event, counts: dict[str, int]) -> None:
    """Fill the workspace, /tmp and /dev/shm until refused; hold; clear; again."""
    # Files of 128 MiB (one file is capped at --fsize-mb) until the quota refuses one.
    fill = (
        "for d in . /tmp; do for i in $(seq 64); do head -c 128M /dev/zero > $d/fill$i 2>/dev/null || break; "
        "done; done; du -scm . /tmp | tail -1"
    )
    with httpx.Client(base_url=url, timeout=120) as client:
        sid = client.post("/sessions").json()["session_id"]
        while not stop.is_set():
            result = exec_(client, sid, "bash_code_execution", command=fill)
            counts["fills"] = counts.get("fills", 0) + 1
            counts["held_mb"] = max(counts.get("held_mb", 0), int((result["stdout"].split() or ["0"])[0]))
            stop.wait(5)
            exec_(client, sid, "bash_code_execution", command="rm -f fill* /tmp/fill*")


def quiet(url: str, stop: threading.Event, latencies: list[float], failures: list[str]) -> None:
    """A tenant minding its own business: one small call a second, its state checked."""
    with httpx.Client(base_url=url, timeout=120) as client:
        sid = client.post("/sessions").json()["session_id"]
        exec_(client, sid, "code_execution", code="n = 0")
        expected = 0
        while not stop.is_set():
            started = time.perf_counter()
            try:
                expected += 1
                out = exec_(client, sid, "code_execution", code="n += 1\nprint(n)")["stdout"].strip()
                if out != str(expected):
                    failures.append(f"expected {expected}, got {out!r}")
            except httpx.HTTPError as exc:
                failures.append(repr(exc))
            latencies.append(time.perf_counter() - started)
            stop.wait(1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=300)
    parser.add_argument("--total-memory-mb", type=int, default=1536)
    parser.add_argument("--memory-mb", type=int, default=640)
    parser.add_argument("--workspace-mb", type=int, default=384)
    parser.add_argument("--tmp-mb", type=int, default=128)
    parser.add_argument("--uploaders", type=int, default=2)
    parser.add_argument("--upload-mb", type=int, default=64)
    args = parser.parse_args()
    baseline = meminfo("MemAvailable")
    floor = baseline - (args.total_memory_mb + 256) * MIB
    proc, url = start(args)
    parent = memory_parent(proc.pid)
    stop = threading.Event()
    counts: dict[str, int] = {}
    latencies: list[float] = []
    failures: list[str] = []
    workers = [threading.Thread(target=uploader, args=(url, stop, counts, args.upload_mb)) for _ in range(args.uploaders)]
    workers += [threading.Thread(target=hostile, args=(url, stop, counts))]
    workers += [threading.Thread(target=quiet, args=(url, stop, latencies, failures)) for _ in range(2)]
    samples: list[tuple[int, int, int, int, int]] = []
    try:
        for worker in workers:
            worker.start()
        end = time.monotonic() + args.seconds
        while time.monotonic() < end and proc.poll() is None:
            cgroup = int((parent / "memory.usage_in_bytes").read_text()) if parent else 0
            samples.append((meminfo("MemAvailable"), meminfo("Shmem"), cgroup, rss(proc.pid), rss("self")))
            time.sleep(2)
    finally:
        stop.set()
        for worker in workers:
            worker.join(180)
        proc.terminate()
        proc.wait(30)
    low = min(s[0] for s in samples)
    # This process (the load: upload bodies being built) is not the service: its memory is
    # taken off the host's before the floor is applied.
    client = max(s[4] for s in samples)
    floor -= client
    print(f"otari memory soak: {args.seconds:.0f} s, total for all sandboxes {args.total_memory_mb} MiB")
    print(f"  MemAvailable: start {baseline / MIB:.0f} MiB, lowest {low / MIB:.0f} MiB, floor {floor / MIB:.0f} MiB")
    print(f"  Shmem: highest {max(s[1] for s in samples) / MIB:.0f} MiB; sandboxes' cgroup: highest "
          f"{max(s[2] for s in samples) / MIB:.0f} MiB")
    print(f"  service process RSS: highest {max(s[3] for s in samples) / MIB:.0f} MiB; this load "
          f"generator: {client / MIB:.0f} MiB (taken off the floor)")
    print(f"  uploads: {counts.get('201', 0)} stored, {counts.get('413', 0)} refused (413), other "
          f"{ {k: v for k, v in counts.items() if k.isdigit() and k not in ('201', '413')} }")
    print(f"  hostile tenant: {counts.get('fills', 0)} fills, holding up to {counts.get('held_mb', 0)} MiB")
    if latencies:
        ordered = sorted(latencies)
        print(f"  quiet sessions: {len(latencies)} calls, p50 {statistics.median(ordered) * 1000:.1f} ms, "
              f"p95 {ordered[int(0.95 * len(ordered))] * 1000:.1f} ms, max {ordered[-1] * 1000:.1f} ms, "
              f"{len(failures)} failures {failures[:3]}")
    ok = low >= floor and not failures and proc.returncode is not None
    print("  verdict:", "ok" if ok else "FAILED")
    raise SystemExit(0 if ok else 1)


if __name__ == "__main__":
    main()
