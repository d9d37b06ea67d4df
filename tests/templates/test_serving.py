"""The front door (templates/_serving.py) under a real uvicorn on loopback, driven with raw sockets.

Each server runs in its own process (tests/serving_child.py), with both HTTP parsers.
"""

import contextlib
import json
import logging
import select
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from serving_child import load_serving

CHILD = Path(__file__).resolve().parents[1] / "serving_child.py"
PARSERS = ["httptools", "h11"]
GENEROUS = 60.0  # seconds: sanity bound for a socket read, never a speed assertion
TIMEOUT = 1.0  # seconds: timeout_server's header and body-idle timeouts

serving = load_serving()


class Server:
    """A child process serving tests/serving_child.py's app behind the front door."""

    def __init__(self, port: int, stderr: Path) -> None:
        self.port = port
        self.stderr = stderr

    def connect(self) -> socket.socket:
        sock = socket.create_connection(("127.0.0.1", self.port), timeout=GENEROUS)
        return sock

    def exchange(self, raw: bytes) -> bytes:
        """Send `raw`, read until the server closes."""
        with self.connect() as sock:
            sock.sendall(raw)
            return read_all(sock)

    def get(self, path: str = "/health", headers: str = "") -> bytes:
        return self.exchange(
            f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{headers}Connection: close\r\n\r\n".encode()
        )

    def log(self) -> str:
        return self.stderr.read_text(encoding="utf-8", errors="replace")


@contextlib.contextmanager
def running(http: str, **options: Any) -> Iterator[Server]:
    with tempfile.TemporaryDirectory() as tmp:
        stderr = Path(tmp) / "stderr"
        with stderr.open("wb") as err:
            proc = subprocess.Popen(
                [sys.executable, str(CHILD), json.dumps({"http": http, **options})],
                stdout=subprocess.PIPE,
                stderr=err,
            )
        try:
            assert proc.stdout is not None
            line = proc.stdout.readline().decode()
            assert line.startswith("port "), stderr.read_text()
            server = Server(int(line.split()[1]), stderr)
            wait_until_serving(server)
            yield server
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def wait_until_serving(server: Server) -> None:
    # The socket listens before uvicorn runs: the first request waits in the backlog.
    assert status(server.get()) == 200, server.log()


def read_all(sock: socket.socket) -> bytes:
    chunks = []
    with contextlib.suppress(ConnectionResetError):
        while chunk := sock.recv(65536):
            chunks.append(chunk)
    return b"".join(chunks)


def read_response(sock: socket.socket) -> bytes:
    """One response with a content-length, on a connection that stays open."""
    data = b""
    while b"\r\n\r\n" not in data:
        data += sock.recv(65536)
    head, _, body = data.partition(b"\r\n\r\n")
    length = int(head.lower().partition(b"content-length: ")[2].split(b"\r\n")[0])
    while len(body) < length:
        body += sock.recv(65536)
    return head + b"\r\n\r\n" + body


def status(response: bytes) -> int:
    assert response.startswith(b"HTTP/1.1 "), response[:200]
    return int(response.split(b" ", 2)[1])


def responses(raw: bytes) -> list[int]:
    return [int(part.split(b" ", 1)[0]) for part in raw.split(b"HTTP/1.1 ")[1:]]


def head_of(size: int, *, fields: int = 0) -> bytes:
    """A GET whose head (request line to the empty line) is exactly `size` bytes."""
    start = b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
    extra = b"".join(b"X-F%d: v\r\n" % i for i in range(fields))
    pad = size - len(start) - len(extra) - len(b"X-Pad: \r\n\r\n")
    assert pad >= 0
    return start + extra + b"X-Pad: " + b"a" * pad + b"\r\n\r\n"


@pytest.fixture(params=PARSERS)
def http(request: pytest.FixtureRequest) -> str:
    return str(request.param)


# One server per configuration and parser, shared by the tests that leave it as they found it
# (every connection they open is closed, and each ends by checking that /health still answers).
@pytest.fixture(scope="module", params=PARSERS)
def default_server(request: pytest.FixtureRequest) -> Iterator[Server]:
    with running(str(request.param)) as server:
        yield server


