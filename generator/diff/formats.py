"""`contractgen diff` reports for CI: JUnit XML, GitHub annotations, YAML, and the changelog of a
release grouped by operation. (Text, JSON and Markdown are in `report`.)"""

from __future__ import annotations

import json
from collections.abc import Iterable
from xml.sax.saxutils import quoteattr

import yaml

from .rules import LEVELS, Change

_ANNOTATION = {"breaking": "error", "warning": "warning", "info": "notice"}
_METHODS = frozenset({"GET", "PUT", "POST", "DELETE", "OPTIONS", "HEAD", "PATCH", "TRACE"})


def entry(change: Change) -> dict[str, object]:
    """One change as data: JSON's and YAML's entries."""
    return {"id": change.id, "key": change.key, "level": change.level,
            "direction": change.direction, "location": change.location,
            "message": change.message, "pointer": change.pointer, "source": change.source,
            "locations": list(change.locations)}


def format_yaml(changes: Iterable[Change]) -> str:
    """The JSON report's data as YAML."""
    changes = list(changes)
    counts: dict[str, int] = {level: sum(c.level == level for c in changes) for level in LEVELS}
    data: dict[str, object] = {"changes": [entry(c) for c in changes], **counts}
    return yaml.safe_dump(json.loads(json.dumps(data)), sort_keys=False, allow_unicode=True)


def format_github(changes: Iterable[Change]) -> str:
    """GitHub Actions workflow commands: one annotation per change, on the line it names."""
    lines = []
    for change in changes:
        path, _, line = change.source.rpartition(":")
        where = f"file={_escape(path, True)},line={line}," if path and line.isdigit() else ""
        title = _escape(f"{change.id} ({change.location})", True)
        lines.append(f"::{_ANNOTATION[change.level]} {where}title={title}::"
                     f"{_escape(change.message, False)}")
    return "\n".join(lines) + "\n" if lines else ""


def _escape(text: str, prop: bool) -> str:
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    return text.replace(":", "%3A").replace(",", "%2C") if prop else text


def format_junit(changes: Iterable[Change], failing: Iterable[str] = ("breaking",)) -> str:
    """JUnit XML: one test case per change, failed when its level is in `failing`."""
    changes, fails = list(changes), set(failing)
    failures = sum(c.level in fails for c in changes)
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           f'<testsuites name="contractgen diff" tests="{len(changes)}" failures="{failures}">',
           f'  <testsuite name="contractgen diff" tests="{len(changes)}" failures="{failures}">']
    for c in changes:
        name = quoteattr(f"{c.location} [{c.id}]")
        attrs = f'classname={quoteattr(c.id)} name={name} file={quoteattr(c.source)}'
        body = quoteattr(c.message)
        if c.level in fails:
            out.append(f"    <testcase {attrs}><failure type={quoteattr(c.level)} "
                       f"message={body}/></testcase>")
        else:
            out.append(f"    <testcase {attrs}><system-out>{c.level}: "
                       f"{quoteattr(c.message)[1:-1]}</system-out></testcase>")
    out += ["  </testsuite>", "</testsuites>"]
    return "\n".join(out) + "\n"


def operation_of(location: str) -> str:
    """The operation a location names (`GET /items`), or '' for the rest of the contract."""
    words = location.split(" ", 2)
    return " ".join(words[:2]) if len(words) >= 2 and words[0] in _METHODS else ""


def format_changelog(changes: Iterable[Change], title: str = "API changes") -> str:
    """A release's changes in Markdown, grouped by operation (a shared schema's change under
    each operation it reaches), breaking ones marked."""
    groups: dict[str, list[tuple[str, Change]]] = {}
    for change in changes:
        for where in change.locations or (change.location,):
            groups.setdefault(operation_of(where), []).append((where, change))
    if not groups:
        return f"# {title}\n\nNo changes.\n"
    lines = [f"# {title}"]
    for operation in sorted(groups, key=lambda op: (op == "", op.split(" ")[-1], op)):
        lines += ["", f"## {operation or 'The rest of the contract'}", ""]
        for where, c in sorted(groups[operation], key=lambda e: (LEVELS.index(e[1].level), e[0])):
            place = where[len(operation):].strip()
            mark = "**Breaking:** " if c.breaking else "Warning: " if c.level == "warning" else ""
            lines.append(f"- {mark}{f'{place}: ' if place else ''}{c.message} (`{c.id}`)")
    return "\n".join(lines) + "\n"
