"""`contractgen diff` reports: the changes between two documents, as text or JSON."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Mapping
from dataclasses import asdict
from pathlib import Path
from typing import Any, TextIO

from ..spec import load
from .compare import _Walk
from .rules import Change, Side


def diff_documents(old: Mapping[str, Any], new: Mapping[str, Any]) -> list[Change]:
    """Every change from `old` to `new`, breaking ones first, in a stable order."""
    walk = _Walk(Side(old), Side(new))
    walk.run()
    return sorted(
        walk.report.changes,
        key=lambda c: (not c.breaking, c.location, c.id, c.message, c.pointer),
    )


def format_text(changes: Iterable[Change]) -> str:
    """A report for people: one block per change and a count."""
    changes = list(changes)
    lines: list[str] = []
    for change in changes:
        label = "BREAKING" if change.breaking else "ok"
        lines.append(f"{label:<9}{change.location}  [{change.id}]")
        lines.append(f"{'':<9}{change.message}")
    breaking = sum(c.breaking for c in changes)
    if not changes:
        lines.append("No changes.")
    else:
        lines.append(
            f"{len(changes)} change{'s'[: len(changes) != 1]}: "
            f"{breaking} breaking, {len(changes) - breaking} non-breaking."
        )
    return "\n".join(lines) + "\n"


def format_json(changes: Iterable[Change]) -> str:
    """A report for tools: `{"changes": [...], "breaking": n, "non_breaking": n}`."""
    changes = list(changes)
    breaking = sum(c.breaking for c in changes)
    body = {
        "changes": [asdict(c) for c in changes],
        "breaking": breaking,
        "non_breaking": len(changes) - breaking,
    }
    return json.dumps(body, indent=2) + "\n"


def run_diff(
    old_path: str | Path,
    new_path: str | Path,
    *,
    fmt: str = "text",
    fail_on: str = "breaking",
    out: TextIO | None = None,
    overlay_old: str | Path | None = None,
    overlay_new: str | Path | None = None,
) -> int:
    """Diff two spec files and print the report; 1 if a change fails the run, else 0.

    Each side is read like every other command reads a contract (`spec.load`): its overlay
    applied, references to other files inlined.
    """
    if fmt not in ("text", "json"):
        raise ValueError(f"unknown format {fmt!r}: expected 'text' or 'json'")
    if fail_on not in ("breaking", "any"):
        raise ValueError(f"unknown fail_on {fail_on!r}: expected 'breaking' or 'any'")
    changes = diff_documents(load(old_path, overlay_old)[0].data,
                             load(new_path, overlay_new)[0].data)
    (out or sys.stdout).write(format_json(changes) if fmt == "json" else format_text(changes))
    failing = changes if fail_on == "any" else [c for c in changes if c.breaking]
    return 1 if failing else 0
