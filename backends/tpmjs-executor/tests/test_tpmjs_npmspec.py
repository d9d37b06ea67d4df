"""Package names and version specs: what a request may ask npm for, and how ranges match."""

from __future__ import annotations

import pytest
from tpmjs_executor.npmspec import (
    InvalidSpec,
    parse_dependency,
    parse_package_spec,
    validate_package_name,
)
from tpmjs_executor.semver import max_satisfying, parse_range, parse_version

VALID_NAMES = ["ai", "@tpmjs/hello", "left-pad", "a.b_c-d", "@a-b/c.d", "x" * 214, "@s/_private"]
INVALID_NAMES = [
    "",
    "Hello",
    "@TPMJS/hello",
    ".hidden",
    "_under",
    "-flag",
    "--registry=http://evil",
    "a b",
    "a/b",
    "@scope/",
    "@/x",
    "name@1.0.0",
    "x" * 215,
    "node_modules",
    "favicon.ico",
    "pkg;rm -rf /",
    "$(touch x)",
    "../../etc",
    " ai",
    "ai\n",
    "caf\u00e9",
    "tilde~",
    "bang!",
]


@pytest.mark.parametrize("name", VALID_NAMES)
def test_valid_names_pass(name: str) -> None:
    assert validate_package_name(name) == name


@pytest.mark.parametrize("name", INVALID_NAMES)
def test_invalid_names_are_refused(name: str) -> None:
    with pytest.raises(InvalidSpec):
        validate_package_name(name)


@pytest.mark.parametrize(
    ("version", "kind", "spec"),
    [
        (None, "tag", "latest"),
        ("", "tag", "latest"),
        ("latest", "tag", "latest"),
        ("next", "tag", "next"),
        ("beta-2", "tag", "beta-2"),
        ("1.2.3", "version", "1.2.3"),
        ("v1.2.3", "version", "1.2.3"),
        ("=1.2.3", "version", "1.2.3"),
        ("6.0.0-beta.124", "version", "6.0.0-beta.124"),
        ("1.0.0+build.5", "version", "1.0.0"),
        ("^1.2.0", "range", "^1.2.0"),
        ("~1.2", "range", "~1.2"),
        ("1.x", "range", "1.x"),
        ("*", "range", "*"),
        ("x", "range", "x"),
        (">=1.0.0 <2.0.0", "range", ">=1.0.0 <2.0.0"),
        ("1.0.0 - 2.0.0", "range", "1.0.0 - 2.0.0"),
        ("^1 || ^2", "range", "^1 || ^2"),
    ],
)
def test_version_specs_are_classified(version: str | None, kind: str, spec: str) -> None:
    parsed = parse_package_spec("@fixture/multi", version)
    assert (parsed.kind, parsed.spec) == (kind, spec)


@pytest.mark.parametrize(
    "version",
    [
        "http://evil.example/x.tgz",
        "file:../x",
        "git+https://github.com/a/b",
        "github:a/b",
        "npm:other@1",
        "../../x",
        "/abs/path",
        "1.2.3; rm -rf /",
        "$(id)",
        "1.2.3.4",
        "tag with space",
        "-rf",
    ],
)
def test_non_registry_versions_are_refused(version: str) -> None:
    with pytest.raises(InvalidSpec):
        parse_package_spec("@fixture/multi", version)


VERSIONS = [
    "0.0.3",
    "0.2.5",
    "1.0.0",
    "1.1.0",
    "1.2.3",
    "1.2.9",
    "2.0.0-rc.1",
    "2.0.0",
    "2.1.0-beta.1",
]


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        ("^1.0.0", "1.2.9"),
        ("~1.2.0", "1.2.9"),
        ("~1.1", "1.1.0"),
        ("1.x", "1.2.9"),
        ("1", "1.2.9"),
        ("1.2", "1.2.9"),
        ("*", "2.0.0"),
        ("", "2.0.0"),
        (">=1.0.0 <1.2.0", "1.1.0"),
        (">1.2", "2.0.0"),
        ("<1.2", "1.1.0"),
        ("<=1.2", "1.2.9"),
        ("<1", "0.2.5"),
        ("^0.2.0", "0.2.5"),
        ("^0.0.3", "0.0.3"),
        ("^0.0", "0.0.3"),
        ("1.0.0 - 1.2.3", "1.2.3"),
        ("1.0.0 - 1.2", "1.2.9"),
        ("^3 || ~1.1.0", "1.1.0"),
        ("2.0.0-rc.1", "2.0.0-rc.1"),
        (">=2.0.0-rc.0 <2.0.0", "2.0.0-rc.1"),
        ("^2.1.0-beta.0", "2.1.0-beta.1"),
        ("^2.1.0", None),
        ("^5", None),
        (">= 1.1.0 < 1.2", "1.1.0"),
    ],
)
def test_ranges_pick_like_node_semver(spec: str, expected: str | None) -> None:
    parsed = parse_range(spec)
    assert parsed is not None
    assert max_satisfying(VERSIONS, parsed) == expected


def test_prerelease_ordering() -> None:
    order = ["1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-alpha.beta", "1.0.0-beta", "1.0.0-beta.2",
             "1.0.0-beta.11", "1.0.0-rc.1", "1.0.0"]  # fmt: skip
    parsed = [parse_version(v) for v in order]
    assert all(p is not None for p in parsed)
    assert sorted(parsed) == parsed  # type: ignore[type-var]


@pytest.mark.parametrize("spec", ["^", ">=x.y", "1.2.3.4", "~>", "a.b.c", "1.02.3"])
def test_garbage_ranges_do_not_parse(spec: str) -> None:
    assert parse_range(spec) is None


@pytest.mark.parametrize(
    ("name", "spec", "expected"),
    [
        ("JSONStream", "^1.3.5", "JSONStream@^1.3.5"),  # an old name, still installable
        ("string-width-cjs", "npm:string-width@^4.2.0", "string-width@^4.2.0"),
        ("x", "npm:@a/b", "@a/b@*"),
        ("a", "", "a@*"),
        ("a", "latest", "a@latest"),
        ("a", ">=1.2.7 <1.3.0 || 2.x", "a@>=1.2.7 <1.3.0 || 2.x"),
    ],
)
def test_registry_dependencies_are_accepted(name: str, spec: str, expected: str) -> None:
    assert str(parse_dependency(name, spec)) == expected


@pytest.mark.parametrize(
    ("name", "spec"),
    [
        ("a", "git+file:///tmp/repo.git"),
        ("a", "git+https://example.invalid/x.git"),
        ("a", "file:../x.tgz"),
        ("a", "http://127.0.0.1:9/x.tgz"),
        ("a", "github:user/repo"),
        ("a", "user/repo"),
        ("a", "link:../x"),
        ("a", "workspace:*"),
        ("a", "npm:b@file:../x"),
        ("a", "npm:../x@1.0.0"),
        ("../x", "1.0.0"),
        ("../x", "npm:a@1.0.0"),
        ("@s/..", "1.0.0"),
        (".bin", "1.0.0"),
        ("a", 1),
    ],
)
def test_other_dependencies_are_refused(name: str, spec: object) -> None:
    with pytest.raises(InvalidSpec):
        parse_dependency(name, spec)
