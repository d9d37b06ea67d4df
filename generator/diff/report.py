"""`contractgen diff` reports: the changes between two documents, as text, JSON or Markdown
(`formats`: YAML, GitHub annotations, JUnit, the changelog), read through the policy."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any, TextIO

from ..errors import OptionError
from ..spec.loader import Document
from .compare import _Walk
from .formats import entry, format_changelog, format_github, format_junit, format_yaml
from .lifecycle import Lifecycle
from .policy import Outcome, Policy, apply_policy, load_policy
from .rules import LEVELS, Change, Level, Side
from .sides import materialised, read_side, shown, source_of

FORMATS = ("text", "json", "markdown", "yaml", "github", "junit")
FAIL_ON = ("breaking", "warning", "info")  # and `any`, the earlier spelling of `info`


def diff_documents(old: Mapping[str, Any], new: Mapping[str, Any],
                   lifecycle: Lifecycle | None = None) -> list[Change]:
    """Every change from `old` to `new`, each once, breaking ones first, in a stable order.

    A change found at several places with the same rule, pointer and message (a property of a
    schema that five operations use) is one change listing the five places.
    """
    walk = _Walk(Side(old), Side(new), lifecycle)
    walk.run()
    groups: dict[tuple[str, Level, str, str, str], set[str]] = {}
    for c in walk.report.changes:
        groups.setdefault((c.id, c.level, c.direction, c.pointer, c.message), set()).add(c.location)
    changes = [
        Change(rule, level, direction, min(where), message, pointer, tuple(sorted(where)))
        for (rule, level, direction, pointer, message), where in groups.items()
    ]
    return sorted(changes,
                  key=lambda c: (LEVELS.index(c.level), c.location, c.id, c.message, c.pointer))


def _counts(changes: list[Change]) -> dict[str, int]:
    return {level: sum(c.level == level for c in changes) for level in LEVELS}


def _summary(changes: list[Change]) -> str:
    counts = _counts(changes)
    n = len(changes)
    # "breaking" and "info" read as adjectives; "warning" is a noun: 0 warnings, 1 warning
    return f"{n} change{'s'[: n != 1]}: " + ", ".join(
        f"{counts[level]} {level}{'s' * (level == 'warning' and counts[level] != 1)}"
        for level in LEVELS
    )


def format_text(changes: Iterable[Change]) -> str:
    """A report for people: one block per change, the places it reaches, and a count."""
    changes = list(changes)
    lines: list[str] = []
    for change in changes:
        lines.append(f"{change.level.upper():<9}{change.location}  [{change.id}]")
        lines.append(f"{'':<9}{change.message}")
        if change.source:
            lines.append(f"{'':<9}at {change.source}")
        if len(change.locations) > 1:
            lines.append(f"{'':<9}In {len(change.locations)} places ({change.pointer}):")
            lines.extend(f"{'':<11}{where}" for where in change.locations)
    lines.append(_summary(changes) + "." if changes else "No changes.")
    return "\n".join(lines) + "\n"


def format_json(changes: Iterable[Change]) -> str:
    """A report for tools: `{"changes": [...], "breaking": n, "warning": n, "info": n}`."""
    changes = list(changes)
    entries = [entry(change) for change in changes]
    return json.dumps({"changes": entries, **_counts(changes)}, indent=2) + "\n"


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def format_markdown(changes: Iterable[Change]) -> str:
    """A report for a pull-request comment: a heading with the counts and one table row each."""
    changes = list(changes)
    if not changes:
        return "### API changes\n\nNo changes.\n"
    lines = [f"### API changes: {_summary(changes).split(': ', 1)[1]}", "",
             "| Level | Change | Where |", "|---|---|---|"]
    for c in changes:
        where = "<br>".join(f"`{_cell(w)}`" for w in c.locations)
        lines.append(f"| {c.level} | {_cell(c.message)} (`{c.id}`) | {where} |")
    return "\n".join(lines) + "\n"


def _read(spec: str | Path, overlay: str | Path | None, warn: TextIO) -> tuple[Document, str]:
    """One side and its name, the errors `validate` finds in it printed as located warnings."""
    with materialised(str(spec)) as (path, name):
        document, problems = read_side(path, overlay)
        problems = shown(problems, path, name)
    for problem in problems:
        print(problem.format(), file=warn)
    if problems:
        print(f"contractgen diff: {name} is not a valid contract ({len(problems)} "
              f"problem{'s' * (len(problems) != 1)} above); compared as written", file=warn)
    return document, name


def _formatter(fmt: str, fail_on: str) -> Callable[[list[Change]], str]:
    if fmt == "junit":
        return partial(format_junit, failing=LEVELS[: LEVELS.index(fail_on) + 1])
    return {"text": format_text, "json": format_json, "markdown": format_markdown,
            "yaml": format_yaml, "github": format_github}[fmt]


def compare_files(old_path: str | Path, new_path: str | Path, policy: Policy, *,
                  overlays: tuple[str | Path | None, str | Path | None] = (None, None)
                  ) -> Outcome:
    """Read both sides, diff them and apply the policy; each change located (`source`)."""
    warn = sys.stderr
    sides = (_read(old_path, overlays[0], warn), _read(new_path, overlays[1], warn))
    old, new = sides[0][0].data, sides[1][0].data
    changes = [replace(c, source=source_of(c.pointer, sides))
               for c in diff_documents(old, new, policy.lifecycle)]
    outcome = apply_policy(policy, changes, (_version(old), _version(new)))
    for change, ignore in outcome.ignored:
        print(f"contractgen diff: ignored by {policy.source}: {change.id} at {change.location}: "
              f"{ignore.reason}", file=warn)
    for note in outcome.notes:
        print(f"contractgen diff: {policy.source or 'policy'}: {note}", file=warn)
    return outcome


def run_diff(old_path: str | Path, new_path: str | Path, *, fmt: str = "text",
             fail_on: str | None = None, out: TextIO | None = None,
             overlay_old: str | Path | None = None, overlay_new: str | Path | None = None,
             policy: str | Path | None = None) -> int:
    """Diff two spec files and print the report; 1 if the policy fails the run, else 0.

    Each side is read like every other command reads a contract (`spec.load`): its overlay
    applied, references to other files inlined; a side may be `REV:PATH`, the file at a git
    revision (`sides`). A side `validate` finds errors in is compared as written, its errors
    printed to stderr as warnings; one that is not OpenAPI 3 at all raises SpecError.
    The policy (`policy`: the file `--policy` names, else the nearest pyproject.toml's
    `[tool.contractgen.diff]`) sets levels, ignores and deprecation days; `fail_on`, when
    given, is the lowest level that fails the run instead of the policy's.
    """
    if fmt not in FORMATS:
        raise OptionError(f"unknown format {fmt!r}: expected one of {', '.join(FORMATS)}")
    if fail_on == "any":
        fail_on = "info"
    if fail_on is not None and fail_on not in FAIL_ON:
        raise OptionError(f"unknown fail_on {fail_on!r}: expected one of {', '.join(FAIL_ON)}")
    rules = load_policy(policy)
    if fail_on is not None:
        rules = replace(rules, fail_on=fail_on)
    outcome = compare_files(old_path, new_path, rules, overlays=(overlay_old, overlay_new))
    (out or sys.stdout).write(_formatter(fmt, rules.fail_on)(outcome.changes))
    return 1 if outcome.failed else 0


def _version(document: Mapping[str, Any]) -> Any:
    info = document.get("info")
    return info.get("version") if isinstance(info, Mapping) else None


def run_changelog(old_path: str | Path, new_path: str | Path, *, title: str = "API changes",
                  out: TextIO | None = None, overlay_old: str | Path | None = None,
                  overlay_new: str | Path | None = None, policy: str | Path | None = None) -> int:
    """Print the changes from OLD to NEW in Markdown, grouped by operation; 0."""
    outcome = compare_files(old_path, new_path, load_policy(policy),
                            overlays=(overlay_old, overlay_new))
    (out or sys.stdout).write(format_changelog(outcome.changes, title))
    return 0