@pytest.fixture(scope="module", params=PARSERS)
def limited_server(request: pytest.FixtureRequest) -> Iterator[Server]:
    limits = {"max_header_bytes": 8192, "max_header_count": 20}
    with running(str(request.param), limits=limits) as server:
        yield server


@pytest.fixture(scope="module", params=PARSERS)
def timeout_server(request: pytest.FixtureRequest) -> Iterator[Server]:
    limits = {"header_timeout": TIMEOUT, "body_idle_timeout": TIMEOUT}
    with running(str(request.param), limits=limits) as server:
        yield server


def test_requests_pass_the_door(default_server: Server) -> None:
    server = default_server
    # keep-alive, a body in two reads, then pipelining in one send
    with server.connect() as sock:
        sock.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
        assert status(read_response(sock)) == 200
        sock.sendall(b"POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nhello")
        sock.sendall(b"world")
        assert read_response(sock).endswith(b"\r\n\r\n10")
        sock.sendall(
            b"POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc"
            b"GET /health HTTP/1.1\r\nHost: x\r\n\r\n"
            b"GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
        )
        assert responses(read_all(sock)) == [200, 200, 200]
    # a pipelined head split across reads
    with server.connect() as sock:
        sock.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\n\r\nGET /health HTTP/1.1\r\nHo")
        assert status(read_response(sock)) == 200
        sock.sendall(b"st: x\r\nConnection: close\r\n\r\n")
        assert responses(read_all(sock)) == [200]
    assert status(server.get()) == 200


def test_an_oversized_pipelined_head_is_cut_off(limited_server: Server) -> None:
    server = limited_server
    with server.connect() as sock:
        sock.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\n\r\nGET /health HTTP/1.1\r\nX: ")
        assert status(read_response(sock)) == 200
        with contextlib.suppress(OSError):
            for _ in range(64):
                sock.sendall(b"a" * 65536)
        # counted from the next read on: refused within a read or so, never accumulated
        answer = read_all(sock)
        assert answer == b"" or answer.startswith(b"HTTP/1.1 431"), answer[:100]
    assert status(server.get()) == 200


def test_a_head_at_the_limit_passes_one_byte_more_is_431(limited_server: Server) -> None:
    server = limited_server
    assert status(server.exchange(head_of(8192))) == 200
    response = server.exchange(head_of(8193))
    assert status(response) == 431
    assert b"connection: close" in response
    # in small pieces too: the count spans reads
    with server.connect() as sock:
        for i in range(0, 8193, 700):
            sock.sendall(head_of(8193)[i : i + 700])
        assert status(read_all(sock)) == 431
    assert status(server.get()) == 200


def test_health_answers_while_a_64_mib_header_is_sent(default_server: Server) -> None:
    server = default_server
    flood = server.connect()
    first_mib = threading.Event()
    health_done = threading.Event()
    sent = 0

    def send_flood() -> None:
        nonlocal sent
        chunk = b"a" * 65536
        with contextlib.suppress(OSError):
            flood.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ")
            while sent < 64 << 20:
                if sent >= 1 << 20:
                    first_mib.set()
                    health_done.wait(GENEROUS)
                    # a well-behaved client stops once the answer is there
                    if select.select([flood], [], [], 0)[0]:
                        break
                flood.sendall(chunk)
                sent += len(chunk)
        first_mib.set()

    sender = threading.Thread(target=send_flood)
    sender.start()
    try:
        assert first_mib.wait(GENEROUS)
        assert status(server.get()) == 200  # while the flooding connection is still open
    finally:
        health_done.set()
        sender.join(GENEROUS)
    with flood:
        assert status(read_all(flood)) == 431
    assert status(server.get()) == 200


def test_header_count_cap(limited_server: Server) -> None:
    server = limited_server
    # head_of adds Host, Connection and X-Pad
    assert status(server.exchange(head_of(1000, fields=17))) == 200
    assert status(server.exchange(head_of(1000, fields=18))) == 431
    # refused before the head ends: one field per read, never an empty line
    with server.connect() as sock:
        sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")
        for i in range(40):
            try:
                sock.sendall(b"X-F%d: v\r\n" % i)
            except OSError:
                break
            if select.select([sock], [], [], 0)[0]:
                break
        assert status(read_all(sock)) == 431
    assert status(server.get()) == 200


