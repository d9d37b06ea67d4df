"""A team's diff policy: `[tool.contractgen.diff]` in the nearest pyproject.toml, or a TOML file
named by `--policy` (the same keys, at its top level or under `[tool.contractgen.diff]`)::

    [tool.contractgen.diff]
    fail-on = "breaking"                 # the lowest level that fails the run
    deprecation-days-beta = 31           # how far ahead a deprecated operation's x-sunset must be
    deprecation-days-stable = 180
    exempt-stability = ["draft", "alpha"]  # levels whose breaking changes are only info
    major-bump = true                    # breaking changes pass only with a major version bump
    compat = "oasdiff"                   # oasdiff's reading where ours differs on purpose
                                         #   (or a list of COMPAT's names)

    [tool.contractgen.diff.severity]     # a rule's level, by id or glob
    "response-property-enum-value-added" = "breaking"

    [[tool.contractgen.diff.ignore]]     # each with a reason; an expired one fails the run
    rule = "api-removed-without-deprecation"
    where = "GET /legacy"                # optional: the start of a location it reaches
    reason = "its last client moved, INC-123"
    expires = 2027-03-01                 # optional

A policy that cannot be read, or an ignore without a reason, is a usage error (exit 2).
"""

from __future__ import annotations

import datetime as dt
import fnmatch
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, cast

from ..errors import OptionError
from .lifecycle import STABILITY, Lifecycle
from .rules import LEVELS, Change, Level

_KEYS = frozenset({"fail-on", "deprecation-days-beta", "deprecation-days-stable",
                   "exempt-stability", "major-bump", "severity", "ignore", "compat"})
# Where we differ from oasdiff on purpose (docs/diff.md), and the levels oasdiff gives there
# (rule glob -> our level -> oasdiff's): `compat` chooses oasdiff's reading, by name or all at
# once (`compat = "oasdiff"`); the walk reads the others (`Lifecycle.oasdiff`).
COMPAT: dict[str, dict[str, tuple[Level, Level]]] = {
    "read-only": {},  # constraints on readOnly request (writeOnly response) properties count
    "all-of": {"request-*-all-of-removed": ("info", "warning")},  # any member added or removed
    "webhook-direction": {},  # a webhook's body becoming required breaks, as for a request
    "open-enums": {"response-*enum-value-added": ("info", "warning")},  # an open enum's new value
    "security": {rule: ("breaking", "info") for rule in (  # security added to the anonymous
        "api-security-added", "api-security-scope-added", "api-global-security-added",
        "api-global-security-scope-added")},
}


@dataclass(frozen=True)
class Ignore:
    """A change a team accepts: its rule (id or glob), where, why, and until when."""

    rule: str
    reason: str
    where: str = ""
    expires: dt.date | None = None

    def matches(self, change: Change) -> bool:
        """Whether this ignore covers the change (its rule, and one of its locations)."""
        return fnmatch.fnmatchcase(change.id, self.rule) and (
            not self.where or any(w.startswith(self.where) for w in change.locations))

    def describe(self) -> str:
        """The ignore for people: rule, place and reason."""
        at = f" at {self.where}" if self.where else ""
        return f"{self.rule}{at} ({self.reason})"


@dataclass(frozen=True)
class Policy:
    """How a team reads a diff: levels per rule, ignores, deprecation, the version rule."""

    fail_on: str = "breaking"
    severity: Mapping[str, Level] = field(default_factory=dict)
    ignores: tuple[Ignore, ...] = ()
    lifecycle: Lifecycle = field(default_factory=Lifecycle)
    major_bump: bool = False
    source: str = ""  # the file it was read from
    compat: Mapping[str, tuple[Level, Level]] = field(default_factory=dict)  # from COMPAT


def find_policy(start: Path) -> tuple[Path, Mapping[str, Any]] | None:
    """The nearest pyproject.toml at or above `start` with `[tool.contractgen.diff]`."""
    here = start.resolve()
    for folder in (here, *here.parents):
        candidate = folder / "pyproject.toml"
        if candidate.is_file():
            table = _diff_table(_toml(candidate))
            if table is not None:
                return candidate, table
    return None


def load_policy(path: str | Path | None, *, today: dt.date | None = None,
                start: Path | None = None) -> Policy:
    """The policy in `path`, else the nearest pyproject.toml's, else the default one."""
    if path is not None:
        data = _toml(Path(path))
        table: Mapping[str, Any] = _diff_table(data) or data
        source = str(path)
    else:
        found = find_policy(start or Path.cwd())
        if found is None:
            return Policy(lifecycle=Lifecycle(today=today or dt.date.today()))
        source, table = str(found[0]), found[1]
    return parse_policy(table, source, today or dt.date.today())


def _toml(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle)
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise OptionError(f"cannot read the diff policy {path}: {exc}") from exc


def _diff_table(data: Mapping[str, Any]) -> Mapping[str, Any] | None:
    tool = data.get("tool")
    contractgen = tool.get("contractgen") if isinstance(tool, Mapping) else None
    table = contractgen.get("diff") if isinstance(contractgen, Mapping) else None
    return table if isinstance(table, Mapping) else None


