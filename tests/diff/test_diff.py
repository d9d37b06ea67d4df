"""`contractgen diff`: each rule in both directions, refs, recursion, formats, exit codes."""

from __future__ import annotations

import copy
import io
import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml
from contractgen.diff import (
    Change,
    diff_documents,
    format_json,
    format_markdown,
    format_text,
    run_diff,
)

ROOT = Path(__file__).resolve().parents[2]
OTARI = ROOT / "specs" / "otari-code-execution.openapi.yaml"

Doc = dict[str, Any]
Mutation = Callable[[Doc], None]
Key = tuple[str, ...]


def _json(schema: str) -> dict[str, Any]:
    return {"application/json": {"schema": {"$ref": f"#/components/schemas/{schema}"}}}


BASE: Doc = {
    "openapi": "3.1.0",
    "info": {"title": "Items", "version": "1"},
    "security": [{"bearerAuth": []}],
    "paths": {
        "/items": {
            "post": {
                "operationId": "CreateItem",
                "requestBody": {"required": True, "content": _json("ItemInput")},
                "responses": {"201": {"description": "Created.", "content": _json("Item")}},
            },
            "get": {
                "operationId": "SearchItems",
                "security": [{"oauth": ["items:read"]}],
                "parameters": [
                    {"name": "limit", "in": "query", "schema": {"type": "integer", "default": 10}},
                    {"name": "X-Trace", "in": "header", "schema": {"type": "string"}},
                ],
                "responses": {
                    "200": {
                        "description": "Found.",
                        "content": {
                            "application/json": {
                                "schema": {
                                    "type": "array",
                                    "items": {"$ref": "#/components/schemas/Item"},
                                }
                            }
                        },
                    }
                },
            },
        },
        "/items/{item_id}": {
            "parameters": [
                {"name": "item_id", "in": "path", "required": True, "schema": {"type": "string"}}
            ],
            "get": {
                "operationId": "GetItem",
                "security": [],
                "responses": {
                    "200": {
                        "description": "The item.",
                        "headers": {
                            "X-Rate-Limit": {"required": True, "schema": {"type": "integer"}}
                        },
                        "content": _json("Item"),
                    },
                    "404": {"description": "Unknown.", "content": _json("Error")},
                },
            },
            "put": {
                "operationId": "PatchItem",
                "requestBody": {"required": False, "content": _json("Patch")},
                "responses": {"204": {"description": "Patched."}},
            },
            "delete": {"operationId": "DeleteItem", "responses": {"204": {"description": "Gone."}}},
        },
        "/pets": {
            "post": {
                "operationId": "AddPet",
                "requestBody": {"required": True, "content": _json("Pet")},
                "responses": {"200": {"description": "Added.", "content": _json("Pet")}},
            }
        },
        "/nodes": {
            "post": {
                "operationId": "AddNode",
                "requestBody": {"required": True, "content": _json("Node")},
                "responses": {"200": {"description": "Added.", "content": _json("Node")}},
            }
        },
    },
    "components": {
        "securitySchemes": {
            "bearerAuth": {"type": "http", "scheme": "bearer"},
            "apiKey": {"type": "apiKey", "in": "header", "name": "X-Key"},
            "oauth": {
                "type": "oauth2",
                "flows": {
                    "clientCredentials": {
                        "tokenUrl": "https://auth.example/token",
                        "scopes": {"items:read": "Read.", "items:write": "Write."},
                    }
                },
            },
        },
        "schemas": {
            "ItemInput": {
                "type": "object",
                "additionalProperties": False,
                "required": ["name"],
                "properties": {
                    "name": {"type": "string", "minLength": 1, "maxLength": 50},
                    "status": {"type": "string", "enum": ["active", "archived"]},
                    "count": {"type": "integer", "minimum": 0, "maximum": 10},
                    "weight": {"type": "number"},
                    "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 10},
                    "note": {"type": ["string", "null"]},
                },
            },
            "Patch": {
                "type": "object",
                "properties": {"name": {"type": "string"}, "note": {"type": "string"}},
            },
            "Item": {
                "type": "object",
                "required": ["id", "name"],
                "properties": {
                    "id": {"type": "string"},
                    "name": {"type": "string"},
                    "status": {"type": "string", "enum": ["active", "archived"]},
                    "size": {"type": "integer"},
                    "created_at": {"type": "number", "description": "POSIX seconds."},
                    "note": {"type": "string"},
                },
            },
            "Error": {"type": "object", "properties": {"detail": {"type": "string"}}},
            "Pet": {
                "oneOf": [
                    {"$ref": "#/components/schemas/Cat"},
                    {"$ref": "#/components/schemas/Dog"},
                ],
                "discriminator": {
                    "propertyName": "kind",
                    "mapping": {
                        "cat": "#/components/schemas/Cat",
                        "dog": "#/components/schemas/Dog",
                    },
                },
            },
            "Cat": {
                "type": "object",
                "required": ["kind"],
                "properties": {"kind": {"const": "cat"}, "lives": {"type": "integer"}},
            },
            "Dog": {
                "type": "object",
                "required": ["kind"],
                "properties": {"kind": {"const": "dog"}, "good": {"type": "boolean"}},
            },
            "Node": {
                "type": "object",
                "properties": {
                    "value": {"type": "string"},
                    "children": {"type": "array", "items": {"$ref": "#/components/schemas/Node"}},
                },
            },
        },
    },
}

