"""Contract evolution, as a user lives it: real copier, real git, real processes.

A project made by `contractgen new` gets a hand-written service; its contract then grows
(compatible), changes a signature (mypy notices), loses a response field (`contractgen diff`
calls it breaking), and a template release reaches it through `copier update`.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
import yaml

REPO = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
PYTHON = sys.executable

NOTES: dict[str, Any] = {
    "openapi": "3.1.0",
    "info": {"title": "Notes", "version": "1"},
    "paths": {
        "/notes": {"post": {
            "operationId": "CreateNote",
            "requestBody": {"required": True, "content": {"application/json": {
                "schema": {"$ref": "#/components/schemas/NoteInput"}}}},
            "responses": {"201": {"description": "Created.", "content": {"application/json": {
                "schema": {"$ref": "#/components/schemas/Note"}}}}},
        }},
        "/notes/{note_id}": {"get": {
            "operationId": "GetNote",
            "parameters": [
                {"name": "note_id", "in": "path", "required": True, "schema": {"type": "string"}}],
            "responses": {
                "200": {"description": "The note.", "content": {"application/json": {
                    "schema": {"$ref": "#/components/schemas/Note"}}}},
                "404": {"description": "No such note.", "content": {"application/json": {
                    "schema": {"$ref": "#/components/schemas/Error"}}}},
            },
        }},
    },
    "components": {"schemas": {
        "NoteInput": {"type": "object", "required": ["text"],
                      "properties": {"text": {"type": "string"}}},
        "Note": {"type": "object", "required": ["id", "text"],
                 "properties": {"id": {"type": "string"}, "text": {"type": "string"}}},
        "Error": {"type": "object", "required": ["message"],
                  "properties": {"message": {"type": "string"}}},
    }},
}

SERVICE = '''"""Notes, kept in memory."""

import uuid

from .api import errors, models
from .api.server import ServiceBase


class Service(ServiceBase):
    """The notes service."""

    def __init__(self) -> None:
        self.notes: dict[str, models.Note] = {}

    async def create_note(self, body: models.NoteInput) -> models.Note:
        note = models.Note(id=uuid.uuid4().hex, text=body.text)
        self.notes[note.id] = note
        return note

    async def get_note(self, note_id: str) -> models.Note:
        if note_id not in self.notes:
            raise errors.GetNoteNotFound(models.Error(message=f"no note {note_id}"))
        return self.notes[note_id]
'''


def run(*args: str | Path, cwd: Path, check: bool = True, **env: str) -> subprocess.CompletedProcess[str]:
    """Run a command as a user would, with this venv's tools first on PATH."""
    environ = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}",
               "PYTHONDONTWRITEBYTECODE": "1", "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t",
               "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@t",
               "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1", **env}
    environ.pop("PYTHONPATH", None)
    result = subprocess.run([str(a) for a in args], cwd=cwd, env=environ, capture_output=True,
                            text=True, timeout=300, check=False)
    if check and result.returncode != 0:
        raise AssertionError(f"{args} exited {result.returncode}\n{result.stdout}\n{result.stderr}")
    return result


def passed(result: subprocess.CompletedProcess[str]) -> int:
    """How many tests a pytest run reports passed (and none failed)."""
    assert "failed" not in result.stdout and "error" not in result.stdout, result.stdout
    found = re.search(r"(\d+) passed", result.stdout)
    return int(found.group(1)) if found else 0


def write_spec(path: Path, spec: dict[str, Any]) -> None:
    path.write_text(yaml.safe_dump(spec, sort_keys=False), encoding="utf-8")


def commit_all(project: Path, message: str) -> None:
    run("git", "add", "-A", cwd=project)
    run("git", "commit", "-q", "-m", message, cwd=project)


