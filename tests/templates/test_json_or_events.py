"""An operation answering JSON or Server-Sent Events (OpenAI's chat completions: the body's
`stream` flag picks), over real HTTP: the server answers what the service returns, the client
has a call returning the JSON model and one yielding typed events, sync and async (issue 28)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from typing import Any

import httpx
import pytest
from fastapi.responses import Response
from gen_support import Generated, generate_package, openapi, serve


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


SPEC = openapi({"/chat/completions": {"post": {
    "operationId": "createChatCompletion",
    "requestBody": {"required": True, "content": {"application/json": {
        "schema": _ref("ChatRequest")}}},
    "responses": {"200": {
        "description": "a completion, or its chunks as events when `stream` is true",
        "content": {"application/json": {"schema": _ref("Completion")},
                    # OpenAI's way: the event stream's schema is each event's data
                    "text/event-stream": {"schema": _ref("Chunk")}}}},
}}}, {
    "ChatRequest": {"type": "object", "required": ["prompt"], "properties": {
        "prompt": {"type": "string"}, "stream": {"type": "boolean", "default": False}}},
    "Completion": {"type": "object", "required": ["text"],
                   "properties": {"text": {"type": "string"}}},
    "Chunk": {"type": "object", "required": ["delta"],
              "properties": {"delta": {"type": "string"}}},
})


@pytest.fixture(scope="module")
def package(tmp_path_factory: pytest.TempPathFactory) -> Generated:
    return generate_package(SPEC, tmp_path_factory.mktemp("json_or_events"))


@pytest.fixture(scope="module")
def base_url(package: Generated) -> Iterator[str]:
    models = package.models

    class Service(package.server.ServiceBase):  # type: ignore[misc,name-defined]
        async def create_chat_completion(self, body: Any) -> Any:
            words = body.prompt.split()
            if words == ["[DONE]"]:
                sent = b'data: {"delta":"a"}\n\ndata: [DONE]\n\ndata: {"delta":"b"}\n\n'
                return Response(sent, media_type="text/event-stream")
            if not body.stream:
                return models.Completion(text=" ".join(words))

            async def chunks() -> AsyncIterator[Any]:
                for word in words:
                    yield models.Chunk(delta=word)

            return chunks()

    with serve(package.server.create_app(Service())) as url:
        yield url


def test_the_client_reads_the_json_answer(package: Generated, base_url: str) -> None:
    models = package.models
    with package.client.Client(base_url) as client:
        answer = client.create_chat_completion(models.ChatRequest(prompt="a b"))
        assert answer == models.Completion(text="a b")
        detailed = client.create_chat_completion_detailed(models.ChatRequest(prompt="c"))
        assert detailed.status == 200 and detailed.body == models.Completion(text="c")


def test_the_client_reads_typed_events(package: Generated, base_url: str) -> None:
    models = package.models
    with package.client.Client(base_url) as client:
        events = client.create_chat_completion_events(
            models.ChatRequest(prompt="a b c", stream=True))
        assert [e.data for e in events] == [models.Chunk(delta=w) for w in "abc"]
        answer = client.create_chat_completion_events_detailed(
            models.ChatRequest(prompt="d", stream=True))
        with answer.body as stream:
            assert [e.data for e in stream] == [models.Chunk(delta="d")]


def test_the_async_client_reads_both(package: Generated, base_url: str) -> None:
    models = package.models

    async def main() -> tuple[Any, list[Any]]:
        async with package.client.AsyncClient(base_url) as client:
            whole = await client.create_chat_completion(models.ChatRequest(prompt="x y"))
            events = client.create_chat_completion_events(
                models.ChatRequest(prompt="x y", stream=True))
            return whole, [e.data async for e in events]

    whole, chunks = asyncio.run(main())
    assert whole == models.Completion(text="x y")
    assert chunks == [models.Chunk(delta="x"), models.Chunk(delta="y")]


def test_the_service_result_decides_whatever_accept_says(base_url: str) -> None:
    # OpenAI's own SDK sends `Accept: application/json` when it asks for a stream.
    with httpx.Client(base_url=base_url, timeout=10) as http:
        streamed = http.post("/chat/completions", json={"prompt": "p q", "stream": True},
                             headers={"Accept": "application/json"})
        assert streamed.headers["content-type"].startswith("text/event-stream")
        assert [line for line in streamed.text.splitlines() if line.startswith("data:")] == [
            'data: {"delta":"p"}', 'data: {"delta":"q"}']
        whole = http.post("/chat/completions", json={"prompt": "p"},
                          headers={"Accept": "text/event-stream, application/json"})
        assert whole.headers["content-type"] == "application/json"
        assert whole.json() == {"text": "p"}


def test_a_typed_stream_ends_at_done(package: Generated, base_url: str) -> None:
    """LLM APIs end a typed stream with `data: [DONE]`, which is not JSON (the service sends
    it as a Response of its own here)."""
    models = package.models
    with package.client.Client(base_url) as client:
        events = client.create_chat_completion_events(
            models.ChatRequest(prompt="[DONE]", stream=True))
        assert [e.data for e in events] == [models.Chunk(delta="a")]
