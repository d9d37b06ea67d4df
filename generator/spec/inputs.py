"""`Inputs`: a run's input files read once, with their hashes: the loader parses these bytes, the
manifest records these hashes and the run's fingerprint (`emit.runs`) is made of them."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

from .loader import read_bytes


@dataclass(frozen=True)
class Inputs:
    """The spec's and the overlay's bytes, and the template overrides' digest, as read once."""

    spec: Path
    spec_bytes: bytes
    spec_sha256: str
    overlay: Path | None = None
    overlay_bytes: bytes | None = None
    overlay_sha256: str | None = None
    templates: Path | None = None
    templates_sha256: str | None = None  # `folder_digest` of the override folder

    @classmethod
    def read(cls, spec: str | Path, overlay: Path | None = None,
             templates: Path | None = None) -> Inputs:
        """Read the files; SpecError (located, with a hint) when one cannot be read."""
        spec = Path(spec)
        raw = read_bytes(spec)
        other = read_bytes(overlay) if overlay is not None else None
        digest = folder_digest(templates) if templates is not None and templates.is_dir() else None
        return cls(spec, raw, _sha256(raw), overlay, other,
                   _sha256(other) if other is not None else None, templates, digest)


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def folder_digest(folder: Path) -> str:
    """The sha256 of a folder's files: each one's path in the folder and bytes, in path order."""
    digest = hashlib.sha256()
    for path in sorted(folder.rglob("*")):
        if path.is_file():
            name = path.relative_to(folder).as_posix()
            digest.update(name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()
