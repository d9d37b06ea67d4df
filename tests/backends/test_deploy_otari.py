"""Three otari-sandbox instances behind deploy/'s nginx on loopback: sessions pinned to the
instance named in their id, a down instance's sessions answer 503, auth end to end."""

from __future__ import annotations

import collections
import concurrent.futures
import re
import shutil
import signal
import socket
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
from contractgen.project.conformance import run_scenario
from deploy_support import Nginx, OtariInstance, free_port, missing_nginx, wait_until
from gen_support import OTARI_SPEC

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(missing_nginx() is not None, reason=str(missing_nginx())),
    pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is not installed"),
]

SCENARIO = Path(__file__).parents[1] / "scenarios" / "otari-session.yaml"
TOKEN = "deploy-test-token"
NAMES = ("otari-0", "otari-1", "otari-2")
CODE = {"tool": "code_execution", "input": {"code": "print(6 * 7)"}}


@dataclass
class Cluster:
    instances: dict[str, OtariInstance]
    nginx: Nginx
    client: httpx.Client


@pytest.fixture(scope="module")
def cluster() -> Iterator[Cluster]:
    instances: dict[str, OtariInstance] = {}
    nginx = None
    try:
        for index, name in enumerate(NAMES):
            instances[name] = OtariInstance(name, index, token=TOKEN)
        nginx = Nginx({n: f"127.0.0.1:{i.port}" for n, i in instances.items()}, ["127.0.0.1:9"])
        headers = {"Authorization": f"Bearer {TOKEN}"}
        with httpx.Client(base_url=nginx.otari_url, headers=headers, timeout=30) as client:
            yield Cluster(instances, nginx, client)
    finally:
        if nginx is not None:
            nginx.stop()
        for instance in instances.values():
            instance.stop()


def _instance(session_id: str) -> str:
    return session_id.split("_")[1]


def _create(client: httpx.Client) -> str:
    response = client.post("/sessions", json={"idle_timeout_seconds": 120})
    assert response.status_code == 201, response.text
    return str(response.json()["session_id"])


def test_the_conformance_scenario_passes_through_the_proxy(cluster: Cluster) -> None:
    results = run_scenario(OTARI_SPEC, SCENARIO, cluster.nginx.otari_url, token=TOKEN)
    assert [(r.operation, r.status, r.problems) for r in results if not r.ok] == []
    assert len(results) == 16


def test_auth_is_end_to_end(cluster: Cluster) -> None:
    # The proxy holds no token: the instance itself refuses a missing or wrong one.
    url = cluster.nginx.otari_url
    assert httpx.post(f"{url}/sessions", json={}).status_code == 401
    bad = {"Authorization": "Bearer wrong"}
    assert httpx.post(f"{url}/sessions", json={}, headers=bad).status_code == 401
    session_id = _create(cluster.client)
    exec_url = f"{url}/sessions/{session_id}/exec"
    assert httpx.post(exec_url, json=CODE, headers=bad).status_code == 401
    assert cluster.client.delete(f"/sessions/{session_id}").status_code == 204


@pytest.mark.parametrize("session_id", ["sbx_otari-9_0123456789abcdef01234567", "sbx_0123abcd",
                                        "3f6c1a9e8b2d4c7f", "sbx_OTARI-0_0123"])
def test_an_id_naming_no_instance_gets_the_contracts_404(cluster: Cluster, session_id: str) -> None:
    for method, path in (("POST", "exec"), ("GET", "files/list"), ("GET", "files?path=a")):
        response = cluster.client.request(method, f"/sessions/{session_id}/{path}", json=CODE)
        assert response.status_code == 404
        assert isinstance(response.json()["detail"], str)
    assert cluster.client.delete(f"/sessions/{session_id}").status_code == 404


