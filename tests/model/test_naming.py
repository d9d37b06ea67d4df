"""Identifiers: derived once, in contractgen.model.naming, and what generated code ends up calling things."""

from __future__ import annotations

import keyword
import subprocess
import sys
import typing
from typing import Any

import pytest
from contractgen.model.naming import (
    ClassName,
    PythonIdentifier,
    enum_member,
    method_name,
    parameter_name,
    pascal_case,
    snake_case,
    status_phrase,
)
from gen_support import GenerateFn, openapi


@pytest.mark.parametrize(
    ("wire", "snake", "pascal"),
    [
        ("executeTool", "execute_tool", "ExecuteTool"),
        ("CreateSession", "create_session", "CreateSession"),
        ("X-TPMJS-Protocol-Version", "x_tpmjs_protocol_version", "XTPMJSProtocolVersion"),
        ("getHTTPStatus", "get_http_status", "GetHTTPStatus"),
        ("page[size]", "page_size", "PageSize"),
        ("text_editor", "text_editor", "TextEditor"),
        ("ünïcode name", "unicode_name", "UnicodeName"),
    ],
)
def test_case_conversions(wire: str, snake: str, pascal: str) -> None:
    assert snake_case(wire) == snake
    assert pascal_case(wire) == pascal


@pytest.mark.parametrize(
    ("wire", "python"),
    [
        ("packageName", "packageName"),  # valid identifiers are kept as written
        ("session_id", "session_id"),
        ("class", "class_"),
        ("match", "match_"),  # soft keyword
        ("2fa", "field_2fa"),
        ("@type", "type"),
        ("X-Rate", "x_rate"),
        ("_private", "private"),
        ("model_config", "model_config_"),  # pydantic's namespace
        ("schema", "schema_"),  # a BaseModel attribute
        ("l", "l_"),  # E741
        ("with space", "with_space"),
        ("ünïcode", "unicode"),
        ("", "value"),
    ],
)
def test_python_identifier(wire: str, python: str) -> None:
    name = PythonIdentifier(wire)
    assert name == python
    assert name.isidentifier() and not keyword.iskeyword(name) and name.isascii()


def test_method_and_parameter_names() -> None:
    assert method_name("executeTool") == "execute_tool"
    assert method_name("Orders.Create") == "orders_create"
    assert method_name("import") == "import_"
    assert method_name("close") == "close_"  # the client's own method
    assert parameter_name("X-TPMJS-Protocol-Version") == "x_tpmjs_protocol_version"
    assert parameter_name("body") == "body_"
    assert parameter_name("self") == "self_"


def test_class_names() -> None:
    assert ClassName("ExecRequest") == "ExecRequest"
    assert ClassName("io.example.v1.Item") == "IoExampleV1Item"
    assert ClassName("user-profile") == "UserProfile"
    assert ClassName("Field") == "FieldModel"  # pydantic's Field is imported by models.py
    assert ClassName("TypeAdapter") == "TypeAdapterModel"
    assert ClassName("404Error") == "Model404Error"
    assert ClassName("O") == "OModel"


def test_enum_members() -> None:
    assert enum_member("str_replace") == "STR_REPLACE"
    assert enum_member("dark-blue") == "DARK_BLUE"
    assert enum_member(1) == "VALUE_1"
    assert enum_member("1st") == "VALUE_1ST"
    assert enum_member("") == "EMPTY"
    assert enum_member(".") == "VALUE"


def test_status_phrases_do_not_depend_on_the_interpreter() -> None:
    assert status_phrase("404") == "NotFound"
    assert status_phrase("413") == "ContentTooLarge"
    assert status_phrase("422") == "UnprocessableContent"
    assert status_phrase("4XX") == "ClientError"
    assert status_phrase("default") == "Default"
    assert status_phrase("599") == "Status599"


