"""The project template: `copier copy` of this repository, `contractgen new` from an installed
package, the three `parts`, refusals, and the reference backends' answers under `copier update`.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest
import yaml
from contractgen import __version__
from contractgen.project.scaffold import new_project

REPO = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
PYTHON = sys.executable
OTARI = REPO / "specs/otari-code-execution.openapi.yaml"
TPMJS = REPO / "specs/tpmjs-executor.openapi.yaml"
TPMJS_OVERLAY = REPO / "specs/tpmjs-executor.overlay.yaml"
BACKENDS = ("otari-sandbox", "tpmjs-executor")


def run(*args: str | Path, cwd: Path, check: bool = True,
        **env: str) -> subprocess.CompletedProcess[str]:
    """A command as a user would run it: this venv's tools first on PATH, no PWD hint."""
    environ = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PWD")}
    # The projects' tests need none of this venv's pytest plugins (a project's own venv lacks them).
    environ.update(PATH=f"{BIN}{os.pathsep}{os.environ['PATH']}", PYTHONDONTWRITEBYTECODE="1",
                   PYTEST_DISABLE_PLUGIN_AUTOLOAD="1", **env)
    result = subprocess.run([str(a) for a in args], cwd=cwd, env=environ, capture_output=True,
                            text=True, timeout=300, check=False)
    if check and result.returncode != 0:
        raise AssertionError(f"{args} exited {result.returncode}\n{result.stdout}\n{result.stderr}")
    return result


def answers(project: Path) -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load((project / ".copier-answers.yml").read_text("utf-8"))
    return loaded


def files(project: Path) -> set[str]:
    return {p.relative_to(project).as_posix() for p in project.rglob("*")
            if p.is_file() and "__pycache__" not in p.parts and ".mypy_cache" not in p.parts}


def test_questions_are_defined_once_and_all_have_help() -> None:
    from copier._template import load_template_config  # the loader copier itself uses

    root = load_template_config(REPO / "copier.yml")
    packaged = load_template_config(REPO / "templates/copier.yml")
    assert root.pop("_subdirectory") == "templates/project"
    assert packaged.pop("_subdirectory") == "project"
    assert root == packaged
    questions = {k: v for k, v in root.items() if not k.startswith("_")}
    assert {"project_name", "package_name", "spec_path", "overlay_path", "parts"} <= set(questions)
    assert all(q.get("help") for q in questions.values())
    assert root["_skip_if_exists"] == ["src/{{ package_name }}/service.py"]
    assert "contractgen.project.scaffold" in root["_tasks"][0]["command"]


