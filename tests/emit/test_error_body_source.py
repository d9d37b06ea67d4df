"""`emit.error_shapes` spells the error bodies the IR holds as values (`ErrorBody`) as the
Python expressions server.py's body builders return (issue 29)."""

from __future__ import annotations

from contractgen.emit.error_shapes import body_source
from contractgen.model.ir import ErrorBody


def test_every_fill_is_spelled_from_the_builders_arguments() -> None:
    spelled = {fill: body_source(ErrorBody(fill)) for fill in (
        "message", "code", "status", "errors", "lines", "detail", "errors_or_message")}
    assert spelled == {
        "message": "message", "code": "code", "status": "status", "errors": "(errors or [])",
        "lines": "error_lines(message, errors)", "detail": '(errors or [{"msg": message}])',
        "errors_or_message": "(errors if errors else message)"}


def test_objects_constants_and_codes_among_an_enum_are_python_in_blacks_quotes() -> None:
    body = ErrorBody("object", fields=(
        ("success", ErrorBody("value", False)),
        ("error", ErrorBody("object", fields=(
            ("code", ErrorBody("code", "ERROR", among=("BAD", "ERROR"))),
            ("kind", ErrorBody("value", "it's")),
            ("message", ErrorBody("message"))))),
    ))
    assert body_source(body) == (
        '{"success": False, "error": {"code": (code if code in ("BAD", "ERROR") else "ERROR"), '
        '"kind": "it\'s", "message": message}}')
    assert body_source(ErrorBody("value", None)) == "None"
    # equal values, different constants: 1 == True, and each is spelled as itself
    assert body_source(ErrorBody("value", 1)) == "1"
    assert body_source(ErrorBody("value", True)) == "True"
