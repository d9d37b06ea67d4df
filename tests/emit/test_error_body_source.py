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


def test_builders_and_shared_requirements_are_named_after_what_they_hold() -> None:
    # Issue 38: `_error_body_with_success_error`, `_REQUIRES_NONE_OR_BEARER_AUTH`, never a
    # counter (`_error_body_0`, `_REQUIRES_0`) a reader has to look up.
    import re

    from contractgen.api import render
    from gen_support import OTARI_OVERLAY, OTARI_SPEC, ROOT, TPMJS_OVERLAY, TPMJS_SPEC

    seen: set[str] = set()
    for spec, overlay in ((OTARI_SPEC, OTARI_OVERLAY), (TPMJS_SPEC, TPMJS_OVERLAY),
                          (ROOT / "tests/corpus/security_zoo.yaml", None)):
        files, _ = render(spec, overlay=overlay)
        for name, text in files.items():
            assert not re.search(r"\b(_error_body_\d+|_REQUIRES_\d+)\b", text), (spec, name)
            seen |= set(re.findall(r"^(?:def )?(_error_body_\w+|_REQUIRES_\w+)\b", text, re.M))
    assert {"_error_body_with_success_error", "_error_body_with_detail",
            "_REQUIRES_NONE_OR_BEARER_AUTH"} <= seen, seen
