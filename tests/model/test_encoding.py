"""deepObject values that may hold an empty list or object (issue 37, Stripe's `tax_rates=[]`):
bracket notation has no spelling for `[]` or `{}`, so the client sends nothing for one. Each
such form field and query parameter is warned about once, at its `encoding` or its parameter,
naming the paths; and over HTTP the client does what the warning says."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
from gen_support import generate_package, openapi, serve

FORM = "application/x-www-form-urlencoded"
DEEP = {"style": "deepObject", "explode": True}
_ECHO = {"description": "what the service read", "content": {"application/json": {
    "schema": {"type": "object", "additionalProperties": True}}}}
LINE = {"type": "object", "required": ["price"], "properties": {
    "price": {"type": "string"},
    "tax_rates": {"anyOf": [{"type": "array", "items": {"type": "string"}},
                            {"type": "string", "enum": [""]}]},
    "metadata": {"type": "object", "additionalProperties": {"type": "string"}},
    "done": {"type": "array", "minItems": 1, "items": {"type": "string"}}}}
FILTER = {"type": "object", "properties": {
    "tags": {"type": "array", "items": {"type": "string"}}, "name": {"type": "string"}}}
SPEC = openapi({
    "/a": {"post": {
        "operationId": "postA",
        "requestBody": {"content": {FORM: {
            "schema": {"type": "object", "properties": {
                "items": {"type": "array", "items": {"$ref": "#/components/schemas/Line"}},
                "expand": {"type": "array", "items": {"type": "string"}}}},
            "encoding": {"items": DEEP, "expand": DEEP}}}},
        "responses": {"200": _ECHO}}},
    "/b": {"get": {
        "operationId": "getB",
        "parameters": [{"$ref": "#/components/parameters/filter"},
                       {"name": "must", "in": "query", "required": True, **DEEP,
                        "schema": FILTER},
                       {"name": "created", "in": "query", **DEEP, "schema": {
                           "type": "object", "properties": {"gte": {"type": "integer"}}}}],
        "responses": {"200": _ECHO}}},
    "/c": {"get": {"operationId": "getC",
                   "parameters": [{"$ref": "#/components/parameters/filter"}],
                   "responses": {"200": _ECHO}}},
}, {"Line": LINE}, components={"parameters": {"filter": {
    "name": "filter", "in": "query", **DEEP, "schema": FILTER}}})


def _warnings(tmp_path: Path) -> dict[str, list[Any]]:
    import contractgen.api

    path = tmp_path / "spec.json"
    path.write_text(json.dumps(SPEC, indent=1), encoding="utf-8")
    _, problems = contractgen.api.render(path)
    found: dict[str, list[Any]] = {}
    for problem in problems:
        if "bracket notation" in problem.message:
            found.setdefault(problem.pointer, []).append(problem)
    return found


def test_optional_empties_inside_a_deep_form_field_are_warned_about_once(
        tmp_path: Path) -> None:
    found = _warnings(tmp_path)
    at = "/paths/~1a/post/requestBody/content/application~1x-www-form-urlencoded/encoding"
    [warning] = found.pop(f"{at}/items")
    assert warning.line is not None
    assert warning.message.startswith(
        "form field `items` (deepObject): `items[].tax_rates`, `items[].metadata` may be an "
        "empty list or object")
    assert "the client sends nothing for an empty one" in warning.message
    assert "done" not in warning.message  # minItems: 1
    assert f"{at}/expand" not in found  # the field itself, optional: absent is what [] says


def test_deep_query_parameters_are_warned_about_at_the_parameter(tmp_path: Path) -> None:
    found = _warnings(tmp_path)
    shared = found.pop("/components/parameters/filter")  # used twice, said once
    assert [w.message for w in shared] == [
        "query parameter `filter` (deepObject): `filter.tags` may be an empty list or object, "
        "which has no spelling in bracket notation: the client sends nothing for an empty one "
        "(as Stripe's own encoder does), and the server reads it as absent"]
    must = sorted(w.message for w in found.pop("/paths/~1b/get/parameters/1"))
    assert len(must) == 2
    assert must[0].startswith("query parameter `must` (deepObject): `must.tags` may be")
    assert must[1].startswith("query parameter `must` (deepObject): `must` is required, but "
                              "an empty list or object has no spelling in bracket notation")
    assert not [p for p in found if p.startswith("/paths/~1b")]  # `created.gte`: no list


def test_the_client_sends_nothing_for_an_empty_list_inside_a_deep_field(tmp_path: Path
                                                                         ) -> None:
    """What the warning says, on the wire: `items[0][price]=p` and no `tax_rates`."""
    pkg = generate_package(SPEC, tmp_path)

    class Service(pkg.server.ServiceBase):  # type: ignore[misc,name-defined]
        async def post_a(self, body: Any = None) -> Any:
            return {"items": [item.model_dump(mode="json", exclude_unset=True)
                              for item in body.items]}

    class Recorder(httpx.HTTPTransport):
        def handle_request(self, request: httpx.Request) -> httpx.Response:
            sent.append(request.read())
            return super().handle_request(request)

    sent: list[bytes] = []
    with serve(pkg.server.create_app(Service())) as url, pkg.client.Client(
            url, transport=Recorder()) as client:
        read = client.post_a(items=[{"price": "p", "tax_rates": [], "metadata": {}}])
    assert sent == [b"items%5B0%5D%5Bprice%5D=p"]
    assert read == {"items": [{"price": "p"}]}