@pytest.mark.slow
def test_copier_copy_of_the_repository_with_a_relative_spec_and_an_overlay(tmp_path: Path) -> None:
    (tmp_path / "contract").mkdir()
    shutil.copy(TPMJS, tmp_path / "contract")
    shutil.copy(TPMJS_OVERLAY, tmp_path / "contract")
    run(BIN / "copier", "copy", "--trust", "--defaults", "--vcs-ref", "HEAD",
        "-d", "project_name=tool-runner",
        "-d", f"spec_path=contract/{TPMJS.name}", "-d", f"overlay_path=contract/{TPMJS_OVERLAY.name}",
        REPO, "tool-runner", cwd=tmp_path)
    project = tmp_path / "tool-runner"
    assert {
        ".copier-answers.yml", ".gitignore", ".github/workflows/ci.yml", ".pre-commit-config.yaml",
        "Makefile", "README.md", "pyproject.toml", f"specs/{TPMJS.name}",
        f"specs/{TPMJS_OVERLAY.name}", "src/tool_runner/__init__.py", "src/tool_runner/py.typed",
        "src/tool_runner/app.py", "src/tool_runner/service.py", "src/tool_runner/api/server.py",
        "src/tool_runner/api/client.py", "src/tool_runner/api/openapi.json",
        "tests/test_contract.py",
    } <= files(project)
    assert (project / "specs" / TPMJS.name).read_bytes() == TPMJS.read_bytes()
    recorded = answers(project)
    assert recorded["_src_path"] == str(REPO) and recorded["_commit"]
    assert recorded["package_name"] == "tool_runner" and recorded["parts"] == "both"
    config = tomllib.loads((project / "pyproject.toml").read_text("utf-8"))
    assert config["tool"]["contractgen"]["targets"] == [{
        "spec": f"specs/{TPMJS.name}", "overlay": f"specs/{TPMJS_OVERLAY.name}",
        "out": "src/tool_runner/api", "implementation": "tool_runner.service:Service"}]
    assert config["project"]["scripts"] == {"tool-runner": "tool_runner.app:main"}
    assert config["tool"]["contractgen"]["regen_command"] == "make regen"  # named by drift
    tests = run("make", "test", f"PYTHON={PYTHON}", cwd=project)
    assert re.search(r"\b\d+ passed\b", tests.stdout) and "failed" not in tests.stdout
    check = run(BIN / "contractgen", "check", cwd=project)
    assert re.search(r"^warning: tool_runner.service:Service does not implement .*executeTool",
                     check.stderr, re.M)
    assert run(PYTHON, "-m", "ruff", "check", "--no-cache", ".", cwd=project).returncode == 0
    # CI's contract diff, with the overlay applied to both sides.
    identity = ["-c", "user.name=t", "-c", "user.email=t@localhost"]
    run("git", "init", "-q", cwd=project)
    run("git", "add", "-A", cwd=project)
    run("git", *identity, "commit", "-q", "-m", "new", cwd=project)
    diff = run("make", "diff", f"PYTHON={PYTHON}", "BASE=HEAD", cwd=project)
    assert "No changes." in diff.stdout, diff.stdout


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """contractgen as setuptools lays it out in a wheel (build_py: what a wheel contains)."""
    source = tmp_path_factory.mktemp("source")
    for name in ("generator", "templates"):
        shutil.copytree(REPO / name, source / name,
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    shutil.copy(REPO / "README.md", source)
    # The venv's setuptools may predate PEP 639 license strings; the field is not under test.
    pyproject = (REPO / "pyproject.toml").read_text("utf-8")
    (source / "pyproject.toml").write_text(
        re.sub(r'(?m)^license = "([^"]+)"$', r'license = {text = "\1"}', pyproject), "utf-8")
    lib = tmp_path_factory.mktemp("lib")
    run(PYTHON, "-c", "from setuptools import setup; setup()", "-q", "build_py",
        "--build-lib", lib, cwd=source)
    return lib


@pytest.mark.slow
def test_the_built_package_carries_the_template(built: Path) -> None:
    templates = built / "contractgen/templates"
    assert {
        "copier.yml", "project-questions.yml", "project/.github/workflows/ci.yml",
        "project/.gitignore", "project/.pre-commit-config.yaml.jinja",
        "project/{{_copier_conf.answers_file}}.jinja", "project/Makefile.jinja",
        "project/tests/test_contract.py.jinja",
        "project/src/{{ package_name }}/{% if parts != 'client' %}service.py{% endif %}.jinja",
        "project/src/{{ package_name }}/{% if parts != 'client' %}credentials.py{% endif %}.jinja",
        "project/tests/{% if parts != 'client' %}conftest.py{% endif %}.jinja",
        "project/constraints.txt",
    } <= files(templates)


@pytest.mark.slow
def test_contractgen_new_from_the_built_package(built: Path, tmp_path: Path) -> None:
    shutil.copy(TPMJS, tmp_path / "contract.yaml")
    shutil.copy(TPMJS_OVERLAY, tmp_path / "overlay.yaml")
    where = run(PYTHON, "-c", "import contractgen; print(contractgen.__file__)", cwd=tmp_path,
                PYTHONPATH=str(built))
    assert where.stdout.strip() == str(built / "contractgen/__init__.py")
    created = run(PYTHON, "-m", "contractgen.cli", "new", "My Runner", "--spec", "contract.yaml",
                  "--overlay", "overlay.yaml", cwd=tmp_path, PYTHONPATH=str(built))
    assert "created My Runner" in created.stdout
    project = tmp_path / "My Runner"
    recorded = answers(project)
    # No distribution metadata and no checkout around it: as if from an index, the template
    # is recorded as the repository's release of this version.
    assert recorded["_src_path"] == "https://github.com/contractgen/contractgen"
    assert recorded["_commit"] == f"v{__version__}"
    assert f"CONTRACTGEN ?= contractgen=={__version__}" in (project / "Makefile").read_text("utf-8")
    assert recorded["project_name"] == "my-runner" and recorded["package_name"] == "my_runner"
    assert recorded["spec_path"] == "specs/contract.yaml"
    assert recorded["overlay_path"] == "specs/overlay.yaml"
    assert (project / "specs/contract.yaml").read_bytes() == TPMJS.read_bytes()
    assert (project / "specs/overlay.yaml").read_bytes() == TPMJS_OVERLAY.read_bytes()
    assert "# Overlay applied: specs/overlay.yaml" in (
        project / "src/my_runner/api/models.py").read_text("utf-8")
    assert "generated code matches" in run(PYTHON, "-m", "contractgen.cli", "check", cwd=project,
                                          PYTHONPATH=str(built)).stdout


@pytest.mark.slow
@pytest.mark.parametrize(("parts", "has", "lacks"), [
    ("server", {"src/otari/app.py", "src/otari/service.py", "src/otari/credentials.py",
                "src/otari/api/server.py", "tests/conftest.py"}, {"src/otari/api/client.py"}),
    ("client", {"src/otari/api/client.py"},
     {"src/otari/app.py", "src/otari/service.py", "src/otari/credentials.py",
      "src/otari/api/server.py", "tests/conftest.py"}),
])
def test_one_part_only(tmp_path: Path, parts: str, has: set[str], lacks: set[str]) -> None:
    run(BIN / "contractgen", "new", "otari", "--spec", OTARI, "--parts", parts, cwd=tmp_path)
    project = tmp_path / "otari"
    assert has <= files(project) and not lacks & files(project)
    [target] = tomllib.loads((project / "pyproject.toml").read_text("utf-8"))["tool"][
        "contractgen"]["targets"]
    assert target["parts"] == ["models", parts]
    assert ("implementation" in target) == (parts == "server")
    # The missing side is generated by the test itself, so every operation still goes over HTTP.
    tests = run("make", "test", f"PYTHON={PYTHON}", cwd=project)
    # 6 operations and /openapi.json, security of each (6; no operation requires a credential,
    # so no 401 challenge) and GetFile's stream; no response headers declared
    assert "14 passed, 2 skipped" in tests.stdout, tests.stdout
    assert run("make", "check", f"PYTHON={PYTHON}", cwd=project).returncode == 0
    run("make", "lint", f"PYTHON={PYTHON}", cwd=project)  # CI's first step


def test_new_refuses_what_it_cannot_do(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match=r"nowhere\.yaml"):
        new_project(tmp_path / "a", spec=tmp_path / "nowhere.yaml")
    (tmp_path / "busy").mkdir()
    (tmp_path / "busy/notes.txt").write_text("mine", "utf-8")
    with pytest.raises(FileExistsError, match="not empty"):
        new_project(tmp_path / "busy", spec=OTARI)
    with pytest.raises(ValueError, match="parts"):
        new_project(tmp_path / "b", spec=OTARI, parts="models")
    assert not (tmp_path / "a").exists() and not (tmp_path / "b").exists()


@pytest.mark.slow
def test_an_invalid_spec_or_name_creates_nothing(tmp_path: Path) -> None:
    (tmp_path / "broken.yaml").write_text("openapi: 3.1.0\ninfo: {title: x}\npaths: {}\n", "utf-8")
    failed = run(BIN / "contractgen", "new", "broken", "--spec", "broken.yaml", cwd=tmp_path,
                 check=False)
    assert failed.returncode == 1
    # the user's own file, as given: not the project's copy, deleted with the project
    assert failed.stderr.startswith("broken.yaml:2:1: error: /info: missing required field "
                                    "`version`"), failed.stderr
    assert "specs/" not in failed.stderr and "copier" not in failed.stderr
    assert not (tmp_path / "broken").exists()
    named = run(BIN / "contractgen", "new", "named", "--spec", OTARI, "--name", "Not A Name",
                cwd=tmp_path, check=False)
    assert named.returncode == 1
    assert "Validation error for question 'project_name'" in named.stderr
    assert not (tmp_path / "named").exists()


@pytest.fixture(scope="module")
def clone(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A clone of the repository (committed state), and an import root for its contractgen."""
    base = tmp_path_factory.mktemp("clone")
    run("git", "clone", "-q", REPO, base / "repo", cwd=base)
    # Tasks regenerate the backends' code: use the clone's generator, the one that made it.
    (base / "path").mkdir()
    (base / "path/contractgen").symlink_to(base / "repo/generator")
    return base / "repo", base / "path"


@pytest.mark.slow
@pytest.mark.parametrize("backend", BACKENDS)
def test_copier_update_of_a_reference_backend_changes_nothing(
        clone: tuple[Path, Path], backend: str) -> None:
    repo, import_root = clone
    project = repo / "backends" / backend
    recorded = answers(project)
    assert recorded["_src_path"] == "../.."  # the template is the repository holding them
    config = tomllib.loads((project / "pyproject.toml").read_text("utf-8"))
    [target] = config["tool"]["contractgen"]["targets"]
    assert config["project"]["name"] == recorded["project_name"] == backend
    assert target["spec"] == recorded["spec_path"]
    assert target.get("overlay", "") == recorded["overlay_path"]
    assert target["out"] == f"src/{recorded['package_name']}/api"
    run(BIN / "copier", "update", "--trust", "--defaults", "--vcs-ref", recorded["_commit"],
        cwd=project, PYTHONPATH=str(import_root))
    # Copier records `git describe --always`, whose hash is as long as the clone's object count
    # asks (7 digits here, 8 in a clone with more objects): the same commit, spelled longer.
    updated = answers(project)
    commit = {run("git", "rev-parse", f"{a['_commit']}^{{commit}}", cwd=repo).stdout.strip()
              for a in (recorded, updated)}
    assert len(commit) == 1 and {**updated, "_commit": ""} == {**recorded, "_commit": ""}
    run("git", "checkout", "--", ".copier-answers.yml", cwd=project)
    assert run("git", "status", "--porcelain", cwd=repo).stdout == ""


def test_the_pre_commit_hook_and_the_projects_config_agree(tmp_path: Path) -> None:
    [hook] = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text("utf-8"))
    assert hook["id"] == "contractgen-check" and hook["entry"] == "contractgen check"
    assert hook["language"] == "python" and hook["pass_filenames"] is False
    assert re.search(hook["files"], "specs/api.yaml") and re.search(hook["files"], "pyproject.toml")
    template = (REPO / "templates/project/.pre-commit-config.yaml.jinja").read_text("utf-8")
    assert "- id: contractgen-check" in template


SECURED_SPEC = """\
openapi: 3.1.0
info: {title: Secured, version: "1"}
security: [{bearer: []}]
paths:
  /things:
    post:
      operationId: createThing
      responses:
        "201":
          description: created
          headers:
            Location: {required: true, schema: {type: string}}
            X-Rate-Limit: {schema: {type: integer}}
  /open:
    get:
      operationId: peek
      security: [{}, {key: []}]
      responses:
        "200": {description: ok, content: {application/json: {schema: {type: object}}}}
  /admin:
    get:
      operationId: admin
      security: [{basic: []}]
      responses:
        "200": {description: ok, content: {text/csv: {schema: {type: string}},
                                            application/json: {schema: {type: object}}}}
  /ticks:
    get:
      operationId: watchTicks
      responses:
        "200":
          description: events
          content:
            text/event-stream:
              schema: {type: string}
              x-contractgen-event-schema: {type: object, properties: {n: {type: integer}}}
  /video:
    get:
      operationId: getVideo
      security: []
      responses:
        "200": {description: ok, content: {video/mp4: {schema: {type: string, format: binary}}}}
components:
  securitySchemes:
    bearer: {type: http, scheme: bearer}
    key: {type: apiKey, in: header, name: X-API-Key}
    basic: {type: http, scheme: basic}
"""


@pytest.mark.slow
@pytest.mark.parametrize("parts", ["both", "client"])
def test_the_contract_test_checks_security_headers_and_streams(tmp_path: Path, parts: str) -> None:
    (tmp_path / "secured.yaml").write_text(SECURED_SPEC, encoding="utf-8")
    run(BIN / "contractgen", "new", "secured", "--spec", "secured.yaml", "--parts", parts,
        cwd=tmp_path)
    project = tmp_path / "secured"  # its app's verifiers: credentials.py's, from the environment
    tests = run("make", "test", f"PYTHON={PYTHON}", "PYTEST_ADDOPTS=-v", cwd=project)
    passed = set(re.findall(r"::(\w+)(?:\[[^\]]*\])? PASSED", tests.stdout))
    assert {"test_security_is_checked_per_declared_scheme", "test_a_401_names_the_declared_schemes",
            "test_the_client_types_the_declared_response_headers",
            "test_a_streamed_body_answers_a_declared_status"} <= passed, tests.stdout
    assert re.search(r"test_security_is_checked_per_declared_scheme\[peek\] PASSED", tests.stdout)
    assert "failed" not in tests.stdout