@contextmanager
def serving(project: Path) -> Iterator[str]:
    """The project's own entry point (`python -m <package>.app`) on a port the OS picks."""
    process = subprocess.Popen(
        [PYTHON, "-m", "notes_backend.app", "--port", "0"], cwd=project,
        env={**os.environ, "PYTHONPATH": str(project / "src")},
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        assert process.stderr is not None
        for line in process.stderr:
            found = re.search(r"running on (http://\S+)", line)
            if found:
                yield found.group(1)
                return
        pytest.fail("the app did not start")
    finally:
        process.terminate()
        process.wait(10)


@pytest.mark.slow
def test_a_contract_evolves_under_a_hand_written_service(tmp_path: Path) -> None:
    write_spec(tmp_path / "notes.yaml", NOTES)
    run(BIN / "contractgen", "new", "notes", "--spec", "notes.yaml", "--name", "notes-backend",
        cwd=tmp_path)
    project = tmp_path / "notes"
    # `new` made it a git repository with a first commit.
    assert run("git", "log", "--oneline", cwd=project).stdout.count("\n") == 1

    # 1. Out of the box: the project's tests and the drift check pass, and leave no trace.
    tests = run("make", "test", f"PYTHON={PYTHON}", cwd=project)
    assert passed(tests) == 3  # /openapi.json and both operations
    check = run("make", "check", f"PYTHON={PYTHON}", cwd=project)
    assert "generated code matches the specs" in check.stdout
    assert run("git", "status", "--porcelain", cwd=project).stdout == ""

    service = project / "src/notes_backend/service.py"
    service.write_text(SERVICE, encoding="utf-8")
    commit_all(project, "the service")
    spec_path = project / "specs/notes.yaml"
    old = tmp_path / "notes-v1.yaml"
    old.write_bytes(spec_path.read_bytes())

    # 2. An optional field and a new operation: drift until regenerated, service untouched.
    spec = yaml.safe_load(spec_path.read_text(encoding="utf-8"))
    tags = {"type": "array", "items": {"type": "string"}}
    spec["components"]["schemas"]["Note"]["properties"]["tags"] = tags
    spec["components"]["schemas"]["NoteInput"]["properties"]["tags"] = tags
    spec["paths"]["/notes/{note_id}"]["delete"] = {
        "operationId": "DeleteNote",
        "parameters": [
            {"name": "note_id", "in": "path", "required": True, "schema": {"type": "string"}}],
        "responses": {"204": {"description": "Deleted."}}}
    write_spec(spec_path, spec)

    drift = run(BIN / "contractgen", "check", "--full", cwd=project, check=False)
    assert drift.returncode == 1
    assert drift.stdout.startswith("drift: specs/notes.yaml changed: 1 operation added, ")
    assert "--- src/notes_backend/api/models.py (committed)" in drift.stdout
    assert "+++ src/notes_backend/api/models.py (from specs/notes.yaml)" in drift.stdout
    assert re.search(r"^\+\s+tags: list\[str\] \| None = None$", drift.stdout, re.M)
    assert re.search(r"^\+\s+async def delete_note\(self, note_id: str\) -> None:$",
                     drift.stdout, re.M)
    assert "run `make regen`" in drift.stderr  # the project's regen_command

    run(BIN / "contractgen", "generate", cwd=project)
    check = run(BIN / "contractgen", "check", cwd=project)
    assert "generated code matches the specs" in check.stdout
    assert ("warning: notes_backend.service:Service does not implement DeleteNote "
            "(they answer 501)") in check.stderr
    strict = run(BIN / "contractgen", "check", "--strict", cwd=project, check=False)
    assert strict.returncode == 1
    assert "error: notes_backend.service:Service does not implement DeleteNote" in strict.stderr

    assert passed(run("make", "test", f"PYTHON={PYTHON}", cwd=project)) == 4  # DeleteNote too
    assert service.read_text(encoding="utf-8") == SERVICE

    with serving(project) as url:
        created = httpx.post(f"{url}/notes", json={"text": "hi", "tags": ["a"]}, timeout=10)
        assert created.status_code == 201, created.text
        note = created.json()
        assert set(note) == {"id", "text"}  # the service does not keep tags (yet)
        assert httpx.get(f"{url}/notes/{note['id']}", timeout=10).status_code == 200
        assert httpx.delete(f"{url}/notes/{note['id']}", timeout=10).status_code == 501

    diff = run(BIN / "contractgen", "diff", old, spec_path, "--format", "json", cwd=project)
    report = json.loads(diff.stdout)
    assert report["breaking"] == 0
    assert {c["id"] for c in report["changes"]} >= {"endpoint-added"}, report
    commit_all(project, "tags and DeleteNote")

    # A changed signature: a new required query parameter; mypy flags the stale override.
    assert run(PYTHON, "-m", "mypy", cwd=project, check=False).returncode == 0
    spec["paths"]["/notes/{note_id}"]["get"]["parameters"].append(
        {"name": "revision", "in": "query", "required": True, "schema": {"type": "integer"}})
    write_spec(spec_path, spec)
    run(BIN / "contractgen", "generate", cwd=project)
    typed = run(PYTHON, "-m", "mypy", cwd=project, check=False)
    assert typed.returncode == 1
    assert re.search(r'service\.py:\d+: error: Signature of "get_note" incompatible with '
                     r'supertype "notes_backend\.api\.server\.ServiceBase"', typed.stdout), typed.stdout


def test_removing_a_response_field_is_breaking(tmp_path: Path) -> None:
    write_spec(tmp_path / "old.yaml", NOTES)
    new = json.loads(json.dumps(NOTES))
    note = new["components"]["schemas"]["Note"]
    del note["properties"]["text"]
    note["required"].remove("text")
    write_spec(tmp_path / "new.yaml", new)
    report = run(BIN / "contractgen", "diff", "old.yaml", "new.yaml", cwd=tmp_path, check=False)
    assert report.returncode == 1
    assert "BREAKING" in report.stdout and "text" in report.stdout


@pytest.mark.slow
def test_a_template_release_reaches_a_project_through_copier_update(tmp_path: Path) -> None:
    template = tmp_path / "contractgen"
    run("git", "clone", "-q", REPO, template, cwd=tmp_path)
    run("git", "tag", "-f", "v0.1.0", cwd=template)  # the clone carries the real v0.1.0
    write_spec(tmp_path / "notes.yaml", NOTES)
    run(BIN / "copier", "copy", "--trust", "--defaults", "--vcs-ref", "v0.1.0",
        "-d", "project_name=notes-backend", "-d", f"spec_path={tmp_path / 'notes.yaml'}",
        template, "notes", cwd=tmp_path)
    project = tmp_path / "notes"
    service = project / "src/notes_backend/service.py"
    service.write_text(SERVICE, encoding="utf-8")
    readme = project / "README.md"
    readme.write_text("Ask in #notes.\n\n" + readme.read_text(encoding="utf-8"), encoding="utf-8")
    run("git", "init", "-q", cwd=project)
    commit_all(project, "from template v0.1.0, with a service")

    # Release v0.2.0: a template-owned file changes, and so does the service's starting point.
    project_template = template / "templates/project"
    with (project_template / "README.md.jinja").open("a", encoding="utf-8") as handle:
        handle.write("\n## Support\n\nFile an issue against the contract first.\n")
    starter = next((project_template / "src/{{ package_name }}").glob("*service.py*.jinja"))
    starter.write_text(starter.read_text(encoding="utf-8") + "\n# v0.2.0\n", encoding="utf-8")
    commit_all(template, "template: support section")
    run("git", "tag", "v0.2.0", cwd=template)

    run(BIN / "copier", "update", "--trust", "--defaults", cwd=project)
    text = readme.read_text(encoding="utf-8")
    assert text.startswith("Ask in #notes.\n") and "## Support" in text
    assert service.read_text(encoding="utf-8") == SERVICE
    answers = yaml.safe_load((project / ".copier-answers.yml").read_text(encoding="utf-8"))
    assert answers["_commit"] == "v0.2.0"
    status = run("git", "status", "--porcelain", cwd=project).stdout.splitlines()
    assert sorted(status) == [" M .copier-answers.yml", " M README.md"]
