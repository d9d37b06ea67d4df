"""Schemas that admit no value by the contract's letter (generator/model/contradictions.py):
the models read them as the authors meant, and a located warning says so."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import contractgen


def _spec(schemas: dict[str, Any], body: str) -> dict[str, Any]:
    return {
        "openapi": "3.0.3", "info": {"title": "t", "version": "1"},
        "paths": {"/things": {"post": {
            "operationId": "make_thing",
            "requestBody": {"required": True, "content": {"application/json": {
                "schema": {"$ref": f"#/components/schemas/{body}"}}}},
            "responses": {"204": {"description": "made"}}}}},
        "components": {"schemas": schemas},
    }


def _warnings(tmp_path: Path, spec: dict[str, Any]) -> dict[str, str]:
    path = tmp_path / "spec.json"
    path.write_text(json.dumps(spec, indent=1))
    _, warnings = contractgen.render(path)
    return {w.pointer or "": w.message for w in warnings}


def test_a_required_property_a_closed_all_of_member_forbids_is_warned(tmp_path: Path) -> None:
    """Linode's credentials: member 0 is closed and lacks `password`, which the whole requires."""
    schemas = {"Credential": {"allOf": [
        {"type": "object", "additionalProperties": False,
         "properties": {"label": {"type": "string"}}},
        {"type": "object", "properties": {"password": {"type": "string"}}}],
        "required": ["label", "password"]}}
    found = _warnings(tmp_path, _spec(schemas, "Credential"))
    said = found.get("/components/schemas/Credential", "")
    assert "`password` is required, but `additionalProperties: false`" in said
    assert "no value is valid by the contract" in said


def test_an_open_all_of_warns_nothing(tmp_path: Path) -> None:
    schemas = {"Credential": {"allOf": [
        {"type": "object", "properties": {"label": {"type": "string"}}},
        {"type": "object", "properties": {"password": {"type": "string"}}}],
        "required": ["label", "password"]}}
    assert not any("no value is valid" in m for m in _warnings(
        tmp_path, _spec(schemas, "Credential")).values())


def _messages(role_enum: bool, mapping: dict[str, str] | None = None) -> dict[str, Any]:
    def member(role: str) -> dict[str, Any]:
        prop = {"type": "string", "enum": [role]} if role_enum else {"type": "string"}
        return {"type": "object", "required": ["role"], "properties": {"role": prop}}

    union: dict[str, Any] = {"oneOf": [{"$ref": "#/components/schemas/System"},
                                       {"$ref": "#/components/schemas/User"}],
                             "discriminator": {"propertyName": "role"}}
    if mapping:
        union["discriminator"]["mapping"] = mapping
    return {"System": member("system"), "User": member("user"), "Message": union}


def test_a_discriminator_that_selects_no_member_is_warned(tmp_path: Path) -> None:
    """OpenAI's messages: no mapping, and `role: system` names no schema."""
    said = _warnings(tmp_path, _spec(_messages(True), "Message")).get(
        "/components/schemas/Message", "")
    assert "discriminator `role` selects no member" in said
    assert "openapi-core" in said and "hint: map each value" in said


def test_a_discriminator_mapped_or_named_warns_nothing(tmp_path: Path) -> None:
    mapped = _messages(True, {"system": "#/components/schemas/System",
                              "user": "#/components/schemas/User"})
    named = _messages(False)  # `role: System` selects the schema `System`
    for schemas in (mapped, named):
        assert not any("selects no member" in m for m in _warnings(
            tmp_path, _spec(schemas, "Message")).values())


def test_a_pattern_beside_a_parsed_format_is_warned(tmp_path: Path) -> None:
    """PagerDuty's `since`: `format: date-time` is read as a datetime, and its `pattern`
    (`YYYY-MM-DDThh:mm:ssZ`, which no date-time holds) is not checked."""
    schemas = {"Window": {"type": "object", "properties": {
        "since": {"type": "string", "format": "date-time", "pattern": "YYYY-MM-DDThh:mm:ssZ"},
        "key": {"type": "string", "format": "byte", "pattern": "^[A-Za-z0-9+/=]+$"}}}}
    found = _warnings(tmp_path, _spec(schemas, "Window"))
    said = found.get("/components/schemas/Window/properties/since", "")
    assert "is not enforced beside `format: date-time`" in said
    assert not any("beside `format: byte`" in m for m in found.values())


def test_a_one_of_listing_one_schema_twice_is_warned(tmp_path: Path) -> None:
    ref = {"type": "object", "required": ["id"], "properties": {"id": {"type": "string"}}}
    schemas = {"Ref": ref, "Agent": {"oneOf": [
        {"$ref": "#/components/schemas/Ref"}, {"type": "integer"},
        {**ref, "description": "the same, inline"}]}}
    said = _warnings(tmp_path, _spec(schemas, "Agent")).get("/components/schemas/Agent", "")
    assert "`oneOf` members 0 and 2 are the same schema" in said
