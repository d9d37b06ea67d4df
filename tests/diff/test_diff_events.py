"""`contractgen diff` on what the API sends (webhooks, callbacks: the roles invert) and on links."""

from __future__ import annotations

import copy
from typing import Any

from contractgen.diff import diff_documents


def _event(props: dict[str, Any], required: list[str]) -> dict[str, Any]:
    schema = {"type": "object", "properties": props, "required": required}
    return {"post": {
        "requestBody": {"content": {"application/json": {"schema": schema}}},
        "responses": {"200": {"description": "OK.", "content": {"application/json": {
            "schema": {"type": "object", "properties": {"ok": {"type": "boolean"}}}}}}},
    }}


EVENT = _event({"id": {"type": "string"}, "note": {"type": "string"}}, ["id"])
DOC: dict[str, Any] = {
    "openapi": "3.1.0", "info": {"title": "t", "version": "1"},
    "paths": {"/subscriptions": {"post": {
        "callbacks": {"onEvent": {"{$request.body#/url}": copy.deepcopy(EVENT)}},
        "responses": {"201": {"description": "Subscribed.", "links": {
            "Get": {"operationId": "getSubscription", "parameters": {"id": "$response.body#/id"}},
        }}},
    }}},
    "webhooks": {"itemCreated": copy.deepcopy(EVENT)},
}


def _ids(old: dict[str, Any], new: dict[str, Any]) -> set[tuple[str, str]]:
    return {(c.id, c.level) for c in diff_documents(old, new)}


def _edit(target: str, edit: Any) -> dict[str, Any]:
    doc = copy.deepcopy(DOC)
    item = (doc["webhooks"]["itemCreated"] if target == "webhook" else
            doc["paths"]["/subscriptions"]["post"]["callbacks"]["onEvent"]["{$request.body#/url}"])
    edit(item["post"])
    return doc


def _body(op: dict[str, Any]) -> dict[str, Any]:
    schema: dict[str, Any] = op["requestBody"]["content"]["application/json"]["schema"]
    return schema


def test_a_property_the_api_stops_sending_breaks_consumers_one_it_adds_does_not() -> None:
    for target in ("webhook", "callback"):
        def require_note(op: dict[str, Any]) -> None:
            _body(op)["required"].remove("id")
        def add(op: dict[str, Any]) -> None:
            _body(op)["properties"]["extra"] = {"type": "string"}
        made_optional = _edit(target, require_note)
        assert _ids(DOC, made_optional) == {
            (f"{target}-response-property-became-optional", "breaking")}
        assert _ids(made_optional, DOC) == {
            (f"{target}-response-property-became-required", "info")}
        assert _ids(DOC, _edit(target, add)) == {
            (f"{target}-response-optional-property-added", "info")}


def test_the_answer_the_api_expects_back_is_checked_as_a_request() -> None:
    def narrow(op: dict[str, Any]) -> None:
        schema = op["responses"]["200"]["content"]["application/json"]["schema"]
        schema["properties"]["ok"]["type"] = "string"
    assert _ids(DOC, _edit("webhook", narrow)) == {
        ("webhook-request-property-type-changed", "breaking")}


def test_webhook_removed_breaks_and_added_does_not() -> None:
    gone = copy.deepcopy(DOC)
    del gone["webhooks"]["itemCreated"]
    assert _ids(DOC, gone) == {("webhook-removed", "breaking")}
    assert _ids(gone, DOC) == {("webhook-added", "info")}


def test_links() -> None:
    changed = copy.deepcopy(DOC)
    links = changed["paths"]["/subscriptions"]["post"]["responses"]["201"]["links"]
    links["Get"]["operationId"] = "fetchSubscription"
    assert _ids(DOC, changed) == {("response-link-changed", "warning")}
    del links["Get"]
    assert _ids(DOC, changed) == {("response-link-removed", "warning")}
    assert _ids(changed, DOC) == {("response-link-added", "info")}
