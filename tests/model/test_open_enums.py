"""Open enums: a response's enum value the client does not know is kept (sync and async, over
a loopback server), request enums stay closed, `x-enum-closed` and `open_enums=False` opt out,
and `contractgen diff` reads a value added to a response enum as not breaking our clients."""

from __future__ import annotations

import asyncio
import copy
import json
from typing import Any

import pytest
from failing_server import Script, failing_server
from gen_support import Generated, generate_package, openapi, serve
from pydantic import ValidationError


def _json(schema: dict[str, Any]) -> dict[str, Any]:
    return {"content": {"application/json": {"schema": schema}}}


PET = {"$ref": "#/components/schemas/Pet"}
SPEC = openapi(
    {
        "/pets/{pet_id}": {"get": {
            "operationId": "getPet",
            "parameters": [{"name": "pet_id", "in": "path", "required": True,
                            "schema": {"type": "string"}}],
            "responses": {"200": {"description": "ok", **_json(PET)}},
        }},
        "/pets": {"post": {
            "operationId": "addPet",
            "requestBody": {"required": True, **_json(PET)},
            "responses": {"201": {"description": "ok", **_json(PET)}},
        }},
    },
    {
        "Pet": {"type": "object", "required": ["kind"], "properties": {
            "kind": {"$ref": "#/components/schemas/Kind"},
            "size": {"$ref": "#/components/schemas/Size"},
            "level": {"$ref": "#/components/schemas/Level"},
        }},
        "Kind": {"type": "string", "enum": ["cat", "dog"]},
        "Size": {"type": "integer", "enum": [1, 2], "x-enum-closed": True},
        "Level": {"type": "number", "enum": [1.5, 2.5]},
    },
)


@pytest.fixture(scope="module")
def api(tmp_path_factory: pytest.TempPathFactory) -> Generated:
    return generate_package(SPEC, tmp_path_factory.mktemp("enums"))


def _answer(body: dict[str, Any]) -> Script:
    return Script([(200, {"content-type": "application/json"}, json.dumps(body).encode())])


def get_pet(api: Generated, url: str, mode: str, **options: Any) -> Any:
    if mode == "sync":
        with api.client.Client(url, **options) as client:
            return client.get_pet("1")

    async def main() -> Any:
        async with api.client.AsyncClient(url, **options) as client:
            return await client.get_pet("1")

    return asyncio.run(main())


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_unknown_response_values_and_fields_are_kept(api: Generated, mode: str) -> None:
    models, is_unknown = api.models, api.client.is_unknown
    with failing_server(_answer({"kind": "bird", "level": 3, "size": 2, "color": "red"})) as url:
        pet = get_pet(api, url, mode)
    assert isinstance(pet.kind, models.Kind) and is_unknown(pet.kind)
    assert (pet.kind.name, pet.kind.value, pet.kind == "bird") == ("UNKNOWN", "bird", True)
    assert pet.level.value == 3.0 and is_unknown(pet.level)
    assert pet.size is models.Size(2) and not is_unknown(pet.size)
    assert pet.model_extra == {"color": "red"}
    assert json.loads(pet.model_dump_json()) == {"kind": "bird", "level": 3.0, "size": 2,
                                                 "color": "red"}


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_closed_enum_and_closed_client_refuse_unknown_values(api: Generated, mode: str) -> None:
    # A body off its schema is the client's ResponseValidationError, pydantic's its cause.
    refused = api.errors.ResponseValidationError
    with failing_server(_answer({"kind": "cat", "size": 3})) as url, \
            pytest.raises(refused, match="size") as caught:
        get_pet(api, url, mode)
    assert isinstance(caught.value.__cause__, ValidationError)
    with failing_server(_answer({"kind": "bird"})) as url, \
            pytest.raises(refused, match="kind"):
        get_pet(api, url, mode, open_enums=False)


def test_request_enums_stay_closed(api: Generated) -> None:
    models = api.models
    with pytest.raises(ValidationError):
        models.Pet(kind="bird")
    with pytest.raises(ValueError, match="bird"):
        models.Kind("bird")

    class Service(api.server.ServiceBase):  # type: ignore[misc,name-defined]
        async def add_pet(self, body: Any) -> Any:
            return body

    with serve(api.server.create_app(Service())) as url, api.client.Client(url) as client:
        import httpx

        refused = httpx.post(f"{url}/pets", json={"kind": "bird"})
        assert refused.status_code == 422
        assert client.add_pet(models.Pet(kind=models.Kind.CAT)).kind is models.Kind.CAT


def test_diff_reads_an_added_response_enum_value_as_not_breaking() -> None:
    from contractgen.diff import diff_documents

    changed = copy.deepcopy(SPEC)
    changed["components"]["schemas"]["Kind"]["enum"].append("bird")
    changed["components"]["schemas"]["Size"]["enum"].append(3)
    changes = diff_documents(SPEC, changed)
    added = {c.message: c.level for c in changes if c.id.endswith("enum-value-added")
             and c.direction == "response"}
    kind = next(m for m in added if "bird" in m)
    size = next(m for m in added if "value 3 " in m)
    assert "contractgen keep a value they do not know" in kind and added[kind] != "breaking"
    assert added[size] == "breaking"
