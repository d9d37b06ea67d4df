"""The generated server package a mock serves: generated once per contract into the cache
(keyed by the spec's and overlay's bytes and contractgen's code), then only imported. The
modules are written as rendered, not formatted (`rendered`)."""

from __future__ import annotations

import compileall
import hashlib
import importlib
import os
import shutil
import sys
import tempfile
from pathlib import Path
from types import ModuleType

from ..cache import cache_root, code_fingerprint
from ..options import Options

_DONE = ".mock-complete"


def package_key(spec: Path, overlay: Path | None) -> str:
    """What the cached package depends on: the inputs' bytes and contractgen's code."""
    digest = hashlib.sha256(spec.read_bytes())
    digest.update(b"\0" + (overlay.read_bytes() if overlay is not None else b""))
    digest.update(b"\0" + code_fingerprint().encode())
    return digest.hexdigest()[:16]


def server_package(spec: str | Path, overlay: str | Path | None = None,
                   cache: Path | None = None) -> ModuleType:
    """The generated `server` module of `spec`, generated into the cache when it is not there."""
    spec, overlay = Path(spec), Path(overlay) if overlay is not None else None
    key = package_key(spec, overlay)
    name = f"contractgen_mock_{key}"
    folder = (cache or cache_root() / "mock") / key
    if not (folder / name / _DONE).exists():
        _generate(spec, overlay, folder, name)
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))
    return importlib.import_module(f"{name}.server")


def rendered(spec: Path, overlay: Path | None) -> dict[str, str]:
    """The models and server modules of `spec` as the templates render them: `generate`'s
    stages (validation included: an invalid contract is refused as `generate` refuses it) but
    the format stage, black on the blocks the templates cannot vouch for, which took a third of
    a first start on Box for a layout nobody reads (bench/mock.py), and the manifest."""
    from ..pipeline import build, fewer_collections, load, render, reported, valid
    from ..spec.inputs import Inputs
    from ..verdict import start_validation

    options = Options(overlay=overlay, parts=("models", "server"))
    with fewer_collections():
        document, problems = load(Inputs.read(spec, overlay, None), options)
        verdict = start_validation(document)
        with reported(verdict, problems):
            sources = render(build(document, options, verdict), options)
        valid(problems, verdict)
    return sources


def _generate(spec: Path, overlay: Path | None, folder: Path, name: str) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".staging-", dir=folder))
    try:
        for module, text in rendered(spec, overlay).items():
            (staging / name / module).parent.mkdir(parents=True, exist_ok=True)
            (staging / name / module).write_text(text, encoding="utf-8")
        target = folder / name
        # its bytecode too, named by where it will be: every later start reads it, also under
        # PYTHONDONTWRITEBYTECODE, where Box's server package was compiled anew at every start
        compileall.compile_dir(staging / name, ddir=str(target), quiet=1, workers=1)
        (staging / name / _DONE).write_text("generated for `contractgen mock`\n")
        if target.exists() and not (target / _DONE).exists():  # ours, half-written
            shutil.rmtree(target)
        try:
            os.replace(staging / name, target)
        except OSError:  # another mock of the same contract finished first
            if not (target / _DONE).exists():
                raise
    finally:
        shutil.rmtree(staging, ignore_errors=True)
