"""What the generated server answers itself, over real HTTP (uvicorn on loopback): error bodies in
the contract's declared shapes and media types (validation, 401, 404, 405, 415, 501, `default`),
wire names in messages, raw bodies checked before the service runs, and query values of union or
Literal types read from their text (issue 28)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import contractgen
import httpx
import pytest
from gen_support import Generated, generate_package, openapi, serve


def _json(schema: dict[str, Any], description: str = "it") -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


SPEC = openapi({
    "/events/{eventId}": {
        "get": {
            "operationId": "getEvent",
            "security": [{"bearer": []}],
            "parameters": [
                {"name": "eventId", "in": "path", "required": True, "schema": {"type": "integer"}},
                {"name": "k", "in": "query",
                 "schema": {"type": "integer", "oneOf": [{"const": 1}, {"const": 2}]}},
                {"name": "b", "in": "query", "schema": {"type": "boolean", "enum": [True]}},
                {"name": "p", "in": "query", "schema": {
                    "anyOf": [{"type": "number"}, {"type": "string", "enum": ["auto"]}],
                    "default": 0.6}},
            ],
            "responses": {
                "200": _json({"type": "object", "additionalProperties": True}),
                "400": _json(_ref("ApiError")),
                "401": _json(_ref("ApiError")),
                "default": _json(_ref("ApiError")),
            },
        },
        "delete": {"operationId": "deleteEvent", "parameters": [
            {"name": "eventId", "in": "path", "required": True, "schema": {"type": "integer"}}],
            "responses": {"204": {"description": "gone"}, "default": _json(_ref("ApiError"))}},
    },
    "/articles": {"post": {
        "operationId": "createArticle",
        "requestBody": {"required": True, "content": {"application/json": {"schema": {
            "type": "object", "required": ["title"], "properties": {"title": {"type": "string"}}}}}},
        "responses": {"201": {"description": "made"},
                      "422": _json(_ref("GenericErrorModel"))},
    }},
    "/plain": {"post": {
        "operationId": "postPlain",
        "requestBody": {"required": True, "content": {"application/json": {"schema": {
            "type": "object", "required": ["n"], "properties": {"n": {"type": "integer"}}}}}},
        "responses": {"204": {"description": "ok"}, "400": {
            "description": "bad", "content": {"text/plain": {"schema": {"type": "string"}}}}},
    }},
    "/photo": {"put": {
        "operationId": "putPhoto",
        "requestBody": {"required": True, "content": {
            "image/jpeg": {"schema": {"type": "string", "format": "binary"}}}},
        "responses": {"204": {"description": "stored"}, "400": _json(_ref("ApiError"))},
    }},
}, {
    "Error": {"type": "object", "required": ["code", "message"], "properties": {
        "code": {"type": "integer", "format": "int32"}, "message": {"type": "string"}}},
    "ApiError": {"allOf": [_ref("Error"), {"type": "object", "properties": {
        "fields": {"type": "string"}}}]},
    "GenericErrorModel": {"type": "object", "required": ["errors"], "properties": {"errors": {
        "type": "object", "required": ["body"], "properties": {
            "body": {"type": "array", "items": {"type": "string"}}}}}},
}, components={"securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}}})


@pytest.fixture(scope="module")
def package(tmp_path_factory: pytest.TempPathFactory) -> Generated:
    return generate_package(SPEC, tmp_path_factory.mktemp("error_shapes"))


@pytest.fixture(scope="module")
def seen() -> dict[str, Any]:
    return {}


@pytest.fixture(scope="module")
def http(package: Generated, seen: dict[str, Any]) -> Iterator[httpx.Client]:
    class Service(package.server.ServiceBase):  # type: ignore[misc,name-defined]
        async def get_event(self, event_id: int, **query: Any) -> Any:
            seen["get_event"] = query
            return {key: value for key, value in query.items() if value is not None}

        async def put_photo(self, body: bytes) -> None:
            seen["put_photo"] = body

    app = package.server.create_app(Service(), bearer_token="t")
    with serve(app) as url, httpx.Client(base_url=url, timeout=10) as client:
        yield client


def _is_error(body: Any) -> bool:
    """The declared `ApiError`: allOf an `Error` with an integer code and a message."""
    return (isinstance(body, dict) and isinstance(body.get("code"), int)
            and isinstance(body.get("message"), str))


AUTH = {"Authorization": "Bearer t"}


def test_validation_error_fills_the_allof_error_and_names_wire_names(http: httpx.Client) -> None:
    answer = http.get("/events/abc", headers=AUTH)
    assert answer.status_code == 400  # declared 400, no 422
    assert _is_error(answer.json()) and answer.json()["code"] == 400
    assert "eventId" in answer.json()["message"] and "event_id" not in answer.json()["message"]


def test_401_404_405_and_501_answer_the_declared_error(http: httpx.Client) -> None:
    refused = http.get("/events/1")
    assert refused.status_code == 401 and _is_error(refused.json())
    missing = http.get("/nowhere")
    assert missing.status_code == 404 and _is_error(missing.json())
    assert missing.json()["code"] == 404
    not_allowed = http.post("/events/1")
    assert not_allowed.status_code == 405 and _is_error(not_allowed.json())
    assert set(not_allowed.headers["allow"].split(", ")) == {"DELETE", "GET"}
    assert http.head("/events/1", headers=AUTH).status_code == 405  # FastAPI adds no HEAD
    unimplemented = http.delete("/events/1")  # its `default` response is the shape
    assert unimplemented.status_code == 501 and _is_error(unimplemented.json())


def test_conduit_errors_body_is_a_list_of_strings(http: httpx.Client) -> None:
    answer = http.post("/articles", json={"title": 5})
    assert answer.status_code == 422
    lines = answer.json()["errors"]["body"]
    assert lines and all(isinstance(line, str) for line in lines)
    assert any(line.startswith("title:") for line in lines)
    unimplemented = http.post("/articles", json={"title": "t"})
    assert unimplemented.status_code == 501
    assert unimplemented.json() == {"errors": {"body": ["createArticle is not implemented"]}}


def test_text_plain_error_is_answered_as_text(http: httpx.Client) -> None:
    answer = http.post("/plain", json={"n": "x"})
    assert answer.status_code == 400
    assert answer.headers["content-type"].startswith("text/plain")
    assert answer.text.startswith("n:")


def test_raw_body_empty_or_of_another_media_type_is_refused_before_the_service(
        http: httpx.Client, seen: dict[str, Any]) -> None:
    seen.pop("put_photo", None)
    empty = http.put("/photo", content=b"", headers={"Content-Type": "image/jpeg"})
    assert empty.status_code == 400 and _is_error(empty.json())
    wrong = http.put("/photo", content=b"GIF89a", headers={"Content-Type": "image/gif"})
    assert wrong.status_code == 415 and _is_error(wrong.json())
    assert "put_photo" not in seen
    stored = http.put("/photo", content=b"\xff\xd8jpeg", headers={"Content-Type": "image/jpeg"})
    assert stored.status_code == 204 and seen["put_photo"] == b"\xff\xd8jpeg"


@pytest.mark.parametrize(("query", "expected"), [
    ("k=1", {"k": 1, "p": 0.6}),
    ("k=2&b=true", {"k": 2, "b": True, "p": 0.6}),
    ("p=0.5", {"p": 0.5}),
    ("p=auto", {"p": "auto"}),
])
def test_union_and_literal_query_values_are_read_into_their_type(
        http: httpx.Client, query: str, expected: dict[str, Any]) -> None:
    answer = http.get(f"/events/1?{query}", headers=AUTH)
    assert answer.status_code == 200, answer.text
    assert answer.json() == expected
    assert all(type(v) is type(expected[k]) for k, v in answer.json().items())


@pytest.mark.parametrize("query", ["k=3", "b=false", "p=garbage"])
def test_union_and_literal_query_values_outside_their_type_are_refused(
        http: httpx.Client, query: str) -> None:
    answer = http.get(f"/events/1?{query}", headers=AUTH)
    assert answer.status_code == 400 and _is_error(answer.json())


def test_the_client_sends_union_and_literal_query_values(
        package: Generated, http: httpx.Client) -> None:
    client = package.client.Client(str(http.base_url), token="t")
    assert client.get_event(1, k=2, b=True, p="auto") == {"k": 2, "b": True, "p": "auto"}


def test_an_error_schema_without_a_message_field_is_warned_about(tmp_path: Path) -> None:
    spec = openapi({"/c": {"get": {"operationId": "getC", "responses": {
        "200": {"description": "ok"}, "404": _json(_ref("Counted"))}}}},
        {"Counted": {"type": "object", "required": ["count"],
                     "properties": {"count": {"type": "integer"}}}})
    path = tmp_path / "counted.json"
    path.write_text(json.dumps(spec, indent=1), encoding="utf-8")
    _, problems = contractgen.render(path)
    warnings = [p.format() for p in problems]
    assert any(re.match(r".*counted\.json:\d+:\d+: warning: /components/schemas/Counted: .*"
                        "no field for a message", w) for w in warnings), warnings


def test_an_error_declared_in_neither_json_nor_text_is_warned_about(tmp_path: Path) -> None:
    spec = openapi({"/x": {"get": {"operationId": "getX", "responses": {
        "200": {"description": "ok"},
        "400": {"description": "bad", "content": {"application/xml": {"schema": {}}}}}}}})
    path = tmp_path / "xml.json"
    path.write_text(json.dumps(spec, indent=1), encoding="utf-8")
    found = [p for p in contractgen.validate(path) if "application/xml" in p.message]
    assert [p.pointer for p in found] == ["/paths/~1x/get/responses/400/content/application~1xml"]
    assert found[0].line is not None