SCHEMAS: Key = ("components", "schemas")
ITEM_IN: Key = (*SCHEMAS, "ItemInput", "properties")
ITEM: Key = (*SCHEMAS, "Item", "properties")
SEARCH: Key = ("paths", "/items", "get")
CREATE: Key = ("paths", "/items", "post")
GET_ITEM: Key = ("paths", "/items/{item_id}", "get")


def node(doc: Any, key: Key) -> Any:
    for part in key:
        doc = doc[int(part)] if isinstance(doc, list) else doc[part]
    return doc


def put(key: Key, value: Any) -> Mutation:
    def apply(doc: Doc) -> None:
        node(doc, key[:-1])[key[-1]] = copy.deepcopy(value)

    return apply


def drop(key: Key) -> Mutation:
    def apply(doc: Doc) -> None:
        del node(doc, key[:-1])[key[-1]]

    return apply


def append(key: Key, value: Any) -> Mutation:
    def apply(doc: Doc) -> None:
        node(doc, key).append(copy.deepcopy(value))

    return apply


def remove(key: Key, value: Any) -> Mutation:
    def apply(doc: Doc) -> None:
        node(doc, key).remove(value)

    return apply


def every(*mutations: Mutation) -> Mutation:
    def apply(doc: Doc) -> None:
        for mutation in mutations:
            mutation(doc)

    return apply


def mutated(mutation: Mutation, base: Doc = BASE) -> Doc:
    doc = copy.deepcopy(base)
    mutation(doc)
    return doc


def kinds(changes: list[Change]) -> set[tuple[str, bool]]:
    return {(c.id, c.breaking) for c in changes}


B, OK = True, False  # breaking / not breaking, for the table below

