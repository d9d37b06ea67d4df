"""How emit/formatting.py spends black: modules from the built-in templates are written as
rendered but for their UNSURE blocks, a module rendered with template overrides is formatted
whole, and a run whose modules need nothing never imports black."""

from __future__ import annotations

import json
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest
from contractgen.cache import version_of
from contractgen.emit.formatting import format_package, format_source

# A module black changes in two of its blocks (the long call, the badly spaced class).
MODULE = ('"""Doc."""\n\nimport os\n\n\n'
          "x = f(" + ", ".join(f"argument_{i}" for i in range(12)) + ")\n\n\n"
          "class A:\n    y = [1,\n  2]\n")


def test_overridden_modules_are_formatted_whole_and_others_pass_through() -> None:
    sources = {"models.py": MODULE, "openapi.json": "{ }", "_enums.py": "y=1\n"}
    out = format_package(sources, frozenset({"_enums.py"}), overridden=True)
    assert out == {"_enums.py": "y=1\n", "models.py": format_source(MODULE), "openapi.json": "{ }"}


def test_built_in_modules_have_only_their_unsure_blocks_formatted() -> None:
    out = format_package({"models.py": MODULE})["models.py"]
    # The long call went to black; the class, short and wrongly laid out, is vouched for as
    # the templates wrote it (the templates never write it so: tests/test_black_layout.py).
    assert "x = f(\n    argument_0,\n" in out
    assert "class A:\n    y = [1,\n  2]\n" in out


def test_ready_is_called_before_anything_is_formatted() -> None:
    calls: list[str] = []

    def ready() -> None:
        calls.append("ready")
        raise RuntimeError("invalid contract")

    with pytest.raises(RuntimeError, match="invalid contract"):
        format_package({"models.py": "x=1\n"}, ready=ready, overridden=True)
    assert calls == ["ready"]


def test_a_syntax_error_says_where() -> None:
    with pytest.raises(RuntimeError, match=r"generated m\.py is not valid Python") as exc:
        format_package({"m.py": "def f(:\n"}, overridden=True)
    assert "\n    1: def f(:" in str(exc.value)


def test_a_seed_generation_never_imports_black(tmp_path: Path) -> None:
    root = Path(__file__).resolve().parents[2]
    code = ("import sys, contractgen\n"
            "contractgen.generate(sys.argv[1], sys.argv[2], overlay=sys.argv[3])\n"
            "assert 'black' not in sys.modules, 'black was imported'\n")
    subprocess.run([sys.executable, "-c", code, str(root / "specs/otari-code-execution.openapi.yaml"),
                    str(tmp_path / "out"), str(root / "specs/otari-code-execution.overlay.yaml")],
                   check=True, env={"XDG_CACHE_HOME": str(tmp_path / "cache"), "PATH": "/usr/bin:/bin"})


@pytest.mark.parametrize("name", ["black", "Jinja2", "openapi-spec-validator", "jsonschema"])
def test_versions_in_cache_keys_are_the_installed_ones(name: str) -> None:
    assert version_of(name) == metadata.version(name)


def test_an_unsure_blocks_output_is_cached_so_a_rerun_never_imports_black(tmp_path: Path) -> None:
    code = ("import json, sys\nfrom contractgen.emit.formatting import format_package\n"
            "out = format_package({'m.py': sys.argv[1]})\n"
            "print(json.dumps([out['m.py'], 'black' in sys.modules]))\n")
    env = {"XDG_CACHE_HOME": str(tmp_path), "PATH": "/usr/bin:/bin"}
    runs = [json.loads(subprocess.run([sys.executable, "-c", code, MODULE], env=env, check=True,
                                      capture_output=True, text=True).stdout) for _ in range(2)]
    assert runs[0] == [runs[1][0], True]
    assert runs[1][1] is False
    assert "x = f(\n    argument_0,\n" in runs[1][0]
