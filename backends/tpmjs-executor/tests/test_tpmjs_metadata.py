"""A registry whose metadata has the wrong shape: the call ends in PACKAGE_NOT_FOUND with a clear
message, never INTERNAL_ERROR (metadata.pick and _candidates). Served by the loopback registry."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_tpmjs_hostile import package, publish
from tpmjs_executor.config import Settings
from tpmjs_support import NpmRegistry, execute

GOOD_VERSION = {"name": "bad", "version": "1.0.0", "dist": {"tarball": "http://127.0.0.1:9/x.tgz"}}

MALFORMED: dict[str, Any] = {
    "tags-a-string": {"name": "bad", "dist-tags": "latest", "versions": {"1.0.0": GOOD_VERSION}},
    "tag-a-list": {"name": "bad", "dist-tags": {"latest": ["1.0.0"]}, "versions": {"1.0.0": GOOD_VERSION}},
    "tag-an-object": {"name": "bad", "dist-tags": {"latest": {"v": 1}}, "versions": {"1.0.0": GOOD_VERSION}},
    "tags-a-list": {"name": "bad", "dist-tags": ["latest"], "versions": {"1.0.0": GOOD_VERSION}},
    "no-versions": {"name": "bad", "dist-tags": {"latest": "1.0.0"}},
    "versions-a-list": {"name": "bad", "dist-tags": {"latest": "1.0.0"}, "versions": ["1.0.0"]},
    "versions-null": {"name": "bad", "dist-tags": {"latest": "1.0.0"}, "versions": None},
    "version-a-string": {"name": "bad", "dist-tags": {"latest": "1.0.0"}, "versions": {"1.0.0": "x"}},
    "a-list": ["1.0.0"],
    "a-number": 7,
}


@pytest.fixture
def registry(tmp_path: Path) -> Iterator[NpmRegistry]:
    with NpmRegistry() as reg:
        yield reg


def _settings(registry: NpmRegistry, tmp_path: Path) -> Settings:
    return Settings(registry=registry.url, store_dir=tmp_path / "store", pool_size=0)


@pytest.mark.parametrize("doc", list(MALFORMED.values()), ids=list(MALFORMED))
@pytest.mark.parametrize("version", [None, "latest", "^1.0.0", "1.0.0"])
def test_malformed_metadata_is_package_not_found(
    registry: NpmRegistry, tmp_path: Path, doc: Any, version: str | None
) -> None:
    registry.set_raw_packument("bad", doc)
    kwargs = {} if version is None else {"version": version}
    result = execute(_settings(registry, tmp_path), "bad", "tool", **kwargs)
    assert result.error_code == "PACKAGE_NOT_FOUND", result.error_message
    assert "Traceback" not in (result.error_message or "")
    assert "bad" in (result.error_message or "")


@pytest.mark.parametrize("doc", list(MALFORMED.values()), ids=list(MALFORMED))
def test_a_dependency_with_malformed_metadata_is_package_not_found(
    registry: NpmRegistry, tmp_path: Path, doc: Any
) -> None:
    publish(registry, package(tmp_path / "src", {"name": "app", "version": "1.0.0",
                                                  "dependencies": {"bad": "latest"}}))
    registry.set_raw_packument("bad", doc)
    result = execute(_settings(registry, tmp_path), "app", "tool", version="1.0.0")
    assert result.error_code == "PACKAGE_NOT_FOUND", result.error_message
    assert "Traceback" not in (result.error_message or "")