# (name, mutation, changes old -> new, changes new -> old)
# fmt: off
CASES: list[tuple[str, Mutation, set[tuple[str, bool]], set[tuple[str, bool]]]] = [
    ("operation removed", drop(("paths", "/items/{item_id}", "delete")),
     {("api-removed-without-deprecation", B)}, {("endpoint-added", OK)}),
    ("path removed", drop(("paths", "/pets")),
     {("api-path-removed-without-deprecation", B)}, {("endpoint-added", OK)}),
    ("required parameter added",
     append((*SEARCH, "parameters"), {"name": "q", "in": "query", "required": True, "schema": {"type": "string"}}),
     {("new-required-request-parameter", B)}, {("request-parameter-removed", OK)}),
    ("optional parameter added",
     append((*SEARCH, "parameters"), {"name": "q", "in": "query", "schema": {"type": "string"}}),
     {("new-optional-request-parameter", OK)}, {("request-parameter-removed", OK)}),
    ("parameter became required", put((*SEARCH, "parameters", "0", "required"), True),
     {("request-parameter-became-required", B)}, {("request-parameter-became-optional", OK)}),
    ("parameter location changed", put((*SEARCH, "parameters", "1", "in"), "query"),
     {("request-parameter-location-changed", B)}, {("request-parameter-location-changed", B)}),
    # a query value travels as text: a string parameter accepts every integer it accepted
    ("parameter type became string", put((*SEARCH, "parameters", "0", "schema"), {"type": "string", "default": 10}),
     {("request-parameter-type-generalized", OK)}, {("request-parameter-type-changed", B)}),
    ("parameter type changed", put((*SEARCH, "parameters", "0", "schema"), {"type": "boolean", "default": 10}),
     {("request-parameter-type-changed", B)}, {("request-parameter-type-changed", B)}),
    ("empty pattern added", put((*ITEM_IN, "name", "pattern"), ""), set(), set()),
    ("parameter type widened", put((*SEARCH, "parameters", "0", "schema", "type"), "number"),
     {("request-parameter-type-generalized", OK)}, {("request-parameter-type-changed", B)}),
    # what the server does for requests that omit it changes (oasdiff: ERR)
    ("parameter default changed", put((*SEARCH, "parameters", "0", "schema", "default"), 20),
     {("request-parameter-default-value-changed", B)},
     {("request-parameter-default-value-changed", B)}),
    ("request property default changed", put((*ITEM_IN, "count", "default"), 2),
     {("request-property-default-value-added", OK)},
     {("request-property-default-value-removed", OK)}),
    ("request body became optional", put((*CREATE, "requestBody", "required"), False),
     {("request-body-became-optional", OK)}, {("request-body-became-required", B)}),
    ("optional request body removed", drop(("paths", "/items/{item_id}", "put", "requestBody")),
     {("request-body-removed", B)}, {("request-body-added-optional", OK)}),
    ("required request body removed", drop((*CREATE, "requestBody")),
     {("request-body-removed", B)}, {("request-body-added-required", B)}),
    ("new required request property",
     every(put((*ITEM_IN, "sku"), {"type": "string"}), append((*SCHEMAS, "ItemInput", "required"), "sku")),
     {("new-required-request-property", B)},
     # additionalProperties: false, so a client still sending `sku` is rejected
     {("request-property-removed", B)}),
    ("optional property added to an open request",
     put((*SCHEMAS, "Patch", "properties", "colour"), {"type": "string"}),
     {("new-optional-request-property", OK)}, {("request-property-removed", OK)}),
    ("request property became required", append((*SCHEMAS, "ItemInput", "required"), "status"),
     {("request-property-became-required", B)}, {("request-property-became-optional", OK)}),
    ("request property type narrowed", put((*ITEM_IN, "weight", "type"), "integer"),
     {("request-property-type-changed", B)}, {("request-property-type-generalized", OK)}),
    ("request format set", put((*ITEM_IN, "count", "format"), "int32"),
     {("request-property-type-changed", B)}, {("request-property-type-generalized", OK)}),
    ("request property became not nullable", put((*ITEM_IN, "note", "type"), "string"),
     {("request-property-became-not-nullable", B)}, {("request-property-became-nullable", OK)}),
    ("request enum value removed", remove((*ITEM_IN, "status", "enum"), "archived"),
     {("request-property-enum-value-removed", B)}, {("request-property-enum-value-added", OK)}),
    ("request property restricted to an enum", put((*ITEM_IN, "weight", "enum"), [1, 2]),
     {("request-property-became-enum", B)}, {("request-property-enum-removed", OK)}),
    ("maxLength decreased", put((*ITEM_IN, "name", "maxLength"), 20),
     {("request-property-max-length-decreased", B)},
     {("request-property-max-length-increased", OK)}),
    ("minLength increased", put((*ITEM_IN, "name", "minLength"), 3),
     {("request-property-min-length-increased", B)},
     {("request-property-min-length-decreased", OK)}),
    ("maximum decreased", put((*ITEM_IN, "count", "maximum"), 5),
     {("request-property-max-decreased", B)}, {("request-property-max-increased", OK)}),
    ("minimum increased", put((*ITEM_IN, "count", "minimum"), 1),
     {("request-property-min-increased", B)}, {("request-property-min-decreased", OK)}),
    ("pattern added", put((*ITEM_IN, "name", "pattern"), "^[a-z]+$"),
     {("request-property-pattern-added", B)}, {("request-property-pattern-removed", OK)}),
    ("maxItems decreased", put((*ITEM_IN, "tags", "maxItems"), 5),
     {("request-property-max-items-decreased", B)},
     {("request-property-max-items-increased", OK)}),
    ("minItems set", put((*ITEM_IN, "tags", "minItems"), 1),
     {("request-property-min-items-set", B)}, {("request-property-min-items-unset", OK)}),
    ("array items narrowed", put((*ITEM_IN, "tags", "items", "maxLength"), 8),
     {("request-property-max-length-set", B)}, {("request-property-max-length-unset", OK)}),
    ("request closed to additional properties",
     put((*SCHEMAS, "Patch", "additionalProperties"), False),
     {("request-body-additional-properties-disallowed", B)},
     {("request-body-additional-properties-allowed", OK)}),
    ("request media type added",
     put((*CREATE, "requestBody", "content", "application/x-www-form-urlencoded"), {}),
     {("request-body-media-type-added", OK)}, {("request-body-media-type-removed", B)}),
    ("success status removed", drop((*GET_ITEM, "responses", "200")),
     {("response-success-status-removed", B)}, {("response-success-status-added", OK)}),
    ("error status removed", drop((*GET_ITEM, "responses", "404")),
     {("response-non-success-status-removed", OK)}, {("response-non-success-status-added", OK)}),
    ("response media type added", put((*GET_ITEM, "responses", "200", "content", "text/csv"), {}),
     {("response-media-type-added", OK)}, {("response-media-type-removed", B)}),
    ("response required property removed",
     every(drop((*ITEM, "name")), remove((*SCHEMAS, "Item", "required"), "name")),
     {("response-required-property-removed", B)}, {("response-required-property-added", OK)}),
    ("response optional property removed", drop((*ITEM, "created_at")),
     {("response-optional-property-removed", OK)}, {("response-optional-property-added", OK)}),
    ("response property became optional", remove((*SCHEMAS, "Item", "required"), "name"),
     {("response-property-became-optional", B)}, {("response-property-became-required", OK)}),
    ("response property type widened", put((*ITEM, "size", "type"), "number"),
     {("response-property-type-changed", B)}, {("response-property-type-specialized", OK)}),
    ("response property type changed", put((*ITEM, "size", "type"), "string"),
     {("response-property-type-changed", B)}, {("response-property-type-changed", B)}),
    ("response property became nullable", put((*ITEM, "note", "type"), ["string", "null"]),
     {("response-property-became-nullable", B)},
     {("response-property-became-not-nullable", OK)}),
    # oasdiff >= 1.30 reports a new response enum value as an error: a client that matches
    # values exhaustively, or a generated closed Enum, rejects it. contractgen's clients keep
    # it (open enums), so it breaks them only where the contract says `x-enum-closed: true`.
    ("response enum value added", append((*ITEM, "status", "enum"), "deleted"),
     {("response-property-enum-value-added", OK)},
     {("response-property-enum-value-removed", OK)}),
    ("closed response enum value added",
     every(put((*ITEM, "status", "x-enum-closed"), True),
           append((*ITEM, "status", "enum"), "deleted")),
     {("response-property-enum-value-added", B)},
     {("response-property-enum-value-removed", OK)}),
    ("response maxLength set", put((*ITEM, "name", "maxLength"), 10),
     {("response-property-max-length-set", OK)}, {("response-property-max-length-unset", B)}),
    ("required response header removed",
     drop((*GET_ITEM, "responses", "200", "headers", "X-Rate-Limit")),
     {("required-response-header-removed", B)}, {("response-header-added", OK)}),
    ("response header became optional",
     put((*GET_ITEM, "responses", "200", "headers", "X-Rate-Limit", "required"), False),
     {("response-header-became-optional", B)}, {("response-header-became-required", OK)}),
    ("union member removed, request and response",
     every(remove((*SCHEMAS, "Pet", "oneOf"), {"$ref": "#/components/schemas/Dog"}),
           drop((*SCHEMAS, "Pet", "discriminator", "mapping", "dog"))),
     {("request-body-one-of-removed", B), ("response-body-one-of-removed", OK)},
     {("request-body-one-of-added", OK), ("response-body-one-of-added", B)}),
    ("union member narrowed", put((*SCHEMAS, "Dog", "properties", "good", "type"), "string"),
     {("request-property-type-changed", B), ("response-property-type-changed", B)},
     {("request-property-type-changed", B), ("response-property-type-changed", B)}),
    ("plain schema became a union",
     put(("paths", "/nodes", "post", "requestBody", "content", "application/json", "schema"),
         {"anyOf": [{"$ref": "#/components/schemas/Node"}, {"type": "string"}]}),
     {("request-body-any-of-added", OK)}, {("request-body-any-of-removed", B)}),
    ("operation security added", put((*GET_ITEM, "security"), [{"bearerAuth": []}]),
     {("api-security-added", B)}, {("api-security-removed", OK)}),
    ("global security alternative added", append(("security",), {"apiKey": []}),
     {("api-global-security-added", OK)}, {("api-global-security-removed", B)}),
    ("global security replaced", put(("security",), [{"apiKey": []}]),
     {("api-global-security-added", OK), ("api-global-security-removed", B)},
     {("api-global-security-added", OK), ("api-global-security-removed", B)}),
    ("operation now inherits global security", drop((*GET_ITEM, "security")),
     {("api-security-added", B)}, {("api-security-removed", OK)}),
    ("security scope added", append((*SEARCH, "security", "0", "oauth"), "items:write"),
     {("api-security-scope-added", B)}, {("api-security-scope-removed", OK)}),
    ("security scheme changed", put((*SCHEMAS[:1], "securitySchemes", "apiKey", "in"), "query"),
     {("api-security-component-changed", B)}, {("api-security-component-changed", B)}),
    ("operationId changed", put((*GET_ITEM, "operationId"), "FetchItem"),
     {("api-operation-id-changed", B)}, {("api-operation-id-changed", B)}),
    ("operation deprecated", put((*GET_ITEM, "deprecated"), True),
     {("endpoint-deprecated", OK)}, {("endpoint-reactivated", OK)}),
    ("recursive schema changed deep down",
     put((*SCHEMAS, "Node", "properties", "value", "maxLength"), 5),
     {("request-property-max-length-set", B), ("response-property-max-length-set", OK)},
     {("request-property-max-length-unset", OK), ("response-property-max-length-unset", B)}),
    ("read-only property required in a request",
     every(put((*ITEM_IN, "id"), {"type": "string", "readOnly": True}),
           append((*SCHEMAS, "ItemInput", "required"), "id")),
     {("new-required-request-property", OK)}, {("request-property-removed", OK)}),
]
# fmt: on


