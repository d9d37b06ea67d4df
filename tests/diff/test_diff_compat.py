"""`compat` in the diff policy: oasdiff's reading where ours differs on purpose (docs/diff.md),
each reading by name or all at once (`compat = "oasdiff"`)."""

from __future__ import annotations

import datetime as dt
import io
import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from contractgen.diff import diff_documents, run_diff
from contractgen.diff.policy import COMPAT, parse_policy
from contractgen.errors import OptionError


def _doc(body: dict[str, Any], response: dict[str, Any] | None = None, *,
         security: list[Any] | None = None, webhook_required: bool = False) -> dict[str, Any]:
    answer: dict[str, Any] = {"description": "OK."}
    if response is not None:
        answer["content"] = {"application/json": {"schema": response}}
    post: dict[str, Any] = {"requestBody": {"content": {"application/json": {"schema": body}}},
                            "responses": {"200": answer}}
    if security is not None:
        post["security"] = security
    return {
        "openapi": "3.1.0", "info": {"title": "t", "version": "1"},
        "paths": {"/items": {"post": post}},
        "webhooks": {"itemMade": {"post": {
            "requestBody": {"required": webhook_required,
                            "content": {"application/json": {"schema": {"type": "object"}}}},
            "responses": {"200": {"description": "OK."}}}}},
        "components": {"securitySchemes": {"key": {"type": "apiKey", "in": "header",
                                                   "name": "X-Key"}}},
    }


def _levels(tmp_path: Path, old: dict[str, Any], new: dict[str, Any], compat: str
            ) -> dict[str, str]:
    paths = [tmp_path / "old.yaml", tmp_path / "new.yaml", tmp_path / "policy.toml"]
    paths[0].write_text(yaml.safe_dump(old), encoding="utf-8")
    paths[1].write_text(yaml.safe_dump(new), encoding="utf-8")
    paths[2].write_text(compat, encoding="utf-8")
    out = io.StringIO()
    run_diff(paths[0], paths[1], fmt="json", out=out, policy=paths[2])
    return {c["id"]: c["level"] for c in json.loads(out.getvalue())["changes"]}


OBJECT = {"type": "object", "properties": {"name": {"type": "string"}}}
CASES = {
    "read-only": (
        _doc({"type": "object", "properties": {"id": {"type": "string", "readOnly": True}}}),
        _doc({"type": "object", "properties": {"id": {"type": "string", "readOnly": True,
                                                      "pattern": "^[a-z]+$"}}}),
        "request-property-pattern-added",
    ),
    "all-of": (
        _doc({"allOf": [OBJECT]}),
        _doc({"allOf": [OBJECT, {"type": "object",
                                 "properties": {"note": {"type": "string"}}}]}),
        "request-body-all-of-added",
    ),
    "webhook-direction": (_doc(OBJECT), _doc(OBJECT, webhook_required=True),
                          "webhook-request-body-became-required"),
    "open-enums": (
        _doc(OBJECT, {"type": "string", "enum": ["a"]}),
        _doc(OBJECT, {"type": "string", "enum": ["a", "b"]}),
        "response-body-enum-value-added",
    ),
    "security": (_doc(OBJECT), _doc(OBJECT, security=[{"key": []}]), "api-security-added"),
}
# ours, then oasdiff's reading of the same change
LEVELS = {"read-only": ("info", "breaking"), "all-of": (None, "breaking"),
          "webhook-direction": (None, "breaking"), "open-enums": ("info", "warning"),
          "security": ("breaking", "info")}


def test_every_reading_has_a_case() -> None:
    assert set(CASES) == set(COMPAT) == set(LEVELS)


@pytest.mark.parametrize("reading", sorted(CASES))
def test_each_reading_gives_way_to_oasdiffs(tmp_path: Path, reading: str) -> None:
    old, new, rule = CASES[reading]
    ours, theirs = LEVELS[reading]
    found = _levels(tmp_path, old, new, "")
    assert found.get(rule) == ours, found
    assert _levels(tmp_path, old, new, f'compat = ["{reading}"]').get(rule) == theirs
    assert _levels(tmp_path, old, new, 'compat = "oasdiff"').get(rule) == theirs
    others = [r for r in COMPAT if r != reading]
    assert _levels(tmp_path, old, new, f"compat = {json.dumps(others)}").get(rule) == ours


def test_a_read_only_property_becoming_required_stays_info(tmp_path: Path) -> None:
    # oasdiff too leaves readOnly properties out of a request's required ones
    old = _doc({"type": "object", "properties": {"id": {"type": "string", "readOnly": True}}})
    new = _doc({"type": "object", "properties": {"id": {"type": "string", "readOnly": True}},
                "required": ["id"]})
    found = _levels(tmp_path, old, new, 'compat = "oasdiff"')
    assert found and set(found.values()) == {"info"}, found


def test_a_closed_enum_stays_breaking(tmp_path: Path) -> None:
    old = _doc(OBJECT, {"type": "string", "enum": ["a"], "x-enum-closed": True})
    new = _doc(OBJECT, {"type": "string", "enum": ["a", "b"], "x-enum-closed": True})
    assert _levels(tmp_path, old, new, 'compat = "oasdiff"') == {
        "response-body-enum-value-added": "breaking"}


def test_the_teams_own_severity_beats_compat(tmp_path: Path) -> None:
    old, new, rule = CASES["security"]
    policy = 'compat = "oasdiff"\n[severity]\n"api-security-added" = "warning"\n'
    assert _levels(tmp_path, old, new, policy)[rule] == "warning"


def test_allof_member_removed_is_a_warning_in_requests(tmp_path: Path) -> None:
    old, new, _ = CASES["all-of"]
    policy = parse_policy({"compat": ["all-of"]}, "t", dt.date.today())
    changes = {c.id: c.pointer for c in diff_documents(new, old, policy.lifecycle)}
    assert changes["request-body-all-of-removed"] == (
        "/paths/~1items/post/requestBody/content/application~1json/schema/allOf/1")
    assert "request-body-all-of-removed" not in _levels(tmp_path, new, old, "")
    assert _levels(tmp_path, new, old, 'compat = "oasdiff"')["request-body-all-of-removed"] == (
        "warning")


@pytest.mark.parametrize("value", ["oasdif", ["read-only", "nope"], 3])
def test_an_unknown_reading_is_a_usage_error(value: Any) -> None:
    with pytest.raises(OptionError, match="compat"):
        parse_policy({"compat": value}, "pyproject.toml", dt.date.today())


def test_an_allof_member_that_only_annotates_is_info(tmp_path: Path) -> None:
    old = _doc({"allOf": [OBJECT]})
    new = _doc({"allOf": [OBJECT, {"description": "An item.", "x-note": 1}]})
    assert _levels(tmp_path, old, new, 'compat = "oasdiff"') == {
        "request-body-all-of-added-annotation-only": "info"}