def test_generated_names(generate: GenerateFn) -> None:
    body = {"type": "object", "properties": {"error": {"type": "object", "properties": {
        "code": {"type": "string", "enum": ["A", "B"]}}}}}
    spec = openapi(
        {
            "/orders": {"post": {
                "operationId": "Orders.Create",
                "requestBody": {"content": {"application/json": {"schema": {"$ref":
                                "#/components/schemas/Order"}}}},
                "responses": {
                    "201": {"description": "inline body",
                            "content": {"application/json": {"schema": {
                                "type": "object", "properties": {"id": {"type": "string"}}}}}},
                    "409": {"description": "inline error",
                            "content": {"application/json": {"schema": body}}},
                },
            }},
            "/things/{thing-id}": {"get": {
                "parameters": [{"name": "thing-id", "in": "path", "required": True,
                                "schema": {"type": "string"}}],
                "responses": {"204": {"description": "no operationId"}},
            }},
        },
        {
            "Order": {"type": "object", "properties": {
                "item": {"type": "object", "properties": {"sku": {"type": "string"}}},
                "status": {"type": "string", "enum": ["new", "paid"]},
                "winner": {"$ref": "#/components/schemas/winner"},
            }},
            "OrderItem": {"type": "object", "properties": {"quantity": {"type": "integer"}}},
            "winner": {"type": "string", "enum": [".", "X", "O"]},
        },
    )
    pkg = generate(spec)
    models: Any = pkg.models
    assert models.OrderItem.model_fields.keys() == {"quantity"}  # the component keeps its name
    inline_item = models.Order.model_fields["item"].annotation
    assert "OrderItemModel" in str(inline_item)  # the inline object yields, readably
    assert [m.name for m in models.OrderStatus] == ["NEW", "PAID"]
    assert [m.name for m in models.Winner] == ["VALUE", "X", "O_"]  # capitalised (PYI042)
    # a field named like the type it holds keeps working (and its wire name)
    order = models.Order.model_validate({"winner": "X"})
    assert order.model_dump(mode="json") == {"winner": "X"}
    assert issubclass(models.OrdersCreateResponse, models.BaseModel)
    assert issubclass(models.OrdersCreateConflictBody, models.BaseModel)
    assert issubclass(models.OrdersCreateConflictBodyErrorCode, models.StrEnum)
    assert hasattr(pkg.errors, "OrdersCreateConflict")
    assert hasattr(pkg.server.ServiceBase, "orders_create")
    assert hasattr(pkg.server.ServiceBase, "get_things_thing_id")
    assert hasattr(pkg.client.Client, "get_things_thing_id")


def test_components_named_like_keywords_and_builtins_get_valid_names(
        generate: GenerateFn) -> None:
    # `class None(_Model)` was written, exit 0 (#28); a model `int` shadowed the builtin.
    ref = {"$ref": "#/components/schemas/None"}
    spec = openapi(
        {"/a": {"post": {
            "operationId": "a",
            "requestBody": {"content": {"application/json": {"schema": ref}}},
            "responses": {"200": {"description": "ok", "content": {"application/json": {
                "schema": {"$ref": "#/components/schemas/class"}}}}},
        }}},
        {
            "None": {"type": "object", "properties": {"a": {"type": "integer"}}},
            "True": {"type": "string"},
            "False": {"type": "object", "properties": {
                "t": {"$ref": "#/components/schemas/True"}}},
            "class": {"type": "object", "properties": {
                "n": ref, "f": {"$ref": "#/components/schemas/False"},
                "i": {"$ref": "#/components/schemas/int"}}},
            "int": {"type": "object", "properties": {"x": {"type": "integer"}}},
            "ValueError": {"type": "array", "items": {"type": "integer"}},
        },
    )
    pkg = generate(spec)
    models: Any = pkg.models
    value = models.Class.model_validate({"n": {"a": 1}, "f": {"t": "x"}, "i": {"x": 2}})
    assert isinstance(value.n, models.NoneModel)
    assert isinstance(value.f, models.FalseModel)
    assert isinstance(value.i, models.Int)
    assert models.Int.model_validate({"x": 3}).x == 3  # `int` is still the builtin inside
    assert models.TrueModelAdapter.validate_python("t") == "t"
    assert models.ValueErrorModelAdapter.validate_python([1]) == [1]
    ruff = subprocess.run([sys.executable, "-m", "ruff", "check", "--isolated", str(pkg.dir)],
                          capture_output=True, text=True, check=False)
    assert ruff.returncode == 0, ruff.stdout


def test_a_shared_response_is_one_class_for_every_operation(generate: GenerateFn) -> None:
    # RealWorld Conduit's ProfileResponse became three classes, one per operation (#28).
    shared = {"$ref": "#/components/responses/ProfileResponse"}
    error = {"$ref": "#/components/responses/Problem"}
    spec = openapi({"/profiles/{u}": {
        "parameters": [{"name": "u", "in": "path", "required": True,
                        "schema": {"type": "string"}}],
        **{method: {"operationId": op, "responses": {"200": shared, "422": error}}
           for method, op in (("get", "getProfile"), ("post", "follow"),
                              ("delete", "unfollow"))},
    }}, components={"responses": {
        "ProfileResponse": {"description": "a profile", "content": {"application/json": {
            "schema": {"type": "object", "required": ["profile"], "properties": {
                "profile": {"type": "object", "properties": {"username": {"type": "string"}}},
            }}}}},
        "Problem": {"description": "invalid", "content": {"application/json": {
            "schema": {"type": "object", "properties": {"errors": {"type": "object"}}}}}},
    }})
    pkg = generate(spec)
    models: Any = pkg.models
    classes = {name for name in dir(models) if "Profile" in name or "Problem" in name}
    assert classes == {"ProfileResponse", "ProfileResponseProfile", "ProblemBody"}
    hints = {op: typing.get_type_hints(getattr(pkg.server.ServiceBase, op))["return"]
             for op in ("get_profile", "follow", "unfollow")}
    assert set(hints.values()) == {models.ProfileResponse}
