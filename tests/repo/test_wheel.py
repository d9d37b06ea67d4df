"""The wheel ships everything `contractgen generate` needs (templates included).

The wheel is built from a copy of the sources (so no build/ or egg-info lands in the checkout),
without build isolation (no network), and installed without dependencies into a fresh venv
that borrows the dependencies of this one through a .pth file. That file only adds a path:
the editable install of contractgen living there is not activated, so the wheel's copy is used.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import sysconfig
import tomllib
from pathlib import Path

import pytest
from gen_support import OTARI_OVERLAY, OTARI_SPEC, ROOT, TPMJS_OVERLAY, TPMJS_SPEC

OTARI_API = ROOT / "backends" / "otari-sandbox" / "src" / "otari_sandbox" / "api"
TPMJS_API = ROOT / "backends" / "tpmjs-executor" / "src" / "tpmjs_executor" / "api"


def _run(*args: str | Path, cwd: Path) -> str:
    proc = subprocess.run([str(a) for a in args], cwd=cwd, capture_output=True, text=True,
                          check=False, timeout=300)
    assert proc.returncode == 0, f"{args}\n{proc.stdout}\n{proc.stderr}"
    return proc.stdout


def _body(text: str) -> str:
    """A generated module without its leading comment lines (header and digest name paths)."""
    lines = text.splitlines(keepends=True)
    while lines and lines[0].startswith("#"):
        lines.pop(0)
    return "".join(lines)


@pytest.mark.slow
def test_installed_wheel_generates_outside_the_repo(tmp_path: Path) -> None:
    from importlib.metadata import version

    # pyproject's `license = "Apache-2.0"` (PEP 639) needs setuptools >= 77 to build.
    setuptools = tuple(int(p) for p in version("setuptools").split(".")[:2])
    assert setuptools >= (77, 0), "pip install 'setuptools>=77' wheel into the venv"
    source = tmp_path / "src"
    source.mkdir()
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        if (ROOT / name).exists():
            shutil.copy2(ROOT / name, source / name)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    shutil.copytree(ROOT / "generator", source / "generator", ignore=ignore)
    shutil.copytree(ROOT / "templates", source / "templates", ignore=ignore)
    dist = tmp_path / "dist"
    _run(sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
         "--no-index", "-q", "-w", dist, source, cwd=tmp_path)
    wheels = list(dist.glob("contractgen-*.whl"))
    assert len(wheels) == 1

    venv = tmp_path / "venv"
    _run(sys.executable, "-m", "venv", "--without-pip", venv, cwd=tmp_path)
    python = venv / "bin" / "python"
    target = Path(_run(python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))",
                       cwd=tmp_path).strip())
    (target / "borrowed_dependencies.pth").write_text(sysconfig.get_path("purelib") + "\n")
    _run(sys.executable, "-m", "pip", "--python", python, "install", "--no-deps", "--no-index",
         "-q", wheels[0], cwd=tmp_path)

    where = _run(python, "-c", "import contractgen; print(contractgen.__file__)", cwd=tmp_path)
    assert Path(where.strip()).is_relative_to(venv), where
    # The built-in templates ship compiled (emit/environment.py), current for the Jinja there.
    _run(python, "-c", "from contractgen.emit import environment as e\n"
         "env = e.environment_of()\n"
         "for name in e.builtin_templates():\n"
         "    text = env.loader.get_source(env, name)[0]\n"
         "    assert e.precompiled_code(env, name, text, None) is not None, name\n",
         cwd=tmp_path)

    work = tmp_path / "elsewhere"
    work.mkdir()
    contractgen = venv / "bin" / "contractgen"
    # The otari target gives `x-otari-optional` its note (`extension_notes`): generate as it does.
    backend = tomllib.loads((ROOT / "backends/otari-sandbox/pyproject.toml").read_text("utf-8"))
    [target] = backend["tool"]["contractgen"]["targets"]
    notes = ", ".join(f"{json.dumps(k)} = {json.dumps(v)}"
                      for k, v in target["extension_notes"].items())
    (work / "pyproject.toml").write_text(
        f"[[tool.contractgen.targets]]\nspec = {json.dumps(str(OTARI_SPEC))}\n"
        f"overlay = {json.dumps(str(OTARI_OVERLAY))}\n"
        f'out = "otari"\nextension_notes = {{ {notes} }}\n', encoding="utf-8")
    _run(contractgen, "generate", "--config", work / "pyproject.toml", cwd=work)
    (work / "pyproject.toml").unlink()
    _run(contractgen, "generate", TPMJS_SPEC, "--overlay", TPMJS_OVERLAY, "--out", work / "tpmjs",
         cwd=work)
    for out, golden in ((work / "otari", OTARI_API), (work / "tpmjs", TPMJS_API)):
        names = sorted(p.name for p in golden.iterdir() if p.is_file())
        assert sorted(p.name for p in out.iterdir()) == names
        for name in names:
            if name == ".contractgen-manifest.json":  # digests of files whose headers differ
                assert json.loads((out / name).read_text()).keys() == json.loads(
                    (golden / name).read_text()).keys()
                continue
            assert _body((out / name).read_text()) == _body((golden / name).read_text()), name