def test_sessions_spread_survive_a_down_instance_and_it_comes_back(cluster: Cluster) -> None:
    client = cluster.client
    sessions = [_create(client) for _ in range(30)]
    spread = collections.Counter(_instance(s) for s in sessions)
    assert set(spread) == set(NAMES) and min(spread.values()) >= 5, spread

    victim = cluster.instances["otari-2"]
    victim.stop(signal.SIGKILL)
    for session_id in sessions:
        started = time.monotonic()
        response = client.post(f"/sessions/{session_id}/exec", json=CODE)
        if _instance(session_id) == "otari-2":
            # Its own sessions: 503 at once, not a hang and not another instance's 404.
            assert response.status_code == 503, response.text
            assert response.headers["retry-after"].isdigit()
            assert "unavailable" in response.json()["detail"]
            assert time.monotonic() - started < 2
        else:
            assert response.status_code == 200, response.text
            assert response.json()["result_block"]["content"]["stdout"] == "42"
    newcomers = [_create(client) for _ in range(6)]
    assert {_instance(s) for s in newcomers} <= {"otari-0", "otari-1"}

    victim.start()  # same name, same port: back in rotation once nginx retries it
    landed: list[str] = []

    def lands_on_victim() -> bool:
        landed.append(_create(client))
        return _instance(landed[-1]) == "otari-2"

    wait_until(lands_on_victim, 15, "a new session on the restarted instance")
    # Its old sessions died with it: the contract's 404, from the instance itself.
    old = next(s for s in sessions if _instance(s) == "otari-2")
    assert client.post(f"/sessions/{old}/exec", json=CODE).status_code == 404
    for session_id in sessions + newcomers + landed:
        assert client.delete(f"/sessions/{session_id}").status_code == 204


def test_a_down_instances_answer_never_promises_a_connection_it_then_closes() -> None:
    # nginx answers a down instance's session before reading a body that comes after the head
    # (httpx writes them apart), then closes the connection: had the 503 said keep-alive, a
    # pooled client would send its next request into the closing connection and lose it.
    nginx = Nginx({"otari-0": f"127.0.0.1:{free_port()}"}, ["127.0.0.1:9"])
    body = b'{"tool": "code_execution", "input": {"code": "print(1)"}}'
    head = (f"POST /sessions/sbx_otari-0_{'0' * 24}/exec HTTP/1.1\r\nHost: proxy\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n").encode()
    try:
        with socket.create_connection(("127.0.0.1", nginx.otari_port), timeout=5) as sock:
            sock.sendall(head)
            time.sleep(0.2)
            sock.sendall(body)
            first = _read_response(sock)
            assert first.startswith(b"HTTP/1.1 503 "), first
            if b"\r\nConnection: close\r\n" not in first:
                sock.sendall(head + body)
                assert _read_response(sock).startswith(b"HTTP/1.1 503 "), "dropped a request"
    finally:
        nginx.stop()


def _read_response(sock: socket.socket) -> bytes:
    """One response, head and body (b"" when the connection is closed)."""
    data = b""
    while chunk := sock.recv(65536):
        data += chunk
        head, sep, body = data.partition(b"\r\n\r\n")
        length = re.search(rb"(?i)\r\ncontent-length: (\d+)", head)
        if sep and length and len(body) >= int(length[1]):
            break
    return data


def test_a_draining_instance_takes_no_new_sessions_but_serves_its_own(cluster: Cluster) -> None:
    client = cluster.client
    draining = cluster.instances["otari-1"]
    assert draining.proc is not None
    busy, idle = _create_on(client, "otari-1"), _create_on(client, "otari-1")
    slow = {"tool": "code_execution", "input": {"code": "import time; time.sleep(3)"}}
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        running = pool.submit(client.post, f"/sessions/{busy}/exec", json=slow)
        wait_until(lambda: httpx.get(f"{draining.url}/health").json()["requests_in_flight"] > 0,
                   10, "the slow call to start")
        draining.proc.send_signal(signal.SIGTERM)
        wait_until(lambda: httpx.get(f"{draining.url}/health/ready").status_code == 503, 5,
                   "readiness to fail")
        # Session calls go through the per-instance upstreams, so least_conn still offers
        # otari-1 its turn: the proxy passes each refusal (503) to another instance.
        newcomers = [_create(client) for _ in range(6)]
        assert "otari-1" not in {_instance(s) for s in newcomers}
        # Its own sessions still answer through the proxy while it drains.
        assert client.post(f"/sessions/{idle}/exec", json=CODE).status_code == 200
        assert running.result().status_code == 200
    draining.proc.wait(15)
    for session_id in newcomers:
        assert client.delete(f"/sessions/{session_id}").status_code == 204


def _create_on(client: httpx.Client, name: str) -> str:
    """A session on instance ``name`` (least_conn spreads creates; the others are released)."""
    others = []
    for _ in range(20):
        session_id = _create(client)
        if _instance(session_id) == name:
            break
        others.append(session_id)
    for other in others:
        assert client.delete(f"/sessions/{other}").status_code == 204
    assert _instance(session_id) == name, "no session landed on " + name
    return session_id
