"""A response body that does not match its schema raises `errors.ResponseValidationError` (an
`ApiError`, carrying the operation, status, body and raw bytes, pydantic's error its cause), not
pydantic's bare ValidationError: sync, async, detailed and paged, against a loopback server."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pydantic
import pytest
from failing_server import Script, failing_server
from gen_support import Generated, generate_package, openapi

PET = {"type": "object", "required": ["id", "name"],
       "properties": {"id": {"type": "integer"}, "name": {"type": "string"}}}


def _ok(schema: Any) -> dict[str, Any]:
    return {"200": {"description": "ok", "content": {"application/json": {"schema": schema}}}}


@pytest.fixture(scope="module")
def pets(tmp_path_factory: pytest.TempPathFactory) -> Generated:
    spec = openapi({
        "/pets/{pet_id}": {"get": {
            "operationId": "getPet",
            "parameters": [{"name": "pet_id", "in": "path", "required": True,
                            "schema": {"type": "integer"}}],
            "responses": _ok({"$ref": "#/components/schemas/Pet"})}},
        "/pets": {"get": {
            "operationId": "listPets",
            "parameters": [{"name": "offset", "in": "query", "schema": {"type": "integer"}}],
            "responses": _ok({"type": "array", "items": {"$ref": "#/components/schemas/Pet"}})}},
        "/pets/{pet_id}/card": {"get": {
            "operationId": "getCard",
            "parameters": [{"name": "pet_id", "in": "path", "required": True,
                            "schema": {"type": "integer"}}],
            "responses": {"200": {"description": "ok", "content": {
                "application/json": {"schema": {"$ref": "#/components/schemas/Pet"}},
                "text/plain": {"schema": {"type": "string"}}}}}}},
    }, {"Pet": PET})
    return generate_package(spec, tmp_path_factory.mktemp("pets"))


def _answer(body: bytes) -> tuple[int, dict[str, str], bytes]:
    return 200, {"content-type": "application/json", "x-request-id": "r-1"}, body


def _call(api: Generated, url: str, mode: str, method: str, *args: Any) -> Any:
    if mode == "sync":
        with api.client.Client(url) as client:
            return getattr(client, method)(*args)

    async def main() -> Any:
        async with api.client.AsyncClient(url) as client:
            return await getattr(client, method)(*args)

    return asyncio.run(main())


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_a_body_off_its_schema_is_an_api_error(pets: Generated, mode: str) -> None:
    raw = json.dumps({"id": "seven", "name": "Rex"}).encode()
    with failing_server(Script([_answer(raw)])) as url:
        with pytest.raises(pets.errors.ResponseValidationError) as caught:
            _call(pets, url, mode, "get_pet", 7)
        error = caught.value
        assert isinstance(error, pets.errors.ApiError)
        assert not isinstance(error, pydantic.ValidationError)
        assert isinstance(error.__cause__, pydantic.ValidationError)
        assert (error.operation, error.status_code, error.raw) == ("getPet", 200, raw)
        assert error.body == {"id": "seven", "name": "Rex"} and error.request_id == "r-1"
        assert str(error).startswith("getPet: HTTP 200 OK: ")
        assert "does not match the contract at id: " in str(error)
        with pytest.raises(pets.errors.ResponseValidationError):
            _call(pets, url, mode, "get_pet_detailed", 7)


def test_a_body_that_is_not_json_and_a_bad_page(pets: Generated) -> None:
    with failing_server(Script([_answer(b"{oops")])) as url:
        with pytest.raises(pets.errors.ResponseValidationError) as caught:
            _call(pets, url, "sync", "get_pet", 7)
    assert caught.value.body == "{oops" and caught.value.raw == b"{oops"
    script = Script([_answer(b'[{"id": 1, "name": "a"}]'), _answer(b'[{"id": 2}]')])
    with failing_server(script) as url, pets.client.Client(url) as client:
        seen = []
        with pytest.raises(pets.errors.ResponseValidationError) as caught:
            seen.extend(client.list_pets_iter())
    assert [p.id for p in seen] == [1] and caught.value.operation == "listPets"
    assert "name: Field required" in str(caught.value)


def test_a_good_body_still_parses(pets: Generated) -> None:
    with failing_server(Script([_answer(b'{"id": 7, "name": "Rex"}')])) as url:
        assert _call(pets, url, "sync", "get_pet", 7).name == "Rex"


def test_a_response_in_several_media_types(pets: Generated) -> None:
    script = Script([_answer(b'{"id": 1}'), _answer(b'{"id": 1, "name": "Rex"}'),
                     (200, {"content-type": "text/plain"}, b"Rex")])
    with failing_server(script) as url, pets.client.Client(url) as client:
        with pytest.raises(pets.errors.ResponseValidationError, match="name: Field required"):
            client.get_card(1)
        assert client.get_card(1).name == "Rex" and client.get_card(1) == "Rex"
