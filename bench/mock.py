"""Benchmark: `contractgen mock` on Box's contract (issue 40: it starts in under 1 s and
answers a stored item's GET at p50 <= 2 ms), measured as a user meets it, beside baselines
measured in the same run so that the ratios mean something on a loaded machine.

Not part of the test suite. Prints:
- start: `contractgen mock SPEC` launched as a command, timed to its first answer over
  loopback (wall), and the CPU its process spent until then (/proc: user + system, its
  children's included). `--cold`: also a first start, in an empty cache, which generates the
  server package (what is cached and where: see docs/mock.md); later starts import it.
  Beside it: the generated server alone started the same way (what the mock adds to its start:
  reading the contract, recognising collections, the judge of its first answer), and
  `python -c "import fastapi"`'s CPU, the floor of any FastAPI server's start.
- GET: the stored item's GET (`/2.0/folders/{id}`, made by a POST first) over one keep-alive
  loopback connection (http.client), p50/p95 of the round trip and the server's CPU per
  request, against two baselines answering the same bytes on the same path: the generated
  Box server alone under uvicorn with a service that returns them (what the mock adds to the
  server it is built on), and a bare Starlette route (the floor of the stack). The servers
  take turns in rounds, so the machine's load falls on all of them alike.
Run: `.venv/bin/python bench/mock.py [--spec PATH] [--requests N] [--rounds N] [--starts N]
[--cold]` (default spec: box.openapi.json.gz of ../shared/corpus beside the repository, or
of $CONTRACTGEN_CORPUS).
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import http.client
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# $CONTRACTGEN_CORPUS, else ../shared/corpus beside the repository (or its worktrees' folder)
CORPUS = Path(os.environ.get("CONTRACTGEN_CORPUS") or next(
    (p for p in (ROOT.parent / "shared" / "corpus", ROOT.parent.parent / "shared" / "corpus")
     if p.is_dir()), ROOT.parent / "shared" / "corpus"))
AUTH = {"Authorization": "Bearer bench"}
TICK = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """User + system CPU of `pid` and of the children it waited for (/proc/PID/stat)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return sum(int(fields[i]) for i in (11, 12, 13, 14)) / TICK


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def spec_file(given: str | None) -> Path:
    """The contract as a file (a `.gz` unpacked once into the temp folder)."""
    source = Path(given) if given else CORPUS / "box.openapi.json.gz"
    if not source.is_file():
        sys.exit(f"bench/mock.py: {source} is not here (put ../shared/corpus beside the "
                 "repository, or name a contract with --spec)")
    if source.suffix != ".gz":
        return source
    target = Path(tempfile.gettempdir()) / "contractgen-bench-mock" / source.stem
    target.parent.mkdir(exist_ok=True)
    data = gzip.decompress(source.read_bytes())
    if not target.is_file() or target.read_bytes() != data:
        target.write_bytes(data)
    return target


def answered(port: int, path: str, deadline: float) -> None:
    """Wait until a GET of `path` gets any HTTP answer."""
    while time.perf_counter() < deadline:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            conn.request("GET", path, headers=AUTH)
            conn.getresponse().read()
            conn.close()
            return
        except OSError:
            time.sleep(0.005)
    raise TimeoutError(f"no answer on port {port} at {path}")


@contextlib.contextmanager
def launched(command: list[str], port: int, probe: str,
             env: dict[str, str] | None = None) -> Iterator[tuple[int, float, float]]:
    """(pid, wall seconds to the first answer, its CPU seconds by then) of a server command."""
    started = time.perf_counter()
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            env={**os.environ, **(env or {})})
    try:
        answered(port, probe, started + 600)
        wall = time.perf_counter() - started
        yield proc.pid, wall, cpu_seconds(proc.pid)
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def mock_command(spec: Path, port: int) -> list[str]:
    return [sys.executable, "-m", "contractgen.cli", "mock", str(spec), "--port", str(port)]


