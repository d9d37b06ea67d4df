"""The error bodies the generated server builds itself are values in the IR (`ErrorBody`), not
Python source: what each field holds (a constant, the message, the code among an enum's values,
the status, the validation errors), derived from the declared error schemas (issue 29)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from contractgen.model.ir import Api, ErrorBody
from contractgen.model.parse import build_api
from contractgen.spec import load
from gen_support import openapi

MESSAGE, STATUS = ErrorBody("message"), ErrorBody("status")


def _json(schema: dict[str, Any]) -> dict[str, Any]:
    return {"description": "it", "content": {"application/json": {"schema": schema}}}


SPEC = openapi({
    "/run": {"post": {"operationId": "run", "responses": {
        "200": _json({"type": "object"}),
        "400": _json({"$ref": "#/components/schemas/ErrorResponse"}),
        "404": {"description": "gone", "content": {"text/plain": {"schema": {"type": "string"}}}},
        "409": {"description": "no body"},
        "422": _json({"type": "object", "properties": {
            "detail": {"type": "array", "items": {"type": "object"}},
            "errors": {"type": "object", "required": ["body"], "properties": {
                "body": {"type": "array", "items": {"type": "string"}}}}}}),
    }}},
    "/quiet": {"get": {"operationId": "quiet", "responses": {
        "200": _json({"type": "object"}),
        "default": _json({"type": "object", "required": ["id", "kind"], "properties": {
            "id": {"type": "integer"}, "kind": {"const": "failure"}}}),
    }}},
    "/plain": {"get": {"operationId": "plain", "responses": {"204": {"description": "ok"}}}},
}, {"ErrorResponse": {"type": "object", "required": ["success", "error"], "properties": {
    "success": {"type": "boolean"},
    "error": {"type": "object", "required": ["code", "message"], "properties": {
        "code": {"type": "string", "enum": ["BAD_INPUT", "ERROR"]},
        "status": {"type": "integer"},
        "message": {"type": "string"}}}}}})


def _api(tmp_path: Path) -> Api:
    (tmp_path / "spec.json").write_text(json.dumps(SPEC), encoding="utf-8")
    document, _ = load(tmp_path / "spec.json")
    return build_api(document, spec_display="spec.json")


def test_each_declared_error_status_has_its_body_as_values(tmp_path: Path) -> None:
    run, _, _ = _api(tmp_path).operations
    tpmjs = ErrorBody("object", fields=(
        ("success", ErrorBody("value", False)),
        ("error", ErrorBody("object", fields=(
            ("code", ErrorBody("code", "ERROR", among=("BAD_INPUT", "ERROR"))),
            ("status", STATUS),
            ("message", MESSAGE)))),
    ))
    conduit = ErrorBody("object", fields=(
        ("detail", ErrorBody("detail")),
        ("errors", ErrorBody("object", fields=(("body", ErrorBody("lines")),))),
    ))
    assert dict(run.error_bodies) == {
        "400": tpmjs, "404": MESSAGE, "409": ErrorBody("value", None), "422": conduit,
        "*": tpmjs,  # undeclared statuses: the first declared one's (no `default`)
    }
    assert tpmjs.says_message and conduit.says_message and MESSAGE.says_message


def test_the_default_response_answers_undeclared_statuses_and_no_errors_mean_fastapis(
    tmp_path: Path,
) -> None:
    api = _api(tmp_path)
    _, quiet, plain = api.operations
    silent = ErrorBody("object", fields=(("id", STATUS), ("kind", ErrorBody("value", "failure"))))
    assert dict(quiet.error_bodies) == {"default": silent, "*": silent}
    assert not silent.says_message
    assert any("no field for a message" in p.message for p in api.problems)
    assert plain.error_bodies == (
        ("*", ErrorBody("object", fields=(("detail", ErrorBody("errors_or_message")),))),)


def test_a_response_holds_its_type_once_in_its_primary_media_type(tmp_path: Path) -> None:
    run, _, plain = _api(tmp_path).operations
    [ok] = run.success
    assert (ok.kind, ok.media_type) == ("json", "application/json")
    assert ok.type is ok.primary.type is ok.representations[0].type
    text = next(e.response for e in run.errors if e.response.status == "404")
    assert (text.kind, text.media_type, text.type) == ("text", "text/plain", None)
    [empty] = plain.success
    assert (empty.kind, empty.media_type, empty.type, empty.representations) == (
        "empty", None, None, ())
