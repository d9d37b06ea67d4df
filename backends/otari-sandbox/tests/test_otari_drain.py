"""SANDBOX_INSTANCE in session ids, and draining on SIGTERM: readiness off, no new sessions,
calls in flight finish up to SANDBOX_DRAIN_SECONDS, then the service ends."""

from __future__ import annotations

import re
import signal
import threading
import time

import httpx
import pytest
from otari_sandbox.config import Settings
from otari_sandbox.instance import new_session_id
from otari_support import Service
from pydantic import ValidationError


def test_session_ids_name_the_instance() -> None:
    assert re.fullmatch(r"sbx_otari-0_[0-9a-f]{24}", new_session_id("otari-0"))
    assert re.fullmatch(r"sbx_[0-9a-f]{24}", new_session_id(None))


@pytest.mark.parametrize("name", ["Otari-0", "otari_0", "-otari", "a" * 64, "", "otari.0"])
def test_an_instance_name_must_be_a_dns_label(name: str) -> None:
    with pytest.raises(ValidationError, match="not a DNS label"):
        Settings(instance=name)


def _sleeper(url: str, session_id: str, seconds: float, out: list[httpx.Response | Exception]) -> threading.Thread:
    code = f"import time; time.sleep({seconds}); print('done')"
    body = {"tool": "code_execution", "input": {"code": code}, "timeout_seconds": 100}

    def run() -> None:
        try:
            out.append(httpx.post(f"{url}/sessions/{session_id}/exec", json=body, timeout=120))
        except httpx.HTTPError as exc:
            out.append(exc)

    thread = threading.Thread(target=run)
    thread.start()
    return thread


def _wait_busy(service: Service) -> None:
    deadline = time.monotonic() + 10
    while httpx.get(f"{service.url}/health").json()["requests_in_flight"] < 1:
        assert time.monotonic() < deadline, "the call never started"
        time.sleep(0.02)


@pytest.mark.slow
def test_sigterm_drains_then_ends() -> None:
    service = Service("--pool-size", "1", env={"SANDBOX_DRAIN_SECONDS": "20", "SANDBOX_INSTANCE": "otari-7"})
    try:
        url = service.url
        busy, idle = (httpx.post(f"{url}/sessions", json={}).json()["session_id"] for _ in range(2))
        assert busy.startswith("sbx_otari-7_")
        assert httpx.get(f"{url}/health/ready").json() == {"status": "ready"}
        out: list[httpx.Response | Exception] = []
        thread = _sleeper(url, busy, 2, out)
        _wait_busy(service)
        signalled = time.monotonic()
        service.proc.send_signal(signal.SIGTERM)
        time.sleep(0.2)
        ready = httpx.get(f"{url}/health/ready")
        assert ready.status_code == 503 and ready.json() == {"status": "draining"}
        health = httpx.get(f"{url}/health")
        assert health.status_code == 200 and health.json()["draining"] is True
        refused = httpx.post(f"{url}/sessions", json={})
        assert refused.status_code == 503 and refused.headers["retry-after"] == "1"
        assert "draining" in refused.json()["detail"]
        # The sessions it holds keep answering while it drains.
        call = {"tool": "bash_code_execution", "input": {"command": "echo still"}}
        assert httpx.post(f"{url}/sessions/{idle}/exec", json=call, timeout=30).status_code == 200
        thread.join(30)
        response = out[0]
        assert isinstance(response, httpx.Response) and response.status_code == 200
        assert response.json()["result_block"]["content"]["stdout"] == "done"
        service.proc.wait(15)
        assert time.monotonic() - signalled < 2 + 10
    finally:
        service.stop()


@pytest.mark.slow
def test_the_drain_is_bounded() -> None:
    service = Service("--pool-size", "1", env={"SANDBOX_DRAIN_SECONDS": "1"})
    try:
        session_id = httpx.post(f"{service.url}/sessions", json={}).json()["session_id"]
        out: list[httpx.Response | Exception] = []
        thread = _sleeper(service.url, session_id, 60, out)
        _wait_busy(service)
        signalled = time.monotonic()
        service.proc.send_signal(signal.SIGTERM)
        service.proc.wait(30)
        # The bound (1 s), uvicorn's own grace (2 s) and the sandboxes' teardown.
        assert time.monotonic() - signalled < 8
        thread.join(10)
        assert not thread.is_alive()
    finally:
        service.stop()
