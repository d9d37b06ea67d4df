"""Cut a release: `python tools/release.py X.Y.Z` (or `make release VERSION=X.Y.Z`).

One version, stated everywhere a user reads it (docs/releasing.md): pyproject.toml and
generator/version.py (what `contractgen --version`, the generated headers and the vendored
wheel say), the README's and the hook file's `rev: vX.Y.Z`, and every `@vX.Y.Z` and
`--vcs-ref vX.Y.Z` of the docs. This script writes the new version into each, regenerates the
committed generated code (its headers name the version), commits, and tags the commit
`vX.Y.Z` (what pre-commit's `rev:`, `copier update --vcs-ref`, `pip install git+...@vX.Y.Z`
and copier's printed template version read). It pushes nothing.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VERSION_FILES = {"pyproject.toml": r'(?m)^(version = ")([^"]+)(")',
                 "generator/version.py": r'(?m)^(__version__ = ")([^"]+)(")'}
# Where a release tag is written for users: the tag in these forms is the current release.
TAG_FORMS = r"(rev: |@|--vcs-ref )v(\d+\.\d+\.\d+)\b"


def tag_files(root: Path) -> list[Path]:
    """The files that name the current release tag for users."""
    return [root / "README.md", root / ".pre-commit-hooks.yaml",
            *sorted((root / "docs").glob("*.md"))]


def current_version(root: Path) -> str:
    found = re.search(VERSION_FILES["pyproject.toml"], (root / "pyproject.toml").read_text("utf-8"))
    if found is None:
        raise SystemExit("release: pyproject.toml states no version")
    return found.group(2)


def bump(root: Path, new: str) -> list[Path]:
    """Write version `new` into the version files and the release tags of the docs; the files
    changed."""
    changed = []
    for name, pattern in VERSION_FILES.items():
        changed.append(_rewrite(root / name, pattern, lambda m: f"{m[1]}{new}{m[3]}"))
    for path in tag_files(root):
        changed.append(_rewrite(path, TAG_FORMS, lambda m: f"{m[1]}v{new}"))
    return [path for path in changed if path is not None]


def _rewrite(path: Path, pattern: str, replace: Callable[[re.Match[str]], str]) -> Path | None:
    if not path.is_file():
        return None
    text = path.read_text("utf-8")
    new = re.sub(pattern, replace, text)
    if new == text:
        return None
    path.write_text(new, "utf-8")
    return path


def _key(version: str) -> tuple[int, ...]:
    if not re.fullmatch(r"\d+\.\d+\.\d+", version):
        raise SystemExit(f"release: {version!r} is not X.Y.Z")
    return tuple(int(part) for part in version.split("."))


def _git(*args: str) -> str:
    done = subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True, text=True,
                          check=False)
    if done.returncode != 0:
        raise SystemExit(f"release: git {' '.join(args)} failed: {done.stderr.strip()}")
    return done.stdout.strip()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="tools/release.py",
                                     description="Cut a release (docs/releasing.md).")
    parser.add_argument("version", help="the new version, X.Y.Z")
    parser.add_argument("--no-regen", action="store_true",
                        help="skip `make regen` (then commit what it regenerates yourself)")
    args = parser.parse_args(argv)
    old = current_version(ROOT)
    if _key(args.version) <= _key(old):
        raise SystemExit(f"release: {args.version} is not after the current {old}")
    if _git("status", "--porcelain", "--untracked-files=no"):
        raise SystemExit("release: the work tree has changes; commit or stash them first")
    if _git("tag", "--list", f"v{args.version}"):
        raise SystemExit(f"release: tag v{args.version} exists already")
    for path in bump(ROOT, args.version):
        print(f"release: {path.relative_to(ROOT)} says {args.version}")
    if not args.no_regen:
        subprocess.run(["make", "-C", str(ROOT), "regen"], check=True)
    _git("commit", "-q", "-am", f"Release {args.version}")
    _git("tag", "-a", f"v{args.version}", "-m", f"contractgen {args.version}")
    print(f"release: tagged v{args.version}; check, then push: git push origin HEAD "
          f"v{args.version}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
