"""Python source of the client's request builders: the entries of their dict literals."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from ..model.ir import FormField, Operation
from ..model.literal import literal
from .source import accept_header


def header_entries(op: Operation) -> list[str]:
    """`_texts({...})`'s entries: the Accept header the client sends, then header parameters."""
    entries = [f'"Accept": {accept_header(op)}'] if op.negotiates or op.streams_events else []
    return entries + [f"{literal(p.wire)}: {p.name}" for p in op.header_params]


def query_entries(op: Operation) -> list[str]:
    return [f"{literal(p.wire)}: {p.name}" for p in op.query_params]


def styled_entries(op: Operation) -> list[str]:
    """Each styled query parameter's (style, shape, exploded)."""
    return [f"{literal(p.wire)}: ({literal(p.style)}, {literal(p.shape)}, {p.exploded})"
            for p in op.query_params if p.parsed]


def form_entries(fields: Iterable[FormField]) -> list[str]:
    return [f"{literal(f.wire)}: {f.name}" for f in fields]


# What the client template calls these.
ENTRIES: dict[str, Callable[..., list[str]]] = {
    "header_entries": header_entries, "query_entries": query_entries,
    "styled_entries": styled_entries, "form_entries": form_entries}
