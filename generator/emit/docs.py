"""Docstrings of operations: summary, description, deprecation, parameters, examples, links."""

from __future__ import annotations

from ..model.ir import Operation


def operation_doc(op: Operation) -> str:
    """An operation's docstring: summary, description, deprecation, parameters' descriptions."""
    parts = [op.summary or op.description or op.id]
    if op.description and op.summary and op.description.strip() != op.summary.strip():
        parts.append(op.description.strip())
    if op.deprecated:
        parts.append("Deprecated: the contract marks this operation `deprecated`.")
    params = [p for p in (*op.path_params, *op.keyword_params) if p.description or p.deprecated]
    if params:
        lines = ["Args:"]
        for param in params:
            text = " ".join((param.description or "").split())
            note = " (deprecated)" if param.deprecated else ""
            lines.append(f"    {param.name}{note}: {text}".rstrip(": ").rstrip())
        parts.append("\n".join(lines))
    if op.examples:
        parts.append("\n".join(["Examples:", *(f"    {name}: {text}" for name, text in op.examples)]))
    if op.links:
        parts.append("\n".join(["Links:", *(f"    {link}" for link in op.links)]))
    return "\n\n".join(parts)
