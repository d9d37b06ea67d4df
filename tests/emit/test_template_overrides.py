"""Template overrides: `templates = "DIR"` in [tool.contractgen] and `--templates DIR`.

A file in DIR replaces the built-in template of the same name; `{% extends "builtin/NAME" %}`
replaces one block. Driven through the real CLI in a subprocess, in a project folder.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from contractgen.api import render
from gen_support import cli, openapi

SPEC = openapi(
    paths={
        "/notes": {
            "post": {
                "operationId": "CreateNote",
                "requestBody": {"required": True, "content": {"application/json": {
                    "schema": {"$ref": "#/components/schemas/Note"}}}},
                "responses": {"201": {"description": "Created.", "content": {
                    "application/json": {"schema": {"$ref": "#/components/schemas/Note"}}}}},
            }
        }
    },
    schemas={"Note": {"type": "object", "required": ["text"],
                      "properties": {"text": {"type": "string"}}}},
)

MODELS_OVERRIDE = '''{% extends "builtin/models.py.jinja" %}
{% block docstring %}
"""Notes models, by the notes team."""
{% endblock %}
{% block imports %}
{{ super() }}
import textwrap
{% endblock %}
{% block base_model %}
{{ super() }}

    def short(self) -> str:
        """A one-line preview of the model."""
        return textwrap.shorten(str(self.model_dump()), 20)
{% endblock %}
'''


def contractgen(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "contractgen.cli", *args], cwd=cwd,
                          capture_output=True, text=True, check=False)


def make_project(tmp_path: Path, templates: str | None = "overrides") -> Path:
    project = tmp_path / "project"
    (project / "specs").mkdir(parents=True)
    (project / "specs" / "notes.json").write_text(json.dumps(SPEC), encoding="utf-8")
    setting = f'templates = "{templates}"\n' if templates else ""
    (project / "pyproject.toml").write_text(
        f'[tool.contractgen]\n{setting}\n[[tool.contractgen.targets]]\n'
        'spec = "specs/notes.json"\nout = "notes/api"\n', encoding="utf-8")
    (project / "notes").mkdir()
    (project / "notes" / "__init__.py").write_text("", encoding="utf-8")
    (project / "overrides").mkdir()
    (project / "overrides" / "models.py.jinja").write_text(MODELS_OVERRIDE, encoding="utf-8")
    return project


def use_models(project: Path) -> str:
    script = ("from notes.api.models import Note; "
              "print(Note.__module__, Note(text='a' * 50).short())")
    return subprocess.run([sys.executable, "-c", script], cwd=project, capture_output=True,
                          text=True, check=True).stdout


@pytest.mark.slow
def test_override_changes_output_and_survives_regeneration(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    generated = contractgen("generate", cwd=project)
    assert generated.returncode == 0, generated.stderr
    models = (project / "notes/api/models.py").read_text(encoding="utf-8")
    assert '"""Notes models, by the notes team."""' in models
    assert "# Templates overridden by overrides.\n" in models
    assert "import textwrap" in models
    # every other module is the built-in one; the header names the override there too
    server = (project / "notes/api/server.py").read_text(encoding="utf-8")
    assert '"""FastAPI server of Test.' in server and "Templates overridden by" in server
    # the generated base class carries the added method, and the package imports and works
    assert use_models(project) == "notes.api.models {'text': [...]\n"
    assert contractgen("check", cwd=project).returncode == 0

    # editing the override is drift, until the next `generate`, which keeps the override
    override = project / "overrides" / "models.py.jinja"
    override.write_text(MODELS_OVERRIDE.replace("by the notes team", "by us"), encoding="utf-8")
    drift = contractgen("check", cwd=project)
    assert drift.returncode == 1
    assert '+"""Notes models, by us."""' in drift.stdout
    assert contractgen("generate", cwd=project).returncode == 0
    assert contractgen("check", cwd=project).returncode == 0
    models = (project / "notes/api/models.py").read_text(encoding="utf-8")
    assert '"""Notes models, by us."""' in models and "def short(self)" in models


