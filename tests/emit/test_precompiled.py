"""The built-in templates' precompiled modules (emit/environment.py): current, used, and only an
optimization (a stale one is ignored; output is the same either way)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import jinja2
import pytest
from contractgen import api
from contractgen.emit import environment as precompiled
from contractgen.emit import render
from contractgen.emit.templates import templates_dir

SPECS = Path(__file__).resolve().parents[2] / "specs"


@pytest.mark.parametrize("name", precompiled.builtin_templates())
def test_every_builtin_template_has_a_current_compiled_module(name: str) -> None:
    path = precompiled.compiled_path(name)
    assert path.is_file(), f"{path} is missing: run `make regen`"
    expected = precompiled.compiled_source(precompiled.environment_of(), name)
    assert path.read_text(encoding="utf-8") == expected, f"{path} is stale: run `make regen`"


def _compiles(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the templates Jinja compiles from now on (none cached: no bytecode cache)."""
    compiled: list[str] = []
    original = jinja2.Environment.compile

    def counting(self: Any, source: str, name: str | None = None, *args: Any, **kwargs: Any) -> Any:
        compiled.append(str(name))
        return original(self, source, name, *args, **kwargs)

    monkeypatch.setattr(jinja2.Environment, "compile", counting)
    monkeypatch.setenv("CONTRACTGEN_NO_CACHE", "1")
    precompiled.bytecode_cache.cache_clear()
    return compiled


def _otari() -> dict[str, str]:
    files, _ = api.render(SPECS / "otari-code-execution.openapi.yaml", validate_spec=False)
    return files


def test_a_run_compiles_no_builtin_template(monkeypatch: pytest.MonkeyPatch) -> None:
    compiled = _compiles(monkeypatch)
    files = _otari()
    assert "models.py" in files and "server.py" in files and "client.py" in files
    assert compiled == []


def test_a_stale_or_foreign_module_is_ignored_and_the_output_is_the_same(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    fresh = _otari()
    # A copy of the built-in templates whose compiled modules are all stale or broken.
    copy = tmp_path / "templates"
    copy.mkdir()
    for path in templates_dir().iterdir():
        if path.is_file():
            (copy / path.name).write_bytes(path.read_bytes())
    (copy / precompiled.FOLDER).mkdir()
    names = precompiled.builtin_templates()
    for index, name in enumerate(names):
        original = precompiled.compiled_path(name).read_text(encoding="utf-8")
        broken = (original.replace("KEY = '", "KEY = 'stale", 1) if index % 2
                  else "raise ImportError('written by another Jinja')\n")
        precompiled.compiled_path(name, copy).write_text(broken, encoding="utf-8")
    monkeypatch.setattr(precompiled, "templates_dir", lambda: copy)
    monkeypatch.setattr(render, "templates_dir", lambda: copy)
    compiled = _compiles(monkeypatch)
    assert _otari() == fresh
    assert {"models.py.jinja", "server.py.jinja", "client.py.jinja"} <= set(compiled)


def test_the_key_follows_the_template_text() -> None:
    environment = precompiled.environment_of()
    source, _, _ = environment.loader.get_source(environment, "models.py.jinja")
    code = precompiled.precompiled_code(environment, "models.py.jinja", source, None)
    assert code is not None
    assert precompiled.precompiled_code(environment, "models.py.jinja", source + "\n", None) is None
    assert precompiled.precompiled_code(environment, "no-such.jinja", source, None) is None


def test_regen_writes_what_is_missing_and_removes_only_its_own_leftovers(tmp_path: Path) -> None:
    for path in templates_dir().glob("*.jinja"):
        (tmp_path / path.name).write_bytes(path.read_bytes())
    (tmp_path / "models.py.jinja").write_text("{{ 1 }}\n", encoding="utf-8")
    folder = tmp_path / precompiled.FOLDER
    folder.mkdir()
    (folder / "gone.jinja.py").write_text(precompiled.HEADER + "gone.jinja ...\n", encoding="utf-8")
    (folder / "notes.py").write_text("# someone else's file\n", encoding="utf-8")
    written = precompiled.write_all(tmp_path)
    assert {p.name for p in written} == {f"{n}.py" for n in precompiled.builtin_templates()}
    assert not (folder / "gone.jinja.py").exists()
    assert (folder / "notes.py").read_text(encoding="utf-8") == "# someone else's file\n"
    # the folder's own models.py.jinja was compiled, not the built-in one
    assert f"KEY = {precompiled.template_key(precompiled.environment_of(), '{{ 1 }}' + chr(10))!r}" in (
        folder / "models.py.jinja.py").read_text(encoding="utf-8")
    assert precompiled.write_all(tmp_path) == []
