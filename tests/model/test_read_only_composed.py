"""`readOnly` anywhere inside compositions (issue 37, PagerDuty's contract), each a minimal
reproduction over real HTTP:

- PagerDuty's objects: `{allOf: [{$ref: '#/components/schemas/Tag/allOf/0'}, {...}]}`, a `$ref`
  into a part of a component whose `id` and `type` are readOnly, `type` declared again (without
  the flag) and required by the other member;
- PagerDuty's references: `Reference: {allOf: [{$ref: .../Tag/allOf/0}, {required: [type, id]}]}`;
- a readOnly flag two `allOf`s deep, and on every member of a `oneOf` (and writeOnly, mirrored);
- a discriminator whose tag is readOnly: requests carry no tag, so their union has none;
- PagerDuty's notifications: a property named `""` (an alias the runtime took for no alias).

OpenAPI 3.0 (4.7.24, `readOnly`): "SHOULD NOT be sent as part of the request. If the property
is marked as readOnly being true and is in the required list, the required will take effect on
the response only." 3.1 defers to JSON Schema, whose rule for annotations (2020-12 validation
9.4) marks a property readOnly when any subschema that applies to it says so: the generator
reads both alike. Responses are checked with openapi-schema-validator (a validator we did not
write); for requests it reads `readOnly` beside `required` only (tests/e2e/test_judge_read_only).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from gen_support import Generated, generate_package, openapi, serve
from openapi_schema_validator import OAS30ReadValidator
from pydantic import ValidationError

_REF = "#/components/schemas/"
_FLAGS = {"type": "object", "properties": {
    "id": {"type": "string", "readOnly": True},
    "type": {"type": "string", "readOnly": True},
    "self": {"type": "string", "nullable": True, "readOnly": True}}}

SCHEMAS: dict[str, Any] = {
    "Tag": {"allOf": [_FLAGS, {"type": "object", "required": ["label", "type"], "properties": {
        "type": {"type": "string", "enum": ["tag"], "default": "tag"},
        "label": {"type": "string"}}}]},
    "Team": {"allOf": [{"$ref": _REF + "Tag/allOf/0"}, {
        "type": "object", "required": ["name", "type"],
        "properties": {"type": {"type": "string", "enum": ["team"]}, "name": {"type": "string"}}}]},
    "Reference": {"allOf": [{"$ref": _REF + "Tag/allOf/0"},
                            {"type": "object", "required": ["type", "id"]}]},
    "ServiceReference": {"allOf": [{"$ref": _REF + "Reference"}, {
        "type": "object", "properties": {"type": {"type": "string", "enum": ["service_reference"]}}}]},
    "Integration": {"type": "object", "required": ["name", "service"], "properties": {
        "name": {"type": "string"},
        "service": {"$ref": _REF + "ServiceReference"},
        "owner": {"allOf": [{"allOf": [{"$ref": _REF + "Reference"}, {"readOnly": True}]}]},
        "audit": {"oneOf": [{"type": "string", "readOnly": True},
                            {"type": "integer", "readOnly": True}]},
        "note": {"oneOf": [{"type": "string", "readOnly": True}, {"type": "integer"}]},
        "token": {"allOf": [{"allOf": [{"type": "string"}, {"writeOnly": True}]}]}}},
    "Base": {"type": "object", "required": ["kind"], "properties": {
        "kind": {"type": "string", "readOnly": True}}},
    "Phone": {"allOf": [{"$ref": _REF + "Base"}, {"type": "object", "required": ["number"],
        "properties": {"kind": {"type": "string", "enum": ["phone"]}, "number": {"type": "string"}}}]},
    "Email": {"allOf": [{"$ref": _REF + "Base"}, {"type": "object", "required": ["address"],
        "properties": {"kind": {"type": "string", "enum": ["email"]}, "address": {"type": "string"}}}]},
    "Contact": {"oneOf": [{"$ref": _REF + "Phone"}, {"$ref": _REF + "Email"}],
                "discriminator": {"propertyName": "kind"}},
    "Notification": {"type": "object", "properties": {
        "id": {"type": "string"}, "": {"type": "string"}}},
}


def _body(name: str) -> dict[str, Any]:
    return {"content": {"application/json": {"schema": {"$ref": _REF + name}}}}


def _create(operation: str, name: str) -> dict[str, Any]:
    return {"post": {"operationId": operation, "requestBody": {"required": True, **_body(name)},
                     "responses": {"201": {"description": "made", **_body(name)}}}}


SPEC = openapi({
    "/teams": _create("createTeam", "Team"),
    "/tags": _create("createTag", "Tag"),
    "/integrations": _create("createIntegration", "Integration"),
    "/contacts": _create("createContact", "Contact"),
    "/notifications": {"get": {"operationId": "listNotifications", "responses": {"200": {
        "description": "ok", "content": {"application/json": {"schema": {
            "type": "array", "items": {"$ref": _REF + "Notification"}}}}}}}},
}, SCHEMAS, version="3.0.3")


@pytest.fixture(scope="module")
def pkg(tmp_path_factory: pytest.TempPathFactory) -> Generated:
    return generate_package(SPEC, tmp_path_factory.mktemp("ro_composed"))


def _valid_answer(name: str, value: Any) -> None:
    """`value` is a valid response body of schema `name`, by openapi-schema-validator."""
    OAS30ReadValidator({"$ref": _REF + name, "components": SPEC["components"]}).validate(value)


def test_request_models_leave_read_only_properties_out_wherever_flagged(pkg: Generated) -> None:
    models = pkg.models
    assert set(models.TeamRequest.model_fields) == {"name"}
    assert set(models.TagRequest.model_fields) == {"label"}
    assert set(models.ServiceReferenceRequest.model_fields) == set()
    assert set(models.IntegrationRequest.model_fields) == {"name", "service", "note", "token"}
    # the responses keep them, and `required` takes effect there
    assert {"id", "type", "self", "name"} <= set(models.Team.model_fields)
    with pytest.raises(ValidationError, match="type"):
        models.Team.model_validate({"name": "t"})
    with pytest.raises(ValidationError, match="id"):
        models.ServiceReference.model_validate({"type": "service_reference"})
    assert {"owner", "audit", "note"} <= set(models.Integration.model_fields)
    assert "token" not in models.Integration.model_fields  # writeOnly, as deep: the mirror


def test_over_http_a_request_without_read_only_properties_is_taken(pkg: Generated) -> None:
    seen: list[Any] = []
    models = pkg.models

    class Service(pkg.server.ServiceBase):  # type: ignore[misc,name-defined]
        async def create_team(self, body: Any) -> Any:
            seen.append(body.model_dump(mode="json"))
            return models.Team(id="T1", type="team", name=body.name)

        async def create_integration(self, body: Any) -> Any:
            seen.append(body.model_dump(mode="json"))
            return models.Integration.model_validate({
                "name": body.name, "service": {"id": "S1", "type": "service_reference"},
                "owner": {"id": "U1", "type": "user_reference"}, "audit": 3,
                "token": body.token})  # the careless service echoes the writeOnly token

    with serve(pkg.server.create_app(Service())) as url:
        with pkg.client.Client(url) as client:
            team = client.create_team(models.TeamRequest(name="core"))
            made = client.create_integration(models.IntegrationRequest.model_validate(
                {"name": "mail", "service": {}, "token": "t"}))
        # what a client sends by hand: the readOnly values are dropped, not refused
        raw = httpx.post(f"{url}/teams", json={"id": "forged", "type": "team", "name": "b"})
        answer = raw.json()
    assert seen == [{"name": "core"}, {"name": "mail", "service": {}, "token": "t"},
                    {"name": "b"}]
    assert team.model_dump(mode="json") == {"id": "T1", "type": "team", "name": "core"}
    assert made.service.id == "S1" and made.owner is not None and made.audit == 3
    assert "token" not in made.model_dump(mode="json")
    assert raw.status_code == 201 and answer == {"id": "T1", "type": "team", "name": "b"}
    _valid_answer("Team", answer)
    _valid_answer("Integration", made.model_dump(mode="json"))


def test_a_read_only_tag_tells_no_request_apart(pkg: Generated) -> None:
    """Requests carry no readOnly tag: their union is told apart by the members' own fields
    (a tagged union of models without the tag would not even build); responses keep it."""
    models = pkg.models
    assert type(models.ContactRequestAdapter.validate_python(
        {"address": "a@example.com"})).__name__ == "EmailRequest"
    assert type(models.ContactRequestAdapter.validate_python(
        {"number": "555"})).__name__ == "PhoneRequest"
    assert type(models.ContactAdapter.validate_python(
        {"kind": "email", "address": "a@example.com"})).__name__ == "Email"
    with pytest.raises(ValidationError):
        models.ContactRequestAdapter.validate_python({"kind": "email"})


def test_a_read_only_tag_is_warned_of_where_the_request_union_is(tmp_path: Path) -> None:
    """The request union tries its members in turn, and a value fitting several is read as the
    first: the generator says so where the union is, naming the tag."""
    import contractgen

    spec = tmp_path / "contacts.json"
    spec.write_text(json.dumps(SPEC), encoding="utf-8")
    _, problems = contractgen.render(spec)
    said = [(p.pointer, p.message) for p in problems if "told apart" in p.message]
    assert said == [("/components/schemas/Contact", "the members are told apart by `kind`, which "
                     "the contract marks readOnly, so a request carries no tag and a value that "
                     "fits several members is read as the first it fits (hint: drop `readOnly` "
                     "from `kind` with an overlay if requests send it)")]


def test_a_property_named_empty_is_omitted_while_unset(pkg: Generated) -> None:
    """PagerDuty's `Notification` declares a property named `""`: unset, it is not answered as
    `null` (which its schema refuses); set, it is answered under its own name."""
    models = pkg.models
    answers = [models.Notification(id="N1"), models.Notification.model_validate({"": "x"})]

    class Service(pkg.server.ServiceBase):  # type: ignore[misc,name-defined]
        async def list_notifications(self) -> Any:
            return answers

    with serve(pkg.server.create_app(Service())) as url:
        raw = httpx.get(f"{url}/notifications").json()
        with pkg.client.Client(url) as client:
            listed = client.list_notifications()
    assert raw == [{"id": "N1"}, {"": "x"}]
    for item in raw:
        _valid_answer("Notification", item)
    assert [n.value for n in listed] == [None, "x"]
    with pytest.raises(ValidationError, match="must not be null"):
        models.Notification.model_validate({"": None})


def test_a_required_property_flagged_by_another_member_is_warned_of(tmp_path: Path) -> None:
    """PagerDuty's references: `required: [type, id]` in one `allOf` member, `readOnly` on both
    in another. The flag wins (the request model has neither), and the generator says so where
    the schema is, since the author of the `required` likely meant them sent. A property flagged
    beside its own `required` (Base's `kind`) is the usual readOnly id: no warning."""
    import contractgen

    spec = tmp_path / "references.json"
    spec.write_text(json.dumps(SPEC), encoding="utf-8")
    _, problems = contractgen.render(spec)
    said = sorted((p.pointer, p.message.split("`")[1]) for p in problems
                  if "by another `allOf` member" in p.message)
    assert said == [  # where a request model is built: ServiceReference, through Reference
        ("/components/schemas/ServiceReference", "id"),
        ("/components/schemas/ServiceReference", "type"),
        ("/components/schemas/Tag", "type"), ("/components/schemas/Team", "type")]
    message = next(p.message for p in problems if p.pointer == "/components/schemas/Team"
                   and "by another `allOf` member" in p.message)
    assert message.startswith("`type` is required, but marked readOnly by another `allOf` "
                              "member, so request models leave it out")
    assert "drop `readOnly` there with an overlay" in message