@pytest.mark.parametrize(
    ("mutation", "forward", "backward"),
    [pytest.param(m, f, b, id=name) for name, m, f, b in CASES],
)
def test_rule_in_both_directions(
    mutation: Mutation, forward: set[tuple[str, bool]], backward: set[tuple[str, bool]]
) -> None:
    new = mutated(mutation)
    assert kinds(diff_documents(BASE, new)) == forward
    assert kinds(diff_documents(new, BASE)) == backward


def test_identical_documents_have_no_changes() -> None:
    assert diff_documents(BASE, copy.deepcopy(BASE)) == []


def test_documentation_edits_are_not_changes() -> None:
    new = mutated(
        every(
            put((*ITEM, "created_at", "description"), "When it was made."),
            put((*GET_ITEM, "summary"), "Fetch one item"),
            put(("info", "description"), "Now with prose."),
            put((*SCHEMAS, "Item", "examples"), [{"id": "1", "name": "x"}]),
        )
    )
    assert diff_documents(BASE, new) == []


def test_changes_carry_direction_location_and_pointer() -> None:
    new = mutated(every(put((*ITEM_IN, "name", "maxLength"), 20), drop((*ITEM, "created_at"))))
    by_id = {c.id: c for c in diff_documents(BASE, new)}
    narrowed = by_id["request-property-max-length-decreased"]
    assert narrowed.direction == "request"
    assert narrowed.location == "POST /items request body /name"
    assert narrowed.pointer == "/components/schemas/ItemInput/properties/name"
    assert "50 to 20" in narrowed.message
    removed = by_id["response-optional-property-removed"]
    assert removed.direction == "response"
    # a removal points into the old document
    assert removed.pointer == "/components/schemas/Item/properties/created_at"
    assert removed.message.startswith("The optional property created_at was removed")


def test_path_parameter_names_are_normalised() -> None:
    new = copy.deepcopy(BASE)
    item = new["paths"].pop("/items/{item_id}")
    item["parameters"][0]["name"] = "id"
    new["paths"]["/items/{id}"] = item
    assert diff_documents(BASE, new) == []


def test_header_parameter_names_ignore_case() -> None:
    new = mutated(put((*SEARCH, "parameters", "1", "name"), "x-trace"))
    assert diff_documents(BASE, new) == []


