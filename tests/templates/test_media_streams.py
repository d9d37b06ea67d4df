"""Responses in several media types, Server-Sent Events and streamed downloads, over real HTTP
(uvicorn on loopback, the generated clients): the server honours `Accept` (406 when nothing
fits), the client chooses; events and bytes arrive while the server is still producing them."""

from __future__ import annotations

import asyncio
import importlib
import threading
from collections.abc import AsyncIterator, Iterator
from typing import Any

import httpx
import pytest
from gen_support import Generated, generate_package, openapi, serve

REPORT = {"type": "object", "required": ["rows"], "properties": {"rows": {"type": "integer"}}}
TICK = {"type": "object", "required": ["n"], "properties": {"n": {"type": "integer"}}}
BINARY = {"type": "string", "format": "binary"}
NOT_FOUND = {"404": {"description": "no such thing", "content": {"application/json": {
    "schema": {"type": "object", "properties": {"detail": {"type": "string"}}}}}}}
SPEC = openapi({
    "/report": {"get": {"operationId": "getReport", "responses": {"200": {
        "description": "the report", "content": {
            "application/json": {"schema": {"$ref": "#/components/schemas/Report"}},
            "text/csv": {"schema": {"type": "string"}},
            "application/pdf": {"schema": BINARY}}}}}},
    "/video/{name}": {"get": {"operationId": "getVideo", "parameters": [
        {"name": "name", "in": "path", "required": True, "schema": {"type": "string"}}],
        "responses": {"200": {"description": "the video", "content": {
            "video/mp4": {"schema": BINARY}}}, **NOT_FOUND}}},
    "/ticks": {"get": {"operationId": "watchTicks", "parameters": [
        {"name": "count", "in": "query", "required": True, "schema": {"type": "integer"}}],
        "responses": {"200": {"description": "ticks", "headers": {"X-Stream-Id": {
            "schema": {"type": "integer"}}}, "content": {"text/event-stream": {
            "schema": {"type": "string"},
            "x-contractgen-event-schema": {"$ref": "#/components/schemas/Tick"}}}},
            **NOT_FOUND}}},
    "/log": {"get": {"operationId": "tailLog", "responses": {"200": {
        "description": "log lines", "content": {"text/event-stream": {
            "schema": {"type": "string"}}}}}}},
}, {"Report": REPORT, "Tick": TICK})


class Gates:
    """What the service waits for and tells: each a threading.Event the test sets or reads."""

    def __init__(self) -> None:
        self.release = threading.Event()  # the test got the first item: produce the rest
        self.released_in_time = threading.Event()
        self.closed = threading.Event()  # the stream's producer ran its `finally`

    async def wait(self) -> None:
        if await asyncio.to_thread(self.release.wait, 30):
            self.released_in_time.set()


@pytest.fixture(scope="module")
def pkg(tmp_path_factory: pytest.TempPathFactory) -> Generated:
    return generate_package(SPEC, tmp_path_factory.mktemp("media"))


@pytest.fixture
def gates() -> Gates:
    return Gates()


@pytest.fixture
def url(pkg: Generated, gates: Gates) -> Iterator[str]:
    server = pkg.server

    class Service(server.ServiceBase):  # type: ignore[misc,name-defined]
        async def get_report(self) -> Any:
            media = server.chosen_media_type()
            if media == "text/csv":
                return "rows\n3\n"
            if media == "application/pdf":
                return b"%PDF-1.7"
            return pkg.models.Report(rows=3)

        async def get_video(self, name: str) -> Any:
            if name == "missing":
                raise pkg.errors.GetVideoNotFound(pkg.models.GetVideoNotFoundBody(detail=name))

            async def chunks() -> AsyncIterator[bytes]:
                try:
                    yield b"first"
                    await gates.wait()
                    yield b"second"
                finally:
                    gates.closed.set()

            return chunks()

        async def watch_ticks(self, *, count: int) -> Any:
            if count < 0:
                raise pkg.errors.WatchTicksNotFound(pkg.models.WatchTicksNotFoundBody())

            async def ticks() -> AsyncIterator[Any]:
                try:
                    yield pkg.models.Tick(n=0)
                    await gates.wait()
                    for n in range(1, count):
                        yield server.ServerEvent(pkg.models.Tick(n=n), event="tick", id=str(n))
                finally:
                    gates.closed.set()

            return server.Reply(ticks(), server.WatchTicksHeaders(x_stream_id=count))

        async def tail_log(self) -> Any:
            async def lines() -> AsyncIterator[Any]:
                yield "line one"
                await gates.wait()
                yield server.ServerEvent("line two", event="log")

            return lines()

    with serve(server.create_app(Service())) as base:
        yield base


def test_the_server_answers_the_media_type_accept_asks_for(url: str) -> None:
    assert httpx.get(url + "/report").json() == {"rows": 3}  # no preference: JSON
    csv = httpx.get(url + "/report", headers={"Accept": "text/csv"})
    assert (csv.headers["content-type"].split(";")[0], csv.text) == ("text/csv", "rows\n3\n")
    pdf = httpx.get(url + "/report", headers={"Accept": "text/*;q=0.5, application/pdf"})
    assert (pdf.headers["content-type"], pdf.content) == ("application/pdf", b"%PDF-1.7")
    json = httpx.get(url + "/report", headers={"Accept": "text/csv;q=0.2, */*;q=0.9"})
    assert json.headers["content-type"] == "application/json"


