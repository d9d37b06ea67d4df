"""Where openapi-core misjudges `readOnly` (judge_wire.OPENAPI_CORE_WRONG): it drops a readOnly
property from `required` in a request only when the flag sits in the very schema object that
lists it (openapi-schema-validator's `required`, python-openapi/openapi-schema-validator#16).
PagerDuty's references split the two across `allOf` members, and openapi-core then wants in a
request what OpenAPI says takes effect on the response only. Two schemas JSON Schema reads alike
are judged apart: that is the judge's mistake, excused for requests whose only errors are
missing properties, never for a response nor any other error.
"""

from __future__ import annotations

import json
from typing import Any

import httpx
from judge_wire import HOST, Exchange, judge_of, wire_errors, wrong_judge

_FLAG = {"type": "object", "properties": {"id": {"type": "string", "readOnly": True},
                                          "name": {"type": "string"}}}
_SCHEMAS = {
    "Flags": _FLAG,
    "Flat": {**_FLAG, "required": ["id"]},  # the flag beside `required`: judged right
    "Reference": {"allOf": [{"$ref": "#/components/schemas/Flags"},  # PagerDuty's shape
                            {"type": "object", "required": ["id"]}]},
    # PagerDuty's contact methods: a `oneOf` of such references
    "Email": {"allOf": [{"$ref": "#/components/schemas/Reference"}, {"type": "object",
              "required": ["address"], "properties": {"address": {"type": "string"}}}]},
    "Phone": {"allOf": [{"$ref": "#/components/schemas/Reference"}, {"type": "object",
              "required": ["number"], "properties": {"number": {"type": "integer"}}}]},
    "Method": {"oneOf": [{"$ref": "#/components/schemas/Email"},
                         {"$ref": "#/components/schemas/Phone"}]},
}


def _post(name: str) -> dict[str, Any]:
    body = {"content": {"application/json": {"schema": {"$ref": f"#/components/schemas/{name}"}}}}
    return {"post": {"requestBody": {"required": True, **body},
                     "responses": {"201": {"description": "made", **body}}}}


DOC = {"openapi": "3.0.3", "info": {"title": "refs", "version": "1"},
       "servers": [{"url": HOST}], "paths": {"/flat": _post("Flat"), "/refs": _post("Reference"),
                                          "/methods": _post("Method")},
       "components": {"schemas": _SCHEMAS}}


def _judged(path: str, sent: Any, answered: Any) -> tuple[list[str], list[str]]:
    request = httpx.Request("POST", f"{HOST}{path}", json=sent)
    response = httpx.Response(201, content=json.dumps(answered).encode(), request=request,
                              headers={"content-type": "application/json"})
    return wrong_judge(wire_errors(judge_of(DOC), Exchange(request, response)))


def test_a_request_without_a_required_read_only_property_is_judged_by_its_shape() -> None:
    assert _judged("/flat", {"name": "n"}, {"id": "1"}) == ([], [])
    real, excused = _judged("/refs", {"name": "n"}, {"id": "1"})
    assert real == []
    assert excused and "python-openapi/openapi-schema-validator#16" in excused[0]


def test_only_missing_properties_of_a_request_are_excused() -> None:
    real, _ = _judged("/refs", {"name": 5}, {"id": "1"})  # a wrong type beside the missing id
    assert real and "5 is not of type 'string'" in real[0]
    # a response must carry it: the required takes effect there
    real, excused = _judged("/flat", {"name": "n"}, {"name": "n"})
    assert excused == [] and real and real[0].startswith("response 201:")
    assert "'id' is a required property" in real[0]


def test_a_one_of_member_missing_a_read_only_property_alone_is_excused() -> None:
    """openapi-core's `oneOf` error hides its members' errors: one member missing only the
    property the contract marks readOnly is the same mistake, excused; a member failing for
    anything else is not."""
    real, excused = _judged("/methods", {"address": "a@b.c"}, {"id": "1", "address": "a@b.c"})
    assert real == [] and "python-openapi/openapi-schema-validator#16" in excused[0]
    real, excused = _judged("/methods", {"address": 5}, {"id": "1", "address": "a@b.c"})
    assert real and "is not valid under any of the given schemas" in real[0]
    assert excused == []
