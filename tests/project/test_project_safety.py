"""Safe on a real project: `generate` never destroys what it did not write, `check` names
overrides left behind, the CLI refuses what it cannot do in sentences, and `contractgen new`
makes a project that installs the contractgen it came from, is a git repository and can be
updated by copier. Everything through the subprocess CLI, real copier, git and make.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
import tomllib
from pathlib import Path
from typing import Any

import pytest
import yaml
from contractgen import __version__
from contractgen.project.provenance import DEFAULT_REPOSITORY
from gen_support import OTARI_SPEC, ROOT, pets
from gen_support import cli as cli_in_process
from test_scaffold import answers, files, run

BIN = Path(sys.executable).parent
CLI = (sys.executable, "-m", "contractgen.cli")
MANIFEST = ".contractgen-manifest.json"


def cli(*args: str | Path, cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return run(*CLI, *args, cwd=cwd, check=False, **env)


def write_spec(path: Path, document: dict[str, Any]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(yaml.safe_dump(document, sort_keys=False), "utf-8")
    return path


# --- 1. generate never destroys what it did not write -------------------------------------------

@pytest.mark.slow
def test_generate_refuses_a_folder_holding_files_it_did_not_write(tmp_path: Path) -> None:
    spec = write_spec(tmp_path / "pets.yaml", pets("getPet"))
    package = tmp_path / "src/pkg"
    package.mkdir(parents=True)
    mine = {"service.py": "class Service: ...\n", "app.py": "app = None\n", "data.json": "{}\n"}
    for name, text in mine.items():
        (package / name).write_text(text, "utf-8")
    refused = cli("generate", spec, "--out", "src/pkg", cwd=tmp_path)
    assert refused.returncode == 2, refused.stderr
    message = refused.stderr.strip()
    assert "Traceback" not in message
    assert "src/pkg holds files contractgen did not write: app.py, data.json, service.py" in message
    assert "--force" in message and "src/pkg/api" in message
    assert {p.name: p.read_text("utf-8") for p in package.iterdir()} == mine  # untouched

    # --force writes there, and still leaves the user's files alone.
    forced = cli("generate", spec, "--out", "src/pkg", "--force", cwd=tmp_path)
    assert forced.returncode == 0, forced.stderr
    assert all((package / name).read_text("utf-8") == text for name, text in mine.items())
    manifest = json.loads((package / MANIFEST).read_text("utf-8"))
    assert "models.py" in manifest["files"] and not set(mine) & set(manifest["files"])


@pytest.mark.slow
def test_generate_replaces_and_removes_only_what_it_wrote(tmp_path: Path) -> None:
    spec = write_spec(tmp_path / "pets.yaml", pets("getPet"))
    assert cli("generate", spec, "--out", "api", cwd=tmp_path).returncode == 0
    api = tmp_path / "api"
    manifest = json.loads((api / MANIFEST).read_text("utf-8"))
    written = {p.name for p in api.iterdir() if p.name != MANIFEST}
    assert set(manifest["files"]) == written
    assert all(re.fullmatch(r"[0-9a-f]{64}", digest) for digest in manifest["files"].values())

    # Fewer parts: the generator removes its own server and client, nothing else.
    again = cli("generate", spec, "--out", "api", "--parts", "models", cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert not (api / "server.py").exists() and not (api / "client.py").exists()

    # A hand-written file appears: refused, named, kept.
    (api / "helpers.py").write_text("def helper() -> None: ...\n", "utf-8")
    refused = cli("generate", spec, "--out", "api", cwd=tmp_path)
    assert refused.returncode == 2 and "helpers.py" in refused.stderr
    assert (api / "helpers.py").is_file() and not (api / "server.py").exists()


@pytest.mark.slow
def test_a_generated_file_edited_by_hand_is_not_overwritten_without_force(tmp_path: Path) -> None:
    spec = write_spec(tmp_path / "pets.yaml", pets("getPet"))
    assert cli("generate", spec, "--out", "api", cwd=tmp_path).returncode == 0
    models = tmp_path / "api/models.py"
    edited = models.read_text("utf-8") + "\nLOCAL_TWEAK = 1\n"
    models.write_text(edited, "utf-8")
    refused = cli("generate", spec, "--out", "api", cwd=tmp_path)
    assert refused.returncode == 2
    assert "api/models.py was changed since contractgen wrote it" in refused.stderr
    assert models.read_text("utf-8") == edited
    forced = cli("generate", spec, "--out", "api", "--force", cwd=tmp_path)
    assert forced.returncode == 0
    assert "LOCAL_TWEAK" not in models.read_text("utf-8")
    assert "api: overwrote models.py (changed since contractgen wrote them" in forced.stderr


def test_force_refuses_a_hand_written_module_of_a_generated_name_unless_named(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 38: `generate --force` into a folder holding a hand-written models.py replaced it
    and said only "kept main.py". It never replaces a file it did not write unless
    `--overwrite` names it, and lists every file it overwrote."""
    spec = write_spec(tmp_path / "pets.yaml", pets("getPet"))
    package = tmp_path / "pkg"
    package.mkdir()
    mine = {"models.py": "class Pet: ...\n", "main.py": "print('hi')\n"}
    for name, text in mine.items():
        (package / name).write_text(text, "utf-8")
    refused = cli_in_process(capsys, "generate", str(spec), "--out", "pkg", "--force",
                             cwd=tmp_path)
    assert refused.returncode == 2
    assert ("pkg/models.py: not written by contractgen (no `# Generated by contractgen` header)"
            in refused.stderr), refused.stderr
    assert "--overwrite models.py" in refused.stderr and "main.py" not in refused.stderr
    assert {p.name: p.read_text("utf-8") for p in package.iterdir()} == mine  # nothing written
    unknown = cli_in_process(capsys, "generate", str(spec), "--out", "pkg", "--overwrite",
                             "main.py", cwd=tmp_path)
    assert unknown.returncode == 1 and "--overwrite main.py: contractgen writes no such" in (
        unknown.stderr)
    named = cli_in_process(capsys, "generate", str(spec), "--out", "pkg", "--overwrite",
                           "models.py", cwd=tmp_path)
    assert named.returncode == 0, named.stderr
    assert "pkg: overwrote models.py" in named.stderr and "kept main.py" in named.stderr
    assert (package / "models.py").read_text("utf-8").startswith("# Generated by contractgen")
    assert (package / "main.py").read_text("utf-8") == mine["main.py"]
    # Regenerated unchanged, with --force: nothing to list.
    again = cli_in_process(capsys, "generate", str(spec), "--out", "pkg", "--force", cwd=tmp_path)
    assert again.returncode == 0 and "overwrote" not in again.stderr, again.stderr