def test_slowloris_is_dropped_after_the_header_timeout(timeout_server: Server) -> None:
    server = timeout_server
    started = time.monotonic()
    silent, partial, trickle = server.connect(), server.connect(), server.connect()
    with silent, partial, trickle:
        partial.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\n")
        trickle.sendall(b"GET /health HTTP/1.1\r\n")
        # the trickle keeps sending: progress does not extend the deadline
        trickled = 0
        while not select.select([trickle], [], [], 0.1)[0]:
            trickle.sendall(b"X-Slow-%d: v\r\n" % trickled)
            trickled += 1
        assert status(read_all(trickle)) == 408
        assert status(read_all(partial)) == 408
        assert read_all(silent) == b""
        assert time.monotonic() - started >= TIMEOUT * 0.9
    assert status(server.get()) == 200


@pytest.mark.slow
def test_a_stalled_body_is_dropped_a_slow_one_is_not(timeout_server: Server) -> None:
    server = timeout_server
    with server.connect() as sock:
        sock.sendall(b"POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n0123456789")
        assert read_all(sock) == b""  # closed: the body stalled
    with server.connect() as sock:
        sock.sendall(b"POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\n")
        for byte in b"slow!":
            time.sleep(TIMEOUT / 5)  # pacing the client (5x under the timeout), not ordering events
            sock.sendall(bytes([byte]))
        assert read_response(sock).endswith(b"\r\n\r\n5")
    assert status(server.get()) == 200


def test_connections_past_the_cap_get_503_and_close(http: str) -> None:
    with running(http, limits={"max_connections": 8, "header_timeout": GENEROUS}) as server:
        held = [server.connect() for _ in range(8)]
        try:
            for sock in held:
                sock.sendall(b"GET /health HTTP/1.1\r\n")
            response = server.exchange(b"")  # accepted after the 8 held ones: no slot left
            assert status(response) == 503
            assert b"retry-after: 1" in response
            held.pop().close()
            # a slot comes free once the server has seen the close
            deadline = time.monotonic() + GENEROUS
            while status(response := server.get()) == 503 and time.monotonic() < deadline:
                pass
            assert status(response) == 200
        finally:
            for sock in held:
                sock.close()


@pytest.mark.slow
def test_1100_half_open_connections_do_not_exhaust_descriptors(http: str) -> None:
    # The child starts at soft 128 / hard 512 descriptors: the front door raises the soft
    # limit to 512 and caps connections at (512 - 64) // 2 = 224.
    options = {"nofile": [128, 512], "limits": {"header_timeout": 2.0}}
    with running(http, **options) as server:
        assert json.loads(server.get("/limits").partition(b"\r\n\r\n")[2]) == [512, 512]
        clients = [server.connect() for _ in range(1100)]
        try:
            answers = [read_all(sock) for sock in clients]
            refused = sum(answer.startswith(b"HTTP/1.1 503") for answer in answers)
            # past the cap: a 503 at once; within it: closed silently at the header timeout
            # (slots freed that way are taken again by later connections)
            assert refused > 0
            assert all(answer in (b"", answers[0]) or answer.startswith(b"HTTP/1.1 503") for answer in answers)
            assert status(server.get()) == 200  # with all 1100 still open on this side
        finally:
            for sock in clients:
                sock.close()
        log = server.log()
        assert "Too many open files" not in log and "out of system resource" not in log


