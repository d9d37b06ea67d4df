"""`contractgen diff` on deprecation, `x-sunset` and `x-stability-level` (oasdiff's semantics),
with a fixed `today` so that no result depends on the day the tests run."""

from __future__ import annotations

import copy
import datetime as dt
from typing import Any

import pytest
from contractgen.diff import diff_documents
from contractgen.diff.lifecycle import Lifecycle

TODAY = dt.date(2027, 1, 15)
DOC: dict[str, Any] = {
    "openapi": "3.1.0", "info": {"title": "t", "version": "1"},
    "paths": {"/items": {
        "get": {"responses": {"200": {"description": "OK."}}},
        "post": {"parameters": [{"name": "q", "in": "query", "schema": {"type": "string"}}],
                 "responses": {"200": {"description": "OK."}}},
    }},
}


def _with(**extensions: Any) -> dict[str, Any]:
    doc = copy.deepcopy(DOC)
    doc["paths"]["/items"]["get"].update(extensions)
    return doc


def _removed(doc: dict[str, Any]) -> dict[str, Any]:
    doc = copy.deepcopy(doc)
    del doc["paths"]["/items"]["get"]
    return doc


def _ids(old: dict[str, Any], new: dict[str, Any], **policy: Any) -> set[tuple[str, str]]:
    lifecycle = Lifecycle(today=TODAY, **policy)
    return {(c.id, c.level) for c in diff_documents(old, new, lifecycle)}


@pytest.mark.parametrize(("old", "rule", "level"), [
    ({}, "api-removed-without-deprecation", "breaking"),
    ({"deprecated": True}, "api-removed-with-deprecation", "info"),
    ({"deprecated": True, "x-sunset": "2027-02-01"}, "api-removed-before-sunset", "breaking"),
    ({"deprecated": True, "x-sunset": "2027-01-15"}, "api-removed-after-sunset", "info"),
    ({"deprecated": True, "x-sunset": dt.date(2026, 12, 1)}, "api-removed-after-sunset", "info"),
    ({"deprecated": True, "x-sunset": "soon"}, "api-path-sunset-parse", "breaking"),
    ({"x-stability-level": "alpha"}, "api-removed-without-deprecation", "info"),
    ({"x-stability-level": "draft"}, "api-removed-without-deprecation", "info"),
    ({"x-stability-level": "beta"}, "api-removed-without-deprecation", "breaking"),
])
def test_removal(old: dict[str, Any], rule: str, level: str) -> None:
    before = _with(**old)
    assert _ids(before, _removed(before)) == {(rule, level)}


def test_deprecation_days() -> None:
    plain = _with()
    assert _ids(plain, _with(deprecated=True)) == {("endpoint-deprecated", "info")}
    assert _ids(plain, _with(deprecated=True), deprecation_days_stable=30) == {
        ("api-deprecated-sunset-missing", "breaking")}
    soon, later = "2027-01-30", "2027-03-01"
    assert _ids(plain, _with(deprecated=True, **{"x-sunset": soon}),
                deprecation_days_stable=30) == {("api-sunset-date-too-small", "breaking")}
    assert _ids(plain, _with(deprecated=True, **{"x-sunset": later}),
                deprecation_days_stable=30) == {("endpoint-deprecated-with-sunset", "info")}
    # beta has its own days; alpha asks for none
    beta = _with(**{"x-stability-level": "beta"})
    assert _ids(beta, _with(deprecated=True, **{"x-stability-level": "beta", "x-sunset": soon}),
                deprecation_days_stable=30, deprecation_days_beta=7) == {
        ("endpoint-deprecated-with-sunset", "info")}
    dep = _with(deprecated=True, **{"x-sunset": later})
    assert _ids(dep, _with(deprecated=True, **{"x-sunset": "2027-02-20"})) == {
        ("api-sunset-date-changed-too-small", "breaking")}
    assert _ids(dep, plain) == {("endpoint-reactivated", "info")}


def test_stability_levels() -> None:
    stable, beta = _with(**{"x-stability-level": "stable"}), _with(**{"x-stability-level": "beta"})
    assert _ids(stable, beta) == {("api-stability-decreased", "breaking")}
    assert _ids(beta, stable) == {("api-stability-increased", "info")}
    assert _ids(stable, _with(**{"x-stability-level": "gold"})) == {
        ("api-invalid-stability-level", "breaking")}
    assert _ids(_with(**{"x-stability-level": "gold"}), stable) == {
        ("api-invalid-stability-level", "breaking")}
    assert _ids(_with(), beta) == set()  # a level first stated is no change of one


def test_an_alpha_operations_breaking_changes_are_info_unless_the_policy_says_otherwise() -> None:
    alpha = _with(**{"x-stability-level": "alpha"})
    required = copy.deepcopy(alpha)
    required["paths"]["/items"]["get"]["parameters"] = [
        {"name": "q", "in": "query", "required": True, "schema": {"type": "string"}}]
    changes = diff_documents(alpha, required, Lifecycle(today=TODAY))
    assert [(c.id, c.level) for c in changes] == [("new-required-request-parameter", "info")]
    assert "stability level alpha" in changes[0].message
    assert _ids(alpha, required, exempt_stability=frozenset()) == {
        ("new-required-request-parameter", "breaking")}


def _param(**fields: Any) -> dict[str, Any]:
    doc = copy.deepcopy(DOC)
    doc["paths"]["/items"]["post"]["parameters"][0].update(fields)
    return doc


def test_parameter_deprecation_and_removal() -> None:
    future = _param(deprecated=True, **{"x-sunset": "2027-06-01"})
    gone = copy.deepcopy(DOC)
    del gone["paths"]["/items"]["post"]["parameters"]
    assert _ids(_param(), future) == {("request-parameter-deprecated-with-sunset", "info")}
    assert _ids(future, gone) == {("request-parameter-removed-before-sunset", "breaking")}
    assert _ids(_param(deprecated=True), gone) == {
        ("request-parameter-removed-with-deprecation", "info")}
    assert _ids(_param(), gone) == {("request-parameter-removed", "warning")}
    assert _ids(future, _param(deprecated=True)) == {
        ("request-parameter-sunset-deleted", "breaking")}
    assert _ids(future, _param(deprecated=True, **{"x-sunset": "junk"})) == {
        ("request-parameter-sunset-parse", "breaking")}


def test_property_deprecation() -> None:
    def body(**fields: Any) -> dict[str, Any]:
        doc = copy.deepcopy(DOC)
        doc["paths"]["/items"]["post"]["requestBody"] = {"content": {"application/json": {
            "schema": {"type": "object", "properties": {"a": {"type": "string", **fields}}}}}}
        return doc
    assert _ids(body(), body(deprecated=True)) == {("request-property-deprecated", "info")}
    assert _ids(body(), body(deprecated=True), deprecation_days_stable=10) == {
        ("request-property-deprecated-sunset-missing", "breaking")}
    assert _ids(body(), body(deprecated=True, **{"x-sunset": "later"})) == {
        ("request-property-deprecated-sunset-invalid", "breaking")}
