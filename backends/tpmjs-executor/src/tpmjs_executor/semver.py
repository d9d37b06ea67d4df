"""The part of node-semver npm uses to pick a version: parse versions and ranges, match them.

Ranges are desugared the way node-semver does it (https://github.com/npm/node-semver#ranges):
x-ranges, `~`, `^`, hyphen ranges and `||` become sets of primitive comparators, and a
prerelease version only satisfies a set that names a prerelease of the same major.minor.patch.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import total_ordering

__all__ = ["Range", "Version", "max_satisfying", "parse_range", "parse_version"]

_NUM = r"0|[1-9]\d*"
_PRE_ID = r"(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)"
_VERSION = re.compile(
    rf"^v?=?\s*({_NUM})\.({_NUM})\.({_NUM})"
    rf"(?:-({_PRE_ID}(?:\.{_PRE_ID})*))?(?:\+([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?$"
)
_XR = rf"(?:{_NUM}|[xX*])"
_PARTIAL = re.compile(
    rf"^v?=?\s*({_XR})(?:\.({_XR})(?:\.({_XR})"
    rf"(?:-({_PRE_ID}(?:\.{_PRE_ID})*))?(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?)?)?$"
)
_OPERATOR = re.compile(r"^(<=|>=|<|>|=|~>|~|\^)?\s*(.*)$")


@total_ordering
@dataclass(frozen=True)
class Version:
    """A semantic version; ordering follows semver precedence (build metadata ignored)."""

    major: int
    minor: int
    patch: int
    prerelease: tuple[int | str, ...] = ()

    def __str__(self) -> str:
        core = f"{self.major}.{self.minor}.{self.patch}"
        return core + ("-" + ".".join(map(str, self.prerelease)) if self.prerelease else "")

    def _key(self) -> tuple[int, int, int]:
        return (self.major, self.minor, self.patch)

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Version):
            return NotImplemented
        if self._key() != other._key():
            return self._key() < other._key()
        if not self.prerelease or not other.prerelease:
            return bool(self.prerelease) and not other.prerelease
        for mine, theirs in zip(self.prerelease, other.prerelease, strict=False):
            if mine == theirs:
                continue
            if isinstance(mine, int) != isinstance(theirs, int):
                return isinstance(mine, int)  # numeric identifiers sort first
            return mine < theirs  # type: ignore[operator]
        return len(self.prerelease) < len(other.prerelease)


def _prerelease(text: str | None) -> tuple[int | str, ...]:
    if not text:
        return ()
    return tuple(int(p) if p.isdigit() else p for p in text.split("."))


def parse_version(text: str) -> Version | None:
    """A version from `1.2.3`, `v1.2.3-beta.1+build`; None when it is not one."""
    match = _VERSION.match(text.strip())
    if not match:
        return None
    major, minor, patch, pre, _ = match.groups()
    return Version(int(major), int(minor), int(patch), _prerelease(pre))


@dataclass(frozen=True)
class _Comparator:
    op: str  # one of < <= > >= =
    version: Version

    def test(self, v: Version) -> bool:
        if self.op == "<":
            return v < self.version
        if self.op == "<=":
            return v <= self.version
        if self.op == ">":
            return v > self.version
        if self.op == ">=":
            return v >= self.version
        return v == self.version


_ANY = _Comparator(">=", Version(0, 0, 0))
_NONE = _Comparator("<", Version(0, 0, 0, (0,)))


@dataclass(frozen=True)
class Range:
    """A parsed range: alternatives (`||`) of comparator sets (all must hold)."""

    alternatives: tuple[tuple[_Comparator, ...], ...]

    def satisfied_by(self, version: Version) -> bool:
        """Whether `version` satisfies the range (prereleases only when opted in)."""
        return any(_test_set(cmps, version) for cmps in self.alternatives)


def _test_set(comparators: tuple[_Comparator, ...], version: Version) -> bool:
    if not all(c.test(version) for c in comparators):
        return False
    if not version.prerelease:
        return True
    return any(c.version.prerelease and c.version._key() == version._key() for c in comparators)


def _is_x(part: str | None) -> bool:
    return part is None or part in ("x", "X", "*")


def _partial(text: str) -> tuple[str | None, str | None, str | None, str | None] | None:
    match = _PARTIAL.match(text)
    if not match:
        return None
    major, minor, patch, pre = match.groups()
    # Once a part is a wildcard, everything after it is too (`1.x.3` means `1.x`).
    if _is_x(major):
        return None, None, None, None
    if _is_x(minor):
        return major, None, None, None
    if _is_x(patch):
        return major, minor, None, None
    return major, minor, patch, pre


def _v(major: int, minor: int, patch: int, pre: str | None = None) -> Version:
    return Version(major, minor, patch, _prerelease(pre))


def _desugar(op: str, text: str) -> list[_Comparator] | None:
    parts = _partial(text)
    if parts is None:
        return None
    smaj, smin, spat, pre = parts
    if smaj is None:
        return [_NONE] if op in ("<", ">") else [_ANY]
    major = int(smaj)
    minor = int(smin) if smin is not None else 0
    patch = int(spat) if spat is not None else 0
    exact = spat is not None
    if op in ("~", "~>"):
        upper = _v(major + 1, 0, 0, "0") if smin is None else _v(major, minor + 1, 0, "0")
        return [_Comparator(">=", _v(major, minor, patch, pre)), _Comparator("<", upper)]
    if op == "^":
        if major > 0 or smin is None:
            upper = _v(major + 1, 0, 0, "0")
        elif minor > 0 or spat is None:
            upper = _v(0, minor + 1, 0, "0")
        else:
            upper = _v(0, 0, patch + 1, "0")
        return [_Comparator(">=", _v(major, minor, patch, pre)), _Comparator("<", upper)]
    if exact:
        return [_Comparator(op or "=", _v(major, minor, patch, pre))]
    # A partial version with a primitive operator.
    bump = _v(major + 1, 0, 0) if smin is None else _v(major, minor + 1, 0)
    low = _v(major, minor, 0)
    if op == ">":
        return [_Comparator(">=", bump)]
    if op == "<=":
        return [_Comparator("<", _v(bump.major, bump.minor, 0, "0"))]
    if op == "<":
        return [_Comparator("<", _v(major, minor, 0, "0"))]
    if op == ">=":
        return [_Comparator(">=", low)]
    return [_Comparator(">=", low), _Comparator("<", _v(bump.major, bump.minor, 0, "0"))]


def _hyphen(low: str, high: str) -> list[_Comparator] | None:
    lo, hi = _partial(low), _partial(high)
    if lo is None or hi is None:
        return None
    out = [_ANY] if lo[0] is None else _desugar(">=", low)
    if hi[0] is None:
        return out
    if hi[2] is not None:
        upper = [_Comparator("<=", _v(int(hi[0]), int(hi[1] or 0), int(hi[2]), hi[3]))]
    else:
        upper = _desugar("<=", high) or []
    return (out or []) + upper


def parse_range(text: str) -> Range | None:
    """Parse an npm range (`^1.2`, `>=1 <3 || 4.x`, `1.0.0 - 2`); None when invalid."""
    alternatives = []
    for alt in text.split("||"):
        alt = alt.strip()
        hyphen = re.fullmatch(r"(\S+)\s+-\s+(\S+)", alt)
        if hyphen:
            comparators = _hyphen(hyphen[1], hyphen[2])
            if comparators is None:
                return None
            alternatives.append(tuple(comparators))
            continue
        # Operators may be followed by spaces (`>= 1.2`): glue them to their version first.
        tokens = re.sub(r"(<=|>=|<|>|=|~>|~|\^)\s+", r"\1", alt).split()
        comparators = []
        for token in tokens or ["*"]:
            match = _OPERATOR.match(token)
            assert match is not None  # the pattern accepts anything
            desugared = _desugar(match[1] or "", match[2])
            if desugared is None:
                return None
            comparators.extend(desugared)
        alternatives.append(tuple(comparators))
    return Range(tuple(alternatives))


def max_satisfying(versions: Iterable[str], spec: Range) -> str | None:
    """The highest of `versions` that satisfies `spec`, as written, or None."""
    best: tuple[Version, str] | None = None
    for text in versions:
        version = parse_version(text)
        if version is not None and spec.satisfied_by(version):
            if best is None or version > best[0]:
                best = (version, text)
    return best[1] if best else None