GUARD_CASES = [
    ("GET", {"Host": "127.0.0.1:8080"}, 200),
    ("GET", {"Host": "localhost"}, 200),
    ("GET", {"Host": "[::1]:8080"}, 200),
    ("GET", {"Host": "app.localhost:1"}, 200),
    ("GET", {"Host": "evil.example"}, 403),  # DNS rebinding
    ("GET", {"Host": "evil.example:8080"}, 403),
    ("GET", {"Host": "0.0.0.0:8080"}, 403),
    ("GET", {"Host": "127.0.0.1.evil.example"}, 403),
    ("GET", {"Host": "[::1"}, 403),
    ("GET", {"Host": "localhost", "Origin": "http://evil.example"}, 403),
    ("GET", {"Host": "localhost", "Origin": "null"}, 403),
    ("GET", {"Host": "localhost", "Origin": "http://localhost:3000"}, 200),
    ("POST", {"Host": "localhost", "Origin": "https://evil.example", "Content-Type": "text/plain"}, 403),
    ("POST", {"Host": "localhost", "Sec-Fetch-Site": "cross-site", "Content-Type": "text/plain"}, 403),
    ("POST", {"Host": "localhost", "Referer": "http://evil.example/", "Content-Type": "text/plain"}, 403),
    ("POST", {"Host": "localhost", "Referer": "http://127.0.0.1:9/x", "Content-Type": "text/plain"}, 200),
    ("POST", {"Host": "localhost", "Content-Type": "text/plain"}, 200),  # curl, a script
    ("POST", {"Host": "localhost", "Origin": "http://127.0.0.1:5173", "Content-Type": "text/plain"}, 200),
]


def test_local_only_guard(http: str) -> None:
    with running(http, guard=True) as server:
        for method, headers, expected in GUARD_CASES:
            lines = "".join(f"{name}: {value}\r\n" for name, value in headers.items())
            body = "x" if method == "POST" else ""
            raw = f"{method} /echo HTTP/1.1\r\n{lines}Content-Length: {len(body)}\r\n"
            response = server.exchange(f"{raw}Connection: close\r\n\r\n{body}".encode())
            assert status(response) == expected, (method, headers, response)
            if expected == 403:
                assert json.loads(response.partition(b"\r\n\r\n")[2])["detail"]
        # a second Host header is refused too
        twice = "GET / HTTP/1.1\r\nHost: localhost\r\nHost: evil.example\r\nConnection: close\r\n\r\n"
        assert status(server.exchange(twice.encode())) in (400, 403)


@pytest.mark.parametrize(
    ("host", "loopback"),
    [("127.0.0.1", True), ("127.8.9.10", True), ("::1", True), ("[::1]", True),
     ("::ffff:127.0.0.1", True), ("localhost", True), ("LocalHost.", True), ("a.localhost", True),
     ("0.0.0.0", False), ("::", False), ("10.0.0.1", False), ("localhost.evil", False), ("", False)],
)
def test_is_loopback(host: str, loopback: bool) -> None:
    assert serving.is_loopback(host) is loopback


def test_default_bind_host(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="_serving"):
        assert serving.default_bind_host(True, None) == "127.0.0.1"
        assert serving.default_bind_host(True, "0.0.0.0") == "0.0.0.0"
        assert not caplog.records
        assert serving.default_bind_host(False, None) == "127.0.0.1"
        assert "no credentials configured" in caplog.records[-1].getMessage()
        assert serving.default_bind_host(False, "0.0.0.0") == "0.0.0.0"
        assert "NO AUTHENTICATION" in caplog.records[-1].getMessage()


def test_fd_budget_sizes_connections_from_the_limit() -> None:
    budget = serving.fd_budget()
    assert budget.connections == min(1024, (budget.limit - serving.RESERVED_FDS) // 2)
    assert budget.spare == budget.limit - budget.connections - serving.RESERVED_FDS
    fixed = serving.fd_budget(serving.FrontDoorLimits(max_connections=10))
    assert fixed.connections == 10


def test_public_names() -> None:
    assert sorted(serving.__all__) == [
        "DEFAULT_MAX_CONNECTIONS", "FdBudget", "FrontDoorLimits", "LocalOnlyGuard",
        "RESERVED_FDS", "default_bind_host", "fd_budget", "front_door_protocol", "is_loopback",
        "raise_fd_limit", "serve",
    ]
    with pytest.raises(ValueError, match="http must be"):
        serving.front_door_protocol("h2")
    with pytest.raises(ValueError, match="header_timeout must be positive"):
        serving.FrontDoorLimits(header_timeout=0)