def child_command(kind: str, spec: Path, body: bytes, port: int) -> list[str]:
    return [sys.executable, __file__, "--serve", kind, "--spec", str(spec), "--port", str(port),
            "--body", body.decode()]


def fastapi_import_cpu() -> float:
    code = "import time, fastapi; print(time.process_time())"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    return float(out.stdout)


def serve(kind: str, spec: Path, body: bytes, port: int) -> None:
    """A baseline server (run in a child by `--serve`): `generated` is the mock's own cached
    server package with a service answering `body`; `starlette` a bare route answering it."""
    import uvicorn
    from starlette.responses import Response

    if kind == "starlette":
        from starlette.applications import Starlette
        from starlette.routing import Route

        async def endpoint(request: object) -> Response:
            return Response(body, media_type="application/json")

        app: object = Starlette(routes=[Route("/2.0/folders/{folder_id}", endpoint)])
    else:
        import inspect

        from contractgen.mock.package import server_package

        server = server_package(spec)  # imported from the cache the mock filled

        async def handle(service: object, *args: object, **kwargs: object) -> Response:
            return Response(body, media_type="application/json")

        base = server.ServiceBase
        methods = {name: handle for name, value in vars(base).items()
                   if inspect.iscoroutinefunction(value)}
        schemes = (json.loads(server.contract()).get("components") or {}).get(
            "securitySchemes") or {}
        app = server.create_app(type("Baseline", (base,), methods)(), verifiers={
            name: (lambda credential: credential.value or "caller") for name in schemes})
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning", lifespan="off",
                interface="asgi3")


def round_trips(conn: http.client.HTTPConnection, path: str, count: int) -> list[float]:
    times = []
    for _ in range(count):
        started = time.perf_counter()
        conn.request("GET", path, headers=AUTH)
        answer = conn.getresponse()
        answer.read()
        times.append(time.perf_counter() - started)
        if answer.status != 200:
            raise RuntimeError(f"GET {path}: {answer.status}")
    return times


