"""Build tests/corpus/large_synthetic.json: a deterministic 3.0 spec of API-platform size.

Run `python -m tests.corpus_gen` to rewrite it; `tests/e2e/test_corpus.py` checks that the
committed file is what this script produces. The shapes follow large public APIs (Stripe,
GitHub, Kubernetes): CRUD per resource with create/update variants, paged lists, actions,
sub-resources, shared error and paging schemas, enums per resource, references between
resources (including cycles), maps, nullable fields and inline objects.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

OUT = Path(__file__).parent / "corpus" / "large_synthetic.json"
SEED = 20240601

RESOURCES = [
    "account", "address", "alert", "api_key", "application", "attachment", "audit_event",
    "balance", "batch", "bucket", "campaign", "card", "certificate", "channel", "charge",
    "checkout", "cluster", "comment", "contact", "coupon", "customer", "dashboard", "dataset",
    "deployment", "device", "discount", "dispute", "document", "domain", "event", "export",
    "feature_flag", "file", "group", "incident", "invoice", "issue", "job", "label", "ledger",
]
SCALARS: list[dict[str, Any]] = [
    {"type": "string"},
    {"type": "string", "maxLength": 255},
    {"type": "integer"},
    {"type": "integer", "format": "int64", "minimum": 0},
    {"type": "number", "format": "double"},
    {"type": "boolean"},
    {"type": "string", "format": "date-time"},
    {"type": "string", "format": "date"},
    {"type": "string", "format": "uuid"},
    {"type": "string", "format": "uri"},
]
FIELD_WORDS = [
    "name", "description", "status_note", "amount", "quantity", "priority", "region",
    "external_ref", "display_name", "owner_email", "created_by", "version", "weight",
    "notes", "color", "timezone", "locale", "source", "target", "score",
]


def _pascal(snake: str) -> str:
    return "".join(part.capitalize() for part in snake.split("_"))


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _json(schema: dict[str, Any]) -> dict[str, Any]:
    return {"application/json": {"schema": schema}}


def _error_responses() -> dict[str, Any]:
    return {
        "400": {"$ref": "#/components/responses/BadRequest"},
        "404": {"$ref": "#/components/responses/NotFound"},
        "default": {"$ref": "#/components/responses/Unexpected"},
    }


def _shared_schemas() -> dict[str, Any]:
    return {
        "Error": {
            "type": "object",
            "required": ["code", "message"],
            "properties": {
                "code": {"type": "string"},
                "message": {"type": "string"},
                "details": {"type": "array", "items": {"type": "string"}},
            },
            "example": {"code": "not_found", "message": "No such thing"},
        },
        "PageInfo": {
            "type": "object",
            "required": ["hasMore"],
            "properties": {
                "hasMore": {"type": "boolean"},
                "nextCursor": {"type": "string", "nullable": True},
                "total": {"type": "integer", "format": "int64"},
            },
        },
        "Metadata": {
            "type": "object",
            "additionalProperties": {"type": "string", "maxLength": 500},
        },
        "Money": {
            "type": "object",
            "required": ["amount", "currency"],
            "properties": {
                "amount": {"type": "integer", "format": "int64"},
                "currency": {"type": "string", "minLength": 3, "maxLength": 3},
            },
            "example": {"amount": 1299, "currency": "usd"},
        },
    }


def _resource_schemas(rng: random.Random, name: str, others: list[str]) -> dict[str, Any]:
    cls = _pascal(name)
    status = f"{cls}Status"
    fields = rng.sample(FIELD_WORDS, rng.randint(3, 7))
    props: dict[str, Any] = {}
    for field in fields:
        schema = dict(rng.choice(SCALARS))
        if rng.random() < 0.2:
            schema["nullable"] = True
        props[field] = schema
    props["id"] = {"type": "string", "readOnly": True}
    props["object"] = {"type": "string", "enum": [name]}
    props["status"] = _ref(status)
    props["metadata"] = _ref("Metadata")
    props["createdAt"] = {"type": "string", "format": "date-time"}
    # References to other resources; drawn from the whole list, so some form cycles.
    for other in rng.sample(others, 2):
        if rng.random() < 0.5:
            props[f"{other}Id"] = {"type": "string"}
        else:
            props[other] = {"allOf": [_ref(_pascal(other))], "nullable": True}
    if rng.random() < 0.5:
        props["price"] = _ref("Money")
    if rng.random() < 0.4:
        props["settings"] = {
            "type": "object",
            "properties": {
                "enabled": {"type": "boolean", "default": True},
                "limits": {
                    "type": "object",
                    "properties": {"daily": {"type": "integer"}, "monthly": {"type": "integer"}},
                },
            },
        }
    if rng.random() < 0.3:
        props["history"] = {"type": "array", "items": {"type": "array", "items": {"type": "number"}}}
    required = ["id", "object", "status", "createdAt", *fields[:1]]
    editable = {k: v for k, v in props.items() if k in fields}
    return {
        status: {"type": "string", "enum": rng.sample(
            ["active", "inactive", "pending", "archived", "failed", "draft", "deleted"], 3)},
        cls: {"type": "object", "required": sorted(required), "properties": props},
        f"{cls}Create": {
            "type": "object",
            "required": fields[:1],
            "properties": {**editable, "metadata": _ref("Metadata")},
        },
        f"{cls}Update": {
            "type": "object",
            "properties": {**editable, "status": _ref(status)},
        },
        f"{cls}List": {
            "type": "object",
            "required": ["data", "page"],
            "properties": {"data": {"type": "array", "items": _ref(cls)}, "page": _ref("PageInfo")},
        },
    }


def _resource_paths(rng: random.Random, name: str) -> dict[str, Any]:
    cls = _pascal(name)
    plural = f"/v1/{name.replace('_', '-')}s"
    item = f"{plural}/{{{name}Id}}"
    id_param = {"name": f"{name}Id", "in": "path", "required": True, "schema": {"type": "string"}}
    paging = [
        {"name": "limit", "in": "query", "schema": {"type": "integer", "minimum": 1,
                                                    "maximum": 100, "default": 20}},
        {"name": "starting_after", "in": "query", "schema": {"type": "string"}},
    ]
    errors = _error_responses()
    paths: dict[str, Any] = {
        plural: {
            "get": {
                "operationId": f"list{cls}s",
                "tags": [name],
                "parameters": paging,
                "responses": {"200": {"description": "page", "content": _json(_ref(f"{cls}List"))},
                              **errors},
            },
            "post": {
                "operationId": f"create{cls}",
                "tags": [name],
                "parameters": [{"name": "Idempotency-Key", "in": "header",
                                "schema": {"type": "string"}}],
                "requestBody": {"required": True, "content": _json(_ref(f"{cls}Create"))},
                "responses": {"201": {"description": "created", "content": _json(_ref(cls))},
                              **errors},
            },
        },
        item: {
            "parameters": [id_param],
            "get": {
                "operationId": f"get{cls}",
                "tags": [name],
                "responses": {"200": {"description": "one", "content": _json(_ref(cls))}, **errors},
            },
            "patch": {
                "operationId": f"update{cls}",
                "tags": [name],
                "requestBody": {"required": True, "content": _json(_ref(f"{cls}Update"))},
                "responses": {"200": {"description": "updated", "content": _json(_ref(cls))},
                              **errors},
            },
            "put": {
                "operationId": f"replace{cls}",
                "tags": [name],
                "requestBody": {"required": True, "content": _json(_ref(f"{cls}Create"))},
                "responses": {"200": {"description": "replaced", "content": _json(_ref(cls))},
                              **errors},
            },
            "delete": {
                "operationId": f"delete{cls}",
                "tags": [name],
                "responses": {"204": {"description": "deleted"}, **errors},
            },
        },
        f"{item}/archive": {
            "parameters": [id_param],
            "post": {
                "operationId": f"archive{cls}",
                "tags": [name],
                "responses": {"200": {"description": "archived", "content": _json(_ref(cls))},
                              **errors},
            },
        },
    }
    events: dict[str, Any] = {
        "get": {
            # No operationId: the name is derived from method and path.
            "tags": [name],
            "parameters": [id_param, *paging],
            "responses": {
                "200": {
                    "description": "events",
                    "content": _json({
                        "type": "object",
                        "properties": {
                            "data": {"type": "array", "items": {
                                "type": "object",
                                "required": ["type", "at"],
                                "properties": {
                                    "type": {"type": "string"},
                                    "at": {"type": "string", "format": "date-time"},
                                    "data": {"type": "object", "additionalProperties": True},
                                },
                            }},
                        },
                    }),
                },
                **errors,
            },
        },
    }
    paths[f"{item}/events"] = events
    if rng.random() < 0.5:
        paths[f"{item}/export"] = {
            "get": {
                "operationId": f"export{cls}",
                "tags": [name],
                "parameters": [id_param, {"name": "format", "in": "query",
                                          "schema": {"type": "string", "enum": ["csv", "json"]}}],
                "responses": {"200": {"description": "file", "content": {
                    "application/octet-stream": {"schema": {"type": "string", "format": "binary"}},
                }}, **errors},
            },
        }
    return paths


def build() -> dict[str, Any]:
    """The whole document, deterministic for a given SEED."""
    rng = random.Random(SEED)
    schemas = _shared_schemas()
    paths: dict[str, Any] = {}
    for name in RESOURCES:
        others = [r for r in RESOURCES if r != name]
        schemas.update(_resource_schemas(rng, name, others))
        paths.update(_resource_paths(rng, name))
    return {
        "openapi": "3.0.3",
        "info": {"title": "Large synthetic platform API", "version": "2024-06-01",
                 "description": "Generated by tests/corpus_gen.py; do not edit by hand."},
        "servers": [{"url": "https://api.example.com"}],
        "security": [{"bearer": []}],
        "tags": [{"name": name} for name in RESOURCES],
        "paths": paths,
        "components": {
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
            "responses": {
                "BadRequest": {"description": "bad request", "content": _json(_ref("Error"))},
                "NotFound": {"description": "not found", "content": _json(_ref("Error"))},
                "Unexpected": {"description": "unexpected", "content": _json(_ref("Error"))},
            },
            "schemas": schemas,
        },
    }


def render() -> str:
    """The document as committed: indented JSON with a trailing newline."""
    return json.dumps(build(), indent=1) + "\n"


if __name__ == "__main__":
    OUT.write_text(render(), encoding="utf-8")
    doc = build()
    ops = sum(1 for item in doc["paths"].values() for k in item if k != "parameters")
    print(f"{OUT}: {ops} operations, {len(doc['components']['schemas'])} schemas")
