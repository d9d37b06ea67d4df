"""A run whose inputs did not change answers from its record (emit/runs.py), and only then."""

from __future__ import annotations

import json
import marshal
import os
from pathlib import Path
from typing import Any

import pytest
from contractgen import api, pipeline, verdict
from contractgen.api import generate, read_package, render
from gen_support import openapi

SPEC = openapi(
    paths={"/notes": {"get": {"operationId": "ListNotes", "responses": {"200": {
        "description": "The notes.", "content": {"application/json": {"schema": {
            "$ref": "common.json#/components/schemas/Note"}}}}}}}},
    # A warning the replayed run must report again.
    schemas={"Tag": {"type": "object", "required": ["label"],
                     "properties": {"name": {"type": "string"}}}},
)
COMMON = {"components": {"schemas": {"Note": {"type": "object", "properties": {
    "text": {"type": "string"}}}}}}


@pytest.fixture
def loads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The specs each run loaded (a replayed run loads none)."""
    seen: list[str] = []
    real_load = pipeline.load

    def counting(inputs: Any, options: Any) -> Any:
        seen.append(str(inputs.spec))
        return real_load(inputs, options)

    monkeypatch.setattr(pipeline, "load", counting)
    return seen


def _project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.chdir(tmp_path)
    (tmp_path / "common.json").write_text(json.dumps(COMMON))
    spec = tmp_path / "api.json"
    spec.write_text(json.dumps(SPEC))
    return spec, tmp_path / "out"


def test_an_unchanged_run_is_replayed_with_its_warnings(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, loads: list[str]) -> None:
    spec, out = _project(tmp_path, monkeypatch)
    generate(spec, out)
    files, warnings = render(spec, previous=read_package(out))
    assert len(loads) == 1  # the second run loaded nothing
    assert files == read_package(out)
    assert [w.pointer for w in warnings] == ["/components/schemas/Tag/required"]
    assert warnings == render(spec, previous=None)[1]  # the same warnings as a full run
    # `check` of a target in this folder: the same run, reached through the config
    render(spec, previous=read_package(out), root=tmp_path, extension_notes={},
           validate_spec=False)
    assert len(loads) == 2


@pytest.mark.slow
def test_any_changed_input_runs_in_full(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, loads: list[str]) -> None:
    spec, out = _project(tmp_path, monkeypatch)
    generate(spec, out)
    common = {"components": {"schemas": {"Note": {"type": "object", "properties": {
        "body": {"type": "string"}}}}}}
    (tmp_path / "common.json").write_text(json.dumps(common))  # a file the spec refers to
    files, _ = render(spec, previous=read_package(out))
    assert len(loads) == 2
    assert "body: str | None" in files["models.py"]

    generate(spec, out)
    models = out / "models.py"
    models.write_text(models.read_text() + "# edited\n")  # the package differs from its record
    files, _ = render(spec, previous=read_package(out))
    assert len(loads) == 4
    assert "# edited" not in files["models.py"]

    generate(spec, out, parts=("client",), force=True)  # other options: another run
    assert len(loads) == 5
    assert not (out / "server.py").exists()


def test_a_run_that_did_not_validate_is_not_replayed_by_one_that_does(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, loads: list[str]) -> None:
    spec, out = _project(tmp_path, monkeypatch)
    files, _ = render(spec, validate_spec=False)
    out.mkdir()
    api.write_package(out, files)
    render(spec, previous=read_package(out), validate_spec=False)
    assert len(loads) == 1
    render(spec, previous=read_package(out))  # validates: runs in full
    assert len(loads) == 2
    render(spec, previous=read_package(out), validate_spec=False)
    assert len(loads) == 2


@pytest.mark.slow
def test_a_new_contract_hash_alone_reuses_every_module(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The spec's bytes change, not its meaning: no module changes (headers name the spec,
    without its hash), and the manifest records the new hash."""
    spec, out = _project(tmp_path, monkeypatch)
    monkeypatch.setenv("CONTRACTGEN_NO_CACHE", "1")
    generate(spec, out)
    spec.write_text(json.dumps(SPEC, indent=1))
    files, _ = render(spec, previous=read_package(out))
    assert files == render(spec)[0]
    committed = read_package(out)
    assert files["models.py"] == committed["models.py"]
    assert files[".contractgen-manifest.json"] != committed[".contractgen-manifest.json"]


