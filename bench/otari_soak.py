"""Soak: five minutes of mixed load against the real `otari-sandbox` on loopback, checking
that the service's RSS, open fds and process count stay flat.

Not part of the test suite. A few clients loop over whole session lifecycles: create, Python
and bash calls (state, output past the cap, a timeout, a background job, a thread that keeps
starting processes), editor calls, an upload, a deep-ish tree, listings and downloads, and
destroy; some sessions are left for the reaper. Every 10 s the service's RSS, fds and the
processes of its tree are sampled; at the end the first and last samples (after warm-up) are
compared. Run: `.venv/bin/python bench/otari_soak.py [--seconds 300] [--clients 4]`.
"""

from __future__ import annotations

import argparse
import os
import random
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx

BURNER = (
    "import subprocess, threading\n"
    "def burn():\n"
    "    while True:\n"
    "        try:\n"
    "            subprocess.run(['true'])\n"
    "        except OSError:\n"
    "            pass\n"
    "threading.Thread(target=burn, daemon=True).start()\n"
)


def start(pool: int) -> tuple[subprocess.Popen[bytes], str]:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    command = [
        sys.executable, "-c", "from otari_sandbox.app import main; raise SystemExit(main())",
        "--port", str(port), "--pool-size", str(pool), "--idle-timeout", "20",
        "--log-level", "warning",
    ]
    env = {**os.environ, "SANDBOX_SESSION_GC_INTERVAL": "5"}
    proc = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    for _ in range(600):
        try:
            if httpx.get(f"{url}/health").status_code == 200:
                return proc, url
        except httpx.HTTPError:
            time.sleep(0.05)
    proc.kill()
    raise SystemExit("otari-sandbox did not start")


def tree(root: int) -> list[int]:
    children: dict[int, list[int]] = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                stat = Path(f"/proc/{name}/stat").read_bytes()
            except OSError:
                continue
            children.setdefault(int(stat[stat.rfind(b")") + 2 :].split()[1]), []).append(int(name))
    found, stack = [root], [root]
    while stack:
        kids = children.get(stack.pop(), [])
        found += kids
        stack += kids
    return found


def sample(pid: int, url: str) -> dict[str, float]:
    rss = 0
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            rss = int(line.split()[1]) * 1024
    health = httpx.get(f"{url}/health").json()
    return {
        "rss_mib": rss / 2**20,
        "fds": len(os.listdir(f"/proc/{pid}/fd")),
        "processes": len(tree(pid)),
        "sessions": health["session_count"],
        "pooled": health["pooled"],
    }


def exec_(client: httpx.Client, sid: str, tool: str, timeout: int = 20, **payload: object) -> int:
    body = {"tool": tool, "input": payload, "timeout_seconds": timeout}
    response = client.post(f"/sessions/{sid}/exec", json=body)
    if response.status_code >= 500:
        raise RuntimeError(f"{response.status_code}: {response.text[:200]}")
    return response.status_code


def lifecycle(client: httpx.Client, rng: random.Random, counts: dict[str, int]) -> None:
    response = client.post("/sessions")
    if response.status_code == 503:
        counts["503"] += 1
        return
    sid = response.json()["session_id"]
    exec_(client, sid, "code_execution", code="x = 41")
    exec_(client, sid, "code_execution", code="print(x + 1)")
    exec_(client, sid, "bash_code_execution", command="mkdir -p out && seq 1 1000 > out/n.txt && sleep 30 &")
    exec_(client, sid, "text_editor_code_execution", command="create", path="notes.md", file_text="a\nb\n")
    exec_(client, sid, "text_editor_code_execution", command="str_replace", path="notes.md", old_str="b", new_str="c")
    client.post(f"/sessions/{sid}/files", files={"file": ("d.bin", os.urandom(200_000))}, data={"path": "in/d.bin"})
    client.get(f"/sessions/{sid}/files/list")
    client.get(f"/sessions/{sid}/files", params={"path": "in/d.bin"})
    roll = rng.random()
    if roll < 0.2:
        exec_(client, sid, "code_execution", code="print('z' * 3_000_000)")
    elif roll < 0.35:
        exec_(client, sid, "code_execution", timeout=1, code="import time; time.sleep(5)")
    elif roll < 0.45:
        exec_(client, sid, "code_execution", code=BURNER)
        exec_(client, sid, "code_execution", code="print(1)")
    elif roll < 0.55:
        exec_(client, sid, "bash_code_execution", command="p=t; for i in $(seq 200); do p=$p/d; done; mkdir -p $p")
    counts["lifecycles"] += 1
    if rng.random() < 0.1:
        counts["left for the reaper"] += 1
        return
    client.delete(f"/sessions/{sid}")


def main() -> None:
    """Run the soak and print the samples and the verdict."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=300.0)
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--pool-size", type=int, default=4)
    args = parser.parse_args()
    proc, url = start(args.pool_size)
    counts = {"lifecycles": 0, "503": 0, "left for the reaper": 0, "errors": 0}
    stop = threading.Event()
    errors: list[str] = []

    def client_loop(seed: int) -> None:
        rng = random.Random(seed)
        with httpx.Client(base_url=url, timeout=60) as client:
            while not stop.is_set():
                try:
                    lifecycle(client, rng, counts)
                except (httpx.HTTPError, RuntimeError) as exc:
                    counts["errors"] += 1
                    errors.append(repr(exc)[:200])

    samples: list[dict[str, float]] = []
    threads = [threading.Thread(target=client_loop, args=(i,), daemon=True) for i in range(args.clients)]
    started = time.monotonic()
    try:
        for thread in threads:
            thread.start()
        while time.monotonic() - started < args.seconds:
            time.sleep(10)
            samples.append(sample(proc.pid, url))
            print(f"  t={time.monotonic() - started:5.0f}s  " + "  ".join(f"{k} {v:7.1f}" for k, v in samples[-1].items()), flush=True)
        stop.set()
        for thread in threads:
            thread.join(120)
        # Let the reaper take what was left behind, then look once more.
        time.sleep(30)
        final = sample(proc.pid, url)
    finally:
        proc.terminate()
        proc.wait(60)
    warm = samples[len(samples) // 5 :] or samples
    print(f"otari-sandbox soak: {args.seconds:.0f} s, {args.clients} clients, {counts}")
    for key in ("rss_mib", "fds", "processes"):
        series = [s[key] for s in warm]
        print(
            f"  {key:10} after warm-up: first {series[0]:7.1f}  median {statistics.median(series):7.1f}"
            f"  max {max(series):7.1f}  last {series[-1]:7.1f}; idle at the end {final[key]:7.1f}"
        )
    first, last = warm[0], warm[-1]
    flat = last["rss_mib"] <= first["rss_mib"] * 1.25 + 16 and final["fds"] <= first["fds"] + 8
    print(f"  flat: {'yes' if flat else 'NO'}; errors: {errors[:5]}")


if __name__ == "__main__":
    main()
