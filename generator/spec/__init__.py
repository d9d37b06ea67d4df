"""Read one contract: YAML/JSON with positions, overlay, external refs, validation, lint.

Every command reads a contract through `load`.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from ..problems import Problem, SpecError, has_errors
from .inputs import Inputs
from .loader import Document, load_document


def read(spec: str | Path | Inputs, overlay: str | Path | None = None
         ) -> tuple[Document, list[Problem]]:
    """A spec with its overlay applied, references to other files as written; the problems so far.

    `spec` may be `Inputs` already read (its overlay then is the one read with it).
    Raises SpecError when the spec cannot be read or the overlay has errors.
    """
    if isinstance(spec, Inputs):
        document = load_document(spec.spec, read=(spec.spec_bytes, spec.spec_sha256))
        overlay, overlay_read = spec.overlay, None
        if spec.overlay_bytes is not None and spec.overlay_sha256 is not None:
            overlay_read = (spec.overlay_bytes, spec.overlay_sha256)
    else:
        document, overlay_read = load_document(spec), None
    problems: list[Problem] = []
    if overlay is not None:
        from .overlay import apply_overlay

        document, overlay_problems = apply_overlay(document, overlay, overlay_read)
        problems.extend(overlay_problems)
        if has_errors(problems):
            raise SpecError(problems)
    return document, problems


def resolved(document: Document) -> Document:
    """`document` with other files bundled in (`resolve`); SpecError if a reference cannot be."""
    from .resolve import bundle

    data, origins = bundle(document)
    return document if data is document.data else replace(document, data=data, origins=origins)


def load(spec: str | Path | Inputs, overlay: str | Path | None = None
         ) -> tuple[Document, list[Problem]]:
    """Load a spec, apply an overlay and resolve external refs; problems so far (no validation).

    Every command reads its contracts through here (`validate` through its two halves, so it
    can report every problem of a spec whose references do not resolve).
    """
    document, problems = read(spec, overlay)
    return resolved(document), problems
