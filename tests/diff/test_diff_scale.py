"""`contractgen diff` at real size: schemas that read the same in both documents, through every
reference they reach, are skipped (`diff/same.py`), and the report is exactly the full walk's:
on the rule table of tests/diff/test_diff.py, on recursive schemas, and on many edits of the corpus
contracts."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

import pytest
from contractgen.diff import Change, diff_documents
from contractgen.diff.rules import Side
from contractgen.diff.same import Unchanged
from shared_corpus import CORPUS_SPECS, corpus_data
from test_diff import BASE, CASES, mutated

Doc = dict[str, Any]


def _full_walk(old: Doc, new: Doc, monkeypatch: pytest.MonkeyPatch) -> list[Change]:
    """The report with nothing skipped: every schema compared rule by rule."""
    with monkeypatch.context() as patch:
        patch.setattr(Unchanged, "same", lambda self, old, new: False)
        return diff_documents(old, new)


def _skipping(old: Doc, new: Doc, monkeypatch: pytest.MonkeyPatch) -> tuple[list[Change], int]:
    """The report as `diff` makes it, and how many comparisons it skipped."""
    skipped = 0
    same = Unchanged.same

    def counting(self: Unchanged, old: Any, new: Any) -> bool:
        nonlocal skipped
        answer = same(self, old, new)
        skipped += answer
        return answer

    with monkeypatch.context() as patch:
        patch.setattr(Unchanged, "same", counting)
        return diff_documents(old, new), skipped


@pytest.mark.parametrize(("mutation", "name"), [pytest.param(m, n, id=n) for n, m, _, _ in CASES])
def test_every_rule_reports_what_the_full_walk_reports(
        mutation: Any, name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    new = mutated(mutation)
    for old_doc, new_doc in ((BASE, new), (new, BASE)):
        report, _ = _skipping(old_doc, new_doc, monkeypatch)
        assert report == _full_walk(old_doc, new_doc, monkeypatch), name


def _cycle(c_type: str) -> Doc:
    """A -> {b: B, c: C}, B -> {a: A}: B reaches C only through A, which refers back to B."""
    doc = copy.deepcopy(BASE)
    ref = "#/components/schemas/"
    doc["components"]["schemas"].update({
        "A": {"type": "object", "properties": {"b": {"$ref": ref + "B"}, "c": {"$ref": ref + "C"}}},
        "B": {"type": "object", "properties": {"a": {"$ref": ref + "A"}}},
        "C": {"type": c_type},
    })
    doc["paths"]["/b"] = {"get": {"operationId": "GetB", "responses": {"200": {
        "description": "B.", "content": {"application/json": {"schema": {"$ref": ref + "B"}}}}}}}
    doc["paths"]["/a"] = {"get": {"operationId": "GetA", "responses": {"200": {
        "description": "A.", "content": {"application/json": {"schema": {"$ref": ref + "A"}}}}}}}
    return doc


def test_a_change_reached_through_a_cycle_is_found_from_every_side(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # GET /b is walked first: B's equal text and A's must not be taken as unchanged while C,
    # which only A refers to, is still unknown.
    old, new = _cycle("string"), _cycle("integer")
    report, skipped = _skipping(old, new, monkeypatch)
    assert report == _full_walk(old, new, monkeypatch)
    (change,) = report
    assert change.id == "response-property-type-changed"
    assert set(change.locations) == {"GET /b response 200 body /a/c", "GET /a response 200 body /c"}
    assert skipped > 0  # the untouched operations of BASE


def test_identical_subtrees_behind_changed_references_are_compared() -> None:
    # Equal text is not enough: the same `$ref` names a component that changed.
    old, new = _cycle("string"), _cycle("integer")
    unchanged = Unchanged(Side(old), Side(new))
    schema = {"$ref": "#/components/schemas/B"}
    assert not unchanged.same(schema, copy.deepcopy(schema))
    assert unchanged.same({"type": "string"}, {"type": "string"})
    assert unchanged.same({"$ref": "#/components/schemas/Item"},
                          {"$ref": "#/components/schemas/Item"})
    assert not unchanged.same({"type": "string"}, {"type": "integer"})


# --- the corpus ---------------------------------------------------------------------------------


def _edits(schemas: dict[str, Any]) -> Iterator[str]:
    """Edit about 24 component schemas with properties, spread over the document, each in one of
    six ways the rules read (a type, requiredness, a property gone, a bound, an enum value, a new
    property); yields what it did."""
    named = sorted(name for name, schema in schemas.items()
                   if isinstance(schema, dict) and isinstance(schema.get("properties"), dict)
                   and schema["properties"])
    for index, name in enumerate(named[::max(1, len(named) // 24)]):
        schema = schemas[name]
        properties = schema["properties"]
        first = sorted(properties)[0]
        way = index % 6
        if way == 0:
            properties[first] = {"type": "integer"}
        elif way == 1:
            schema["required"] = sorted({*schema.get("required", []), first})
        elif way == 2:
            del properties[first]
        elif way == 3:
            properties[first] = {**properties[first], "maxLength": 3}
        elif way == 4:
            enums = [p for p in properties.values() if isinstance(p, dict) and "enum" in p]
            if not enums:
                continue
            enums[0]["enum"] = [*enums[0]["enum"], "added-by-the-test"]
        else:
            properties["added_by_the_test"] = {"type": "string"}
        yield f"{name}: way {way}"


@pytest.mark.slow
@pytest.mark.parametrize("name", CORPUS_SPECS)
def test_corpus_edits_report_what_the_full_walk_reports(
        name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    old = corpus_data(name)
    new = copy.deepcopy(old)
    done = list(_edits(new["components"]["schemas"]))
    assert len(done) >= 10, done
    for before, after in ((old, new), (new, old)):
        report, skipped = _skipping(before, after, monkeypatch)
        assert report == _full_walk(before, after, monkeypatch)
        assert len(report) >= len(done) // 2
        assert skipped > 0
    assert diff_documents(old, copy.deepcopy(old)) == []


@pytest.mark.parametrize(("old_schema", "new_schema"), [
    # OpenAPI 3.0's boolean `exclusiveMinimum` beside its 3.1 number: equal to Python's `==`
    ({"type": "integer", "minimum": 1, "exclusiveMinimum": True},
     {"type": "integer", "minimum": 1, "exclusiveMinimum": 1}),
    ({"type": "number", "default": 1}, {"type": "number", "default": 1.0}),
    ({"type": "integer", "enum": [0, 1]}, {"type": "integer", "enum": [False, True]}),
], ids=["exclusive-minimum-3.0-to-3.1", "default-1-to-1.0", "enum-numbers-to-booleans"])
def test_values_python_takes_for_equal_are_compared(
        old_schema: Doc, new_schema: Doc, monkeypatch: pytest.MonkeyPatch) -> None:
    def with_note(schema: Doc) -> Doc:
        doc = copy.deepcopy(BASE)
        doc["components"]["schemas"]["Item"]["properties"]["note"] = schema
        return doc

    old, new = with_note(old_schema), with_note(new_schema)
    report, _ = _skipping(old, new, monkeypatch)
    assert report == _full_walk(old, new, monkeypatch)
    assert report, "the full walk finds a change here"
