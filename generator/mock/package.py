"""The generated server package a mock serves: generated once per contract into the cache
(keyed by the spec's and overlay's bytes and contractgen's code), then only imported."""

from __future__ import annotations

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


def _generate(spec: Path, overlay: Path | None, folder: Path, name: str) -> None:
    from ..api import generate

    folder.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".staging-", dir=folder))
    try:
        generate(spec, staging / name, Options(overlay=overlay, parts=("models", "server")))
        (staging / name / _DONE).write_text("generated for `contractgen mock`\n")
        target = folder / name
        if target.exists() and not (target / _DONE).exists():  # ours, half-written
            shutil.rmtree(target)
        try:
            os.replace(staging / name, target)
        except OSError:  # another mock of the same contract finished first
            if not (target / _DONE).exists():
                raise
    finally:
        shutil.rmtree(staging, ignore_errors=True)
