"""`contractgen diff` on the JSON Schema 2020-12 keywords: each rule in both directions, on a
schema a request sends (`request-…`) and one a response carries (`response-…`)."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from contractgen.diff import diff_documents


def _doc(schema: dict[str, Any]) -> dict[str, Any]:
    body = {"application/json": {"schema": schema}}
    return {
        "openapi": "3.1.0", "info": {"title": "t", "version": "1"},
        "paths": {"/things": {"post": {
            "requestBody": {"required": True, "content": copy.deepcopy(body)},
            "responses": {"200": {"description": "OK.", "content": copy.deepcopy(body)}},
        }}},
    }


OBJ: dict[str, Any] = {"type": "object", "properties": {"tags": {"type": "array"}}}

# (name, old schema, new schema, old -> new ids with the request's/response's breaking flag)
# fmt: off
CASES: list[tuple[str, dict[str, Any], dict[str, Any], set[tuple[str, bool]]]] = [
    ("contains added", {"type": "array"}, {"type": "array", "contains": {"type": "string"}},
     {("request-body-contains-added", True), ("response-body-contains-added", False)}),
    ("contains narrowed", {"type": "array", "contains": {"type": "string"}},
     {"type": "array", "contains": {"type": "string", "maxLength": 3}},
     {("request-property-max-length-set", True), ("response-property-max-length-set", False)}),
    ("property names restricted", OBJ, {**OBJ, "propertyNames": {"pattern": "^[a-z]+$"}},
     {("request-body-property-names-added", True),
      ("response-body-property-names-added", False)}),
    ("if changed", {"if": {"required": ["a"]}, "then": {"required": ["b"]}},
     {"if": {"required": ["c"]}, "then": {"required": ["b"]}},
     {("request-body-if-changed", True), ("response-body-if-changed", True)}),
    ("then added", {"if": {"required": ["a"]}}, {"if": {"required": ["a"]},
                                                 "then": {"required": ["b"]}},
     {("request-body-then-added", True), ("response-body-then-added", False)}),
    ("not added", {"type": "string"}, {"type": "string", "not": {"enum": ["x"]}},
     {("request-body-not-added", True), ("response-body-not-added", False)}),
    ("prefix item added", {"type": "array", "prefixItems": [{"type": "string"}]},
     {"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}]},
     {("request-body-prefix-items-added", True), ("response-body-prefix-items-added", False)}),
    ("prefix item narrowed", {"type": "array", "prefixItems": [{"type": "number"}]},
     {"type": "array", "prefixItems": [{"type": "integer"}]},
     {("request-property-type-changed", True), ("response-property-type-specialized", False)}),
    ("dependent required added", OBJ, {**OBJ, "dependentRequired": {"a": ["b"]}},
     {("request-body-dependent-required-added", True),
      ("response-body-dependent-required-added", False)}),
    ("dependent schema added", OBJ, {**OBJ, "dependentSchemas": {"a": {"required": ["b"]}}},
     {("request-body-dependent-schema-added", True),
      ("response-body-dependent-schema-added", False)}),
    ("pattern property added", OBJ, {**OBJ, "patternProperties": {"^x-": {"type": "string"}}},
     {("request-body-pattern-property-added", True),
      ("response-body-pattern-property-added", False)}),
    ("unevaluated properties closed", OBJ, {**OBJ, "unevaluatedProperties": False},
     {("request-body-unevaluated-properties-added", True),
      ("response-body-unevaluated-properties-added", False)}),
    ("content media type changed", {"type": "string", "contentMediaType": "image/png"},
     {"type": "string", "contentMediaType": "image/jpeg"},
     {("request-body-content-media-type-changed", True),
      ("response-body-content-media-type-changed", True)}),
    ("content schema added", {"type": "string", "contentMediaType": "application/json"},
     {"type": "string", "contentMediaType": "application/json", "contentSchema": {"type": "object"}},
     {("request-body-content-schema-added", True), ("response-body-content-schema-added", False)}),
    ("multipleOf made stricter", {"type": "integer", "multipleOf": 2},
     {"type": "integer", "multipleOf": 4},
     {("request-body-multiple-of-changed", True), ("response-body-multiple-of-changed", False)}),
    ("unique items set", {"type": "array"}, {"type": "array", "uniqueItems": True},
     {("request-body-unique-items-set", True), ("response-body-unique-items-set", False)}),
    ("maxContains decreased", {"type": "array", "contains": {}, "maxContains": 3},
     {"type": "array", "contains": {}, "maxContains": 2},
     {("request-body-max-contains-decreased", True),
      ("response-body-max-contains-decreased", False)}),
    ("oneOf became anyOf", {"oneOf": [{"type": "string"}, {"type": "integer"}]},
     {"anyOf": [{"type": "string"}, {"type": "integer"}]},
     {("request-body-one-of-became-any-of", False), ("response-body-one-of-became-any-of", True)}),
]
# fmt: on


def _kinds(old: dict[str, Any], new: dict[str, Any]) -> set[tuple[str, bool]]:
    return {(c.id, c.breaking) for c in diff_documents(_doc(old), _doc(new))}


@pytest.mark.parametrize(("old", "new", "forward"),
                         [pytest.param(o, n, f, id=name) for name, o, n, f in CASES])
def test_keyword_rule(old: dict[str, Any], new: dict[str, Any],
                      forward: set[tuple[str, bool]]) -> None:
    assert _kinds(old, new) == forward
    backward = _kinds(new, old)
    assert backward, "the edit undone is a change too"
    # what breaks one way breaks the other way in the other direction, unless both overlap
    # only partly (`changes`), which breaks both
    both = {rule.split("-", 1)[0] for rule, breaking in forward if breaking}
    assert {rule.split("-", 1)[0] for rule, breaking in backward if breaking} == (
        both if both == {"request", "response"} else {"request", "response"} - both)


def test_unchanged_keywords_are_no_change() -> None:
    for _, old, _, _ in CASES:
        assert _kinds(old, copy.deepcopy(old)) == set()


def test_extensible_enum_values_may_be_added_and_not_removed_from_requests() -> None:
    old = {"type": "string", "x-extensible-enum": ["a", "b"]}
    new = {"type": "string", "x-extensible-enum": ["a"]}
    assert _kinds(old, new) == {("request-body-x-extensible-enum-value-removed", True),
                                ("response-body-x-extensible-enum-value-removed", False)}
    assert _kinds(new, old) == {("request-body-x-extensible-enum-value-added", False),
                                ("response-body-x-extensible-enum-value-added", False)}


def test_wrapped_in_a_one_of_whose_members_overlap() -> None:
    # {a, b} was valid; it matches both members now, which a oneOf rejects
    old = {"type": "object", "required": ["a", "b"]}
    overlapping = {"oneOf": [{"type": "object", "required": ["a"]},
                             {"type": "object", "required": ["b"]}]}
    assert ("request-body-wrapped-in-one-of", True) in _kinds(old, overlapping)
    disjoint = {"oneOf": [{"type": "object"}, {"type": "string"}]}
    assert {rule for rule, _ in _kinds({"type": "object"}, disjoint)} == {
        "request-body-one-of-added", "response-body-one-of-added"}