def test_writing_a_package_reads_each_file_once_and_rewrites_only_changed_ones(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from contractgen.api import read_package, write_package
    from contractgen.emit.package import with_manifest

    out = tmp_path / "api"
    first = with_manifest({"models.py": "A = 1\n", "server.py": "B = 2\n"}, [])
    write_package(out, first)
    for path in out.iterdir():
        os.utime(path, ns=(10**18, 10**18))  # a stamp no write of this test can leave
    reads: list[str] = []
    read_text = Path.read_text

    def counted(self: Path, *args: Any, **kwargs: Any) -> str:
        reads.append(self.name)
        return read_text(self, *args, **kwargs)

    monkeypatch.setattr(Path, "read_text", counted)
    write_package(out, with_manifest({"models.py": "A = 1\n", "server.py": "B = 3\n"}, []))
    assert sorted(reads) == sorted([MANIFEST, "models.py", "server.py"])
    assert (out / "models.py").stat().st_mtime_ns == 10**18  # unchanged: not rewritten
    assert (out / "server.py").stat().st_mtime_ns != 10**18
    assert (out / "server.py").read_text("utf-8") == "B = 3\n"
    # Given the package as `generate` read it before rendering, it reads nothing again.
    read = read_package(out)
    reads.clear()
    write_package(out, with_manifest({"models.py": "A = 1\n", "server.py": "B = 4\n"}, []),
                  read=read)
    assert reads == [] and (out / "server.py").read_text("utf-8") == "B = 4\n"


@pytest.mark.slow
def test_a_package_generated_before_manifests_is_adopted(tmp_path: Path) -> None:
    """Packages from earlier releases carry no manifest: their headers say they are ours."""
    write_spec(tmp_path / "specs/pets.yaml", pets("getPet"))
    (tmp_path / "pyproject.toml").write_text(
        '[[tool.contractgen.targets]]\nspec = "specs/pets.yaml"\nout = "api"\n', "utf-8")
    assert cli("generate", cwd=tmp_path).returncode == 0
    (tmp_path / "api" / MANIFEST).unlink()
    drift = cli("check", cwd=tmp_path)
    assert drift.returncode == 1 and MANIFEST in drift.stdout
    assert cli("generate", cwd=tmp_path).returncode == 0
    assert (tmp_path / "api" / MANIFEST).is_file()
    assert cli("check", cwd=tmp_path).returncode == 0


# --- 2. check names overrides left behind --------------------------------------------------------

def _pet_project(root: Path, *operation_ids: str, methods: str) -> None:
    write_spec(root / "specs/pets.yaml", pets(*operation_ids))
    (root / "pyproject.toml").write_text(textwrap.dedent("""\
        [tool.contractgen]
        regen_command = "make regen"

        [[tool.contractgen.targets]]
        spec = "specs/pets.yaml"
        out = "src/pets/api"
        implementation = "pets.service:Service"
        """), "utf-8")
    (root / "src/pets").mkdir(parents=True, exist_ok=True)
    (root / "src/pets/__init__.py").write_text("", "utf-8")
    (root / "src/pets/service.py").write_text(
        "from typing import Any\n\nfrom .api.server import ServiceBase\n\n\n"
        "class Service(ServiceBase):\n" + textwrap.indent(textwrap.dedent(methods), "    "),
        "utf-8")


@pytest.mark.slow
def test_check_names_an_override_left_behind_by_a_renamed_operation(tmp_path: Path) -> None:
    _pet_project(tmp_path, "getPet", "listToys", methods="""\
        async def get_pet(self, pet_id: str) -> Any:
            return self.describe(pet_id)

        async def list_toys(self, pet_id: str) -> Any:
            return None

        def describe(self, pet_id: str) -> dict[str, str]:
            return {"name": pet_id}
        """)
    assert cli("generate", cwd=tmp_path).returncode == 0
    assert cli("check", cwd=tmp_path).returncode == 0
    # getPet becomes fetchPet; listToys goes away.
    write_spec(tmp_path / "specs/pets.yaml", pets("fetchPet"))
    drifted = cli("check", cwd=tmp_path)
    assert drifted.returncode == 1
    assert "run `make regen`" in drifted.stderr  # the project's own command
    assert cli("generate", cwd=tmp_path).returncode == 0
    checked = cli("check", cwd=tmp_path)
    assert checked.returncode == 1, checked.stderr
    # fetchPet is at another route (/fetchpet/...): a close name there is no rename (issue 38)
    assert ("error: pets.service:Service.get_pet overrides no operation any more "
            "(no operation has its route (GET /getpet/{pet_id}) now: removed?)") in checked.stderr
    assert "renamed to" not in checked.stderr
    assert "error: pets.service:Service.list_toys overrides no operation any more" in checked.stderr
    assert "describe" not in checked.stderr  # a helper, never an operation


# --- 8. a CLI that guides -------------------------------------------------------------------------

def test_unknown_parts_are_refused(tmp_path: Path) -> None:
    refused = cli("generate", "pets.yaml", "--out", "api", "--parts", "models,modles", cwd=tmp_path)
    assert refused.returncode == 2
    assert "unknown part 'modles' (choose from models, server, client)" in refused.stderr
    assert not (tmp_path / "api").exists()


def test_every_argument_has_help_and_every_command_names_its_exit_codes() -> None:
    import argparse

    from contractgen.cli import build_parser

    parser = build_parser()
    [sub] = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    assert {c.dest for c in sub._choices_actions} == set(sub.choices)
    for name, command in sub.choices.items():
        for action in command._actions:
            if isinstance(action, argparse._HelpAction):
                continue
            assert action.help and action.help != argparse.SUPPRESS, (name, action.dest)
        assert "exit codes:" in (command.epilog or ""), name
    assert all(choice.help for choice in sub._choices_actions)


def test_help_says_exit_codes(tmp_path: Path) -> None:
    shown = run(*CLI, "diff", "--help", cwd=tmp_path).stdout
    assert re.search(r"exit codes:\s+0 .*\n\s+1 .*breaking", shown), shown
    assert "2 " in shown.split("exit codes:")[1]


def test_os_errors_are_sentences(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # In process (contractgen.cli.main): an OSError that escaped would fail the test outright.
    (tmp_path / "afile").write_text("", "utf-8")
    failed = cli_in_process(capsys, "generate", str(write_spec(tmp_path / "pets.yaml", pets("getPet"))),
                            "--out", "afile", cwd=tmp_path)
    assert failed.returncode == 2
    assert "[Errno" not in failed.stderr and "Traceback" not in failed.stderr
    assert "afile is a file, not a folder" in failed.stderr
    # A folder under a file: the file in the way is named, and it is a usage error (exit 2).
    nested = cli_in_process(capsys, "generate", "pets.yaml", "--out", "afile/api/v1", cwd=tmp_path)
    assert nested.returncode == 2
    assert "contractgen generate: afile is a file where a folder is needed" in nested.stderr
    no_config = cli_in_process(capsys, "check", "--config", "nowhere.toml", cwd=tmp_path)
    assert no_config.returncode == 1 and "[Errno" not in no_config.stderr
    assert "cannot read nowhere.toml: No such file or directory (hint: check the path)" in (
        no_config.stderr)
    missing = cli_in_process(capsys, "validate", "nowhere.yaml", cwd=tmp_path)
    assert missing.returncode == 1 and "[Errno" not in missing.stderr
    assert "nowhere.yaml" in missing.stderr


def test_conformance_with_no_steps_fails(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "empty.yaml").write_text("steps: []\n", "utf-8")
    failed = cli_in_process(capsys, "conformance", str(write_spec(tmp_path / "pets.yaml", pets("getPet"))),
                            "--scenario", "empty.yaml", "--base-url", "http://127.0.0.1:9", cwd=tmp_path)
    assert failed.returncode == 1
    assert "empty.yaml has no steps" in failed.stderr + failed.stdout


@pytest.mark.parametrize(("text", "said"), [
    ("steps: [CreateSession]\n", "1:9: error: /steps/0: a step must be a mapping with an `operation`"),
    ("steps: 5\n", "error: /steps: `steps` must be a list of steps"),
    ("just words\n", "error: /: the document must be a mapping (a scenario), found a string"),
])
def test_a_malformed_scenario_is_refused_in_a_sentence(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, said: str) -> None:
    (tmp_path / "bad.yaml").write_text(text, "utf-8")
    failed = cli_in_process(capsys, "conformance", str(write_spec(tmp_path / "pets.yaml", pets("getPet"))),
                            "--scenario", "bad.yaml", "--base-url", "http://127.0.0.1:9", cwd=tmp_path)
    assert failed.returncode == 1
    assert f"bad.yaml:{said}" in failed.stderr or f"bad.yaml:1:1: {said}" in failed.stderr, failed.stderr
    assert "`steps:`" in failed.stderr and "openapi" not in failed.stderr


# --- 6. new: git, next steps, a relative spec path -------------------------------------------------

@pytest.mark.slow
def test_new_makes_a_git_repository_and_prints_the_next_steps(tmp_path: Path) -> None:
    made = run(BIN / "contractgen", "new", "pets", "--spec", OTARI_SPEC, cwd=tmp_path)
    project = tmp_path / "pets"
    assert "cd pets" in made.stdout and "make setup && make test && make check" in made.stdout
    assert run("git", "log", "--format=%s", cwd=project).stdout.strip().count("\n") == 0
    assert run("git", "status", "--porcelain", cwd=project).stdout == ""
    assert answers(project)["spec_path"] == f"specs/{OTARI_SPEC.name}"
    run(BIN / "contractgen", "new", "plain", "--spec", OTARI_SPEC, "--no-git", cwd=tmp_path)
    assert not (tmp_path / "plain/.git").exists()


@pytest.mark.slow
def test_copier_copy_records_the_spec_inside_the_project(tmp_path: Path) -> None:
    run(BIN / "copier", "copy", "--trust", "--defaults", "--vcs-ref", "HEAD", "-d", "project_name=otari",
        "-d", f"spec_path={OTARI_SPEC}", ROOT, "otari", cwd=tmp_path)
    project = tmp_path / "otari"
    assert answers(project)["spec_path"] == f"specs/{OTARI_SPEC.name}"
    # From a checkout, copier copy vendors contractgen's wheel as `contractgen new` does: no
    # file of the project names the checkout, so its setup and CI work where it is pushed.
    wheel = answers(project)["contractgen_wheel"]
    assert wheel.startswith("vendor/contractgen-") and (project / wheel).is_file()
    assert f"CONTRACTGEN ?= {wheel}" in (project / "Makefile").read_text("utf-8")
    for name in ("Makefile", ".pre-commit-config.yaml", "pyproject.toml", "README.md"):
        assert str(ROOT) not in (project / name).read_text("utf-8"), name


# --- 5. new records a template source and version copier can update from ---------------------------

def _public_repository(tmp_path: Path) -> dict[str, str]:
    """The environment of a machine where the public repository's URL serves this checkout's
    commits: git sends the URL to a bare clone of it (no network)."""
    public = tmp_path / "public"
    run("git", "clone", "-q", "--bare", ROOT, public / "contractgen.git", cwd=tmp_path)
    config = tmp_path / "gitconfig"
    run("git", "config", "--file", config, f"url.{public.as_uri()}/.insteadOf",
        DEFAULT_REPOSITORY.rsplit("/", 1)[0] + "/", cwd=tmp_path)
    return {"GIT_CONFIG_GLOBAL": str(config)}


@pytest.mark.slow
def test_a_new_project_can_be_updated_by_copier_from_a_clone_elsewhere(tmp_path: Path) -> None:
    """Issue 38: the answers recorded this checkout's path as `_src_path`. They record the
    public repository and the revision (`git describe`), and `copier update` works from a
    clone of the project in another folder, where no path of the machine that made it is."""
    (tmp_path / "made").mkdir()
    run(BIN / "contractgen", "new", "pets", "--spec", OTARI_SPEC, cwd=tmp_path / "made")
    project = tmp_path / "made" / "pets"
    recorded = answers(project)
    assert recorded["_src_path"] == DEFAULT_REPOSITORY
    described = run("git", "describe", "--tags", "--match", "v[0-9]*", "--always", "HEAD",
                    cwd=ROOT).stdout.strip()
    assert recorded["_commit"] == described
    for path in project.rglob("*"):
        if path.is_file() and ".git" not in path.parts and path.suffix != ".whl":
            text = path.read_text("utf-8", errors="replace")
            assert str(ROOT) not in text and str(tmp_path) not in text, path
    # Made from a checkout: the hook runs the project's own contractgen (vendor/), not a path.
    [hook] = yaml.safe_load((project / ".pre-commit-config.yaml").read_text("utf-8"))["repos"]
    assert hook["repo"] == "local" and hook["hooks"][0]["entry"] == "make check"
    elsewhere = tmp_path / "elsewhere" / "pets"
    run("git", "clone", "-q", project, elsewhere, cwd=tmp_path)
    updated = run(BIN / "copier", "update", "--trust", "--defaults", "--vcs-ref",
                  recorded["_commit"], cwd=elsewhere, check=False, **_public_repository(tmp_path))
    assert updated.returncode == 0, updated.stderr
    assert "CONTRACTGEN ?= vendor/contractgen-" in (elsewhere / "Makefile").read_text("utf-8")
    assert answers(elsewhere)["_src_path"] == DEFAULT_REPOSITORY


def test_release_tag_matches_the_version() -> None:
    from contractgen import __version__

    tag = f"v{__version__}"
    if not run("git", "tag", "--list", "v[0-9]*", cwd=ROOT).stdout.strip():
        pytest.skip("a clone without tags (CI fetches main only): the release tags are not here")
    assert run("git", "rev-parse", "--verify", f"{tag}^{{commit}}", cwd=ROOT,
               check=False).returncode == 0, f"git tag {tag} is missing"
    questions = (ROOT / "templates/project-questions.yml").read_text("utf-8")
    assert "contractgen_hook()" in questions  # the hook's rev is where contractgen came from


# --- 4. a copier that cannot import contractgen makes nothing --------------------------------------

BLOCKED_COPIER = (
    "import sys; sys.modules['contractgen'] = None; "
    "from copier.__main__ import CopierApp; CopierApp.run()"
)


@pytest.mark.slow
@pytest.mark.parametrize("existing", [False, True])
def test_copier_without_contractgen_makes_nothing(tmp_path: Path, existing: bool) -> None:
    if existing:
        (tmp_path / "dest").mkdir()
    failed = run(sys.executable, "-c", BLOCKED_COPIER, "copy", "--trust", "--defaults", "--vcs-ref", "HEAD",
                 "-d", "project_name=dest", "-d", f"spec_path={OTARI_SPEC}", ROOT, "dest",
                 cwd=tmp_path, check=False)
    assert failed.returncode != 0
    assert "contractgen" in failed.stderr and "install" in failed.stderr
    assert (not (tmp_path / "dest").exists()) if not existing else files(tmp_path / "dest") == set()


# --- 7. settings in user-owned files, conflict markers fail make check ----------------------------

@pytest.mark.slow
def test_conflicts_left_by_copier_update_fail_make_check(tmp_path: Path) -> None:
    template = tmp_path / "contractgen"
    run("git", "clone", "-q", ROOT, template, cwd=tmp_path)
    run("git", "tag", "-f", "v0.1.0", cwd=template)
    run(BIN / "copier", "copy", "--trust", "--defaults", "-d", "project_name=pets",
        "-d", f"spec_path={OTARI_SPEC}", template, "pets", cwd=tmp_path)
    project = tmp_path / "pets"
    readme = project / "README.md"
    lines = readme.read_text("utf-8").splitlines(keepends=True)
    lines[0] = "# Pets, as we call it\n"
    readme.write_text("".join(lines), "utf-8")
    run("git", "init", "-q", cwd=project)
    run("git", "add", "-A", cwd=project)
    run("git", "commit", "-q", "-m", "pets", cwd=project)
    # A template release changes the same line.
    readme_template = template / "templates/project/README.md.jinja"
    text = readme_template.read_text("utf-8")
    readme_template.write_text(text.replace("# {{ project_name }}", "# {{ project_name }} service", 1),
                               "utf-8")
    run("git", "commit", "-q", "-am", "template: title", cwd=template)
    run("git", "tag", "v0.2.0", cwd=template)
    run(BIN / "copier", "update", "--trust", "--defaults", cwd=project)
    assert "<<<<<<<" in readme.read_text("utf-8")

    failed = run("make", "check", f"PYTHON={sys.executable}", cwd=project, check=False)
    assert failed.returncode != 0
    assert re.search(r"^README\.md:1:<<<<<<< ", failed.stdout, re.M), failed.stdout
    assert "unresolved merge conflicts" in failed.stderr
    readme.write_text("# Pets service, as we call it\n" + "".join(lines[1:]), "utf-8")
    assert run("make", "check", f"PYTHON={sys.executable}", cwd=project).returncode == 0


@pytest.mark.slow
def test_auth_is_wired_in_service_py(tmp_path: Path) -> None:
    run(BIN / "contractgen", "new", "pets", "--spec", OTARI_SPEC, cwd=tmp_path)
    project = tmp_path / "pets"
    service = project / "src/pets/service.py"
    service.write_text(service.read_text("utf-8").replace(
        '    return {"verifiers": credentials.verifiers()}',
        '    return {"verify_bearer": lambda token: token == "s3cret"}'), "utf-8")
    probe = textwrap.dedent("""\
        import socket, threading, httpx, uvicorn
        from pets.app import create_app
        sock = socket.socket(); sock.bind(("127.0.0.1", 0)); port = sock.getsockname()[1]
        server = uvicorn.Server(uvicorn.Config(create_app(), log_level="warning"))
        thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}); thread.start()
        try:
            while not server.started:
                threading.Event().wait(0.01)
            url = f"http://127.0.0.1:{port}/sessions"
            print(httpx.post(url, json={}).status_code,
                  httpx.post(url, json={}, headers={"Authorization": "Bearer s3cret"}).status_code)
        finally:
            server.should_exit = True; thread.join()
        """)
    shown = run(sys.executable, "-c", probe, cwd=project, PYTHONPATH=str(project / "src"))
    assert shown.stdout.split() == ["401", "501"]
    assert "verify_bearer" not in (project / "src/pets/app.py").read_text("utf-8").split('"""')[2]


# --- 3. a new project installs the contractgen it was made with, on a fresh machine ---------------

@pytest.mark.slow
def test_a_new_project_sets_up_tests_and_checks_in_a_fresh_venv(tmp_path: Path) -> None:
    made = run(BIN / "contractgen", "new", "pets", "--spec", OTARI_SPEC, cwd=tmp_path)
    wheel = f"vendor/contractgen-{__version__}-py3-none-any.whl"
    assert f"its setup and CI install contractgen from {wheel}" in made.stdout
    # Set up from a second clean folder, as a clone elsewhere would be: nothing names the
    # checkout it was made from (the Makefile, the pre-commit hook, the CI workflow).
    project = tmp_path / "elsewhere" / "pets"
    shutil.copytree(tmp_path / "pets", project)
    shutil.rmtree(tmp_path / "pets")
    for path in project.rglob("*"):
        if path.is_file() and path.suffix != ".whl" and ".git" not in path.parts:
            assert str(ROOT) not in path.read_text("utf-8"), path
    makefile = (project / "Makefile").read_text("utf-8")
    assert f"CONTRACTGEN ?= {wheel}" in makefile
    # No variable set; only the interpreter to build the venv from is this one's (no download).
    environ = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")}
    base = Path(sys.base_prefix) / "bin"
    environ["PATH"] = f"{base}{os.pathsep}{environ['PATH']}"
    for verb in ("setup", "test", "check"):
        done = subprocess.run(["make", verb], cwd=project, env=environ, capture_output=True,
                              text=True, timeout=900, check=False)
        assert done.returncode == 0, f"make {verb}\n{done.stdout}\n{done.stderr}"
    venv_python = project / ".venv/bin/python"
    where = subprocess.run([venv_python, "-c", "import contractgen; print(contractgen.__file__)"],
                           capture_output=True, text=True, check=True, cwd=tmp_path)
    assert str(project / ".venv") in where.stdout  # its own copy, not this checkout's
    assert shutil.which("contractgen", path=str(project / ".venv/bin"))
    # `pip install -e '.[dev]'` alone works too: the dev extra asks no index for contractgen
    # (issue 38); `make setup` installs the vendored wheel beside it (docs/projects.md).
    extra = tomllib.loads((project / "pyproject.toml").read_text("utf-8"))[
        "project"]["optional-dependencies"]["dev"]
    assert not [r for r in extra if r.startswith("contractgen")], extra
    bare = tmp_path / "bare"
    run(sys.executable, "-m", "venv", "--without-pip", bare, cwd=tmp_path)
    installer = ["uv", "pip", "install", "--python", bare / "bin/python"] if shutil.which("uv") \
        else [sys.executable, "-m", "pip", "--python", bare / "bin/python", "install", "-q"]
    run(*installer, "-e", ".[dev]", cwd=project)
