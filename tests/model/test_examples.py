"""Every example in both contracts (schemas, properties, media types, parameters) validates
against the generated type for the place it stands."""

from __future__ import annotations

import inspect
import json
import types
import typing
from collections.abc import Iterator
from typing import Annotated, Any

import pytest
from contractgen.model.naming import method_name, parameter_name
from gen_support import Generated
from pydantic import BaseModel, TypeAdapter

HTTP_METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
Example = tuple[str, Any, Any]  # (where, python type, value)


def _deref(doc: dict[str, Any], node: Any) -> Any:
    while isinstance(node, dict) and "$ref" in node:
        target: Any = doc
        for part in node["$ref"].removeprefix("#/").split("/"):
            target = target[part.replace("~1", "/").replace("~0", "~")]
        node = target
    return node


def _unwrap(kind: Any) -> Any:
    """The type under Annotated[...] and `| None`."""
    while True:
        origin = typing.get_origin(kind)
        if origin is Annotated:
            kind = typing.get_args(kind)[0]
        elif origin in (typing.Union, types.UnionType):
            members = [a for a in typing.get_args(kind) if a is not type(None)]
            if len(members) != 1:
                return kind
            kind = members[0]
        else:
            return kind


def _field_type(model: Any, wire: str) -> Any:
    model = _unwrap(model)
    assert isinstance(model, type) and issubclass(model, BaseModel), (model, wire)
    for name, info in model.model_fields.items():
        if (info.alias or name) == wire:
            return Annotated[info.annotation, *info.metadata] if info.metadata else info.annotation
    raise AssertionError(f"{model.__name__} has no field {wire}")


def _schema_examples(doc: dict[str, Any], schema: Any, kind: Any, where: str) -> Iterator[Example]:
    if not isinstance(schema, dict) or "$ref" in schema:
        return  # a component's own examples are collected at the component
    if "example" in schema:
        yield where, kind, schema["example"]
    for index, value in enumerate(schema.get("examples") or []):
        yield f"{where}.examples[{index}]", kind, value
    for wire, prop in (schema.get("properties") or {}).items():
        yield from _schema_examples(doc, prop, _field_type(kind, wire), f"{where}.{wire}")
    if isinstance(schema.get("items"), dict):
        item = typing.get_args(_unwrap(kind))[0]
        yield from _schema_examples(doc, schema["items"], item, f"{where}[]")
    for key in ("oneOf", "anyOf", "allOf"):
        for member in schema.get(key) or []:
            assert "example" not in member and "examples" not in member, (where, key)


def _media_examples(doc: dict[str, Any], media: dict[str, Any], kind: Any,
                    where: str) -> Iterator[Example]:
    if "example" in media:
        yield where, kind, media["example"]
    for name, example in (media.get("examples") or {}).items():
        yield f"{where}.examples.{name}", kind, _deref(doc, example)["value"]
    yield from _schema_examples(doc, media.get("schema"), kind, f"{where}.schema")


def collect(doc: dict[str, Any], pkg: Generated) -> list[Example]:
    found: list[Example] = []
    for name, schema in doc["components"]["schemas"].items():
        found.extend(_schema_examples(doc, schema, getattr(pkg.models, name), name))
    for path, item in doc["paths"].items():
        for method in HTTP_METHODS:
            if method not in item:
                continue
            op = item[method]
            service = getattr(pkg.server.ServiceBase, method_name(op["operationId"]))
            signature = inspect.signature(service, eval_str=True)  # server.py defers them
            where = f"{method.upper()} {path}"
            for raw in [*item.get("parameters", []), *op.get("parameters", [])]:
                param = _deref(doc, raw)
                kind = signature.parameters[parameter_name(param["name"])].annotation
                found.extend(_media_examples(doc, param, kind, f"{where} {param['name']}"))
            body = _deref(doc, op.get("requestBody"))
            for media_type, media in (body or {}).get("content", {}).items():
                if not media_type.endswith("json"):
                    continue  # multipart bodies arrive as a form dataclass, not a model
                kind = signature.parameters["body"].annotation
                found.extend(_media_examples(doc, media, kind, f"{where} {media_type}"))
            for status, raw in op["responses"].items():
                response = _deref(doc, raw)
                for media_type, media in response.get("content", {}).items():
                    if not media_type.endswith("json"):
                        continue
                    if str(status).startswith("2"):
                        kind = signature.return_annotation
                    else:
                        kind = pkg.errors.ERRORS[(op["operationId"], str(status))].body_type
                    found.extend(_media_examples(doc, media, kind, f"{where} {status}"))
    return found


def _validate(kind: Any, value: Any) -> None:
    adapter: TypeAdapter[Any] = TypeAdapter(kind)
    parsed = adapter.validate_python(value)
    again = adapter.validate_json(json.dumps(value))
    assert again == parsed
    assert adapter.validate_python(adapter.dump_python(parsed, mode="json", by_alias=True)) == parsed


@pytest.mark.parametrize("name", ["otari", "tpmjs"])
def test_every_example_validates(contracts: dict[str, Generated], name: str) -> None:
    pkg = contracts[name]
    doc = json.loads((pkg.dir / "openapi.json").read_text(encoding="utf-8"))
    examples = collect(doc, pkg)
    assert len(examples) == {"otari": 6, "tpmjs": 35}[name]
    failures = []
    for where, kind, value in examples:
        try:
            _validate(kind, value)
        except Exception as exc:  # collected so that one run shows every failure
            failures.append(f"{where}: {exc}")
    assert not failures, "\n".join(failures)
