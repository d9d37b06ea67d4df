"""Values of the wrong type where the contract wants strings (found by contract_fuzz): an
object as an operationId, an object among a schema's `required` names. `validate` and
`generate` report them located, `--lenient` generates from the rest; never a traceback."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from gen_support import cli, openapi


def _error_schema(required: list[Any]) -> dict[str, Any]:
    return {"type": "object", "required": required,
            "properties": {"code": {"type": "integer"}, "message": {"type": "string"}}}


def _spec(operation_id: Any, required: list[Any]) -> dict[str, Any]:
    response = {"description": "no", "content": {"application/json": {
        "schema": {"$ref": "#/components/schemas/Error"}}}}
    return openapi({"/login": {"post": {
        "operationId": operation_id,
        "responses": {"200": {"description": "ok"}, "400": response}}}},
        {"Error": _error_schema(required)})


@pytest.mark.parametrize(("operation_id", "required", "pointer"), [
    ({"a": 1}, ["code"], "error: /paths/~1login/post/operationId"),
    ("login", ["code", {"x": 1}], "/required/1"),  # where the validator meets it
])
def test_a_value_of_the_wrong_type_is_a_located_error_and_lenient_generates(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], operation_id: Any,
        required: list[Any], pointer: str) -> None:
    spec = tmp_path / "spec.json"
    spec.write_text(json.dumps(_spec(operation_id, required), indent=2), encoding="utf-8")
    for command in ("validate", "generate"):
        args = [command, str(spec)] + (["--out", str(tmp_path / "out")] if command == "generate"
                                       else [])
        done = cli(capsys, *args)
        assert done.returncode == 1, done.stderr
        assert "spec.json:" in done.stderr and f"{pointer}: must be a string" in done.stderr
    lenient = cli(capsys, "generate", str(spec), "--out", str(tmp_path / "lenient"), "--lenient")
    assert lenient.returncode == 0, lenient.stderr
    assert (tmp_path / "lenient" / "models.py").is_file()
