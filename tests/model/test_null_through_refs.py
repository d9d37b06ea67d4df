"""`null` where the schema admits it, through a reference (issue 37, DigitalOcean): 3.0's
`nullable` on a schema an `allOf` wraps to add a description (`next_backup_window`), 3.1's
`type: [object, "null"]` and `anyOf: [{$ref}, {type: "null"}]` wrapped the same way, and `{}`
among a union's members (`pages: {anyOf: [{$ref}, {$ref}, {}]}`), which admits anything.

openapi-schema-validator judges every value; the generated model must agree with it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest
from gen_support import generate_package, openapi, serve
from openapi_schema_validator import OAS30Validator, OAS31Validator
from pydantic import ValidationError

_DESCRIBED = {"description": "described here"}
_PLAIN = {"type": "object", "properties": {"start": {"type": "string"}}}
_FWD = {"allOf": [{"type": "object", "properties": {"last": {"type": "string"}}},
                  {"type": "object", "properties": {"next": {"type": "string"}}}]}


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _holder(maybe: str) -> dict[str, Any]:
    """Fields over `maybe`, a nullable object schema, `Maybe`, and `Plain`, which is not."""
    return {"type": "object", "required": ["w"], "properties": {
        "w": {"allOf": [_ref(maybe), _DESCRIBED]},  # required, and null is valid
        "o": {"allOf": [_ref(maybe), _DESCRIBED]},
        "one": {"allOf": [_ref(maybe)], "description": "one member"},
        "d": _ref("Described"),
        "deep": {"allOf": [_ref("Described"), _DESCRIBED]},
        "p": {"allOf": [_ref("Plain"), _DESCRIBED]},
        "mixed": {"allOf": [_ref("Maybe"),
                            {"type": "object", "properties": {"e": {"type": "integer"}}}]},
        # 3.1: `anyOf: [Plain, null]` within an object: null is no object, so Plain and it
        "mixed_union": {"allOf": [_ref(maybe),
                                  {"type": "object", "properties": {"e": {"type": "integer"}}}]},
        "open_union": {"allOf": [_ref(maybe), _DESCRIBED]},
        "pages": {"anyOf": [_ref("Fwd"), _ref("Plain"), {}]},
        "any_word": {"anyOf": [{"type": "string"}, {"description": "anything"}]},
    }}


SCHEMAS: dict[str, dict[str, Any]] = {
    "3.0.3": {"Maybe": {**_PLAIN, "nullable": True}, "Plain": _PLAIN, "Fwd": _FWD,
              "Described": {"allOf": [_ref("Maybe"), _DESCRIBED]}, "Holder": _holder("Maybe")},
    "3.1.0": {"Maybe": {**_PLAIN, "type": ["object", "null"]}, "Plain": _PLAIN, "Fwd": _FWD,
              "MaybePlain": {"anyOf": [_ref("Plain"), {"type": "null"}]},
              "Described": {"allOf": [_ref("MaybePlain"), _DESCRIBED]},
              "Holder": _holder("MaybePlain")},
}
VALUES: list[Any] = [None, {}, {"start": "x"}, {"start": None}, {"last": "l", "e": 1},
                     {"e": "no"}, "word", 5, [1]]
FIELDS = ["w", "o", "one", "d", "deep", "p", "mixed", "mixed_union", "open_union", "pages",
          "any_word"]


@pytest.fixture(scope="module", params=sorted(SCHEMAS))
def generated(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
              ) -> tuple[Any, Any]:
    spec = openapi(schemas=SCHEMAS[request.param], version=request.param)
    models = generate_package(spec, tmp_path_factory.mktemp("nulls")).models
    validator = (OAS30Validator if request.param.startswith("3.0") else OAS31Validator)(
        {"$ref": "#/components/schemas/Holder", "components": spec["components"]})
    return models, validator


def _accepted(models: Any, data: dict[str, Any]) -> bool:
    try:
        models.Holder.model_validate(data)
    except ValidationError:
        return False
    return True


@pytest.mark.parametrize("field", FIELDS)
def test_the_model_accepts_what_the_schema_admits(generated: tuple[Any, Any], field: str
                                                  ) -> None:
    models, validator = generated
    differences = []
    for value in VALUES:
        data = {"w": {"start": "x"}, field: value}
        if validator.is_valid(data) != _accepted(models, data):
            differences.append(f"{field}={value!r}: schema {validator.is_valid(data)}")
    assert not differences, differences


def test_null_is_admitted_where_the_wrapped_schema_says_so(generated: tuple[Any, Any]) -> None:
    models, validator = generated
    held = models.Holder.model_validate({"w": None, "o": None, "d": None, "pages": None})
    assert held.w is None and held.o is None and held.d is None and held.pages is None
    assert validator.is_valid({"w": None, "o": None, "d": None, "pages": None})
    for refused in ("p", "mixed", "mixed_union"):  # a member refuses null: so does the whole
        assert not validator.is_valid({"w": None, refused: None})
        assert not _accepted(models, {"w": None, refused: None})


def test_a_server_answers_null_it_admits_and_the_client_reads_it(tmp_path: Path) -> None:
    """Over HTTP: the generated server's answer and the client's reading of it."""
    spec = openapi({"/holder": {"get": {"operationId": "getHolder", "responses": {"200": {
        "description": "ok", "content": {"application/json": {"schema": _ref("Holder")}}}}}}},
        SCHEMAS["3.0.3"], version="3.0.3")
    package = generate_package(spec, tmp_path)

    class Service(package.server.ServiceBase):  # type: ignore[name-defined,misc]
        async def get_holder(self) -> Any:
            return package.models.Holder.model_validate({"w": None, "pages": None, "d": None})

    with serve(package.server.create_app(Service())) as base_url:
        answer = httpx.get(f"{base_url}/holder", timeout=10).json()
        assert answer == {"w": None, "pages": None, "d": None}
        with package.client.Client(base_url) as client:
            held = client.get_holder()
    assert held.w is None and held.pages is None and held.d is None