def test_openapi_30_and_31_nullability_are_equal() -> None:
    old = {
        "type": "object",
        "properties": {
            "a": {"type": ["string", "null"]},
            "b": {"anyOf": [{"$ref": "#/components/schemas/Error"}, {"type": "null"}]},
            "c": {"type": "integer", "exclusiveMaximum": 10},
            "d": {"const": "x"},
        },
    }
    new = {
        "type": "object",
        "properties": {
            "a": {"type": "string", "nullable": True},
            "b": {"allOf": [{"$ref": "#/components/schemas/Error"}], "nullable": True},
            "c": {"type": "integer", "maximum": 10, "exclusiveMaximum": True},
            "d": {"enum": ["x"]},
        },
    }
    key = (*SCHEMAS, "Patch")
    assert diff_documents(mutated(put(key, old)), mutated(put(key, new))) == []
    # and a real nullability change is still seen through the 3.0 spelling
    newer = mutated(put(key, {**new, "properties": {**new["properties"], "a": {"type": "string"}}}))
    assert kinds(diff_documents(mutated(put(key, old)), newer)) == {
        ("request-property-became-not-nullable", True)
    }


def test_union_nullability_is_read_at_the_union() -> None:
    key = (*ITEM, "size")
    with_null = {"oneOf": [{"type": "string"}, {"type": "integer"}, {"type": "null"}]}
    on_member = {"oneOf": [{"type": "string", "nullable": True}, {"type": "integer"}]}
    on_union = {"oneOf": [{"type": "string"}, {"type": "integer"}], "nullable": True}
    for old, new in [(with_null, on_member), (on_member, on_union), (on_union, with_null)]:
        assert diff_documents(mutated(put(key, old)), mutated(put(key, new))) == []
    not_null = {"oneOf": [{"type": "string"}, {"type": "integer"}]}
    assert kinds(diff_documents(mutated(put(key, with_null)), mutated(put(key, not_null)))) == {
        ("response-property-became-not-nullable", False)
    }
    # a nullable string that became a union: one member added, and null no longer sent
    plain = {"type": "string", "nullable": True}
    assert kinds(diff_documents(mutated(put(key, plain)), mutated(put(key, not_null)))) == {
        ("response-property-one-of-added", True),
        ("response-property-became-not-nullable", False),
    }


def test_tpmjs_overlay_changes_nothing_a_client_sees() -> None:
    # The overlay rewrites a 3.1-style `{type: 'null'}` union member into 3.0 `nullable`, and
    # says it does so "without changing what it accepts": the diff agrees.
    from contractgen.spec.loader import load_document
    from contractgen.spec.overlay import apply_overlay

    spec = load_document(ROOT / "specs" / "tpmjs-executor.openapi.yaml")
    repaired, _ = apply_overlay(spec, ROOT / "specs" / "tpmjs-executor.overlay.yaml")
    assert spec.data != repaired.data
    assert diff_documents(spec.data, repaired.data) == []


def test_schemas_are_compared_through_refs() -> None:
    # inlining a component, or renaming it, changes nothing a client sees
    inline = copy.deepcopy(BASE["components"]["schemas"]["ItemInput"])
    body = (*CREATE, "requestBody", "content", "application/json", "schema")
    assert diff_documents(BASE, mutated(put(body, inline))) == []
    renamed = copy.deepcopy(BASE)
    schemas = renamed["components"]["schemas"]
    schemas["ItemV2"] = schemas.pop("Item")
    text = json.dumps(renamed).replace('#/components/schemas/Item"', '#/components/schemas/ItemV2"')
    assert diff_documents(BASE, json.loads(text)) == []
    # a change behind a ref shared by three responses is reported once, listing the three
    (changed,) = diff_documents(BASE, mutated(drop((*ITEM, "note"))))
    assert list(changed.locations) == [
        "GET /items response 200 body []/note",
        "GET /items/{item_id} response 200 body /note",
        "POST /items response 201 body /note",
    ]
    assert changed.pointer == "/components/schemas/Item/properties/note"


def test_shared_responses_and_parameters_are_resolved() -> None:
    old = copy.deepcopy(BASE)
    old["components"]["responses"] = {"NotFound": {"description": "x", "content": _json("Error")}}
    old["components"]["parameters"] = {
        "Limit": {"name": "limit", "in": "query", "schema": {"type": "integer"}}
    }
    node(old, (*GET_ITEM, "responses"))["404"] = {"$ref": "#/components/responses/NotFound"}
    node(old, SEARCH)["parameters"][0] = {"$ref": "#/components/parameters/Limit"}
    new = mutated(
        every(
            put(("components", "schemas", "Error", "properties", "detail", "type"), "integer"),
            put(("components", "parameters", "Limit", "required"), True),
        ),
        base=old,
    )
    assert kinds(diff_documents(old, new)) == {
        ("response-property-type-changed", True),
        ("request-parameter-became-required", True),
    }


