"""The generated package on disk: read it, write it (touching only our files), compare it."""

from __future__ import annotations

import difflib
import os
from pathlib import Path


def display_path(path: Path, root: Path | None = None) -> str:
    """A stable, relative spelling of a path for headers and messages."""
    base = (root or Path.cwd()).resolve()
    resolved = path.resolve()
    try:
        return resolved.relative_to(base).as_posix()
    except ValueError:
        return os.path.relpath(resolved, base).replace(os.sep, "/")


def read_package(out: Path) -> dict[str, str]:
    """The generator-owned files of a package directory as they are now."""
    return {p.name: p.read_text(encoding="utf-8") for p in _owned_files(out)}


def write_package(out: Path, files: dict[str, str]) -> list[Path]:
    """Write files, remove stale ones the generator no longer produces, touch nothing else."""
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    for name, text in sorted(files.items()):
        path = out / name
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
        written.append(path)
    for stale in _owned_files(out):
        if stale.name not in files:
            stale.unlink()
    return written


def _owned_files(out: Path) -> list[Path]:
    if not out.is_dir():
        return []
    return sorted(p for p in out.iterdir() if p.is_file() and p.suffix in (".py", ".json", ".pyi"))


def diff_package(out: Path, expected: dict[str, str], source: str) -> str:
    """A unified diff from the package in `out` to `expected` (empty when they match)."""
    chunks: list[str] = []
    names = sorted(set(expected) | {p.name for p in _owned_files(out)})
    for name in names:
        path = out / name
        label = display_path(path)
        actual = path.read_text(encoding="utf-8") if path.is_file() else None
        wanted = expected.get(name)
        if actual == wanted:
            continue
        chunks.append("".join(difflib.unified_diff(
            (actual or "").splitlines(keepends=True),
            (wanted or "").splitlines(keepends=True),
            fromfile=f"{label} (committed)" if actual is not None else "/dev/null",
            tofile=f"{label} (from {source})" if wanted is not None else "/dev/null",
        )))
    return "".join(chunks)