def compare(servers: dict[str, tuple[int, int]], path: str, requests: int,
            rounds: int) -> dict[str, tuple[list[float], float]]:
    """Per server: its round trips, and its CPU seconds per request; in turns, round by
    round, each over its own keep-alive connection (warmed by 50 GETs first)."""
    conns = {name: http.client.HTTPConnection("127.0.0.1", port, timeout=30)
             for name, (port, _) in servers.items()}
    for conn in conns.values():
        round_trips(conn, path, 50)
    times: dict[str, list[float]] = {name: [] for name in servers}
    cpu = dict.fromkeys(servers, 0.0)
    for _ in range(rounds):
        for name, (_, pid) in servers.items():
            before = cpu_seconds(pid)
            times[name] += round_trips(conns[name], path, requests // rounds)
            cpu[name] += cpu_seconds(pid) - before
    for conn in conns.values():
        conn.close()
    return {name: (times[name], cpu[name] / len(times[name])) for name in servers}


def made_folder(port: int) -> tuple[str, bytes]:
    """A folder stored in the mock: its GET path, and the bytes that GET answers."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request("POST", "/2.0/folders", body=json.dumps({"name": "bench", "parent": {"id": "0"}}),
                 headers={**AUTH, "Content-Type": "application/json"})
    created = conn.getresponse()
    folder = json.loads(created.read())
    if created.status != 201:
        raise RuntimeError(f"POST /2.0/folders: {created.status} {folder}")
    path = f"/2.0/folders/{folder['id']}"
    conn.request("GET", path, headers=AUTH)
    body = conn.getresponse().read()
    conn.close()
    return path, body


def starts(spec: Path, count: int, env: dict[str, str],
           kind: str = "mock") -> list[tuple[float, float]]:
    """(wall to the first answer, CPU by then) of `count` launches of `contractgen mock` (or of
    the generated server alone, `kind="generated"`)."""
    found = []
    for _ in range(count):
        port = free_port()
        command = (mock_command(spec, port) if kind == "mock"
                   else child_command(kind, spec, b"{}", port))
        with launched(command, port, "/2.0/folders/0", env) as (_, wall, cpu):
            found.append((wall, cpu))
    return found


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def report_starts(spec: Path, args: argparse.Namespace, env: dict[str, str]) -> None:
    from contractgen.mock.package import package_key

    folder = Path(env["XDG_CACHE_HOME"]) / "contractgen" / "mock" / package_key(spec, None)
    if args.cold or not folder.is_dir():
        wall, cpu = starts(spec, 1, env)[0]
        print(f"first start (empty cache: generates {folder}): wall {wall:.2f} s, "
              f"cpu {cpu:.2f} s")
    for kind, what in (("mock", "`contractgen mock`, its server package cached"),
                       ("generated", "the generated server alone, under uvicorn")):
        runs = starts(spec, args.starts, env, kind)
        walls, cpus = [r[0] for r in runs], [r[1] for r in runs]
        print(f"start of {what} ({args.starts} runs): wall median "
              f"{statistics.median(walls):.2f} s (min {min(walls):.2f}), cpu median "
              f"{statistics.median(cpus):.2f} s (min {min(cpus):.2f})")
    print(f"`import fastapi` alone: cpu {fastapi_import_cpu():.2f} s")


def report_gets(spec: Path, args: argparse.Namespace, env: dict[str, str]) -> None:
    ports = {name: free_port() for name in ("mock", "generated", "starlette")}
    with contextlib.ExitStack() as stack:
        mock = stack.enter_context(launched(mock_command(spec, ports["mock"]), ports["mock"],
                                            "/2.0/folders/0", env))
        path, body = made_folder(ports["mock"])
        servers = {"mock": (ports["mock"], mock[0])}
        for kind in ("generated", "starlette"):
            pid = stack.enter_context(launched(child_command(kind, spec, body, ports[kind]),
                                               ports[kind], path, env))[0]
            servers[kind] = (ports[kind], pid)
        results = compare(servers, path, args.requests, args.rounds)
    print(f"GET {path} ({len(body)} bytes), {args.requests} requests each over one keep-alive "
          f"connection, {args.rounds} rounds in turns; load average {os.getloadavg()[0]:.1f}")
    print(f"{'server':<12}{'p50 ms':>9}{'p95 ms':>9}{'server cpu ms/req':>19}")
    for name, (times, cpu) in results.items():
        print(f"{name:<12}{statistics.median(times) * 1e3:>9.2f}"
              f"{percentile(times, 0.95) * 1e3:>9.2f}{cpu * 1e3:>19.2f}")
    mock_p50, gen_p50 = (statistics.median(results[n][0]) for n in ("mock", "generated"))
    print(f"mock / generated server alone: p50 x{mock_p50 / gen_p50:.2f}, server cpu "
          f"x{results['mock'][1] / results['generated'][1]:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--spec", help="the contract (default: Box's, from ../shared/corpus)")
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--starts", type=int, default=5)
    parser.add_argument("--cold", action="store_true",
                        help="empty the bench's cache first, and time the start that generates")
    parser.add_argument("--serve", help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--body", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(args.serve, Path(args.spec), args.body.encode(), args.port)
        return
    spec = spec_file(args.spec)
    cache = Path(tempfile.gettempdir()) / "contractgen-bench-mock" / "cache"
    if args.cold and cache.is_dir():
        import shutil

        shutil.rmtree(cache)
    env = {"XDG_CACHE_HOME": str(cache)}
    # as a user's Python: bytecode kept (PYTHONDONTWRITEBYTECODE, where set, made every start
    # compile fastapi, pydantic and jsonschema anew; the Makefile unsets it for the tests too)
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    print(f"contract: {spec}; cache: {cache} (XDG_CACHE_HOME)")
    report_starts(spec, args, env)
    report_gets(spec, args, env)


if __name__ == "__main__":
    main()
