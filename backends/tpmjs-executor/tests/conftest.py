"""Shared fixtures: a loopback npm registry serving the fixture packages, one shared store."""

from __future__ import annotations

import asyncio
import fcntl
import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from tpmjs_executor.config import Settings
from tpmjs_executor.npm import Npm
from tpmjs_executor.npmspec import parse_package_spec
from tpmjs_executor.store import PackageStore
from tpmjs_support import NpmRegistry, package_dirs, run

FIXTURES = Path(__file__).parent / "fixtures" / "packages"


@pytest.fixture(scope="session")
def registry() -> Iterator[NpmRegistry]:
    """Every fixture package, published on 127.0.0.1."""
    with NpmRegistry() as reg:
        reg.publish_tree(FIXTURES)
        reg.set_dist_tag("@fixture/multi", "next", "2.1.0-beta.1")
        yield reg


async def _install_all(root: Path, registry_url: str) -> None:
    store = PackageStore(
        root,
        Npm("npm", registry_url, root, timeout_s=60),
        max_bytes=1 << 40,
        resolve_ttl_s=60,
        install_concurrency=4,
    )
    await store.start()
    specs = []
    for folder in package_dirs(FIXTURES):
        manifest = json.loads((folder / "package.json").read_text())
        specs.append(parse_package_spec(manifest["name"], manifest["version"]))

    async def install(spec: object) -> None:
        async with store.lease(spec):  # type: ignore[arg-type]
            pass

    try:
        await asyncio.gather(*(install(spec) for spec in specs))
    finally:
        await store.close()


@pytest.fixture(scope="session")
def store_dir(tmp_path_factory: pytest.TempPathFactory, registry: NpmRegistry) -> Path:
    """One package store with every fixture version installed, shared by the xdist workers."""
    if os.environ.get("PYTEST_XDIST_WORKER"):
        root = tmp_path_factory.getbasetemp().parent / "tpmjs-shared-store"
    else:
        root = tmp_path_factory.mktemp("store")
    root.mkdir(parents=True, exist_ok=True)
    with open(root.parent / f"{root.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (root / "ready").exists():
            run(_install_all(root, registry.url))
            (root / "ready").touch()
    return root


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
