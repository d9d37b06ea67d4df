"""Deprecation, sunset dates and stability levels in `contractgen diff` (oasdiff's semantics).

- `x-stability-level`: `draft`, `alpha`, `beta` or `stable` (none reads as stable). An operation
  at `draft` or `alpha` promises nothing: its breaking changes are reported as info (the
  policy's `exempt_stability` names these levels). A level that goes down breaks.
- Removing an operation that was not deprecated breaks; one deprecated without `x-sunset` is
  info; one deprecated with an `x-sunset` still ahead breaks (`api-removed-before-sunset`); on or
  after its sunset date it is info (`api-removed-after-sunset`).
- Deprecating needs an `x-sunset` at least the policy's deprecation days ahead (0 days, the
  default, asks for none); an unreadable `x-sunset` breaks.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from .rules import Json

STABILITY = ("draft", "alpha", "beta", "stable")


@dataclass(frozen=True)
class Lifecycle:
    """The policy's part in the walk: on deprecation, days a sunset must lie ahead, levels
    exempt, today; and which of our deliberate readings give way to oasdiff's (`policy.COMPAT`)."""

    deprecation_days_beta: int = 0
    deprecation_days_stable: int = 0
    exempt_stability: frozenset[str] = frozenset({"draft", "alpha"})
    today: dt.date = field(default_factory=dt.date.today)
    oasdiff: frozenset[str] = frozenset()

    def days(self, level: str) -> int:
        """The days a sunset must lie ahead when an operation at `level` is deprecated."""
        return {"beta": self.deprecation_days_beta, "stable": self.deprecation_days_stable}.get(
            level, 0)


def stability(node: Mapping[str, Json]) -> str | None:
    """An operation's stability level (stable when it names none); None when it is not one."""
    level = node.get("x-stability-level", "stable")
    return level if level in STABILITY else None


def sunset(node: Mapping[str, Json]) -> dt.date | str | None:
    """An operation's `x-sunset` date, the text when it is not a date (RFC 3339), or None."""
    value = node.get("x-sunset")
    if value is None:
        return None
    if isinstance(value, dt.datetime):  # YAML reads an unquoted timestamp
        return value.date()
    if isinstance(value, dt.date):
        return value
    try:
        return dt.date.fromisoformat(str(value)[:10])
    except ValueError:
        return str(value)


# (rule id, breaking, message)
Verdict = tuple[str, bool, str]


@dataclass(frozen=True)
class Names:
    """The rule ids of one kind of thing that is deprecated (an operation, a parameter...)."""

    thing: str  # "operation", "parameter", "property"
    deprecated: str
    with_sunset: str
    reactivated: str
    missing: str
    parse: str
    too_small: str
    changed_too_small: str
    deleted: str
    changed: str
    removed_with: str = ""
    removed_before: str = ""
    removed_after: str = ""


OPERATION = Names("operation", "endpoint-deprecated", "endpoint-deprecated-with-sunset",
                  "endpoint-reactivated", "api-deprecated-sunset-missing",
                  "api-deprecated-sunset-parse", "api-sunset-date-too-small",
                  "api-sunset-date-changed-too-small", "sunset-deleted", "api-sunset-date-changed")


def names_for(prefix: str) -> Names:
    """The ids oasdiff gives a parameter's (`request-parameter`) or a property's
    (`request-property`, `response-property`) deprecation."""
    thing = "parameter" if prefix.endswith("parameter") else "property"
    parse = f"{prefix}-sunset-parse" if thing == "parameter" else (
        f"{prefix}-deprecated-sunset-invalid")
    return Names(thing, f"{prefix}-deprecated", f"{prefix}-deprecated-with-sunset",
                 f"{prefix}-reactivated", f"{prefix}-deprecated-sunset-missing", parse,
                 f"{prefix}-sunset-date-too-small", f"{prefix}-sunset-date-changed-too-small",
                 f"{prefix}-sunset-deleted", f"{prefix}-sunset-date-changed",
                 f"{prefix}-removed-with-deprecation", f"{prefix}-removed-before-sunset",
                 f"{prefix}-removed-after-sunset")


