"""The scaffold's CI is the check a team wants: its workflow runs `make lint`, `make check`,
`make test` and, for a pull request, `make diff` against the base branch, with the tools pinned;
and those targets, run locally as the workflow calls them, fail when hand-written code reads a
field the contract renamed (mypy) and when the contract breaks a caller (diff), unless breaking
changes are allowed.
"""

from __future__ import annotations

import re
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml
from test_scaffold import PYTHON, run
from test_secured_projects import new_books_project


def git(project: Path, *args: str) -> str:
    done = subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@localhost", *args],
                          cwd=project, capture_output=True, text=True, check=True, timeout=60)
    return done.stdout.strip()


def change_contract(project: Path, branch: str, edit: Callable[[dict[str, Any]], None]) -> None:
    """On a new branch: the contract's schemas edited, regenerated and committed, as a pull
    request does."""
    git(project, "checkout", "-q", "-b", branch)
    spec = project / "specs/books.yaml"
    document = yaml.safe_load(spec.read_text("utf-8"))
    edit(document["components"]["schemas"])
    spec.write_text(yaml.safe_dump(document, sort_keys=False), "utf-8")
    run("make", "regen", f"PYTHON={PYTHON}", cwd=project)
    git(project, "commit", "-q", "-am", f"contract: {branch}")


def add_isbn(schemas: dict[str, Any]) -> None:
    schemas["Book"]["properties"]["isbn"] = {"type": "string"}


def rename_title(schemas: dict[str, Any]) -> None:
    for schema in (schemas["Book"], schemas["NewBook"]):
        schema["properties"]["name"] = schema["properties"].pop("title")
        schema["required"] = ["name" if r == "title" else r for r in schema["required"]]


TEMPLATE = Path(__file__).resolve().parents[2] / "templates/project"


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    made = new_books_project(tmp_path_factory.mktemp("ci"), "bearer")
    git(made, "add", "-A")
    git(made, "commit", "-q", "-m", "the service, reading Book.title")
    return made


def test_the_workflow_runs_lint_check_test_and_diff_with_pinned_tools() -> None:
    text = (TEMPLATE / ".github/workflows/ci.yml").read_text("utf-8")  # copied as it is
    workflow = yaml.safe_load(text)
    runs = [step.get("run", "") for step in workflow["jobs"]["test"]["steps"]]
    for target in ("make lint", "make check", "make test", "make diff"):
        assert any(step.startswith(target) for step in runs), (target, runs)
    assert "breaking-change-ok" in text and "fetch-depth: 0" in text
    assert "labeled" in text  # adding the label runs the checks again
    pins = re.findall(r"^([a-z]+)==[0-9.]+$", (TEMPLATE / "constraints.txt").read_text("utf-8"),
                      re.M)
    assert sorted(pins) == ["mypy", "pytest", "ruff"]
    makefile = (TEMPLATE / "Makefile.jinja").read_text("utf-8")
    assert "export UV_CONSTRAINT := $(CURDIR)/constraints.txt" in makefile
    assert "export PIP_CONSTRAINT := $(CURDIR)/constraints.txt" in makefile


@pytest.mark.slow
def test_ci_fails_on_stale_hand_written_code_and_on_a_breaking_change(project: Path) -> None:
    base = git(project, "branch", "--show-current")
    run("make", "lint", f"PYTHON={PYTHON}", cwd=project)
    same = run("make", "diff", f"PYTHON={PYTHON}", f"BASE={base}", cwd=project)
    assert "No changes." in same.stdout, same.stdout

    # A compatible change: an optional property. The diff lets it through.
    change_contract(project, "optional-isbn", add_isbn)
    assert run("make", "diff", f"PYTHON={PYTHON}", f"BASE={base}", cwd=project).returncode == 0

    # The required `title` renamed to `name`: service.py still reads `.title`.
    git(project, "checkout", "-q", base)
    change_contract(project, "rename-title", rename_title)
    linted = run("make", "lint", f"PYTHON={PYTHON}", cwd=project, check=False)
    assert linted.returncode != 0
    assert re.search(r'service\.py:\d+: error: .*"title"', linted.stdout), linted.stdout
    assert run("make", "check", f"PYTHON={PYTHON}", cwd=project, check=False).returncode == 0

    refused = run("make", "diff", f"PYTHON={PYTHON}", f"BASE={base}", cwd=project, check=False)
    assert refused.returncode != 0, refused.stdout
    assert "BREAKING" in refused.stdout and "breaking-change-ok" in refused.stderr
    allowed = run("make", "diff", f"PYTHON={PYTHON}", f"BASE={base}", "ALLOW_BREAKING=true",
                  cwd=project)
    assert "BREAKING" in allowed.stdout and "breaking changes allowed" in allowed.stdout
