"""Golden records: both contracts rendered in memory equal the reference backends' committed `api`
packages (generated from the same specs with every part), which type-check and lint.

Regenerate with `make regen` (`contractgen generate`) after changing the generator or templates,
and review the diff.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import contractgen
import pytest
from gen_support import OTARI_SPEC, ROOT, TPMJS_OVERLAY, TPMJS_SPEC

SOURCES = {
    "otari_sandbox": ROOT / "backends" / "otari-sandbox" / "src",
    "tpmjs_executor": ROOT / "backends" / "tpmjs-executor" / "src",
}
CASES = {
    "otari_sandbox": (OTARI_SPEC, None),
    "tpmjs_executor": (TPMJS_SPEC, TPMJS_OVERLAY),
}


def golden(name: str) -> Path:
    """The committed package a contract's rendering must equal."""
    return SOURCES[name] / name / "api"
PACKAGE_FILES = {
    "__init__.py", "models.py", "errors.py", "server.py", "_server_runtime.py", "client.py",
    "openapi.json",
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_rendered_package_equals_golden(name: str) -> None:
    spec, overlay = CASES[name]
    files, _ = contractgen.render(spec, overlay=overlay, root=ROOT)
    assert set(files) == PACKAGE_FILES
    committed = {p.name for p in golden(name).iterdir() if p.is_file()}
    assert committed == PACKAGE_FILES, "stray or missing files in the golden tree"
    stale = [f for f in sorted(files)
             if (golden(name) / f).read_text(encoding="utf-8") != files[f]]
    assert not stale, f"golden {name} is stale in {stale}: run `make regen`"


def test_golden_output_passes_mypy_strict() -> None:
    args = [sys.executable, "-m", "mypy", "--strict", "--no-error-summary",
            "--config-file", str(ROOT / "pyproject.toml"),
            "--cache-dir", str(ROOT / ".mypy_cache" / "golden")]
    for name in sorted(CASES):
        args += ["-p", f"{name}.api"]
    # pyproject's [tool.mypy] brings the pydantic plugin; `files` is overridden by -p.
    env = {**os.environ, "MYPYPATH": os.pathsep.join(str(s) for s in SOURCES.values())}
    proc = subprocess.run(args, cwd=ROOT, capture_output=True, text=True, check=False, env=env)
    assert proc.returncode == 0, proc.stdout + proc.stderr


@pytest.mark.parametrize("config", ["isolated", "project"])
def test_golden_output_passes_ruff(config: str) -> None:
    ruff = [sys.executable, "-m", "ruff", "check", "--no-cache"]
    if config == "isolated":
        # black owns line length; long description strings cannot be wrapped
        ruff += ["--isolated", "--select", "E,F,I,UP,B,RUF", "--ignore", "E501"]
    else:
        ruff += ["--config", str(ROOT / "pyproject.toml")]
    paths = sorted(str(p) for name in CASES for p in golden(name).glob("*.py"))
    proc = subprocess.run([*ruff, *paths], cwd=ROOT, capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_static_runtime_is_already_black_formatted() -> None:
    # It is copied verbatim into every package, so black must have nothing left to change.
    from contractgen.emit.formatting import format_source

    source = (ROOT / "templates" / "_server_runtime.py").read_text(encoding="utf-8")
    assert format_source(source) == source
