"""Read one contract: YAML/JSON with positions, overlay, external refs, validation, lint.

Every command reads a contract through `load`.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from ..problems import Problem, SpecError, has_errors
from .loader import Document, load_document


def load(spec: str | Path, overlay: str | Path | None = None) -> tuple[Document, list[Problem]]:
    """Load a spec, apply an overlay and resolve external refs; problems so far (no validation)."""
    document = load_document(spec)
    problems: list[Problem] = []
    if overlay is not None:
        from .overlay import apply_overlay

        document, overlay_problems = apply_overlay(document, overlay)
        problems.extend(overlay_problems)
        if has_errors(problems):
            raise SpecError(problems)
    from .resolve import resolve_external_refs

    resolved = resolve_external_refs(document)
    if resolved is not document.data:
        document = replace(document, data=resolved)
    return document, problems
