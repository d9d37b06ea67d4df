"""`contractgen diff` in CI: git revisions as inputs (multi-file contracts at that revision),
the YAML, GitHub and JUnit formats, and the `changelog` command."""

from __future__ import annotations

import copy
import io
import json
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import yaml
from contractgen.cli import main
from contractgen.diff import run_changelog, run_diff
from test_diff import BASE, _write_pair

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def _git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.com", *args],
                   cwd=repo, check=True, capture_output=True)


def _contract(repo: Path, kind: str) -> None:
    """A contract in two files: specs/api.yaml refers to specs/common.yaml for Item."""
    spec = copy.deepcopy(BASE)
    spec["components"]["schemas"]["Item"]["properties"]["size"] = {"$ref": "common.yaml#/Size"}
    (repo / "specs").mkdir(exist_ok=True)
    (repo / "specs" / "api.yaml").write_text(yaml.safe_dump(spec), encoding="utf-8")
    (repo / "specs" / "common.yaml").write_text(yaml.safe_dump({"Size": {"type": kind}}),
                                                encoding="utf-8")


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    _git(tmp_path, "init", "-q", "-b", "main")
    _contract(tmp_path, "integer")
    _git(tmp_path, "add", "-A")
    _git(tmp_path, "commit", "-q", "-m", "v1")
    _contract(tmp_path, "string")  # the referenced file changes, the spec does not
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_a_git_revision_reads_the_contract_and_its_files_at_that_revision(
    repo: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert main(["diff", "main:specs/api.yaml", "specs/api.yaml", "--format", "json"]) == 1
    out = capsys.readouterr().out
    assert "response-property-type-changed" in out
    assert main(["diff", "main:specs/api.yaml", "main:specs/api.yaml"]) == 0
    assert "No changes." in capsys.readouterr().out
    # from a sub-folder, ./ is the current folder, as `git show` reads it
    monkeypatch.chdir(repo / "specs")
    assert main(["diff", "main:./api.yaml", "api.yaml"]) == 1
    assert main(["diff", "main:./api.yaml", "main:specs/api.yaml"]) == 0


def test_a_revision_or_file_that_is_not_there_is_a_usage_error(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["diff", "main:specs/nothere.yaml", "specs/api.yaml"]) == 2
    assert "no file specs/nothere.yaml at revision main" in capsys.readouterr().err
    # not a revision: read as a file name, which does not exist
    assert main(["diff", "nobranch:specs/api.yaml", "specs/api.yaml"]) == 2


def _changed(tmp_path: Path) -> tuple[Path, Path]:
    new = copy.deepcopy(BASE)
    del new["paths"]["/items/{item_id}"]["delete"]
    new["components"]["schemas"]["Item"]["properties"].pop("created_at")
    return _write_pair(tmp_path, new)


def test_github_annotations_name_the_file_and_line(tmp_path: Path) -> None:
    old, new = _changed(tmp_path)
    out = io.StringIO()
    assert run_diff(old, new, fmt="github", out=out) == 1
    lines = out.getvalue().splitlines()
    assert lines[0].startswith(f"::error file={old},line=")
    assert "title=api-removed-without-deprecation (DELETE /items/{item_id})::" in lines[0]
    assert any(line.startswith("::warning ") for line in lines)


def test_junit_fails_the_failing_changes_only(tmp_path: Path) -> None:
    old, new = _changed(tmp_path)
    for fail_on, failures in (("breaking", 1), ("warning", 2)):
        out = io.StringIO()
        run_diff(old, new, fmt="junit", fail_on=fail_on, out=out)
        suite = ET.fromstring(out.getvalue()).find("testsuite")
        assert suite is not None
        assert suite.get("tests") == "2" and suite.get("failures") == str(failures)
        assert len(suite.findall("testcase/failure")) == failures


def test_yaml_is_the_json_report(tmp_path: Path) -> None:
    old, new = _changed(tmp_path)
    as_yaml, as_json = io.StringIO(), io.StringIO()
    run_diff(old, new, fmt="yaml", out=as_yaml)
    run_diff(old, new, fmt="json", out=as_json)
    assert yaml.safe_load(as_yaml.getvalue()) == json.loads(as_json.getvalue())


def test_changelog_groups_changes_by_operation(tmp_path: Path) -> None:
    old, new = _changed(tmp_path)
    out = io.StringIO()
    assert run_changelog(old, new, title="Release 2", out=out) == 0
    text = out.getvalue()
    assert text.startswith("# Release 2\n")
    sections = text.split("\n## ")[1:]
    headings = [s.splitlines()[0] for s in sections]
    assert "DELETE /items/{item_id}" in headings
    # created_at of the shared Item: under each operation whose response carries it
    with_item = [s for s in sections if "created_at" in s]
    assert len(with_item) >= 2
    assert "**Breaking:**" in sections[headings.index("DELETE /items/{item_id}")]
    empty = io.StringIO()
    run_changelog(old, old, out=empty)
    assert "No changes." in empty.getvalue()


def test_cli_changelog(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    old, new = _changed(tmp_path)
    assert main(["changelog", str(old), str(new)]) == 0
    assert capsys.readouterr().out.startswith("# API changes")
