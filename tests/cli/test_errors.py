"""One error root: every error contractgen raises for bad input is a ContractgenError whose
class carries the CLI's exit code, and the CLI reads the code from the class."""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path

import contractgen
import pytest
import yaml
from contractgen.cli import exit_code_of
from contractgen.config import NoConfigError
from contractgen.errors import ContractgenError, OptionError, OwnershipError, ScaffoldError
from contractgen.problems import SpecError
from contractgen.spec.jsonpath import JSONPathError
from gen_support import cli, openapi

EXIT_CODES = {SpecError: 1, NoConfigError: 2, OwnershipError: 2, OptionError: 1, ScaffoldError: 1}


def test_every_error_is_under_the_root_with_its_exit_code() -> None:
    for cls, code in EXIT_CODES.items():
        error = cls([]) if issubclass(cls, SpecError) else cls("x")
        assert isinstance(error, ContractgenError)
        assert exit_code_of(error) == cls.exit_code == code
    # the ones that were ValueErrors still are, for callers that catch ValueError
    assert issubclass(OwnershipError, ValueError) and issubclass(OptionError, ValueError)
    assert exit_code_of(FileNotFoundError(2, "gone", "x.yaml")) == 2
    assert exit_code_of(ValueError("not ours")) == 1


def test_every_public_exception_of_the_package_is_under_the_root() -> None:
    """Walks every module: an exception class a caller can catch by name (not `_private`) is a
    ContractgenError, such as the overlays' JSONPathError (a located error in the overlay)."""
    found = []
    for info in pkgutil.walk_packages(contractgen.__path__, "contractgen."):
        if info.name.endswith("__main__"):
            continue  # runs the CLI
        module = importlib.import_module(info.name)
        found += [cls for name, cls in vars(module).items()
                  if isinstance(cls, type) and issubclass(cls, Exception)
                  and cls.__module__ == info.name and not name.startswith("_")]
    assert JSONPathError in found
    assert [cls for cls in found if not issubclass(cls, ContractgenError)] == []
    assert issubclass(JSONPathError, ValueError) and exit_code_of(JSONPathError("x")) == 1


def test_the_errors_are_public_names() -> None:
    for cls in (*EXIT_CODES, ContractgenError):
        assert getattr(contractgen, cls.__name__) is cls
        assert cls.__name__ in contractgen.__all__


def test_the_cli_takes_the_exit_code_from_the_class(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = tmp_path / "pets.yaml"
    spec.write_text(yaml.safe_dump(openapi({}, {"Pet": {"type": "object"}})), "utf-8")
    out = tmp_path / "pkg"
    out.mkdir()
    (out / "notes.txt").write_text("mine", "utf-8")
    refused = cli(capsys, "generate", str(spec), "--out", str(out))  # OwnershipError
    assert refused.returncode == 2 and refused.stderr.startswith("contractgen generate: ")
    unconfigured = cli(capsys, "check", cwd=tmp_path)  # NoConfigError
    assert unconfigured.returncode == 2 and "no [tool.contractgen]" in unconfigured.stderr
    spec.write_text("openapi: 3.1.0\ninfo: {title: x}\npaths: {}\n", "utf-8")
    invalid = cli(capsys, "generate", str(spec), "--out", str(tmp_path / "new"))  # SpecError
    assert invalid.returncode == 1 and "missing required field `version`" in invalid.stderr
