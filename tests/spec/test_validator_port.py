"""openapi-spec-validator-rs answers for openapi-spec-validator when it finds a contract valid
(`spec/validate.py`): the problems reported must be exactly those the validator of record
gives, on every contract the tests hold, valid or not. "Without the port" is as when it is not
installed: its module cannot be imported."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import contractgen.spec.validate as validate_module
import pytest
from contractgen.problems import Problem
from contractgen.spec import load
from gen_support import ROOT
from shared_corpus import CORPUS_SPECS, corpus_spec

PORT = "openapi_spec_validator_rs.shortcuts"

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
        monkeypatch.setitem(sys.modules, PORT, None)  # not installed
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
    from openapi_spec_validator_rs.shortcuts import get_validator_cls

    for stem in ("typos", "null_type_30", "nullable_31", "operations"):
        document, _ = load(ROOT / "tests" / "invalid_specs" / f"{stem}.yaml")
        validator = get_validator_cls(document.data)(document.data)
        assert not validator.is_valid(), stem


def _validators_imported(tmp_path: Path, *, port: bool) -> set[str]:
    """Which validators a fresh interpreter imports to find the Otari contract valid."""
    code = (
        "import sys\n" + ("" if port else f"sys.modules[{PORT!r}] = None\n")
        + "from contractgen.spec import load\n"
        "from contractgen.spec.validate import validate_document\n"
        f"document, _ = load({str(ROOT / 'specs' / 'otari-code-execution.openapi.yaml')!r})\n"
        "assert validate_document(document) == []\n"
        "print(*(m for m in ('openapi_spec_validator', 'openapi_spec_validator_rs')"
        " if m in sys.modules))\n"
    )
    found = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True,
                           env={"PATH": "", "XDG_CACHE_HOME": str(tmp_path), "HOME": str(tmp_path)})
    return set(found.stdout.split())


def test_a_valid_contract_never_imports_the_python_validator(tmp_path: Path) -> None:
    assert _validators_imported(tmp_path, port=True) == {"openapi_spec_validator_rs"}


def test_without_the_port_the_validator_of_record_judges(tmp_path: Path) -> None:
    assert _validators_imported(tmp_path, port=False) == {"openapi_spec_validator"}
