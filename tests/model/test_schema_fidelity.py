"""Generated models accept what the schema accepts and refuse what it refuses (issue #28):
null enums, closed empty objects, integer formats."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest
from gen_support import GenerateFn, openapi, serve
from pydantic import ValidationError


@pytest.fixture(scope="module")
def models(tmp_path_factory: pytest.TempPathFactory) -> Any:
    from gen_support import generate_package

    spec = openapi(schemas={
        "Holder": {"type": "object", "required": ["r"], "properties": {
            "r": {"enum": [None]},
            "a": {"enum": [None]},
            "c": {"const": None},
            "n": {"$ref": "#/components/schemas/Null"},
            "s": {"$ref": "#/components/schemas/MaybeWord"},
            "only": {"type": ["string", "null"], "enum": ["x"]},
            "closed": {"$ref": "#/components/schemas/Closed"},
            "i64": {"type": "integer", "format": "int64"},
            "i32": {"type": "integer", "format": "int32", "minimum": 0},
        }},
        "Null": {"enum": [None]},
        "MaybeWord": {"type": ["string", "null"], "enum": ["a", None]},
        "Closed": {"type": "object", "additionalProperties": False},
    })
    return generate_package(spec, tmp_path_factory.mktemp("fidelity")).models


def _refused(models: Any, data: dict[str, Any]) -> None:
    with pytest.raises(ValidationError):
        models.Holder.model_validate({"r": None, **data})


def test_null_enums_and_consts_accept_null_only(models: Any) -> None:
    # `None | None` (a TypeError on every validation) was written for a $ref to `Null`.
    value = models.Holder.model_validate(
        {"r": None, "a": None, "c": None, "n": None, "s": None})
    assert value.n is None and value.s is None
    assert models.Holder.model_validate({"r": None, "s": "a"}).s == "a"
    for field in ("r", "a", "c", "n"):
        _refused(models, {field: 1})
    _refused(models, {"s": "b"})
    assert models.NullAdapter.validate_python(None) is None
    assert models.MaybeWordAdapter.validate_python(None) is None


def test_an_enum_leaving_null_out_refuses_null_whatever_the_type_says(models: Any) -> None:
    assert models.Holder.model_validate({"r": None, "only": "x"}).only == "x"
    _refused(models, {"only": None})


def test_additional_properties_false_without_properties_is_a_closed_object(models: Any) -> None:
    assert models.ClosedAdapter.validate_python({}) == {}
    with pytest.raises(ValidationError):
        models.ClosedAdapter.validate_python({"x": 1})
    _refused(models, {"closed": {"x": 1}})


@pytest.mark.parametrize(("field", "good", "bad"), [
    ("i64", [-(2**63), 2**63 - 1, 0], [2**63, -(2**63) - 1, 2**70]),
    ("i32", [0, 2**31 - 1], [-1, 2**31]),
])
def test_integer_formats_are_range_checked(models: Any, field: str, good: list[int],
                                          bad: list[int]) -> None:
    for value in good:
        assert getattr(models.Holder.model_validate({"r": None, field: value}), field) == value
    for value in bad:
        _refused(models, {field: value})


def test_an_int32_query_parameter_is_range_checked_too(generate: GenerateFn) -> None:
    spec = openapi({"/a": {"get": {
        "operationId": "a",
        "parameters": [{"name": "n", "in": "query", "schema": {"type": "integer",
                                                               "format": "int32"}}],
        "responses": {"204": {"description": "ok"}},
    }}})
    pkg = generate(spec)

    class Service(pkg.server.ServiceBase):  # type: ignore[name-defined,misc]
        async def a(self, n: int | None = None) -> None:
            return None

    with serve(pkg.server.create_app(Service())) as base:
        assert httpx.get(f"{base}/a", params={"n": str(2**31 - 1)}).status_code == 204
        assert httpx.get(f"{base}/a", params={"n": str(2**31)}).status_code in (400, 422)


def test_generated_code_passes_ruffs_default_rules(generate: GenerateFn) -> None:
    # Discord's `oneOf: [{const: 1}, {const: 2}]` was `Literal[1] | Literal[2]` (PYI030), a
    # lowercase component a lowercase type alias (PYI042), DigitalOcean's request model without
    # its only (readOnly) property a `pass` after its class constant (PIE790), OpenAI's
    # `number` or "auto" parameter `int | float | Literal["auto"]` in signatures (PYI041).
    ones = {"type": "integer", "oneOf": [{"const": 1}, {"const": 2}]}
    auto = {"anyOf": [{"type": "number"}, {"type": "string", "enum": ["auto"]}], "default": 0.6}
    spec = openapi({"/a": {"get": {
        "operationId": "a",
        "parameters": [{"name": "k", "in": "query", "schema": ones},
                       {"name": "p", "in": "query", "schema": auto}],
        "responses": {"200": {"description": "ok", "content": {"application/json": {
            "schema": {"$ref": "#/components/schemas/Flags"}}}}},
    }, "post": {
        "operationId": "b",
        "requestBody": {"content": {"application/json": {
            "schema": {"$ref": "#/components/schemas/Ro"}}}},
        "responses": {"204": {"description": "ok"}},
    }}}, {
        "Ro": {"type": "object", "properties": {"id": {"type": "string", "readOnly": True}}},
        "Flags": {"type": "object", "properties": {
            "k": ones, "m": {"oneOf": [{"const": 1}, {"const": True}, {"type": "string"}]}}},
        "lower_alias": ones,
    })
    pkg = generate(spec)
    ruff = subprocess.run([sys.executable, "-m", "ruff", "check", "--isolated", str(pkg.dir)],
                          capture_output=True, text=True, check=False)
    assert ruff.returncode == 0, ruff.stdout
    # Only the signatures say `float`: the route still reads `?p=5` as the int 5.
    assert "p: float | Literal" in (pkg.dir / "server.py").read_text()
    assert "int | float" in (pkg.dir / "server.py").read_text()
    flags = pkg.models.Flags
    assert flags.model_validate({"k": 2, "m": True}).m is True
    assert flags.model_validate({"m": 1}).m == 1
    with pytest.raises(ValidationError):
        flags.model_validate({"k": 3})
    assert pkg.models.Lower_aliasAdapter.validate_python(1) == 1


_TYPED = {"type": "object", "properties": {
    "n": {"type": "number"}, "i": {"type": "integer"}, "b": {"type": "boolean"},
    "t": {"type": "string", "format": "date-time"}, "e": {"type": "integer", "enum": [1, 2]},
    "tags": {"type": "array", "items": {"type": "integer"}},
}}


@pytest.fixture(scope="module")
def typed_server(tmp_path_factory: pytest.TempPathFactory) -> Any:
    from gen_support import generate_package

    spec = openapi({"/a": {"post": {
        "operationId": "a",
        "parameters": [{"name": "k", "in": "query", "schema": {"type": "integer"}},
                       {"name": "f", "in": "query", "schema": {"type": "boolean"}}],
        "requestBody": {"required": True, "content": {"application/json": {
            "schema": {"$ref": "#/components/schemas/Typed"}}}},
        "responses": {"200": {"description": "ok", "content": {"application/json": {
            "schema": {"type": "object", "additionalProperties": True}}}}},
    }}}, {"Typed": _TYPED})
    pkg = generate_package(spec, tmp_path_factory.mktemp("typed"))

    class Service(pkg.server.ServiceBase):  # type: ignore[name-defined,misc]
        async def a(self, body: Any, *, k: int | None = None,
                    f: bool | None = None) -> dict[str, Any]:
            return {"body": body.model_dump(mode="json"), "k": k, "f": f}

    with serve(pkg.server.create_app(Service())) as base:
        yield base


@pytest.mark.parametrize("body", [
    {"n": "25"}, {"i": "5"}, {"b": "true"}, {"b": 1}, {"t": 0}, {"e": "1"}, {"i": True},
    {"n": False}, {"tags": [1, "2"]},
])
def test_json_bodies_are_read_with_json_schemas_types(typed_server: str,
                                                      body: dict[str, Any]) -> None:
    response = httpx.post(f"{typed_server}/a", json=body)
    assert 400 <= response.status_code < 500, response.text
    (key,) = body
    assert key in response.text


def test_json_bodies_of_the_right_types_and_parameters_from_strings_pass(
        typed_server: str) -> None:
    body = {"n": 3, "i": 5.0, "b": True, "t": "2020-01-01T00:00:00Z", "e": 2, "tags": [1]}
    response = httpx.post(f"{typed_server}/a", params={"k": "7", "f": "true"}, json=body)
    assert response.status_code == 200, response.text
    assert response.json() == {"body": {**body, "n": 3.0, "i": 5}, "k": 7, "f": True}


def test_required_names_not_among_properties_must_be_present(generate: GenerateFn) -> None:
    # Box's `shared_link.accessed`: JSON Schema requires the key, whatever its value.
    pkg = generate(openapi(schemas={"Sink": {
        "type": "object", "required": ["urn", "name"], "properties": {"name": {"type": "string"}},
    }}))
    sink = pkg.models.Sink
    assert sink.model_validate({"name": "a", "urn": 1}).model_dump() == {"name": "a", "urn": 1}
    with pytest.raises(ValidationError, match="urn: required"):
        sink.model_validate({"name": "a"})


@pytest.mark.parametrize("inner_first", [True, False])
def test_nested_models_check_null_and_omit_unset_whichever_is_built_first(
    tmp_path: Any, inner_first: bool
) -> None:
    # The checks wrap each model's schema as pydantic builds it (the base's schema hook): a
    # model nested in another keeps them, built before its parent or with it.
    from gen_support import generate_package

    inner = {"type": "object", "properties": {"opt": {"type": "string"},
                                              "note": {"type": ["string", "null"]}}}
    outer = {"type": "object", "properties": {
        "one": {"$ref": "#/components/schemas/Inner"},
        "many": {"type": "array", "items": {"$ref": "#/components/schemas/Inner"}}}}
    models = generate_package(openapi(schemas={"Inner": inner, "Outer": outer}), tmp_path).models
    if inner_first:
        assert models.Inner.model_validate({"note": None}).model_dump() == {"note": None}
    data = {"one": {"opt": "o"}, "many": [{}, {"note": None}]}
    assert models.Outer.model_validate(data).model_dump(mode="json") == data
    assert models.Outer.model_validate_json(json.dumps(data)).model_dump_json() == json.dumps(
        data, separators=(",", ":"))
    for bad in ({"one": {"opt": None}}, {"many": [{"opt": None}]}):
        with pytest.raises(ValidationError, match="must not be null"):
            models.Outer.model_validate(bad)


def test_models_set_no_private_pydantic_flag(tmp_path: Any) -> None:
    # Issue 38: the base model reaches pydantic through its public hooks only; validation
    # skips the Python-only __init__ through the core schema's `custom_init`, not a flag.
    import re

    from gen_support import generate_package

    inner = {"type": "object", "properties": {"opt": {"type": "string"}}}
    outer = {"type": "object", "properties": {"one": {"$ref": "#/components/schemas/Inner"}}}
    package = generate_package(openapi(schemas={"Inner": inner, "Outer": outer}), tmp_path)
    text = Path(package.models.__file__).read_text(encoding="utf-8")
    assert set(re.findall(r"__pydantic_\w+__", text)) <= {"__pydantic_init_subclass__"}
    made: list[dict[str, Any]] = []
    original = package.models.Inner.__init__

    def counted(self: Any, /, **data: Any) -> None:
        made.append(data)
        original(self, **data)

    package.models.Inner.__init__ = counted
    try:
        assert package.models.Outer.model_validate({"one": {"opt": "x"}}).one.opt == "x"
        assert made == []  # validation builds the nested model without __init__
        assert package.models.Inner(opt=None).model_dump() == {}
        assert made == [{"opt": None}]
    finally:
        package.models.Inner.__init__ = original


def test_an_optional_field_of_any_value_but_some_takes_null(tmp_path: Any) -> None:
    # `{not: {type: number}}` admits null as `{}` does (null is no number): the server refused
    # a valid PUT of every_field_30.yaml ("notnum: may be omitted but must not be null").
    from gen_support import generate_package

    thing = {"type": "object", "properties": {
        "notnum": {"not": {"type": "number"}},
        "notnull": {"not": {"type": "null"}},
        "notnone": {"not": {"enum": [None, 1]}},
        "plain": {"type": "string"}}}
    models = generate_package(openapi(schemas={"Thing": thing}), tmp_path).models
    assert models.Thing.model_validate({"notnum": None}).model_dump(mode="json") == {
        "notnum": None}
    with pytest.raises(ValidationError):
        models.Thing.model_validate({"notnum": 1.5})
    for bad in ({"notnull": None}, {"notnone": None}, {"plain": None}):
        with pytest.raises(ValidationError):
            models.Thing.model_validate(bad)