@pytest.mark.timeout(10)
def test_recursive_schemas_terminate() -> None:
    mutual = {
        "A": {"type": "object", "properties": {"b": {"$ref": "#/components/schemas/B"}}},
        "B": {
            "type": "object",
            "properties": {
                "a": {"$ref": "#/components/schemas/A"},
                "self": {"allOf": [{"$ref": "#/components/schemas/B"}]},
                "n": {"type": "integer"},
            },
        },
        "Loop": {"$ref": "#/components/schemas/Loop"},
    }
    old = copy.deepcopy(BASE)
    old["components"]["schemas"].update(mutual)
    node(old, ("paths", "/nodes", "post", "responses", "200"))["content"] = _json("A")
    node(old, ("paths", "/nodes", "post", "requestBody"))["content"] = _json("Loop")
    new = mutated(put((*SCHEMAS, "B", "properties", "n", "type"), "string"), base=old)
    changes = diff_documents(old, new)
    assert kinds(changes) == {("response-property-type-changed", True)}
    assert [c.location for c in changes] == ["POST /nodes response 200 body /b/n"]
    assert diff_documents(old, copy.deepcopy(old)) == []


# Edits that do not touch each other, so they can be applied together.
MANY = every(
    *(mutation for name, mutation, _, _ in CASES if "removed" not in name and "union" not in name)
)


def test_output_is_deterministic() -> None:
    new = mutated(MANY)
    first = diff_documents(BASE, new)
    assert len(first) >= 30
    assert first == diff_documents(copy.deepcopy(BASE), copy.deepcopy(new))
    assert first == sorted(first, key=lambda c: (not c.breaking, c.location, c.id, c.message))