def test_nothing_acceptable_is_a_406(url: str) -> None:
    refused = httpx.get(url + "/report", headers={"Accept": "image/png, text/csv;q=0"})
    assert refused.status_code == 406
    assert "application/json, text/csv, application/pdf" in refused.text
    video = httpx.get(url + "/video/a", headers={"Accept": "application/json"})
    assert video.status_code == 406


def test_the_client_chooses_and_gets_each_media_type_typed(pkg: Generated, url: str) -> None:
    with pkg.client.Client(url) as client:
        assert client.get_report() == pkg.models.Report(rows=3)
        assert client.get_report(accept="text/csv") == "rows\n3\n"
        assert client.get_report(accept="application/pdf") == b"%PDF-1.7"
        answer = client.get_report_detailed(accept="text/csv")
        assert (answer.status, answer.body) == (200, "rows\n3\n")

    async def main() -> Any:
        async with pkg.client.AsyncClient(url) as client:
            return await client.get_report(accept="application/pdf")

    assert asyncio.run(main()) == b"%PDF-1.7"


def test_events_arrive_typed_while_the_server_still_produces(
    pkg: Generated, url: str, gates: Gates
) -> None:
    with pkg.client.Client(url) as client:
        events = client.watch_ticks(count=3)
        first = next(events)  # the server now waits for `release`: nothing was buffered
        assert (first.data, first.event) == (pkg.models.Tick(n=0), "message")
        gates.release.set()
        rest = list(events)
    assert gates.released_in_time.is_set()
    assert [(e.data.n, e.event, e.id) for e in rest] == [(1, "tick", "1"), (2, "tick", "2")]


def test_detailed_events_answer_status_typed_headers_then_events(
    pkg: Generated, url: str, gates: Gates
) -> None:
    with pkg.client.Client(url) as client:
        answer = client.watch_ticks_detailed(count=3)
        assert (answer.status, answer.headers.x_stream_id) == (200, 3)  # before any event
        assert answer.raw_headers["content-type"].startswith("text/event-stream")
        with answer.body as events:
            assert next(events).data == pkg.models.Tick(n=0)  # the server waits for `release`
            gates.release.set()
            assert [(e.data.n, e.event) for e in events] == [(1, "tick"), (2, "tick")]
        with pytest.raises(pkg.errors.WatchTicksNotFound):
            client.watch_ticks_detailed(count=-1)
    assert gates.released_in_time.is_set()


def test_async_detailed_events(pkg: Generated, url: str, gates: Gates) -> None:
    async def main() -> tuple[int, None, list[Any]]:
        async with pkg.client.AsyncClient(url) as client:
            answer = await client.tail_log_detailed()
            seen = []
            async with answer.body as events:
                async for event in events:
                    seen.append(event.data)
                    gates.release.set()
            return answer.status, answer.headers, seen

    assert asyncio.run(main()) == (200, None, ["line one", "line two"])


def test_closing_a_detailed_event_stream_stops_its_producer(
    pkg: Generated, url: str, gates: Gates
) -> None:
    with pkg.client.Client(url) as client:
        answer = client.watch_ticks_detailed(count=5)
        assert next(answer.body).data.n == 0
        answer.body.close()
        assert gates.closed.wait(30)
    gates.release.set()


def test_async_events_and_untyped_data(pkg: Generated, url: str, gates: Gates) -> None:
    async def main() -> list[Any]:
        async with pkg.client.AsyncClient(url) as client:
            seen = []
            async for event in client.tail_log():
                seen.append((event.event, event.data))
                gates.release.set()
            return seen

    assert asyncio.run(main()) == [("message", "line one"), ("log", "line two")]
    assert gates.released_in_time.is_set()


def test_a_client_leaving_an_event_stream_stops_its_producer(
    pkg: Generated, url: str, gates: Gates
) -> None:
    with pkg.client.Client(url) as client:
        events = client.watch_ticks(count=5)
        assert next(events).data.n == 0
        events.close()  # the connection closes; the server cancels the producer
        assert gates.closed.wait(30)
    gates.release.set()