@pytest.mark.slow
def test_templates_option_on_generate_and_check(tmp_path: Path) -> None:
    project = make_project(tmp_path, templates=None)
    assert contractgen("generate", cwd=project).returncode == 0
    plain = (project / "notes/api/models.py").read_text(encoding="utf-8")
    assert "Templates overridden" not in plain
    assert contractgen("check", cwd=project).returncode == 0
    # the same project checked against an override folder: drift, then generated with it
    assert contractgen("check", "--templates", "overrides", cwd=project).returncode == 1
    assert contractgen("generate", "--templates", "overrides", cwd=project).returncode == 0
    assert contractgen("check", "--templates", "overrides", cwd=project).returncode == 0
    assert contractgen("check", cwd=project).returncode == 1
    # and for one spec and an output folder
    out = tmp_path / "single"
    single = contractgen("generate", "specs/notes.json", "--out", str(out),
                         "--templates", "overrides", cwd=project)
    assert single.returncode == 0, single.stderr
    assert "by the notes team" in (out / "models.py").read_text(encoding="utf-8")


def test_a_file_that_replaces_nothing_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = make_project(tmp_path)
    (project / "overrides" / "model.py.jinja").write_text("typo", encoding="utf-8")
    (project / "overrides" / "_partial.jinja").write_text("", encoding="utf-8")  # allowed
    result = cli(capsys, "generate", cwd=project)
    assert result.returncode == 1
    assert "model.py.jinja: error: /: model.py.jinja replaces no built-in template" in result.stderr
    assert "models.py.jinja" in result.stderr  # the hint lists the names
    assert not (project / "notes/api/models.py").exists()
    missing = cli(capsys, "generate", "--templates", "nowhere", cwd=project)
    assert missing.returncode == 1
    assert "the templates folder does not exist" in missing.stderr


def test_whole_template_replacement(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    (project / "overrides" / "__init__.py.jinja").write_text(
        '{{ api.header }}\n"""The {{ api.title }} API, our way."""\n', encoding="utf-8")
    files, _ = render(project / "specs/notes.json", templates=project / "overrides")
    assert '"""The Test API, our way."""' in files["__init__.py"]
    assert "by the notes team" in files["models.py"]
    plain, _ = render(project / "specs/notes.json")
    # the override's content is part of every module's digest line, so a cached module
    # formatted without the override is never reused with it
    assert all(files[name] != plain[name] for name in ("__init__.py", "models.py", "server.py"))


def test_an_override_declares_the_imports_and_exports_of_what_it_adds(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    (project / "overrides" / "server.py.jinja").write_text(
        '{% extends "builtin/server.py.jinja" %}\n{% block extra %}\n'
        '{% do imports.module("textwrap").name("collections.abc", "Iterator") %}\n'
        '{% do exported.add("short_titles") %}\n\n\n'
        'def short_titles(titles: list[str]) -> Iterator[str]:\n'
        '    return (textwrap.shorten(t, 10) for t in titles)\n{% endblock %}\n',
        encoding="utf-8")
    files, _ = render(project / "specs/notes.json", templates=project / "overrides")
    server = files["server.py"]
    head = server.split("\n\n__all__")[0]
    # in the import lines, in isort's sections and order, beside the built-in template's own
    assert ("\nimport functools\nimport textwrap\n"
            "from collections.abc import Awaitable, Callable, Iterator, Mapping\n") in head
    assert '    "short_titles",\n' in server and "def short_titles(" in server


def test_a_mistake_in_an_override_is_located_in_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = make_project(tmp_path)
    # written for the context before templates declared their imports: `imports` is theirs now
    (project / "overrides" / "server.py.jinja").write_text(
        '{{ api.header }}\n{{ imports }}\n', encoding="utf-8")
    result = cli(capsys, "generate", cwd=project)
    assert result.returncode == 1
    assert "server.py.jinja:2: error: /: template error: 'imports' is undefined" in result.stderr
    assert "docs/templates.md" in result.stderr and "Traceback" not in result.stderr
    assert not (project / "notes/api/server.py").exists()
