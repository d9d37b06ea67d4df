"""Compositions of real contracts whose keywords were lost (issue 37, item 4), each a minimal
reproduction, with jsonschema (a validator we did not write) as the judge of what a schema
accepts:

- GitHub's check runs: an object with its own `properties` beside a `oneOf`;
- TGI's chat `Message`: an `allOf` with a `oneOf` member;
- Asana's `parent: {allOf: [$ref, {readOnly: true}]}`: readOnly inside an `allOf` member.
"""

from __future__ import annotations

from typing import Any

import httpx
import jsonschema
import pytest
from gen_support import Generated, generate_package, openapi, serve
from pydantic import TypeAdapter, ValidationError
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

_REF = "#/components/schemas/"

SCHEMAS: dict[str, Any] = {
    # GitHub `POST /repos/{owner}/{repo}/check-runs`, cut down.
    "CheckRun": {
        "type": "object", "required": ["name", "head_sha"],
        "properties": {
            "name": {"type": "string"}, "head_sha": {"type": "string"},
            "status": {"type": "string", "enum": ["queued", "in_progress", "completed"],
                       "default": "queued"},
            "conclusion": {"type": "string", "enum": ["success", "failure"]},
        },
        "oneOf": [
            {"properties": {"status": {"enum": ["completed"]}},
             "required": ["status", "conclusion"], "additionalProperties": True},
            {"properties": {"status": {"enum": ["queued", "in_progress"]}},
             "additionalProperties": True},
        ],
    },
    # TGI's `Message`, cut down.
    "MessageContent": {"oneOf": [{"type": "string"},
                                 {"type": "array", "items": {"type": "string"}}]},
    "MessageBody": {"oneOf": [
        {"type": "object", "required": ["content"],
         "properties": {"content": {"$ref": _REF + "MessageContent"}}},
        {"type": "object", "required": ["tool_calls"],
         "properties": {"tool_calls": {"type": "array", "items": {"type": "string"}}}},
    ]},
    "Message": {"allOf": [
        {"$ref": _REF + "MessageBody"},
        {"type": "object", "required": ["role"], "properties": {
            "name": {"type": ["string", "null"]}, "role": {"type": "string"}}},
    ]},
    # A base listing the schemas that extend it (and extended by them): a union of them, each
    # extension a model of its own (spreading the base's union into them would never end).
    "Pet": {"type": "object", "required": ["petType"],
            "properties": {"petType": {"type": "string"}, "name": {"type": "string"}},
            "oneOf": [{"$ref": _REF + "Cat"}, {"$ref": _REF + "Dog"}],
            "discriminator": {"propertyName": "petType",
                              "mapping": {"cat": _REF + "Cat", "dog": _REF + "Dog"}}},
    "Cat": {"allOf": [{"$ref": _REF + "Pet"},
                      {"type": "object", "properties": {"lives": {"type": "integer"}}}]},
    "Dog": {"allOf": [{"$ref": _REF + "Pet"}, {"type": "object", "required": ["bark"],
                                               "properties": {"bark": {"type": "boolean"}}}]},
    # Asana's attachments, cut down.
    "TaskCompact": {"type": "object", "properties": {
        "gid": {"type": "string", "readOnly": True}, "name": {"type": "string"}}},
    "Attachment": {"type": "object", "properties": {
        "name": {"type": "string"},
        "parent": {"allOf": [
            {"$ref": _REF + "TaskCompact"},
            {"type": "object", "readOnly": True, "description": "the task attached to"}]},
    }},
}


def _body(name: str) -> dict[str, Any]:
    return {"content": {"application/json": {"schema": {"$ref": _REF + name}}}}


def _post(operation: str, name: str) -> dict[str, Any]:
    return {"post": {"operationId": operation, "requestBody": {"required": True, **_body(name)},
                     "responses": {"200": {"description": "ok", **_body(name)}}}}


SPEC = openapi({"/check-runs": _post("createCheckRun", "CheckRun"),
                "/messages": _post("postMessage", "Message"),
                "/attachments": _post("createAttachment", "Attachment")}, SCHEMAS)


@pytest.fixture(scope="module")
def pkg(tmp_path_factory: pytest.TempPathFactory) -> Generated:
    return generate_package(SPEC, tmp_path_factory.mktemp("composition"))


def _judge(name: str) -> jsonschema.Draft202012Validator:
    registry: Registry[Any] = Registry().with_resource(
        "urn:contract", Resource.from_contents(SPEC, default_specification=DRAFT202012))
    return jsonschema.Draft202012Validator({"$ref": "urn:contract" + _REF + name},
                                           registry=registry)


def _accepts(kind: Any, value: Any) -> bool:
    try:
        TypeAdapter(kind).validate_python(value)
    except ValidationError:
        return False
    return True


