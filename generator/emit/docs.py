"""Docstrings of operations: summary, description, deprecation, parameters, examples, links."""

from __future__ import annotations

import textwrap

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
    redirects = [r.status for r in op.success if r.status.startswith("3")]
    if redirects:
        parts.append(f"Answers a redirect ({', '.join(redirects)}), as the contract declares: the "
                     "client returns it, without following it; its headers (`Location`) are in "
                     "the answer of the `_detailed` method.")
    return wrapped("\n\n".join(parts))


def wrapped(text: str, width: int = 80) -> str:
    """`text` with each line over `width` columns wrapped at its spaces (a docstring at a
    method's indent then stays within black's 88 columns): an indented line (`Args:`'s
    entries) continued 4 further; lines inside a ``` fence stay as written."""
    lines, fenced = [], False
    for line in text.split("\n"):
        if line.lstrip().startswith("```"):
            fenced = not fenced
        if fenced or len(line) <= width:
            lines.append(line)
            continue
        indent = line[:len(line) - len(line.lstrip())]
        lines += textwrap.wrap(line.strip(), width, initial_indent=indent,
                               subsequent_indent=indent + ("    " if indent else ""),
                               break_long_words=False, break_on_hyphens=False) or [line]
    return "\n".join(lines)
