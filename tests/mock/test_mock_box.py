"""The mock of Box's contract (../shared/corpus, 296 operations): the CRUD scenario passes
conformance, it starts in well under a second of CPU once its server is generated, and a
stored item's GET takes well under 2 ms. CPU time, not wall time: the figures hold on a
shared machine."""

from __future__ import annotations

import asyncio
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from contractgen.mock import Mock, serving
from contractgen.project.conformance import run_scenario
from shared_corpus import corpus_spec

HERE = Path(__file__).resolve().parent
AUTH = {"Authorization": "Bearer t"}
_STARTUP = """
import json, time
wall, cpu = time.perf_counter(), time.process_time()
from contractgen.mock import Mock
Mock({spec!r})
print(json.dumps([time.perf_counter() - wall, time.process_time() - cpu]))
"""


@pytest.fixture(scope="module")
def box(tmp_path_factory: pytest.TempPathFactory) -> Path:
    spec = corpus_spec("box", tmp_path_factory.mktemp("box"))
    Mock(spec)  # generates its server package into the cache: ~20 s, once
    return spec


@pytest.mark.corpus
def test_the_crud_scenario_conforms_on_box(box: Path) -> None:
    with serving(box) as url:
        assert url.endswith("/2.0")
        results = run_scenario(box, HERE / "box-crud.yaml", url, token="t")
    assert [(r.operation, r.problems) for r in results if r.problems] == []
    assert [r.status for r in results][-2:] == [204, 404]


@pytest.mark.corpus
def test_box_starts_in_under_a_second_of_cpu(box: Path) -> None:
    runs = [json.loads(subprocess.run(
        [sys.executable, "-c", _STARTUP.format(spec=str(box))], capture_output=True,
        text=True, timeout=120, check=True).stdout) for _ in range(3)]
    wall, cpu = (statistics.median(r[i] for r in runs) for i in (0, 1))
    print(f"Box mock start: wall {wall:.2f} s, cpu {cpu:.2f} s")
    assert cpu < 1.0


async def _get(app: Any, path: str) -> tuple[int, bytes]:
    """One GET through the ASGI app itself (no HTTP client): what the mock spends on it."""
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET",
             "scheme": "http", "path": path, "raw_path": path.encode(), "root_path": "",
             "query_string": b"", "headers": [(b"host", b"mock"), (b"authorization", b"Bearer t")],
             "client": ("127.0.0.1", 1), "server": ("127.0.0.1", 80)}
    await app(scope, receive, send)
    return int(sent[0]["status"]), b"".join(m.get("body", b"") for m in sent[1:])


@pytest.mark.corpus
def test_a_stored_get_takes_under_2_ms(box: Path) -> None:
    async def measure() -> list[float]:
        app = Mock(box).app
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://mock/2.0",
                                     headers=AUTH) as http:
            made = await http.post("/folders", json={"name": "r", "parent": {"id": "0"}})
        path = f"/2.0/folders/{made.json()['id']}"
        status, body = await _get(app, path)
        assert status == 200 and json.loads(body)["name"] == "r"
        cpus = []
        for _ in range(300):
            started = time.process_time()
            await _get(app, path)
            cpus.append(time.process_time() - started)
        return cpus

    cpus = asyncio.run(measure())
    print(f"Box stored GET: cpu p50 {statistics.median(cpus) * 1e3:.2f} ms")
    assert statistics.median(cpus) < 0.002