def removal(node: Mapping[str, Json], policy: Lifecycle, whole_path: bool) -> Verdict:
    """What removing this operation means for its clients."""
    prefix = "api-path" if whole_path else "api"
    if node.get("deprecated") is not True:
        return (f"{prefix}-removed-without-deprecation", True,
                "the operation was removed without being deprecated first, so clients calling "
                "it fail")
    names = replace(names_for(prefix), thing="operation", parse="api-path-sunset-parse")
    return deprecated_removal(node, policy, names)


def deprecated_removal(node: Mapping[str, Json], policy: Lifecycle, names: Names) -> Verdict:
    """What removing a deprecated operation or parameter means, by its `x-sunset`."""
    date, thing = sunset(node), names.thing
    if date is None:
        return (names.removed_with, False,
                f"the deprecated {thing} was removed (it named no sunset date)")
    if isinstance(date, str):
        return (names.parse, True, f"the {thing} was removed, and its x-sunset {date!r} is not "
                "a date")
    if policy.today < date:
        return (names.removed_before, True,
                f"the deprecated {thing} was removed before its sunset date {date}, so "
                "clients promised it until then fail")
    return (names.removed_after, False,
            f"the deprecated {thing} was removed after its sunset date {date}")


def deprecation(old: Mapping[str, Json], new: Mapping[str, Json], policy: Lifecycle,
                names: Names = OPERATION) -> list[Verdict]:
    """What an operation's (or parameter's, property's) deprecation, sunset and stability
    changes mean for its clients."""
    found = _stability(old, new) if names is OPERATION else []
    was, now, thing = old.get("deprecated") is True, new.get("deprecated") is True, names.thing
    if was and not now:
        found.append((names.reactivated, False,
                      f"the {thing} is no longer deprecated, which changes no payload"))
    if not now:
        return found
    date, before = sunset(new), sunset(old) if was else None
    days = policy.days(stability(new) or "stable")
    if isinstance(date, str) or (date is not None and isinstance(before, str)):
        bad = date if isinstance(date, str) else before
        found.append((names.parse, True,
                      f"the x-sunset {bad!r} is not a date (RFC 3339, e.g. 2027-06-30)"))
    elif date is None and isinstance(before, dt.date):
        found.append((names.deleted, True, f"the sunset date {before} was removed"))
    elif date is None and not was:
        found.append((names.missing, True,
                      f"the {thing} was deprecated without an x-sunset date, and the policy "
                      f"asks for one {days} days ahead") if days else
                     (names.deprecated, False,
                      f"the {thing} was deprecated, which changes no payload"))
    elif date is not None and date != before:
        found.append(_sunset_moved(date, before, days, names, was=was, today=policy.today))
    return found


def _sunset_moved(date: dt.date, before: dt.date | str | None, days: int, names: Names, *,
                  was: bool, today: dt.date) -> Verdict:
    """A new sunset date: too close, moved earlier, or fine."""
    if (date - today).days < days:
        return (names.too_small, True,
                f"the sunset date {date} is less than the policy's {days} days ahead")
    if not was:
        return (names.with_sunset, False,
                f"the {names.thing} was deprecated, to be removed on {date}")
    if isinstance(before, dt.date) and date < before:
        return (names.changed_too_small, True,
                f"the sunset date moved earlier, from {before} to {date}")
    return (names.changed, False, f"the sunset date is now {date}")


def _stability(old: Mapping[str, Json], new: Mapping[str, Json]) -> list[Verdict]:
    before, after = stability(old), stability(new)
    if after is None or before is None:
        # oasdiff's reading: a level it cannot read, on either side, fails the check
        bad = (new if after is None else old).get("x-stability-level")
        return [("api-invalid-stability-level", True,
                 f"x-stability-level {bad!r} is not one of {', '.join(STABILITY)}")]
    if before == after or "x-stability-level" not in old:
        return []  # as oasdiff: a level first stated is no change of one
    if STABILITY.index(after) < STABILITY.index(before):
        return [("api-stability-decreased", True,
                 f"the stability level went down from {before} to {after}, which promises less")]
    return [("api-stability-increased", False,
             f"the stability level went up from {before} to {after}")]


def exempt(node: Mapping[str, Json], policy: Lifecycle) -> str:
    """Why an operation's breaking changes are only info (its stability level), or ''."""
    level = stability(node)
    if level in policy.exempt_stability:
        return f"the operation is at stability level {level}, which promises no compatibility"
    return ""