def parse_policy(table: Mapping[str, Any], source: str, today: dt.date) -> Policy:
    """A policy from its TOML table; OptionError naming `source` and the key when it is wrong."""
    def fail(message: str) -> OptionError:
        return OptionError(f"{source}: diff policy: {message}")

    unknown = sorted(set(table) - _KEYS)
    if unknown:
        raise fail(f"unknown key {unknown[0]!r}: expected one of {', '.join(sorted(_KEYS))}")
    fail_on = table.get("fail-on", "breaking")
    if fail_on not in LEVELS:
        raise fail(f"fail-on {fail_on!r}: expected one of {', '.join(LEVELS)}")
    days = {key: table.get(key, 0) for key in ("deprecation-days-beta", "deprecation-days-stable")}
    for key, value in days.items():
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise fail(f"{key} {value!r}: expected a whole number of days, 0 or more")
    exempt = table.get("exempt-stability", ["draft", "alpha"])
    if not isinstance(exempt, list) or not set(exempt) <= set(STABILITY):
        raise fail(f"exempt-stability {exempt!r}: expected a list of {', '.join(STABILITY)}")
    lifecycle = Lifecycle(days["deprecation-days-beta"], days["deprecation-days-stable"],
                          frozenset(exempt), today)
    severity = table.get("severity", {})
    if not isinstance(severity, Mapping) or any(v not in LEVELS for v in severity.values()):
        raise fail(f"severity: expected rule = level, each level one of {', '.join(LEVELS)}")
    ignores = tuple(_ignore(entry, index, fail) for index, entry in
                    enumerate(table.get("ignore", [])))
    major_bump = table.get("major-bump", False)
    if not isinstance(major_bump, bool):
        raise fail(f"major-bump {major_bump!r}: expected true or false")
    compat = table.get("compat", [])
    compat = sorted(COMPAT) if compat == "oasdiff" else compat
    if not isinstance(compat, list) or not set(compat) <= set(COMPAT):
        raise fail(f"compat {compat!r}: expected \"oasdiff\" or a list of {', '.join(COMPAT)}")
    lifecycle = replace(lifecycle, oasdiff=frozenset(compat))
    return Policy(fail_on, cast(Mapping[str, Level], dict(severity)), ignores, lifecycle,
                  major_bump, source, {k: v for r in compat for k, v in COMPAT[r].items()})


def _ignore(entry: Any, index: int, fail: Any) -> Ignore:
    if not isinstance(entry, Mapping) or not isinstance(entry.get("rule"), str):
        raise fail(f"ignore #{index + 1}: expected a table with a `rule`")
    reason = entry.get("reason")
    if not isinstance(reason, str) or not reason.strip():
        raise fail(f"ignore #{index + 1} ({entry['rule']}): every ignore says why (`reason`)")
    expires = entry.get("expires")
    if isinstance(expires, str):
        try:
            expires = dt.date.fromisoformat(expires)
        except ValueError:
            raise fail(f"ignore #{index + 1}: expires {expires!r} is not a date") from None
    if expires is not None and not isinstance(expires, dt.date):
        raise fail(f"ignore #{index + 1}: expires {expires!r} is not a date")
    return Ignore(entry["rule"], reason.strip(), str(entry.get("where", "")), expires)


@dataclass(frozen=True)
class Outcome:
    """A diff read through a policy: the changes it counts, and why the run fails."""

    changes: list[Change]
    ignored: list[tuple[Change, Ignore]]
    notes: list[str]  # what the policy decided, for stderr
    failed: bool


def apply_policy(policy: Policy, changes: list[Change], versions: tuple[Any, Any]) -> Outcome:
    """The changes with the policy's levels and ignores applied, and whether the run fails."""
    today, notes = policy.lifecycle.today, list[str]()
    expired = [i for i in policy.ignores if i.expires is not None and i.expires < today]
    live = [i for i in policy.ignores if i not in expired]
    notes.extend(f"the ignore of {i.describe()} expired on {i.expires}: renew it or drop it"
                 for i in expired)
    kept, ignored = [], []
    for change in changes:
        change = replace(change, level=_level(policy, change))
        cover = next((i for i in live if i.matches(change)), None)
        if cover is None:
            kept.append(change)
        else:
            ignored.append((change, cover))
    kept.sort(key=lambda c: LEVELS.index(c.level))  # stable: the diff's order within a level
    threshold = LEVELS.index(policy.fail_on)
    failing = [c for c in kept if LEVELS.index(c.level) <= threshold]
    if policy.major_bump and any(c.breaking for c in kept):
        old, new = (_major(v) for v in versions)
        if old is not None and new is not None and new > old:
            notes.append(f"breaking changes come with a major version bump "
                         f"({versions[0]} -> {versions[1]}): allowed by the policy")
            failing = [c for c in failing if not c.breaking]
        else:
            notes.append(f"breaking changes need a major version bump; info.version went "
                         f"{versions[0]} -> {versions[1]}")
    return Outcome(kept, ignored, notes, bool(failing or expired))


def _level(policy: Policy, change: Change) -> Level:
    """The change's level: the team's for its rule, else oasdiff's where `compat` says so."""
    for rule, level in policy.severity.items():
        if fnmatch.fnmatchcase(change.id, rule):
            return level
    for rule, (ours, theirs) in policy.compat.items():
        if change.level == ours and fnmatch.fnmatchcase(change.id, rule):
            return theirs
    return change.level


def _major(version: Any) -> tuple[int, ...] | None:
    """The part of a version a breaking change must raise: `2` of 2.1.0, `0.3` of 0.3.1."""
    numbers = [int(n) for n in re.findall(r"\d+", str(version))[:2]]
    if not numbers:
        return None
    return tuple(numbers[:2]) if numbers[0] == 0 else (numbers[0],)
