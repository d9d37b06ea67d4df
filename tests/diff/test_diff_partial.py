"""`contractgen diff` on partial and invalid documents: compared as written, with warnings;
only a document that is not OpenAPI 3 is refused."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from contractgen.diff import diff_documents, run_diff
from test_diff import BASE

JUNK: tuple[Any, ...] = (3, "x", [], {}, None, [1], {"a": 1}, True)


def _paths(node: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield path
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _paths(value, (*path, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _paths(value, (*path, index))


@pytest.mark.slow  # ~6 s: 3,000 comparisons
def test_any_node_of_any_type_is_compared_without_a_crash() -> None:
    compared = 0
    for path in list(_paths(BASE))[1:]:
        for junk in JUNK:
            doc = copy.deepcopy(BASE)
            parent = doc
            for part in path[:-1]:
                parent = parent[part]
            parent[path[-1]] = junk
            diff_documents(BASE, doc)
            diff_documents(doc, BASE)
            compared += 2
    assert compared > 1000


def _spec(pattern: str, *, responses: bool) -> dict[str, Any]:
    operation: dict[str, Any] = {"parameters": [
        {"name": "q", "in": "query", "schema": {"type": "string", "pattern": pattern}}]}
    if responses:
        operation["responses"] = {"200": {"description": "OK."}}
    return {"openapi": "3.0.3", "info": {"title": "t", "version": "1"},
            "paths": {"/a": {"get": operation}}}


def test_an_ecma_pattern_python_rejects_and_a_missing_responses_are_compared(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old, new = tmp_path / "old.yaml", tmp_path / "new.yaml"
    # `[\w-./:]` is valid ECMA-262 (`-` after a class escape is a literal), not valid for `re`
    old.write_text(yaml.safe_dump(_spec(r"^[\w-./:]+$", responses=False)), encoding="utf-8")
    new.write_text(yaml.safe_dump(_spec(r"^[\w-./:]+$", responses=True)), encoding="utf-8")
    assert run_diff(old, new, fail_on="info") == 1  # the 200 response was added
    captured = capsys.readouterr()
    assert "response-success-status-added" in captured.out
    assert f"{old}:" in captured.err and "warning: /paths/~1a/get" in captured.err
    assert "compared as written" in captured.err


@pytest.mark.parametrize("empty", ["", None])
def test_an_empty_pattern_matches_everything(empty: str | None) -> None:
    old = _spec("", responses=True)
    new = copy.deepcopy(old)
    schema = new["paths"]["/a"]["get"]["parameters"][0]["schema"]
    if empty is None:
        del schema["pattern"]
    assert diff_documents(old, new) == []
    schema["pattern"] = "^a$"
    assert [c.id for c in diff_documents(old, new)] == ["request-parameter-pattern-added"]


def test_an_ecma_pattern_python_rejects_is_compared_without_a_warning(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old, new = tmp_path / "old.yaml", tmp_path / "new.yaml"
    old.write_text(yaml.safe_dump(_spec(r"^(?:[\w-./:]+)$", responses=True)), encoding="utf-8")
    new.write_text(yaml.safe_dump(_spec(r"^(?:[\w./:]+)$", responses=True)), encoding="utf-8")
    assert run_diff(old, new, fail_on="warning") == 1
    captured = capsys.readouterr()
    assert "request-parameter-pattern-changed" in captured.out
    assert "pattern" not in captured.err and "warning" not in captured.err


@pytest.mark.parametrize(("old", "new", "changed"), [
    (r"^\d+$", "^[0-9]+$", False),  # `\d` is ASCII in ECMA-262
    (r"^[\w-./:]+$", r"^[\w\-./:]+$", False),  # Annex B: the `-` after `\w` is a literal
    (r"^\x41$", "^A$", False),
    (r"^\w+$", r"^[a-z]+$", True),
    (r"^\d+$", r"^\d+(?=x)", True),  # untranslatable: compared as text
])
def test_patterns_are_compared_as_ecma_reads_them(old: str, new: str, changed: bool) -> None:
    ids = [c.id for c in diff_documents(_spec(old, responses=True), _spec(new, responses=True))]
    assert ids == (["request-parameter-pattern-changed"] if changed else [])


@pytest.mark.parametrize("junk", [[1], {"a": 1}, 3, "("])
def test_a_pattern_that_is_no_pattern_is_compared_without_a_crash(junk: Any) -> None:
    ids = [c.id for c in diff_documents(_spec(junk, responses=True), _spec("^a$", responses=True))]
    assert ids == ["request-parameter-pattern-changed"]
