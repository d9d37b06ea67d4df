"""Validation verdicts are cached per document content and validator version (spec/verdicts.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from contractgen.cache import cache_root
from contractgen.problems import Problem
from contractgen.spec.loader import Document, load_document
from contractgen.spec.validate import validate_document
from contractgen.spec.verdicts import cached

SPEC = {
    "openapi": "3.0.3",
    "info": {"title": "T", "version": "1"},
    "paths": {"/a": {"get": {"operationId": "a", "responses": {"200": {"description": "ok"}}}}},
    "components": {"schemas": {"N": {"type": "integer", "minimum": 1,
                                     "exclusiveMinimum": "yes"}}},
}


def test_verdict_is_reused_and_keyed_by_content(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    calls: list[Document] = []

    def judge(doc: Document) -> list[Problem]:
        calls.append(doc)
        return validate_document.__wrapped__(doc)  # type: ignore[attr-defined,no-any-return]

    counted = cached(judge)
    spec = tmp_path / "api.json"
    spec.write_text(json.dumps(SPEC))
    first = counted(load_document(spec))
    assert first and any(p.is_error for p in first)
    assert counted(load_document(spec)) == first
    assert len(calls) == 1

    spec.write_text(json.dumps({**SPEC, "components": {}}))  # another document: judged again
    assert not any(p.is_error for p in counted(load_document(spec)))
    assert len(calls) == 2

    for entry in cache_root().rglob("*"):
        if entry.is_file():
            entry.write_bytes(entry.read_bytes()[:-2])  # damaged entries are misses
    spec.write_text(json.dumps(SPEC))
    assert counted(load_document(spec)) == first
    assert len(calls) == 3


def test_cached_verdicts_match_fresh_ones(tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """The verdict read back is the verdict the validator gives, on every invalid-spec case."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    folder = Path(__file__).resolve().parents[1] / "invalid_specs"
    for spec in sorted(folder.glob("*.yaml")) + sorted(folder.glob("*.json")):
        if spec.name.endswith(".overlay.yaml"):
            continue
        try:
            doc = load_document(spec)
        except Exception:
            continue
        fresh = validate_document.__wrapped__(doc)  # type: ignore[attr-defined]
        assert validate_document(doc) == fresh
        assert validate_document(doc) == fresh


def test_a_prose_edit_keeps_the_validators_verdict(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Descriptions are free text to the validator: a valid document whose descriptions alone
    changed is not judged again; a change anywhere else (even a description inside a default,
    which is data checked against its schema) is."""
    import contractgen.spec.validate as validate_module

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    judged: list[str] = []
    port = validate_module._valid_by_port

    def counting(doc: Document) -> bool:  # every judgment starts with the Rust port's
        judged.append(str(doc.path))
        return port(doc)

    monkeypatch.setattr(validate_module, "_valid_by_port", counting)
    note = {"type": "object", "description": "A note.",
            "properties": {"description": {"type": "string", "maxLength": 3}},
            "default": {"description": "abc"}}
    spec = {**SPEC, "components": {"schemas": {"Note": note}}}
    path = tmp_path / "api.json"

    def verdict(data: dict[str, object]) -> list[Problem]:
        path.write_text(json.dumps(data))
        return validate_document(load_document(path))

    assert not any(p.is_error for p in verdict(spec))
    assert len(judged) == 1
    edited = json.loads(json.dumps(spec))
    edited["paths"]["/a"]["get"]["responses"]["200"]["description"] = "Fine."
    edited["components"]["schemas"]["Note"]["description"] = "Another text."
    found = verdict(edited)
    assert len(judged) == 1  # not judged again
    monkeypatch.setenv("CONTRACTGEN_NO_CACHE", "1")
    assert found == validate_document(load_document(path))  # what judging it again says
    monkeypatch.delenv("CONTRACTGEN_NO_CACHE")
    assert len(judged) == 2

    edited["components"]["schemas"]["Note"]["default"] = {"description": "too long"}
    found = verdict(edited)
    assert len(judged) == 3
    assert any(p.is_error and "default" in p.message for p in found)
