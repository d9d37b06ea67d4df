"""Validation of what a request may ask npm for: a registry package name and a version spec.

Names follow validate-npm-package-name's rules for new packages
(https://github.com/npm/validate-npm-package-name): at most 214 characters, lowercase,
URL-safe, optional `@scope/`, no leading `.` or `_` (and no leading `.` after the scope, so
`@x/..` is not a path). We also refuse a leading `-`, which npm's command line would read as an
option. Versions are an exact version, a range or a dist-tag; URLs, paths, git and alias specs
are refused, so a request can only name registry packages. A package's own dependencies may
also use `npm:<name>@<range>` aliases (they are registry packages too), nothing else.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from .exceptions import InvalidSpec
from .semver import Range, parse_range, parse_version

__all__ = [
    "InvalidSpec",
    "PackageSpec",
    "canonical_version",
    "parse_dependency",
    "parse_package_spec",
    "validate_package_name",
]

_MAX_NAME = 214
_MAX_VERSION = 256
_NAME_PART = r"[a-z0-9][a-z0-9._-]*"
_NAME = re.compile(rf"^(?:@(?P<scope>{_NAME_PART})/)?(?P<name>[a-z0-9_-][a-z0-9._-]*)$")
_TAG = re.compile(r"^[A-Za-z][A-Za-z0-9._-]*$")
_RANGE_CHARS = re.compile(r"^[0-9A-Za-z.+\-<>=^~*|\s]+$")
_BLOCKED = {"node_modules", "favicon.ico"}
# What npm still installs as a dependency (validate-npm-package-name's validForOldPackages):
# capitals and ~'!()* too, but still one path component, never starting with `.` or `_`.
_OLD_PART = r"[A-Za-z0-9~'!()*-][A-Za-z0-9._~'!()*-]*"
_OLD_NAME = re.compile(rf"^(?:@{_OLD_PART}/)?{_OLD_PART}$", re.ASCII)


def validate_package_name(name: str) -> str:
    """Return `name` when npm would accept it for a new package, else raise InvalidSpec."""
    if not isinstance(name, str) or not name:
        raise InvalidSpec("packageName must be a non-empty string")
    if len(name) > _MAX_NAME:
        raise InvalidSpec(f"packageName is longer than {_MAX_NAME} characters")
    if name != name.strip():
        raise InvalidSpec("packageName must not have leading or trailing spaces")
    if name.lower() != name:
        raise InvalidSpec(f"packageName {name!r} must be lowercase")
    if name[0] in "._-":
        raise InvalidSpec(f"packageName {name!r} must not start with '{name[0]}'")
    match = _NAME.match(name)
    if not match:
        raise InvalidSpec(
            f"packageName {name!r} is not a valid npm package name "
            "(lowercase letters, digits, '-', '.', '_', optionally '@scope/')"
        )
    if name in _BLOCKED:
        raise InvalidSpec(f"packageName {name!r} is not allowed by npm")
    return name


@dataclass(frozen=True)
class PackageSpec:
    """A validated `name@version` request: the version is exact, a range or a dist-tag."""

    name: str
    spec: str
    kind: Literal["version", "range", "tag"]
    range: Range | None = None

    def __str__(self) -> str:
        return f"{self.name}@{self.spec}"


def parse_package_spec(name: str, version: str | None, *, old_name: bool = False) -> PackageSpec:
    """Validate a name and version spec (None or empty means `latest`); raise InvalidSpec.
    `old_name` accepts the names of old packages too (capitals...), as dependencies may use."""
    if not old_name:
        validate_package_name(name)
    elif len(name) > _MAX_NAME or not _OLD_NAME.match(name) or name in _BLOCKED:
        raise InvalidSpec(f"{name!r} is not an npm package name")
    spec = (version or "").strip() or "latest"
    if len(spec) > _MAX_VERSION:
        raise InvalidSpec(f"version is longer than {_MAX_VERSION} characters")
    exact = parse_version(spec)
    if exact is not None:
        return PackageSpec(name, str(exact), "version")
    if _TAG.match(spec) and parse_range(spec) is None:
        return PackageSpec(name, spec, "tag")
    parsed = parse_range(spec) if _RANGE_CHARS.match(spec) else None
    if parsed is None:
        raise InvalidSpec(
            f"version {spec!r} is not a semver version, range or dist-tag "
            "(URLs, paths, git and alias specs are not accepted)"
        )
    return PackageSpec(name, spec, "range", parsed)


def canonical_version(version: object) -> str | None:
    """`version` when it is a semver version written the canonical way, else None."""
    if not isinstance(version, str):
        return None
    parsed = parse_version(version)
    return version if parsed is not None and str(parsed) == version else None


def parse_dependency(dep_name: str, spec: object) -> PackageSpec:
    """A dependency of a published package as a registry spec (the alias target for
    `npm:name@range`); raise InvalidSpec for git, URL, path, link, workspace... specs."""
    if not isinstance(spec, str):
        raise InvalidSpec(f"dependency {dep_name} has a spec that is not a string")
    if len(dep_name) > _MAX_NAME or not _OLD_NAME.match(dep_name) or dep_name in _BLOCKED:
        raise InvalidSpec(f"dependency name {dep_name[:100]!r} is not an npm package name")
    target, wanted = dep_name, spec.strip()
    if wanted.startswith("npm:"):
        rest = wanted[4:]
        at = rest.rfind("@")
        target, wanted = (rest[:at], rest[at + 1 :]) if at > 0 else (rest, "")
    try:
        parsed = parse_package_spec(target, wanted or "*", old_name=True)
    except InvalidSpec:
        raise InvalidSpec(
            f"dependency {dep_name}@{spec} is not a registry package "
            "(git, URL, file, link and workspace dependencies are refused)"
        ) from None
    return parsed