def test_output_does_not_depend_on_hash_seed(tmp_path: Path) -> None:
    old, new = _write_pair(tmp_path, mutated(MANY))
    script = (
        # MANY is not a valid contract (it adds `q` twice), so the documents are compared as data
        "import yaml; from contractgen.diff import diff_documents, format_json; "
        f"print(format_json(diff_documents(*(yaml.safe_load(open(p)) for p in "
        f"({str(old)!r}, {str(new)!r})))), end='')"
    )
    outputs = {
        subprocess.run(
            [sys.executable, "-c", script],
            env={**os.environ, "PYTHONHASHSEED": seed},
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for seed in ("0", "4242")
    }
    assert len(outputs) == 1
    assert json.loads(outputs.pop())["breaking"] > 10


def _write_pair(tmp_path: Path, new: Doc, *, old: Doc = BASE) -> tuple[Path, Path]:
    tmp_path.mkdir(parents=True, exist_ok=True)
    old_path, new_path = tmp_path / "old.yaml", tmp_path / "new.json"
    old_path.write_text(yaml.safe_dump(old, sort_keys=False), encoding="utf-8")
    new_path.write_text(json.dumps(new), encoding="utf-8")
    return old_path, new_path


@pytest.mark.parametrize(
    ("mutation", "fail_on", "code"),
    [
        pytest.param(lambda d: None, "breaking", 0, id="identical-breaking"),
        pytest.param(lambda d: None, "any", 0, id="identical-any"),
        pytest.param(put((*ITEM, "extra"), {"type": "string"}), "breaking", 0, id="additive"),
        pytest.param(put((*ITEM, "extra"), {"type": "string"}), "any", 1, id="additive-any"),
        pytest.param(drop((*ITEM, "size")), "breaking", 0, id="warning"),
        pytest.param(drop((*ITEM, "size")), "warning", 1, id="warning-warning"),
        pytest.param(drop((*ITEM, "id")), "breaking", 1, id="breaking"),
        pytest.param(drop((*ITEM, "id")), "any", 1, id="breaking-any"),
    ],
)
def test_run_diff_exit_codes(tmp_path: Path, mutation: Mutation, fail_on: str, code: int) -> None:
    old, new = _write_pair(tmp_path, mutated(mutation))
    out = io.StringIO()
    assert run_diff(old, new, fail_on=fail_on, out=out) == code
    assert out.getvalue().endswith("\n")


def test_text_format() -> None:
    assert format_text([]) == "No changes.\n"
    new = mutated(every(drop((*ITEM, "size")), put((*ITEM, "extra"), {"type": "string"})))
    text = format_text(diff_documents(BASE, new))
    lines = text.splitlines()
    # `Item` is used by three responses: each change is one block naming the three
    assert lines[0].startswith("WARNING ")
    assert "[response-optional-property-removed]" in lines[0]
    assert lines[2] == "         In 3 places (/components/schemas/Item/properties/size):"
    assert lines[-1] == "2 changes: 0 breaking, 1 warning, 1 info."


def test_text_format_says_where_each_change_is_written(tmp_path: Path) -> None:
    old, new = _write_pair(tmp_path, mutated(drop(("paths", "/items/{item_id}", "delete"))))
    out = io.StringIO()
    run_diff(old, new, out=out)
    line = next(i for i, text in enumerate(old.read_text().splitlines(), 1)
                if text.strip() == "delete:")
    assert f"         at {old}:{line}" in out.getvalue().splitlines()


def test_shared_schema_change_is_one_entry_listing_its_uses() -> None:
    new = mutated(put((*ITEM, "extra"), {"type": "string"}))
    (change,) = diff_documents(BASE, new)
    assert (change.id, change.level) == ("response-optional-property-added", "info")
    assert change.pointer == "/components/schemas/Item/properties/extra"
    assert change.locations == (
        "GET /items response 200 body []/extra",
        "GET /items/{item_id} response 200 body /extra",
        "POST /items response 201 body /extra",
    )
    assert change.location == change.locations[0]


def test_levels() -> None:
    removed = diff_documents(BASE, mutated(drop((*ITEM, "created_at"))))
    assert [(c.id, c.level) for c in removed] == [("response-optional-property-removed", "warning")]
    required = diff_documents(BASE, mutated(drop((*ITEM, "id"))))
    assert {c.level for c in required if c.id.startswith("response-required-property")} == {
        "breaking"
    }


@pytest.mark.parametrize(
    ("fail_on", "code"),
    [("breaking", 0), ("warning", 1), ("info", 1), ("any", 1)],
)
def test_fail_on_levels(tmp_path: Path, fail_on: str, code: int) -> None:
    old, new = _write_pair(tmp_path, mutated(drop((*ITEM, "created_at"))))
    assert run_diff(old, new, fail_on=fail_on, out=io.StringIO()) == code
    added_old, added_new = _write_pair(tmp_path / "added", mutated(put((*ITEM, "x"), {})))
    assert run_diff(added_old, added_new, fail_on=fail_on, out=io.StringIO()) == int(
        fail_on in ("info", "any")
    )


def test_json_format(tmp_path: Path) -> None:
    delete = ("paths", "/items/{item_id}", "delete")
    old, new = _write_pair(tmp_path, mutated(every(drop((*ITEM, "size")), drop(delete))))
    out = io.StringIO()
    assert run_diff(old, new, fmt="json", out=out) == 1
    report = json.loads(out.getvalue())
    # the operation, and `size` once for the three responses that use Item
    assert (report["breaking"], report["warning"], report["info"]) == (1, 1, 0)
    assert len(report["changes"]) == 2
    assert set(report["changes"][0]) == {
        "id",
        "key",
        "level",
        "direction",
        "location",
        "locations",
        "message",
        "pointer",
        "source",
    }
    assert len(report["changes"][1]["locations"]) == 3
    # where each change is written: the removed operation in OLD, at its line
    removed = report["changes"][0]
    assert removed["id"] == "api-removed-without-deprecation"
    line = next(i for i, text in enumerate(old.read_text().splitlines(), 1)
                if text.strip() == "delete:")
    assert removed["source"] == f"{old}:{line}"
    # the key: the same change between two other versions has the same key
    again = io.StringIO()
    old2, new2 = _write_pair(tmp_path / "again", mutated(drop(delete)))
    run_diff(old2, new2, fmt="json", out=again)
    assert json.loads(again.getvalue())["changes"][0]["key"] == removed["key"]
    assert json.loads(format_json([])) == {"changes": [], "breaking": 0, "warning": 0, "info": 0}


def test_markdown_format(tmp_path: Path) -> None:
    assert format_markdown([]) == "### API changes\n\nNo changes.\n"
    delete = ("paths", "/items/{item_id}", "delete")
    old, new = _write_pair(tmp_path, mutated(every(drop((*ITEM, "size")), drop(delete))))
    out = io.StringIO()
    assert run_diff(old, new, fmt="markdown", out=out) == 1
    lines = out.getvalue().splitlines()
    assert lines[0] == "### API changes: 1 breaking, 1 warning, 0 info"
    assert lines[2:4] == ["| Level | Change | Where |", "|---|---|---|"]
    assert lines[4].startswith("| breaking | The operation was removed")
    assert "`DELETE /items/{item_id}`" in lines[4]
    assert lines[5].count("<br>") == 2  # `size`, used by three responses, is one row
    assert len(lines) == 6


def test_run_diff_rejects_unknown_options(tmp_path: Path) -> None:
    old, new = _write_pair(tmp_path, BASE)
    with pytest.raises(ValueError, match="format"):
        run_diff(old, new, fmt="xml")
    with pytest.raises(ValueError, match="fail_on"):
        run_diff(old, new, fail_on="never")


def test_cli_diff_refuses_what_is_not_openapi_3(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from contractgen.cli import main

    swagger = tmp_path / "swagger.yaml"
    swagger.write_text("swagger: '2.0'\ninfo: {title: t, version: '1'}\npaths: {}\n",
                       encoding="utf-8")
    good, _ = _write_pair(tmp_path / "good", BASE)
    assert main(["diff", str(swagger), str(good)]) == 2
    err = capsys.readouterr().err
    assert f"{swagger}:1:1: error: /swagger: Swagger 2.0 is not supported" in err
    assert "contractgen validate" in err


def test_cli_diff_compares_an_invalid_contract_with_warnings(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from contractgen.cli import main

    broken = copy.deepcopy(BASE)
    broken["paths"]["/items"]["post"]["responses"]["201"]["content"] = 3
    broken_path = tmp_path / "broken.yaml"
    broken_path.write_text(yaml.safe_dump(broken), encoding="utf-8")
    good, _ = _write_pair(tmp_path / "good", BASE)
    assert main(["diff", str(good), str(broken_path)]) == 1  # the 201 body's media type is gone
    captured = capsys.readouterr()
    assert f"{broken_path}:" in captured.err
    assert "warning: /paths/~1items/post/responses/201/content" in captured.err
    assert "compared as written" in captured.err
    assert "response-media-type-removed" in captured.out


# -- the real Otari contract ------------------------------------------------------------------


@pytest.fixture(scope="module")
def otari() -> Doc:
    data: Doc = yaml.safe_load(OTARI.read_text(encoding="utf-8"))
    return data


def test_otari_against_itself(otari: Doc, tmp_path: Path) -> None:
    copy_path = tmp_path / "otari.json"
    copy_path.write_text(json.dumps(otari), encoding="utf-8")
    out = io.StringIO()
    assert run_diff(OTARI, copy_path, fail_on="any", out=out) == 0
    assert out.getvalue() == "No changes.\n"


def test_otari_additive_change_is_not_breaking(otari: Doc, tmp_path: Path) -> None:
    new = copy.deepcopy(otari)
    new["components"]["schemas"]["CodeExecutionInput"]["properties"]["language"] = {
        "type": "string",
        "description": "The interpreter to use.",
    }
    new["paths"]["/sessions/{id}/heartbeat"] = {
        "parameters": [{"name": "id", "in": "path", "required": True, "schema": {"type": "string"}}],
        "post": {"operationId": "Heartbeat", "responses": {"204": {"description": "Kept alive."}}},
    }
    _, new_path = _write_pair(tmp_path, new, old=otari)
    changes = diff_documents(otari, new)
    assert kinds(changes) == {("new-optional-request-property", False), ("endpoint-added", False)}
    assert "POST /sessions/{session_id}/exec request body /input/language" in {
        c.location for c in changes
    }
    assert run_diff(OTARI, new_path, out=io.StringIO()) == 0
    assert run_diff(OTARI, new_path, fail_on="info", out=io.StringIO()) == 1


def test_otari_removed_optional_response_field_is_a_warning(otari: Doc, tmp_path: Path) -> None:
    new = copy.deepcopy(otari)
    del new["components"]["schemas"]["SessionHandle"]["properties"]["created_at"]
    _, new_path = _write_pair(tmp_path, new, old=otari)
    out = io.StringIO()
    assert run_diff(OTARI, new_path, fmt="json", out=out) == 0
    assert run_diff(OTARI, new_path, fail_on="warning", out=io.StringIO()) == 1
    report = json.loads(out.getvalue())
    assert (report["breaking"], report["warning"]) == (0, 1)
    for change in report["changes"]:
        assert change.pop("key")
        assert change.pop("source").startswith(f"{OTARI}:")  # the property, in OLD
    assert report["changes"] == [
        {
            "id": "response-optional-property-removed",
            "level": "warning",
            "direction": "response",
            "location": "POST /sessions response 201 body /created_at",
            "locations": ["POST /sessions response 201 body /created_at"],
            "message": "The optional property created_at was removed, so clients that read it "
            "no longer receive it.",
            "pointer": "/components/schemas/SessionHandle/properties/created_at",
        }
    ]


def test_otari_tool_kinds(otari: Doc) -> None:
    # the discriminated ExecRequest union is matched by tool kind, so editing one member is
    # reported once, and dropping a tool kind is breaking for requests
    new = copy.deepcopy(otari)
    schemas = new["components"]["schemas"]
    schemas["TextEditorInput"]["properties"]["command"]["enum"].remove("undo_edit")
    assert kinds(diff_documents(otari, new)) == {("request-property-enum-value-removed", True)}
    schemas["ExecRequest"]["oneOf"].pop()
    del schemas["ExecRequest"]["discriminator"]["mapping"]["text_editor_code_execution"]
    changes = diff_documents(otari, new)
    assert kinds(changes) == {("request-body-one-of-removed", True)}
    assert "text_editor_code_execution" in changes[0].message


def test_cli_diff_applies_overlays(capsys: pytest.CaptureFixture[str]) -> None:
    # `diff` reads contracts like every other command: with --overlay on both sides it compares
    # the repaired contract with itself; on one side only it compares the unrepaired one, its
    # error a located warning.
    from contractgen.cli import main

    tpmjs = str(ROOT / "specs" / "tpmjs-executor.openapi.yaml")
    overlay = str(ROOT / "specs" / "tpmjs-executor.overlay.yaml")
    assert main(["diff", tpmjs, tpmjs, "--overlay", overlay, "--fail-on", "any"]) == 0
    assert "No changes." in capsys.readouterr().out
    # without its overlay the published contract is invalid (a 3.0 `type: 'null'` member,
    # which `diff` reads as nullability either way), compared with a warning
    assert main(["diff", tpmjs, tpmjs, "--overlay-new", overlay, "--fail-on", "any"]) == 0
    assert "tpmjs-executor.openapi.yaml:417:15: warning:" in capsys.readouterr().err
    broken = ROOT / "tests" / "invalid_specs" / "overlay_problems.overlay.yaml"
    assert main(["diff", tpmjs, tpmjs, "--overlay-old", str(broken)]) == 2
    assert "error" in capsys.readouterr().err


def test_diff_resolves_references_to_other_files(tmp_path: Path) -> None:
    def write(folder: str, kind: str) -> Path:
        (tmp_path / folder).mkdir()
        common = {"components": {"schemas": {"Item": {
            "type": "object", "properties": {"name": {"type": kind}}}}}}
        (tmp_path / folder / "common.yaml").write_text(yaml.safe_dump(common), encoding="utf-8")
        spec = copy.deepcopy(BASE)
        spec["components"]["schemas"]["Item"] = {"$ref": "common.yaml#/components/schemas/Item"}
        (tmp_path / folder / "spec.yaml").write_text(yaml.safe_dump(spec), encoding="utf-8")
        return tmp_path / folder / "spec.yaml"

    out = io.StringIO()
    assert run_diff(write("old", "string"), write("new", "integer"), fmt="json", out=out) == 1
    ids = {change["id"] for change in json.loads(out.getvalue())["changes"]}
    assert "response-property-type-changed" in ids
