"""The two sides of `contractgen diff`: a file, or a file at a git revision (`REV:PATH`), read
like every command reads a contract, and compared even when `validate` finds errors in it.

Only a document that cannot be read as OpenAPI 3 (not YAML or JSON, a reference that does not
resolve, no `openapi: 3.x` version) is refused: an operation without `responses`, or a `pattern`
Python's `re` rejects, is compared, and what `validate` says of it is kept as warnings.

A `REV:PATH` side is read from the tree of the repository at REV, written to a temporary folder
by `git archive`, so references to other files resolve as they were at that revision.
"""

from __future__ import annotations

import io
import subprocess
import tarfile
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path

from ..errors import OptionError
from ..problems import Level, Problem, SpecError
from ..spec import load
from ..spec.loader import Document

# Problems at these pointers say the document is not OpenAPI 3 at all: nothing to compare.
_NOT_OPENAPI = frozenset({"", "/", "/openapi", "/swagger"})


def read_side(path: str | Path, overlay: str | Path | None) -> tuple[Document, list[Problem]]:
    """A contract and the errors `validate` found in it, as warnings.

    Raises SpecError when the document cannot be read, or is not OpenAPI 3.
    """
    from ..spec.validate import validate_document

    document, problems = load(path, overlay)
    found = [*problems, *validate_document(document)]
    refused = [p for p in found if p.is_error and p.pointer in _NOT_OPENAPI]
    if refused:
        raise SpecError(refused)
    return document, [replace(p, level=Level.WARNING) for p in found if p.is_error]


def source_of(pointer: str, sides: tuple[tuple[Document, str], tuple[Document, str]]) -> str:
    """`FILE:LINE` of a change's pointer: in the new document where it is there, else in the
    old one (what was removed), each named as the user named its side."""
    from ..spec.tree import resolve_pointer

    for document, name in reversed(sides):
        try:
            resolve_pointer(document.data, pointer)
        except (LookupError, ValueError, TypeError):
            continue
        at = document.position(pointer)
        return f"{name}:{at[0]}" if at else name
    return sides[1][1]


def _git(args: list[str], cwd: Path) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, check=False)


def git_revision(spec: str, cwd: Path) -> tuple[str, str, Path] | None:
    """`(REV, PATH, repository root)` when `spec` names a file at a git revision, else None.

    `REV:PATH` as `git show` reads it: PATH from the repository's root, or from the current
    folder when it starts with `./` or `../`. A file that exists under the name wins.
    """
    if ":" not in spec or Path(spec).exists():
        return None
    rev, _, path = spec.partition(":")
    if not rev or not path:
        return None
    top = _git(["rev-parse", "--show-toplevel"], cwd)
    if top.returncode != 0 or _git(["rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}"],
                                   cwd).returncode != 0:
        return None
    root = Path(top.stdout.decode().strip())
    if path.startswith(("./", "../")):
        path = (cwd.resolve() / path).relative_to(root.resolve()).as_posix()
    return rev, path, root


@contextmanager
def materialised(spec: str, cwd: Path | None = None) -> Iterator[tuple[str, str]]:
    """`(path to read, name to show)` of a side: the file itself, or the file in a temporary
    copy of the repository's tree at the revision `spec` names (removed afterwards)."""
    found = git_revision(spec, cwd or Path.cwd())
    if found is None:
        yield spec, spec
        return
    rev, path, root = found
    archive = _git(["archive", "--format=tar", rev], root)
    if archive.returncode != 0:
        raise OptionError(f"{spec}: git archive {rev} failed: "
                          f"{archive.stderr.decode(errors='replace').strip()}")
    with tempfile.TemporaryDirectory(prefix="contractgen-diff-") as tmp:
        with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
            tar.extractall(tmp, filter="data")
        target = Path(tmp) / path
        if not target.is_file():
            raise OptionError(f"{spec}: no file {path} at revision {rev}")
        yield str(target), spec


def shown(problems: list[Problem], path: str, name: str) -> list[Problem]:
    """Problems of a side read from a temporary copy, named as the user named the side."""
    if path == name:
        return problems
    return [replace(p, file=p.file.replace(path, name)) for p in problems]
