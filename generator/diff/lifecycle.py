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
from dataclasses import dataclass, field

from .rules import Json

STABILITY = ("draft", "alpha", "beta", "stable")


@dataclass(frozen=True)
class Lifecycle:
    """The policy's part on deprecation: days a sunset must lie ahead, levels exempt, today."""

    deprecation_days_beta: int = 0
    deprecation_days_stable: int = 0
    exempt_stability: frozenset[str] = frozenset({"draft", "alpha"})
    today: dt.date = field(default_factory=dt.date.today)

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


def removal(node: Mapping[str, Json], policy: Lifecycle, whole_path: bool) -> Verdict:
    """What removing this operation means for its clients."""
    prefix = "api-path" if whole_path else "api"
    if node.get("deprecated") is not True:
        return (f"{prefix}-removed-without-deprecation", True,
                "the operation was removed without being deprecated first, so clients calling "
                "it fail")
    date = sunset(node)
    if date is None:
        return (f"{prefix}-removed-with-deprecation", False,
                "the deprecated operation was removed (it named no sunset date)")
    if isinstance(date, str):
        return ("api-path-sunset-parse", True,
                f"the operation was removed, and its x-sunset {date!r} is not a date")
    if policy.today < date:
        return (f"{prefix}-removed-before-sunset", True,
                f"the deprecated operation was removed before its sunset date {date}, so "
                "clients promised it until then fail")
    return (f"{prefix}-removed-after-sunset", False,
            f"the deprecated operation was removed after its sunset date {date}")


def deprecation(old: Mapping[str, Json], new: Mapping[str, Json], policy: Lifecycle
                ) -> list[Verdict]:
    """What an operation's deprecation, sunset and stability changes mean for its clients."""
    found = _stability(old, new)
    was, now = old.get("deprecated") is True, new.get("deprecated") is True
    if was and not now:
        found.append(("endpoint-reactivated", False,
                      "the operation is no longer deprecated, which changes no payload"))
    if not now:
        return found
    date, days = sunset(new), policy.days(stability(new) or "stable")
    if isinstance(date, str):
        found.append(("api-deprecated-sunset-parse", True,
                      f"the x-sunset {date!r} is not a date (RFC 3339, e.g. 2027-06-30)"))
    elif date is None and not was:
        found.append(("api-deprecated-sunset-missing", True,
                      f"the operation was deprecated without an x-sunset date, and the policy "
                      f"asks for one {days} days ahead") if days else
                     ("endpoint-deprecated", False,
                      "the operation was deprecated, which changes no payload"))
    elif date is not None and date != sunset(old):
        if (date - policy.today).days < days:
            found.append(("api-sunset-date-too-small", True,
                          f"the sunset date {date} is less than the policy's {days} days ahead"))
        elif not was:
            found.append(("endpoint-deprecated-with-sunset", False,
                          f"the operation was deprecated, to be removed on {date}"))
        elif isinstance(before := sunset(old), dt.date) and date < before:
            found.append(("api-sunset-date-changed-too-small", True,
                          f"the sunset date moved earlier, from {before} to {date}"))
        else:
            found.append(("api-sunset-date-changed", False, f"the sunset date is now {date}"))
    return found


def _stability(old: Mapping[str, Json], new: Mapping[str, Json]) -> list[Verdict]:
    before, after = stability(old), stability(new)
    if after is None:
        return [("api-invalid-stability-level", True,
                 f"x-stability-level {new.get('x-stability-level')!r} is not one of "
                 f"{', '.join(STABILITY)}")]
    if before is None or before == after:
        return []
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
