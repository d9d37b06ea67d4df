"""Read one contract: YAML/JSON with positions, overlay, external refs, validation, lint.

Every command reads a contract through `load`.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from ..problems import Problem, SpecError, has_errors
from .loader import Document, load_document


def read(spec: str | Path, overlay: str | Path | None = None
         ) -> tuple[Document, list[Problem]]:
    """A spec with its overlay applied, references to other files as written; the problems so far.

    Raises SpecError when the spec cannot be read or the overlay has errors.
    """
    document = load_document(spec)
    problems: list[Problem] = []
    if overlay is not None:
        from .overlay import apply_overlay

        document, overlay_problems = apply_overlay(document, overlay)
        problems.extend(overlay_problems)
        if has_errors(problems):
            raise SpecError(problems)
    return document, problems


def resolved(document: Document) -> Document:
    """`document` with other files bundled in (`resolve`); SpecError if a reference cannot be."""
    from .resolve import bundle

    data, origins = bundle(document)
    return document if data is document.data else replace(document, data=data, origins=origins)


def load(spec: str | Path, overlay: str | Path | None = None) -> tuple[Document, list[Problem]]:
    """Load a spec, apply an overlay and resolve external refs; problems so far (no validation).

    Every command reads its contracts through here (`validate` through its two halves, so it
    can report every problem of a spec whose references do not resolve).
    """
    document, problems = read(spec, overlay)
    return resolved(document), problems
