"""readOnly / writeOnly over real HTTP: a request model (`<Name>Request`) carries no readOnly
property, a response model never a writeOnly one (a writeOnly `secret` is not echoed back),
whatever the service or the client hands them."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from gen_support import Generated, generate_package, openapi, serve

USER = {
    "type": "object",
    "required": ["id", "name", "secret"],
    "properties": {
        "id": {"type": "string", "readOnly": True},
        "name": {"type": "string"},
        "secret": {"type": "string", "writeOnly": True},
        "address": {"type": "object", "properties": {"city": {"type": "string"}}},
    },
}
TEAM = {"type": "object", "properties": {
    "members": {"type": "array", "items": {"$ref": "#/components/schemas/User"}},
    "label": {"type": "string"}}}
PLAIN = {"type": "object", "properties": {"x": {"type": "integer"}}}


def _body(name: str) -> dict[str, Any]:
    return {"content": {"application/json": {"schema": {"$ref": f"#/components/schemas/{name}"}}}}


SPEC = openapi({
    "/users": {"post": {
        "operationId": "createUser", "requestBody": {"required": True, **_body("User")},
        "responses": {"201": {"description": "created", **_body("User")}}}},
    "/teams": {"post": {
        "operationId": "createTeam", "requestBody": {"required": True, **_body("Team")},
        "responses": {"200": {"description": "ok", **_body("Team")}}}},
    "/plain": {"post": {
        "operationId": "echoPlain", "requestBody": {"required": True, **_body("Plain")},
        "responses": {"200": {"description": "ok", **_body("Plain")}}}},
    "/batch": {"post": {
        "operationId": "postBatch", "requestBody": {"required": True, **_body("Batch")},
        "responses": {"200": {"description": "ok", **_body("Batch")}}}},
    "/form": {"post": {
        "operationId": "postForm",
        "requestBody": {"required": True, "content": {"application/x-www-form-urlencoded": {
            "schema": {"type": "object", "properties": {
                "id": {"type": "string", "readOnly": True}, "name": {"type": "string"}}}}}},
        "responses": {"204": {"description": "ok"}}}},
}, {"User": USER, "Team": TEAM, "Plain": PLAIN,
    "Account": {"allOf": [{"$ref": "#/components/schemas/User"},
                          {"type": "object", "properties": {"plan": {"type": "string"}}}]},
    "Either": {"oneOf": [{"$ref": "#/components/schemas/Account"},
                         {"$ref": "#/components/schemas/Plain"}]},
    "Batch": {"type": "object", "properties": {"items": {
        "type": "array", "items": {"$ref": "#/components/schemas/Either"}}}}})


@pytest.fixture(scope="module")
def pkg(tmp_path_factory: pytest.TempPathFactory) -> Generated:
    return generate_package(SPEC, tmp_path_factory.mktemp("rw"))


def test_request_and_response_models_are_separate(pkg: Generated) -> None:
    models = pkg.models
    assert set(models.User.model_fields) == {"id", "name", "address"}
    assert set(models.UserRequest.model_fields) == {"name", "secret", "address"}
    # what reads the same both ways is shared, what refers to a split schema splits too
    assert models.UserRequest.model_fields["address"].annotation == (
        models.User.model_fields["address"].annotation)
    assert "TeamRequest" in models.__all__
    assert not hasattr(models, "PlainRequest")
    # a stray readOnly value in a request, writeOnly value in a response: dropped, not kept
    assert models.UserRequest(name="a", secret="s", id="x").model_dump(mode="json") == {
        "name": "a", "secret": "s"}
    user = models.User.model_validate({"id": "1", "name": "a", "secret": "s"})
    assert user.model_dump(mode="json") == {"id": "1", "name": "a"}
    assert models.User(id="1", name="a", secret="s").model_dump(mode="json") == {
        "id": "1", "name": "a"}


def test_over_http_secret_is_not_echoed_and_id_not_accepted(pkg: Generated) -> None:
    seen: list[Any] = []

    class Service(pkg.server.ServiceBase):  # type: ignore[misc,name-defined]
        async def create_user(self, body: Any) -> Any:
            seen.append(body)
            # the careless service: the request's data (secret included) as the response
            return pkg.models.User(id="u1", **body.model_dump())

        async def create_team(self, body: Any) -> Any:
            seen.append(body)
            members = [pkg.models.User(id=f"u{i}", **m.model_dump())
                       for i, m in enumerate(body.members or [])]
            return pkg.models.Team(members=members, label=body.label)

    with serve(pkg.server.create_app(Service())) as url:
        raw = httpx.post(f"{url}/users", json={"id": "forged", "name": "ann", "secret": "pw"})
        assert raw.status_code == 201
        assert raw.json() == {"id": "u1", "name": "ann"}
        assert type(seen[-1]).__name__ == "UserRequest"
        assert seen[-1].secret == "pw" and "id" not in seen[-1].model_dump()
        with pkg.client.Client(url) as client:
            made = client.create_user(pkg.models.UserRequest(name="bo", secret="pw2"))
            assert isinstance(made, pkg.models.User)
            assert made.model_dump(mode="json") == {"id": "u1", "name": "bo"}
            team = client.create_team(pkg.models.TeamRequest(
                members=[pkg.models.UserRequest(name="cy", secret="s")], label="t"))
        assert team.model_dump(mode="json") == {"members": [{"id": "u0", "name": "cy"}],
                                                "label": "t"}
        assert seen[-1].members[0].secret == "s"
        # a required writeOnly property is required of requests
        assert httpx.post(f"{url}/users", json={"name": "ann"}).status_code == 422


def test_forms_leave_read_only_fields_out(pkg: Generated) -> None:
    import dataclasses

    names = {f.name for f in dataclasses.fields(pkg.server.PostFormForm)}
    assert names == {"name"}


def test_none_for_an_optional_non_nullable_field_means_unset_over_http(pkg: Generated) -> None:
    """What mypy accepts (`Plain(x=None)`), the runtime accepts: the field is left out; JSON
    `null` on the wire is still refused."""

    class Service(pkg.server.ServiceBase):  # type: ignore[misc,name-defined]
        async def echo_plain(self, body: Any) -> Any:
            assert "x" not in body.model_fields_set
            return pkg.models.Plain(x=None)

    with serve(pkg.server.create_app(Service())) as url:
        with pkg.client.Client(url) as client:
            answer = client.echo_plain(pkg.models.Plain(x=None))
        assert answer.x is None and answer.model_dump(mode="json") == {}
        assert httpx.post(f"{url}/plain", json={}).json() == {}
        assert httpx.post(f"{url}/plain", json={"x": None}).status_code == 422


def test_splits_follow_all_of_unions_and_arrays(pkg: Generated) -> None:
    models = pkg.models
    assert set(models.AccountRequest.model_fields) == {"name", "secret", "address", "plan"}
    assert set(models.Account.model_fields) == {"id", "name", "address", "plan"}
    batch = models.BatchRequest.model_validate(
        {"items": [{"id": "x", "name": "a", "secret": "s", "plan": "p"}, {"x": 1}]})
    assert type(batch.items[0]).__name__ == "AccountRequest"
    assert batch.model_dump(mode="json") == {
        "items": [{"name": "a", "secret": "s", "plan": "p"}, {"x": 1}]}
    answer = models.Batch.model_validate(
        {"items": [{"id": "x", "name": "a", "secret": "s"}]})
    assert answer.model_dump(mode="json") == {"items": [{"id": "x", "name": "a"}]}
