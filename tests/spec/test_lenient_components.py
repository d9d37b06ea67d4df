"""`generate --lenient` with an error inside a shared component: every operation that uses the
component, directly or through other components, is skipped, the others kept, and the warning
names each skipped operation and the component, wherever the validator reports it (issue 28)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import contractgen
import pytest
from contractgen import SpecError


def _json(schema: dict[str, Any]) -> dict[str, Any]:
    return {"description": "ok", "content": {"application/json": {"schema": schema}}}


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _spec(**extra_schemas: Any) -> dict[str, Any]:
    return {
        "openapi": "3.1.0", "info": {"title": "T", "version": "1"},
        "paths": {
            "/wrapped": {"get": {"operationId": "getWrapped", "responses": {
                "200": _json(_ref("Wrapper"))}}},
            "/broken": {"post": {"operationId": "postBroken", "requestBody": {
                "content": {"application/json": {"schema": _ref("Broken")}}},
                "responses": {"204": {"description": "ok"}}}},
            "/fine": {"get": {"operationId": "getFine", "responses": {
                "200": _json(_ref("Fine"))}}},
        },
        "components": {"schemas": {
            "Wrapper": {"type": "object", "properties": {"inner": {
                "type": "array", "items": _ref("Broken")}}},
            "Broken": {"type": "object", "properties": {"n": {"type": "integr"}}},
            "Fine": {"type": "object", "properties": {"s": {"type": "string"}}},
            **extra_schemas,
        }},
    }


def _render(tmp_path: Path, spec: dict[str, Any]) -> tuple[dict[str, str], list[Any]]:
    path = tmp_path / "spec.json"
    path.write_text(json.dumps(spec, indent=1), encoding="utf-8")
    with pytest.raises(SpecError):
        contractgen.render(path)
    return contractgen.render(path, lenient=True)


def test_every_operation_using_a_broken_component_is_skipped(tmp_path: Path) -> None:
    files, warnings = _render(tmp_path, _spec())
    server = files["server.py"]
    assert "async def get_fine(" in server
    assert "async def get_wrapped(" not in server and "async def post_broken(" not in server
    [warning] = [w for w in warnings if "integr" in w.message]
    assert warning.pointer == "/components/schemas/Broken/properties/n/type"
    assert warning.message.endswith(
        "(skipped GET /wrapped, POST /broken, which use components/schemas/Broken)")


def test_a_component_no_operation_uses_is_generated_as_written(tmp_path: Path) -> None:
    spec = _spec(Unused={"type": "object", "properties": {"m": {"type": "strnig"}}})
    files, warnings = _render(tmp_path, spec)
    [unused] = [w for w in warnings if "strnig" in w.message]
    assert unused.message.endswith(
        "(components/schemas/Unused generated as written: no operation uses it)")
    assert "async def get_fine(" in files["server.py"]


def test_an_error_reported_where_a_ref_first_reached_it_skips_every_user(tmp_path: Path) -> None:
    # The validator reports a shared parameter's error once, at the first operation that names
    # it: every operation naming it is skipped all the same.
    spec = _spec()
    spec["components"]["schemas"]["Broken"]["properties"]["n"]["type"] = "integer"
    spec["components"]["parameters"] = {"Limit": {"name": "limit", "in": "query",
                                                  "schema": {"type": "integr"}}}
    limit = [{"$ref": "#/components/parameters/Limit"}]
    spec["paths"]["/wrapped"]["get"]["parameters"] = limit
    spec["paths"]["/fine"]["get"]["parameters"] = limit
    files, warnings = _render(tmp_path, spec)
    [warning] = [w for w in warnings if "integr" in w.message]
    assert warning.pointer.startswith("/paths/~1wrapped/get/parameters/0")
    assert warning.message.endswith(
        "(skipped GET /wrapped, GET /fine, which use components/parameters/Limit)")
    server = files["server.py"]
    assert "async def get_fine(" not in server and "async def get_wrapped(" not in server
    assert "async def post_broken(" in server


def test_an_error_in_another_file_skips_every_operation_using_its_part(tmp_path: Path) -> None:
    spec = _spec()
    spec["components"]["schemas"]["Broken"] = {"$ref": "shared.json#/Broken"}
    (tmp_path / "shared.json").write_text(json.dumps({"Broken": {
        "type": "object", "properties": {"n": {"type": "integr"}}}}, indent=1), encoding="utf-8")
    files, warnings = _render(tmp_path, spec)
    [warning] = [w for w in warnings if "integr" in w.message]
    assert Path(warning.file).name == "shared.json" and warning.pointer == "/Broken/properties/n/type"
    assert "skipped GET /wrapped, POST /broken" in warning.message, warning.message
    server = files["server.py"]
    assert "async def get_fine(" in server and "async def post_broken(" not in server