def test_an_idle_event_stream_sends_keep_alive_pings(
    pkg: Generated, url: str, gates: Gates, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(importlib.import_module(f"{pkg.name}._server_media"), "PING_SECONDS", 1)
    lines = []
    with httpx.stream("GET", url + "/log", timeout=30) as response:
        assert response.headers["content-type"].startswith("text/event-stream")
        for line in response.iter_lines():
            lines.append(line)
            if line.startswith(": ping"):
                gates.release.set()  # the server was idle, waiting: a ping came meanwhile
            if line == "data: line two":
                break
    assert lines[0] == "data: line one"
    assert any(line.startswith(": ping") for line in lines)


def test_a_stream_answering_an_error_raises_the_declared_error(
    pkg: Generated, url: str
) -> None:
    with pkg.client.Client(url) as client:
        with pytest.raises(pkg.errors.WatchTicksNotFound):
            next(client.watch_ticks(count=-1))
        with pytest.raises(pkg.errors.GetVideoNotFound) as caught:
            next(client.get_video_stream("missing"))
        assert caught.value.body.detail == "missing"


def test_a_download_streams_end_to_end(pkg: Generated, url: str, gates: Gates) -> None:
    with pkg.client.Client(url) as client:
        chunks = client.get_video_stream("a")
        assert next(chunks) == b"first"  # the server is still waiting to send the rest
        gates.release.set()
        assert b"".join(chunks) == b"second"
    assert gates.released_in_time.is_set()


def test_an_async_download_streams_end_to_end(
    pkg: Generated, url: str, gates: Gates
) -> None:
    async def main() -> list[bytes]:
        async with pkg.client.AsyncClient(url) as client:
            received = []
            async for chunk in client.get_video_stream("a"):
                received.append(chunk)
                gates.release.set()
            return received

    assert b"".join(asyncio.run(main())) == b"firstsecond"
    assert gates.released_in_time.is_set()


def test_request_media_types_left_out_are_located_warnings(tmp_path: Any) -> None:
    import json

    import contractgen

    spec = openapi({"/watch": {"get": {
        "operationId": "watch",
        "responses": {"200": {"description": "ok", "content": {
            "text/event-stream": {"schema": {"type": "string"}},
            "application/json": {"schema": {"type": "object"}}}}}}},
        "/upload": {"post": {
        "operationId": "upload",
        "requestBody": {"content": {"application/json": {"schema": {"type": "object"}},
                                    "application/xml": {"schema": {"type": "object"}}}},
        "responses": {"200": {"description": "ok", "content": {"application/json": {
            "schema": {"type": "object"}, "x-contractgen-event-schema": TICK}}},
            "400": {"description": "bad", "content": {
                "application/problem+json": {"schema": {"type": "object"}},
                "text/plain": {"schema": {"type": "string"}}}}}}}})
    path = tmp_path / "spec.json"
    path.write_text(json.dumps(spec, indent=1), encoding="utf-8")
    problems = contractgen.validate(path)
    where = {(p.pointer, p.line is not None) for p in problems}
    assert ("/paths/~1upload/post/requestBody/content/application~1xml", True) in where
    assert ("/paths/~1upload/post/responses/200/content/application~1json/"
            "x-contractgen-event-schema", True) in where
    assert ("/paths/~1upload/post/responses/400/content/text~1plain", True) in where
    # Beside an event stream, a JSON answer is generated (`watch`, `watch_events`): no warning.
    assert ("/paths/~1watch/get/responses/200/content/application~1json", True) not in where


def test_an_sdk_with_event_streams_depends_on_httpx_sse(tmp_path: Any) -> None:
    import json

    from contractgen.api import generate_sdk

    path = tmp_path / "spec.json"
    path.write_text(json.dumps(SPEC), encoding="utf-8")
    generate_sdk(path, tmp_path / "sdk", package_name="media-client")
    assert '"httpx-sse>=0.4"' in (tmp_path / "sdk/pyproject.toml").read_text("utf-8")
    plain = openapi({"/a": {"get": {"responses": {"204": {"description": "ok"}}}}})
    path.write_text(json.dumps(plain), encoding="utf-8")
    generate_sdk(path, tmp_path / "plain", package_name="plain-client")
    assert "httpx-sse" not in (tmp_path / "plain/pyproject.toml").read_text("utf-8")


@pytest.mark.slow  # mypy over the generated package
def test_the_chosen_media_type_types_the_result(pkg: Generated) -> None:
    import subprocess
    import sys

    usage = pkg.dir / "usage.py"
    usage.write_text(
        "from .client import Client\n"
        "client = Client('http://127.0.0.1')\n"
        "reveal_type(client.get_report(accept='text/csv'))\n"
        "reveal_type(client.get_report(accept='application/pdf'))\n"
        "reveal_type(client.get_report(accept='application/json'))\n"
        "reveal_type(client.get_report())\n"
        "reveal_type(next(client.watch_ticks(count=1)).data)\n"
        "reveal_type(client.watch_ticks_detailed(count=1).headers.x_stream_id)\n"
        "reveal_type(next(client.watch_ticks_detailed(count=1).body).data)\n", encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental",
                           "-p", pkg.name], cwd=pkg.dir.parent, capture_output=True, text=True,
                          check=False)
    revealed = [line.split("Revealed type is ")[1].replace("builtins.", "").replace(
        f"{pkg.name}.", "") for line in proc.stdout.splitlines() if "Revealed type is" in line]
    assert revealed == ['"str"', '"bytes"', '"models.Report"', '"models.Report | str | bytes"',
                        '"models.Tick"', '"int | None"', '"models.Tick"'], proc.stdout
    assert " error: " not in proc.stdout, proc.stdout
