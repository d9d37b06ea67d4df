"""One options record (`Options`) and one fingerprint of a run (`emit.runs.fingerprint`); a run
reads its spec once and `check` builds the IR once (issue 29)."""

from __future__ import annotations

import io
import json
import os
from collections.abc import Iterator
from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest
from contractgen import api
from contractgen.config import load_targets
from contractgen.emit.runs import fingerprint
from contractgen.model import parse
from contractgen.options import PARTS, ContractSettings, Options
from contractgen.spec.inputs import Inputs
from gen_support import openapi

SPEC = openapi(paths={"/notes": {"get": {"operationId": "ListNotes", "responses": {"200": {
    "description": "The notes.", "content": {"application/json": {"schema": {
        "type": "array", "items": {"type": "string"}}}}}}}}})
OVERLAY = {"overlay": "1.0.0", "info": {"title": "Renamed", "version": "1"},
           "actions": [{"target": "$.info", "update": {"title": "Notes"}}]}


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.chdir(tmp_path)
    (tmp_path / "api.json").write_text(json.dumps(SPEC))
    (tmp_path / "overlay.json").write_text(json.dumps(OVERLAY))
    (tmp_path / "overrides").mkdir()
    (tmp_path / "overrides" / "_partial.jinja").write_text("{# nothing #}\n")
    return tmp_path


def test_options_take_paths_lists_and_dicts_as_callers_spell_them() -> None:
    spelled = Options(overlay="o.yaml", parts=["client"],  # type: ignore[arg-type]
                      extension_notes={"x-beta": "In beta."},  # type: ignore[arg-type]
                      templates="t", root=".")  # type: ignore[arg-type]
    assert spelled == Options(overlay=Path("o.yaml"), parts=("client",), templates=Path("t"),
                              extension_notes=(("x-beta", "In beta."),), root=Path("."))
    assert Options().parts == PARTS and Options().but() == Options()
    assert spelled.but(lenient=True).lenient and not spelled.lenient  # a new record
    with pytest.raises(AttributeError):
        spelled.lenient = True  # type: ignore[misc]


def _fingerprint(folder: Path, options: Options) -> str:
    return fingerprint(Inputs.read(folder / "api.json", options.overlay, options.templates),
                       options)


def test_every_option_changes_the_fingerprint_and_nothing_else_does(project: Path) -> None:
    base = Options()
    changed = {
        "overlay": project / "overlay.json", "parts": ("client",),
        "templates": project / "overrides", "lenient": True,
        "extension_notes": (("x-beta", "In beta."),), "root": project / "overrides",
        "settings": ContractSettings(closed_enums=("Pet",)),
    }
    assert set(changed) == {f.name for f in fields(Options)}  # a new option is tested here
    prints = {name: _fingerprint(project, base.but(**{name: value}))
              for name, value in changed.items()}
    assert len({*prints.values(), _fingerprint(project, base)}) == len(changed) + 1
    # The same run from its own folder as the display root (`check` of a target) is the same.
    assert _fingerprint(project, base.but(root=project)) == _fingerprint(project, base)
    # Contents count: the spec's bytes, and an override's.
    before = _fingerprint(project, base.but(templates=project / "overrides"))
    (project / "overrides" / "_partial.jinja").write_text("{# changed #}\n")
    assert _fingerprint(project, base.but(templates=project / "overrides")) != before
    before = _fingerprint(project, base)
    (project / "api.json").write_text(json.dumps(SPEC, indent=1))
    assert _fingerprint(project, base) != before


@pytest.fixture
def opened(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every file this process opens, resolved."""
    seen: list[str] = []
    real = io.open

    def counting(file: Any, *args: Any, **kwargs: Any) -> Any:
        if isinstance(file, str | os.PathLike):
            seen.append(os.path.realpath(file))
        return real(file, *args, **kwargs)

    monkeypatch.setattr(io, "open", counting)
    yield seen


def test_a_run_reads_its_spec_and_overlay_once(project: Path, opened: list[str]) -> None:
    spec, overlay = str(project / "api.json"), str(project / "overlay.json")
    files, _ = api.render("api.json", overlay="overlay.json")
    assert (opened.count(spec), opened.count(overlay)) == (1, 1)
    manifest = json.loads(files[".contractgen-manifest.json"])
    assert set(manifest["sources"]) == {"api.json", "overlay.json"}
    opened.clear()
    (project / "out").mkdir()
    api.write_package(project / "out", files)
    again, _ = api.render("api.json", overlay="overlay.json",
                          previous=api.read_package(project / "out"))  # replayed
    assert again == files
    assert (opened.count(spec), opened.count(overlay)) == (1, 1)


def test_check_builds_the_ir_once(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The drift check's run hands its IR to the implementation report; a replayed run (no IR)
    leaves the report to build it."""
    (project / "pyproject.toml").write_text(
        '[tool.contractgen]\n[[tool.contractgen.targets]]\nspec = "api.json"\nout = "out"\n'
        'implementation = "svc:Service"\n')
    (project / "svc.py").write_text("class Service:\n    def list_notes(self):\n        return []\n")
    targets = load_targets(project / "pyproject.toml")
    api.generate("api.json", "out", targets[0].options)
    built: list[str] = []
    real = parse.build_api

    def counting(*args: Any, **kwargs: Any) -> Any:
        built.append(kwargs.get("spec_display", ""))
        return real(*args, **kwargs)

    monkeypatch.setattr(parse, "build_api", counting)
    assert api.check(targets).ok  # replayed: the report builds it
    assert len(built) == 1
    monkeypatch.setenv("CONTRACTGEN_NO_CACHE", "1")
    assert api.check(targets).ok  # run in full: built once, for both
    assert len(built) == 2
