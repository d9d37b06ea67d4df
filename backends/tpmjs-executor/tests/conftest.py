"""Shared fixtures: a loopback npm registry serving the fixture packages, one shared store."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tpmjs_executor.config import Settings
from tpmjs_executor.testing import NpmRegistry

FIXTURES = Path(__file__).parent / "fixtures" / "packages"


@pytest.fixture(scope="session")
def registry() -> Iterator[NpmRegistry]:
    """Every fixture package, published on 127.0.0.1."""
    with NpmRegistry() as reg:
        reg.publish_tree(FIXTURES)
        reg.set_dist_tag("@fixture/multi", "next", "2.1.0-beta.1")
        yield reg


@pytest.fixture(scope="session")
def store_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One package store for the whole session, so each fixture package installs once."""
    return tmp_path_factory.mktemp("store")


@pytest.fixture
def settings(registry: NpmRegistry, store_dir: Path) -> Settings:
    """Settings for the shared store and the loopback registry, fast timeouts, no pool."""
    return Settings(
        registry=registry.url,
        store_dir=store_dir,
        execution_timeout_ms=10_000,
        install_timeout_ms=30_000,
        pool_size=0,
    )