def test_a_run_collects_rarely_and_restores_the_callers_collector(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The young-generation threshold is raised for the run (the formatting processes fork
    inside it and inherit it) and the caller's own setting is back afterwards."""
    import gc

    spec = tmp_path / "openapi.json"
    spec.write_text(json.dumps(SPEC))
    (tmp_path / "common.json").write_text(json.dumps(COMMON))
    during: list[tuple[int, int, int]] = []
    real_load = pipeline.load

    def watching(inputs: Any, options: Any) -> Any:
        during.append(gc.get_threshold())
        return real_load(inputs, options)

    monkeypatch.setattr(pipeline, "load", watching)
    before = gc.get_threshold()
    gc.set_threshold(700, 11, 12)
    try:
        render(spec)
        assert gc.get_threshold() == (700, 11, 12)
    finally:
        gc.set_threshold(*before)
    assert during == [(pipeline.YOUNG_THRESHOLD, 11, 12)]
    assert pipeline.YOUNG_THRESHOLD >= 1_000_000


REPLAY_PROBE = """
import sys
from contractgen.cli import main
code = main(["generate", "api.json", "--out", "out"])
heavy = ["contractgen.emit.render", "contractgen.model.ir", "jinja2", "yaml", "black", "tomllib",
         "multiprocessing"]
print(code, [name for name in heavy if name in sys.modules])
"""


def test_a_replayed_run_imports_neither_the_model_nor_the_renderer(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Replaying an unchanged run is a fresh process's floor plus hashing: it does not import
    the model, the templates' renderer, Jinja, PyYAML, black or (without a config file)
    tomllib (their imports were a fifth of such a run). Even a run in full forks its validator
    without multiprocessing (~13 ms of imports)."""
    import subprocess
    import sys

    _project(tmp_path, monkeypatch)
    first = subprocess.run([sys.executable, "-c", REPLAY_PROBE], capture_output=True, text=True,
                           check=True, cwd=tmp_path)
    assert first.stdout.split("\n")[-2].startswith("0 [") and "jinja2" in first.stdout
    assert "multiprocessing" not in first.stdout
    again = subprocess.run([sys.executable, "-c", REPLAY_PROBE], capture_output=True, text=True,
                           check=True, cwd=tmp_path)
    assert again.stdout.split("\n")[-2] == "0 []", again.stdout


EXIT_PROBE = """
import atexit, sys
atexit.register(lambda: print("torn down", file=sys.stderr))
sys.argv = ["contractgen", *sys.argv[1:]]
from contractgen.cli import entry
entry()
"""


@pytest.mark.parametrize(("args", "code", "quick"), [
    (["generate", "api.json", "--out", "out"], 0, True),
    (["generate", "missing.json", "--out", "out"], 1, True),
    (["new", "--help"], 0, False),
])
def test_the_console_script_ends_a_generate_without_tearing_the_interpreter_down(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str], code: int,
        quick: bool) -> None:
    """After generate/check/validate/diff the process ends without finalization (20-30 ms of a
    large regeneration): its output, block-buffered into a pipe, is all there, its exit code is
    the command's, and no exit handler runs; other commands (copier's libraries register
    handlers) exit as usual."""
    import subprocess
    import sys

    _project(tmp_path, monkeypatch)
    done = subprocess.run([sys.executable, "-c", EXIT_PROBE, *args], check=False,
                          capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == code, done.stderr
    assert ("torn down" in done.stderr) is not quick
    if args[1] == "api.json":
        assert done.stdout == "generated out from api.json\n"
        assert (tmp_path / "out" / "models.py").is_file()
    elif args[0] == "generate":
        assert done.stderr.startswith("missing.json: error: /: cannot read the file")
    else:
        assert done.stdout.startswith("usage: contractgen new")


def test_the_validation_child_also_writes_openapi_json_and_the_caller_can_do_without_it(
        tmp_path: Path) -> None:
    """The forked validator sends the contract's openapi.json text first (it is pure Python
    work taken off the caller's path), then its verdict; the text is the one `dumps_indented`
    writes here, even for a contract far over a pipe's 64 KiB, and when the child cannot give
    one the caller writes it itself."""
    from contractgen.model.jsontext import dumps_indented
    from contractgen.spec import load
    from contractgen.spec.validate import validate_document

    schemas = {f"S{i}": {"type": "object", "description": "x" * 200,
                         "properties": {"n": {"type": "integer"}}} for i in range(600)}
    spec = tmp_path / "api.json"
    spec.write_text(json.dumps(openapi({}, schemas)), "utf-8")
    document, _ = load(spec)
    expected = dumps_indented(document.data) + "\n"
    assert len(expected) > 200_000
    validation = verdict.start_validation(document)
    assert validation.spec_json() == expected
    assert validation() == validate_document(document) == []
    # A verdict asked for before the text: both still arrive, in order.
    validation = verdict.start_validation(document)
    assert validation() == [] and validation.spec_json() == expected

    for answers in [(None, []), ()]:  # no text; a child that died at once
        reading, writing = os.pipe()
        with os.fdopen(writing, "wb") as sender:
            for answer in answers:
                marshal.dump(answer, sender)
        validation = verdict.Verdict(document, os.fdopen(reading, "rb"))
        assert validation.spec_json() == expected
        assert validation() == []
