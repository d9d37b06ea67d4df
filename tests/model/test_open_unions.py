"""Open unions: a response's union of models whose value matches no member the client knows (a
discriminator value the server added) is an `UnknownMember` keeping the data (sync and async,
over a loopback server); a known member's invalid data is still an error; request unions stay
closed; `x-enum-closed` and `open_enums=False` opt out; mypy sees `UnknownMember` in the type."""

from __future__ import annotations

import asyncio
import copy
import json
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import httpx
import pytest
from contractgen.emit.source import result_annotation, server_result
from contractgen.model.parse import build_api
from contractgen.spec import load
from failing_server import Script, failing_server
from gen_support import Generated, generate_package, openapi, serve
from pydantic import ValidationError


def _json(schema: dict[str, Any]) -> dict[str, Any]:
    return {"content": {"application/json": {"schema": schema}}}


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


SPEC = openapi(
    {
        "/pets/{pet_id}": {"get": {
            "operationId": "getPet",
            "parameters": [{"name": "pet_id", "in": "path", "required": True,
                            "schema": {"type": "string"}}],
            "responses": {"200": {"description": "ok", **_json(_ref("Pet"))}},
        }},
        "/owner": {"get": {
            "operationId": "getOwner",
            "responses": {"200": {"description": "ok", **_json(_ref("Owner"))}},
        }},
        "/pets": {"post": {
            "operationId": "addPet",
            "requestBody": {"required": True, **_json(_ref("Pet"))},
            "responses": {"201": {"description": "ok", **_json(_ref("Pet"))}},
        }},
        "/pets/events": {"get": {
            "operationId": "watchPets",
            "responses": {"200": {"description": "pets as they come", "content": {
                "text/event-stream": {"schema": {"type": "string"},
                                      "x-contractgen-event-schema": _ref("Pet")}}}},
        }},
        # Discord's list_channel_invites: a list of an inline discriminated union.
        "/pets/list": {"get": {
            "operationId": "listPets",
            "responses": {"200": {"description": "ok", **_json({"type": "array", "items": {
                "oneOf": [_ref("Cat"), _ref("Dog")],
                "discriminator": {"propertyName": "petType"}}})}},
        }},
        "/shapes": {"get": {
            "operationId": "getShape",
            "responses": {"200": {"description": "ok", **_json(_ref("Shape"))}},
        }},
    },
    {
        "Cat": {"type": "object", "required": ["petType", "lives"], "properties": {
            "petType": {"const": "cat"}, "lives": {"type": "integer"}}},
        "Dog": {"type": "object", "required": ["petType"], "properties": {
            "petType": {"const": "dog"}}},
        "Pet": {"oneOf": [_ref("Cat"), _ref("Dog")], "discriminator": {"propertyName": "petType"}},
        # Not discriminated: the members differ by their required properties.
        "Owner": {"type": "object", "properties": {"pets": {"type": "array", "items": {
            "anyOf": [_ref("Named"), _ref("Numbered")]}}}},
        "Named": {"type": "object", "required": ["name"], "properties": {"name": {"type": "string"}},
                  "additionalProperties": False},
        "Numbered": {"type": "object", "required": ["number"], "additionalProperties": False,
                     "properties": {"number": {"type": "integer"}}},
        "Square": {"type": "object", "required": ["shape"], "properties": {
            "shape": {"const": "square"}}},
        "Round": {"type": "object", "required": ["shape"], "properties": {
            "shape": {"const": "round"}}},
        "Shape": {"oneOf": [_ref("Square"), _ref("Round")], "x-enum-closed": True},
    },
)


@pytest.fixture(scope="module")
def api(tmp_path_factory: pytest.TempPathFactory) -> Generated:
    return generate_package(SPEC, tmp_path_factory.mktemp("unions"))


def _answer(body: Any) -> Script:
    return Script([(200, {"content-type": "application/json"}, json.dumps(body).encode())])


