"""A request body declared as JSON and as multipart (or urlencoded) with one schema (OpenAI's
uploads), over real HTTP: both reach the service as the same model, the client sends either
(`content_type=`), and another media type is refused with 415 (issue 28)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import contractgen
import httpx
import pytest
from gen_support import Generated, generate_package, openapi, serve

VIDEO = {"$ref": "#/components/schemas/CreateVideo"}
SPEC = openapi({
    "/videos": {"post": {
        "operationId": "createVideo",
        "requestBody": {"required": True, "content": {
            "application/json": {"schema": VIDEO},
            "multipart/form-data": {"schema": VIDEO}}},
        "responses": {"200": {"description": "what the service received", "content": {
            "application/json": {"schema": {"type": "object", "additionalProperties": True}}}}},
    }},
    "/notes": {"post": {
        "operationId": "createNote",
        "requestBody": {"content": {
            "application/json": {"schema": {"$ref": "#/components/schemas/Note"}},
            "application/x-www-form-urlencoded": {
                "schema": {"$ref": "#/components/schemas/Note"}}}},
        "responses": {"200": {"description": "what the service received", "content": {
            "application/json": {"schema": {"type": "object", "additionalProperties": True}}}}},
    }},
}, {
    "CreateVideo": {"type": "object", "required": ["prompt"], "properties": {
        "prompt": {"type": "string"},
        "seconds": {"type": "integer"},
        "loop": {"type": "boolean"},
        "input_reference": {"type": "string", "format": "binary"},
        "tags": {"type": "array", "items": {"type": "string"}},
        "labels": {"type": "array", "items": {"type": "string"}, "maxItems": 5,
                   "uniqueItems": True},
        "size": {"type": "object", "properties": {"w": {"type": "integer"}}}}},
    "Note": {"type": "object", "required": ["text"], "properties": {
        "text": {"type": "string"}, "pinned": {"type": "boolean"}}},
})


@pytest.fixture(scope="module")
def package(tmp_path_factory: pytest.TempPathFactory) -> Generated:
    return generate_package(SPEC, tmp_path_factory.mktemp("json_or_form"))


def _seen(body: Any) -> dict[str, Any]:
    """What the service received, as JSON: each field's type name and value."""
    if body is None:
        return {"body": None}
    return {key: [type(value).__name__, value.decode("latin-1") if isinstance(value, bytes) else
                  value.model_dump() if hasattr(value, "model_dump") else value]
            for key, value in vars(body).items() if value is not None}


@pytest.fixture(scope="module")
def base_url(package: Generated) -> Iterator[str]:
    class Service(package.server.ServiceBase):  # type: ignore[misc,name-defined]
        async def create_video(self, body: Any) -> Any:
            assert isinstance(body, package.models.CreateVideo)
            return _seen(body)

        async def create_note(self, body: Any) -> Any:
            return _seen(body)

    with serve(package.server.create_app(Service())) as url:
        yield url


EXPECTED = {"prompt": ["str", "a cat"], "seconds": ["int", 4], "loop": ["bool", True],
            "input_reference": ["bytes", "GIF89a"], "tags": ["list", ["x"]],
            "size": ["CreateVideoSize", {"w": 3}]}


@pytest.mark.parametrize("content_type", ["application/json", "multipart/form-data"])
def test_the_client_sends_either_and_the_service_gets_the_same_model(
        package: Generated, base_url: str, content_type: str) -> None:
    models = package.models
    body = models.CreateVideo(prompt="a cat", seconds=4, loop=True, input_reference=b"GIF89a",
                              tags=["x"], size=models.CreateVideoSize(w=3))
    with package.client.Client(base_url) as client:
        assert client.create_video(body, content_type=content_type) == EXPECTED

    async def main() -> Any:
        async with package.client.AsyncClient(base_url) as client:
            return await client.create_video(body, content_type=content_type)

    assert asyncio.run(main()) == EXPECTED


def test_a_multipart_body_as_a_browser_sends_it(base_url: str) -> None:
    with httpx.Client(base_url=base_url, timeout=10) as http:
        answer = http.post("/videos", data={"prompt": "p", "seconds": "5", "tags": ["a", "b"]},
                           files={"input_reference": ("ref.gif", b"\x00\xff", "image/gif")})
        assert answer.status_code == 200, answer.text
        seen = answer.json()
        assert seen["seconds"] == ["int", 5] and seen["tags"] == ["list", ["a", "b"]]
        wrong = http.post("/videos", data={"prompt": "p", "seconds": "many"},
                          files={"input_reference": ("ref.gif", b"x", "image/gif")})
        assert wrong.status_code == 422
        assert any(e["loc"] == ["body", "seconds"] for e in wrong.json()["detail"])
        refused = http.post("/videos", content=b"<video/>",
                            headers={"Content-Type": "application/xml"})
        assert refused.status_code == 415


def test_a_constrained_list_sent_once_is_a_list(base_url: str) -> None:
    # `maxItems`/`uniqueItems` make the field's type `Annotated[list[str], ...]`: a form that
    # repeats it once is still a list of one (it was refused, "Input should be a valid list")
    with httpx.Client(base_url=base_url, timeout=10) as http:
        answer = http.post("/videos", data={"prompt": "p", "labels": "a"},
                           files={"input_reference": ("ref.gif", b"x", "image/gif")})
        assert answer.status_code == 200, answer.text
        assert answer.json()["labels"] == ["list", ["a"]]


def test_an_optional_body_as_a_urlencoded_form(package: Generated, base_url: str) -> None:
    models = package.models
    note = models.Note(text="hi", pinned=False)
    with package.client.Client(base_url) as client:
        sent = client.create_note(note, content_type="application/x-www-form-urlencoded")
        assert sent == {"text": ["str", "hi"], "pinned": ["bool", False]}
        assert client.create_note(None) == {"body": None}


def test_the_form_media_type_is_not_warned_about(tmp_path: Path) -> None:
    path = tmp_path / "spec.json"
    path.write_text(json.dumps(SPEC), encoding="utf-8")
    assert [p for p in contractgen.validate(path) if "form" in p.message] == []
