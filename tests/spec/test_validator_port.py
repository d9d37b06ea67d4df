"""openapi-spec-validator-rs answers for openapi-spec-validator when it finds a contract valid
(`spec/validate.py`'s `_valid_by_port`): the problems reported must be exactly those the
validator of record gives, on every contract the tests hold, valid or not."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import contractgen.spec.validate as validate_module
import pytest
from contractgen.problems import Problem
from contractgen.spec import load
from contractgen.spec.loader import Document
from gen_support import ROOT
from shared_corpus import CORPUS_SPECS, corpus_spec

# Every contract file of the tests and the seeds, except the ones that do not load at all
# (syntax errors, unresolvable references: validation never starts).
FILES = sorted(
    path for folder in ("specs", "tests/corpus", "tests/invalid_specs")
    for path in (ROOT / folder).iterdir()
    if path.suffix in (".yaml", ".json") and not path.name.endswith(".overlay.yaml")
    and path.stem not in ("bad_refs", "json_syntax_error", "syntax_error")
)


def _judged(path: Path, *, port: bool, monkeypatch: pytest.MonkeyPatch) -> list[Problem]:
    monkeypatch.setenv("CONTRACTGEN_NO_CACHE", "1")  # a verdict judged now, by the one asked
    if not port:
        monkeypatch.setattr(validate_module, "_valid_by_port", lambda doc: False)
    document, _ = load(path)
    problems = validate_module.validate_document(document)
    monkeypatch.undo()
    return problems


@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_the_port_changes_no_verdict(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert _judged(path, port=True, monkeypatch=monkeypatch) == _judged(
        path, port=False, monkeypatch=monkeypatch)


@pytest.mark.parametrize("name", CORPUS_SPECS)
def test_the_port_changes_no_verdict_on_the_corpus(name: str, tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    spec = corpus_spec(name, tmp_path)
    assert _judged(spec, port=True, monkeypatch=monkeypatch) == _judged(
        spec, port=False, monkeypatch=monkeypatch)


def test_the_port_judges_a_few_invalid_contracts_invalid() -> None:
    # Its "valid" is what lets the validator of record be skipped; an invalid contract must
    # reach openapi-spec-validator, whose errors are the ones reported.
    for stem in ("typos", "null_type_30", "nullable_31", "operations"):
        document, _ = load(ROOT / "tests" / "invalid_specs" / f"{stem}.yaml")
        assert not validate_module._valid_by_port(document), stem


def test_a_valid_contract_never_imports_the_python_validator(tmp_path: Path) -> None:
    code = (
        "import sys\nfrom contractgen.spec import load\n"
        "from contractgen.spec.validate import validate_document\n"
        f"document, _ = load({str(ROOT / 'specs' / 'otari-code-execution.openapi.yaml')!r})\n"
        "assert validate_document(document) == []\n"
        "assert 'openapi_spec_validator_rs' in sys.modules\n"
        "assert 'openapi_spec_validator' not in sys.modules, 'the validator of record ran'\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True,
                   env={"PATH": "", "XDG_CACHE_HOME": str(tmp_path), "HOME": str(tmp_path)})


def test_without_the_port_the_validator_of_record_judges(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "openapi_spec_validator_rs.shortcuts", None)  # not installed
    monkeypatch.setenv("CONTRACTGEN_NO_CACHE", "1")
    judged: list[Path] = []
    semantic = validate_module._semantic_problems

    def counting(doc: Document, cls: type) -> list[Problem]:
        judged.append(doc.path)
        return semantic(doc, cls)

    monkeypatch.setattr(validate_module, "_semantic_problems", counting)
    document, _ = load(ROOT / "specs" / "otari-code-execution.openapi.yaml")
    assert not validate_module._valid_by_port(document)
    assert validate_module.validate_document(document) == []
    assert judged == [document.path]