def call(api: Generated, url: str, mode: str, method: str, *args: Any, **options: Any) -> Any:
    if mode == "sync":
        with api.client.Client(url, **options) as client:
            return getattr(client, method)(*args)

    async def main() -> Any:
        async with api.client.AsyncClient(url, **options) as client:
            return await getattr(client, method)(*args)

    return asyncio.run(main())


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_an_unknown_member_is_kept(api: Generated, mode: str) -> None:
    is_unknown, unknown = api.client.is_unknown, api.models.UnknownMember
    bird = {"petType": "bird", "wings": 2}
    with failing_server(_answer(bird)) as url:
        pet = call(api, url, mode, "get_pet", "1")
    assert isinstance(pet, unknown) and is_unknown(pet)
    assert (pet.root, pet.tag, pet.discriminator) == (bird, "bird", "petType")
    assert json.loads(pet.model_dump_json()) == bird
    with failing_server(_answer({"petType": "cat", "lives": 9})) as url:
        cat = call(api, url, mode, "get_pet", "1")
    assert isinstance(cat, api.models.Cat) and not is_unknown(cat)
    owner_body = {"pets": [{"name": "Ann"}, {"number": 7}, {"email": "x@y.z"}]}
    with failing_server(_answer(owner_body)) as url:
        owner = call(api, url, mode, "get_owner")
    assert [type(p).__name__ for p in owner.pets] == ["Named", "Numbered", "UnknownMember"]
    assert owner.pets[2].root == {"email": "x@y.z"} and owner.pets[2].tag is None
    assert json.loads(owner.model_dump_json(exclude_unset=True)) == owner_body


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_an_event_stream_keeps_an_unknown_member(api: Generated, mode: str) -> None:
    events = [{"petType": "dog"}, {"petType": "bird", "wings": 2}]
    body = "".join(f"data: {json.dumps(e)}\n\n" for e in events).encode()
    script = Script([(200, {"content-type": "text/event-stream"}, body)])
    with failing_server(script) as url:
        if mode == "sync":
            with api.client.Client(url) as client:
                got = [event.data for event in client.watch_pets()]
        else:
            async def main() -> list[Any]:
                async with api.client.AsyncClient(url) as client:
                    return [event.data async for event in client.watch_pets()]

            got = asyncio.run(main())
    assert isinstance(got[0], api.models.Dog)
    assert isinstance(got[1], api.models.UnknownMember) and got[1].tag == "bird"


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_known_members_closed_unions_and_closed_clients_refuse(api: Generated, mode: str) -> None:
    refused = api.errors.ResponseValidationError
    # A member the client knows, with data off its schema: an error, not an unknown member.
    with failing_server(_answer({"petType": "cat", "lives": "many"})) as url, \
            pytest.raises(refused, match="lives") as caught:
        call(api, url, mode, "get_pet", "1")
    assert isinstance(caught.value.__cause__, ValidationError)
    with failing_server(_answer({"shape": "hexagon"})) as url, pytest.raises(refused):
        call(api, url, mode, "get_shape")
    with failing_server(_answer({"petType": "bird"})) as url, pytest.raises(refused):
        call(api, url, mode, "get_pet", "1", open_enums=False)


def test_request_unions_stay_closed(api: Generated) -> None:
    models = api.models
    with pytest.raises(ValidationError):
        models.PetAdapter.validate_python({"petType": "bird"})

    class Service(api.server.ServiceBase):  # type: ignore[misc,name-defined]
        async def add_pet(self, body: Any) -> Any:
            return body

    with serve(api.server.create_app(Service())) as url, api.client.Client(url) as client:
        assert httpx.post(f"{url}/pets", json={"petType": "bird"}).status_code == 422
        assert isinstance(client.add_pet(models.Dog(petType="dog")), models.Dog)
        # The server's OpenAPI document shows the contract's union, not UnknownMember.
        document = httpx.get(f"{url}/openapi.json").text
    assert "UnknownMember" not in document