CHECK_RUNS = [
    {"name": "lint", "head_sha": "abc"},
    {"name": "lint", "head_sha": "abc", "status": "in_progress"},
    {"name": "lint", "head_sha": "abc", "status": "completed", "conclusion": "success"},
    {"name": 5, "head_sha": "abc"},
    {"head_sha": "abc"},
    {"name": "lint", "head_sha": "abc", "status": "completed"},
    {"name": "lint", "head_sha": "abc", "status": "done"},
    {"name": "lint", "head_sha": "abc", "conclusion": "maybe", "status": "completed"},
]
MESSAGES = [
    {"role": "user", "content": "hi"},
    {"role": "user", "content": ["a", "b"], "name": None},
    {"role": "assistant", "tool_calls": ["t"]},
    {"role": "user"},
    {"content": "hi"},
    {"role": "user", "content": 3},
    {"role": 1, "tool_calls": ["t"]},
]


@pytest.mark.parametrize(("name", "values"), [("CheckRun", CHECK_RUNS), ("Message", MESSAGES)])
def test_the_model_accepts_what_jsonschema_accepts(pkg: Generated, name: str,
                                                   values: list[Any]) -> None:
    judge = _judge(name)
    kind = getattr(pkg.models, name)
    verdicts = {repr(v): (judge.is_valid(v), _accepts(kind, v)) for v in values}
    assert {v: ours for v, (_, ours) in verdicts.items()} == {
        v: theirs for v, (theirs, _) in verdicts.items()}
    assert any(theirs for theirs, _ in verdicts.values())  # both kinds of value are tried
    assert not all(theirs for theirs, _ in verdicts.values())


def test_over_http_the_server_refuses_what_the_schema_refuses(pkg: Generated) -> None:
    seen: list[Any] = []

    class Service(pkg.server.ServiceBase):  # type: ignore[misc,name-defined]
        async def create_check_run(self, body: Any) -> Any:
            seen.append(body)
            return body

        async def post_message(self, body: Any) -> Any:
            seen.append(body)
            return body

    with serve(pkg.server.create_app(Service())) as url:
        assert httpx.post(f"{url}/check-runs", json={"name": 5, "head_sha": "a"}
                          ).status_code == 422
        assert httpx.post(f"{url}/check-runs", json={
            "name": "n", "head_sha": "a", "status": "completed"}).status_code == 422
        assert httpx.post(f"{url}/messages", json={"role": "user"}).status_code == 422
        assert seen == []
        with pkg.client.Client(url) as client:
            answer = client.post_message(pkg.models.MessageAdapter.validate_python(
                {"role": "user", "content": ["a"]}))
            run = client.create_check_run(pkg.models.CheckRunAdapter.validate_python(
                {"name": "n", "head_sha": "a", "status": "completed", "conclusion": "success"}))
    assert answer.model_dump(mode="json") == {"role": "user", "content": ["a"]}
    assert run.model_dump(mode="json", exclude_unset=True)["conclusion"] == "success"
    assert [type(s).__name__ for s in seen] == ["MessageVariant1", "CheckRunVariant1"]


def test_read_only_inside_an_all_of_member_stays_out_of_requests(pkg: Generated) -> None:
    models = pkg.models
    assert set(models.Attachment.model_fields) == {"name", "parent"}
    assert set(models.AttachmentRequest.model_fields) == {"name"}
    seen: list[Any] = []

    class Service(pkg.server.ServiceBase):  # type: ignore[misc,name-defined]
        async def create_attachment(self, body: Any) -> Any:
            seen.append(body.model_dump(mode="json"))
            return models.Attachment.model_validate({"name": body.name, "parent": {"gid": "1"}})

    with serve(pkg.server.create_app(Service())) as url:
        with pkg.client.Client(url) as client:
            made = client.create_attachment(models.AttachmentRequest.model_validate(
                {"name": "a", "parent": {"gid": "2"}}))
        raw = httpx.post(f"{url}/attachments", json={"name": "b", "parent": {"name": "x"}})
    assert made.parent is not None and made.parent.gid == "1"
    assert raw.status_code == 200
    assert seen == [{"name": "a"}, {"name": "b"}]


def test_a_base_listing_its_extensions_is_their_union(pkg: Generated) -> None:
    """jsonschema cannot judge this one (Pet -> Cat -> Pet never ends): the discriminator's
    mapping tells the extensions apart."""
    pet = pkg.models.PetAdapter
    assert type(pet.validate_python({"petType": "dog", "bark": True})).__name__ == "Dog"
    assert type(pet.validate_python({"petType": "cat", "lives": 9})).__name__ == "Cat"
    for wrong in ({"petType": "dog"}, {"petType": "bird"}, {"petType": "cat", "lives": "x"}):
        assert not _accepts(pkg.models.Pet, wrong), wrong
    assert set(pkg.models.Cat.model_fields) == {"petType", "name", "lives"}
