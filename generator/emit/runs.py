"""Skip a whole run whose inputs did not change: `generate` or `check` of an unchanged contract.

A run's output is a pure function of its inputs: the contract's files (the spec, its overlay, the
files its references bundle in), the options (parts, extension notes, template overrides,
leniency, and the input paths as given, as read and as the output shows them; so `check` of a
target replays a `generate` of its spec from the target's folder) and the code that generates
(contractgen's sources and templates, the versions of black, Jinja and the libraries that read
and judge the contract). After a successful run the cache (contractgen/cache.py) records, under
the hash of the options, the code and the spec's bytes: the sha256 of every other input file,
of every file of the package it produced, and the warnings it reported. A later run with the
same key, whose other inputs and package on disk still hash the same, answers with the package
as it is and the same warnings, without loading, validating, building, rendering or formatting.
Anything else (a changed byte anywhere, a hand-edited file, an entry written without validation
when this run validates, `CONTRACTGEN_NO_CACHE=1`) runs in full.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..cache import TextCache
from ..problems import Level, Problem
from ..version import __version__

if TYPE_CHECKING:
    from ..spec.loader import Document

# The libraries whose behaviour shapes the output or the verdict (distribution names as their
# `.dist-info` folders spell them).
_LIBRARIES = frozenset({"black", "jinja2", "pyyaml", "openapi_spec_validator", "openapi_schema_validator",
                        "jsonschema", "jsonschema_path", "jsonschema_rs"})


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@functools.cache
def _code_fingerprint() -> str:
    """A hash of contractgen's sources and built-in templates, and of the libraries' versions."""
    from .templates import templates_dir

    package = Path(__file__).resolve().parent.parent
    digest = hashlib.sha256(f"{__version__} {sys.version_info[:2]}".encode())
    for found in _distributions():
        digest.update(f"\0{found}".encode())
    for folder in (package, templates_dir()):
        for path in sorted(folder.rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
                digest.update(f"\0{path.relative_to(folder).as_posix()}\0".encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()


def _distributions() -> list[str]:
    """The installed `.dist-info` folders of `_LIBRARIES` (name and version), where Python finds
    them: a listing, much cheaper than importing importlib.metadata."""
    found = []
    for entry in sys.path:
        try:
            names = os.listdir(entry or ".")
        except OSError:
            continue
        found += [f"{entry}/{name}" for name in names if name.endswith(".dist-info")
                  and name.split("-", 1)[0].lower().replace(".", "_") in _LIBRARIES]
    return sorted(found)


def _folder_digest(folder: Path) -> str:
    digest = hashlib.sha256()
    for path in sorted(folder.rglob("*")):
        if path.is_file():
            digest.update(f"\0{path.relative_to(folder).as_posix()}\0".encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


class Run:
    """One run's key, and its record in the cache."""

    def __init__(self, key: str, spec_sha256: str) -> None:
        self.cache = TextCache(f"runs-{__version__}")
        self.address = self.cache.key(key)
        self.spec_sha256 = spec_sha256
        self.bundled: list[str] = []  # after a replay: the other files the run read

    @classmethod
    def of(cls, spec: str | Path, overlay: str | Path | None, templates: str | Path | None,
           options: Mapping[str, Any]) -> Run | None:
        """The run of `spec` with these options; None when an input cannot be read."""
        try:
            data = Path(spec).read_bytes()
            if overlay is not None:
                data += Path(overlay).read_bytes()
            overrides = _folder_digest(Path(templates)) if templates is not None else None
        except OSError:
            return None
        # The paths as given (problems name them so) and as resolved (what was read); not the
        # working folder: `options` holds the paths as the output shows them.
        key = json.dumps({
            "code": _code_fingerprint(), "options": options, "sha256": _sha256(data),
            "paths": [[str(path), str(Path(path).resolve())] if path is not None else None
                      for path in (spec, overlay, templates)],
            "templates": overrides,
        }, sort_keys=True, default=str)
        return cls(key, _sha256(data))

    def replay(self, previous: Mapping[str, str], validated: bool
               ) -> tuple[dict[str, str], list[Problem]] | None:
        """The package and warnings of the same run before, when `previous` is still exactly
        that package and every other input still reads the same; else None."""
        stored = self.cache.get(self.address)
        if stored is None:
            return None
        try:
            entry = json.loads(stored)
            if validated and not entry["validated"]:
                return None
            for path, digest in entry["inputs"].items():
                if _sha256(Path(path).read_bytes()) != digest:
                    return None
            files: dict[str, str] = {}
            for name, digest in entry["files"].items():
                text = previous.get(name)
                if text is None or _sha256(text.encode("utf-8")) != digest:
                    return None
                files[name] = text
            warnings = [Problem(Level(level), message, file, line, col, pointer, hint)
                        for level, message, file, line, col, pointer, hint in entry["warnings"]]
        except (OSError, ValueError, TypeError, KeyError):
            return None
        self.bundled = list(entry["inputs"])
        return files, warnings

    def record(self, document: Document, files: Mapping[str, str], warnings: list[Problem],
               validated: bool) -> None:
        """Remember this run's package and warnings (when the spec read is the one keyed)."""
        if document.sha256 != self.spec_sha256:  # the spec changed while this run read it
            return
        inputs = {str(other.path.resolve()): other.sha256 for _, other, _ in document.origins}
        entry = {
            "validated": validated,
            "inputs": dict(sorted(inputs.items())),
            "files": {name: _sha256(text.encode("utf-8")) for name, text in sorted(files.items())},
            "warnings": [[p.level.value, p.message, p.file, p.line, p.col, p.pointer, p.hint]
                         for p in warnings],
        }
        self.cache.put_many({self.address: json.dumps(entry)})