PROGRAM = """
    from {pkg} import models
    from {pkg}.client import Client


    def describe(client: Client) -> str:
        pet = client.get_pet("1")
        if isinstance(pet, models.Cat):
            return f"cat {{pet.lives}}"
        if isinstance(pet, models.Dog):
            return "dog"
        return f"unknown {{pet.tag}}"


    def wrong(client: Client) -> int:
        return client.get_pet("1").lives
"""


@pytest.mark.slow
def test_mypy_sees_the_unknown_member(api: Generated) -> None:
    base = api.dir.parent
    (base / "unions_program.py").write_text(textwrap.dedent(PROGRAM.format(pkg=api.name)))
    found = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--cache-dir", str(base / ".mypy_cache"),
         "unions_program.py"], cwd=base, capture_output=True, text=True, timeout=300,
        check=False)
    lines = [line for line in found.stdout.splitlines() if ": error:" in line]
    assert len(lines) == 2, found.stdout + found.stderr
    assert 'Item "Dog" of "Cat | Dog | UnknownMember" has no attribute "lives"' in found.stdout
    assert 'Item "UnknownMember" of "Cat | Dog | UnknownMember" has no attribute "lives"' \
        in found.stdout


def test_the_package_passes_ruffs_default_rules(api: Generated) -> None:
    # The server spells responses closed: it imported OpenUnion and UnknownMember for nothing
    # (F401 on Discord).
    ruff = subprocess.run([sys.executable, "-m", "ruff", "check", "--isolated", str(api.dir)],
                          capture_output=True, text=True, check=False)
    assert ruff.returncode == 0, ruff.stdout


def test_unknown_member_is_exported(api: Generated) -> None:
    assert "UnknownMember" in api.models.__all__ and "UnknownMember" in api.client.__all__


def test_diff_reads_an_added_response_union_member_as_not_breaking() -> None:
    from contractgen.diff import diff_documents

    changed = copy.deepcopy(SPEC)
    schemas = changed["components"]["schemas"]
    schemas["Bird"] = {"type": "object", "required": ["petType"], "properties": {
        "petType": {"const": "bird"}}}
    schemas["Pet"]["oneOf"].append(_ref("Bird"))
    schemas["Hexagon"] = {"type": "object", "required": ["shape"], "properties": {
        "shape": {"const": "hexagon"}}}
    schemas["Shape"]["oneOf"].append(_ref("Hexagon"))
    changes = [c for c in diff_documents(SPEC, changed) if c.id.endswith("one-of-added")]
    pet = [c for c in changes if "Bird" in c.message or "bird" in c.message]
    shape = [c for c in changes if "Hexagon" in c.message or "hexagon" in c.message]
    response = [c for c in pet if c.direction == "response"]
    assert response and all(c.level != "breaking" for c in response), pet
    assert all("UnknownMember" in c.message for c in response)
    # A request gains a member: not breaking either (the server accepts more).
    assert all(c.level != "breaking" for c in pet if c.direction == "request")
    assert any(c.level == "breaking" for c in shape if c.direction == "response"), shape


def test_a_response_holds_its_body_type_once_open_and_the_server_spells_it_closed(
        tmp_path: Path) -> None:
    # Discord's list_channel_invites: the IR holds the open type once (issue 29); the client
    # reads it open, the server, which sends it, spells it closed.
    (tmp_path / "spec.json").write_text(json.dumps(SPEC), encoding="utf-8")
    document, _ = load(tmp_path / "spec.json")
    api = build_api(document, spec_display="spec.json")
    op = next(op for op in api.operations if op.id == "listPets")
    [ok] = op.success
    assert ok.type is not None and ok.type is ok.representations[0].type
    assert ok.type.args[0].open
    assert result_annotation(op) == (
        'list[Annotated[models.Cat | models.Dog | UnknownMember, OpenUnion("petType")]]')
    assert server_result(op) == (
        'list[Annotated[models.Cat | models.Dog, Field(discriminator="petType")]]')
