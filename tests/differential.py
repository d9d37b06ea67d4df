"""The differential check of issue 10: for every component schema with an example, the generated
model and openapi-schema-validator must agree on the example and on mutations of it."""

from __future__ import annotations

import copy
import importlib
import types
from collections.abc import Iterator
from typing import Annotated, Any

from contractgen.model.schemas import SchemaConverter
from pydantic import TypeAdapter, ValidationError

_WRONG = {"string": 12345, "integer": "not a number", "number": "not a number",
          "boolean": "not a boolean", "array": "not a list", "object": "not an object"}


def _examples(data: dict[str, Any], schema: dict[str, Any]) -> list[Any]:
    """The schema's examples, else one assembled from its properties' examples."""
    found = [schema["example"]] if "example" in schema else []
    examples = schema.get("examples")
    found += examples if isinstance(examples, list) else []
    if not found:
        assembled = _assemble(data, schema, 0)
        found = [] if assembled is None else [assembled]
    return found


def _assemble(data: dict[str, Any], node: Any, depth: int) -> Any:
    schema = _deref(data, node)
    if "example" in schema:
        return schema["example"]
    if depth > 6:
        return None
    if isinstance(schema.get("enum"), list) and schema["enum"]:
        return schema["enum"][0]
    if schema.get("type") == "array" and "items" in schema:
        item = _assemble(data, schema["items"], depth + 1)
        return None if item is None else [item]
    merged = _merged(data, schema)
    values = {key: _assemble(data, prop, depth + 1) for key, prop in merged[0].items()}
    values = {key: value for key, value in values.items() if value is not None}
    return values or None


def _merged(data: dict[str, Any], schema: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """Properties and required names, allOf members included."""
    properties: dict[str, Any] = {}
    required: list[str] = []
    for member in schema.get("allOf") or []:
        more, needed = _merged(data, _deref(data, member))
        properties.update(more)
        required += needed
    properties.update(schema.get("properties") or {})
    required += schema.get("required") or []
    return properties, required


def _mutations(data: dict[str, Any], schema: dict[str, Any], example: Any
               ) -> Iterator[tuple[str, Any]]:
    yield "example", example
    if not isinstance(example, dict):
        yield "null", None
        return
    properties, needed = _merged(data, schema)
    required = [r for r in needed if r in example]
    if required:
        dropped = copy.deepcopy(example)
        del dropped[required[0]]
        yield f"without {required[0]}", dropped
    for key, prop in properties.items():
        prop = _deref(data, prop)
        kind = prop.get("type")
        if key in example and isinstance(kind, str) and kind in _WRONG:
            yield f"{key} mistyped", {**example, key: _WRONG[kind]}
            if not prop.get("nullable"):
                yield f"{key} null", {**example, key: None}
            if isinstance(prop.get("enum"), list):
                yield f"{key} not in enum", {**example, key: "__not_in_enum__"}
            break
    disc = schema.get("discriminator")
    if isinstance(disc, dict) and disc.get("propertyName") in example:
        yield "bad tag", {**example, disc["propertyName"]: "__no_such_tag__"}
    if schema.get("additionalProperties") is False:
        yield "extra property", {**example, "__extra__": 1}


def _deref(data: dict[str, Any], node: Any) -> dict[str, Any]:
    while isinstance(node, dict) and isinstance(node.get("$ref"), str):
        target: Any = data
        for token in node["$ref"].lstrip("#/").split("/"):
            target = target[token.replace("~1", "/").replace("~0", "~")]
        node = target
    return node if isinstance(node, dict) else {}


def differential(data: dict[str, Any], models: types.ModuleType) -> list[str]:
    """`Schema: mutation: model accepts/rejects, validator accepts/rejects` for each disagreement."""
    from openapi_schema_validator import (
        OAS30Validator,
        OAS31Validator,
        oas30_format_checker,
        oas31_format_checker,
    )

    # As a JSON body is read (`_json_types.JsonTyped`: JSON Schema's types).
    json_types = importlib.import_module(f"{models.__package__}._json_types")

    is_30 = str(data.get("openapi", "")).startswith("3.0")
    validator_cls = OAS30Validator if is_30 else OAS31Validator
    formats = oas30_format_checker if is_30 else oas31_format_checker
    names = SchemaConverter(data)
    found: list[str] = []
    for key, schema in (data.get("components") or {}).get("schemas", {}).items():
        ref = "#/components/schemas/" + key.replace("~", "~0").replace("/", "~1")
        name = names.component_name(ref)
        kind = getattr(models, name or "", None)
        if kind is None or not isinstance(schema, dict):
            continue
        adapter: TypeAdapter[Any] = TypeAdapter(Annotated[kind, json_types.JsonTyped()])
        validator = validator_cls({**data, "$ref": ref}, format_checker=formats)
        for example in _examples(data, schema):
            for mutation, value in _mutations(data, schema, example):
                expected = validator.is_valid(value)
                try:
                    adapter.validate_python(value)
                    actual = True
                except ValidationError:
                    actual = False
                if actual != expected:
                    verdict = "accepts" if actual else "rejects"
                    found.append(f"{key}: {mutation}: the model {verdict}")
    return found
