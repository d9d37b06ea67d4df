"""Shared fixtures: a loopback npm registry serving the fixture packages, one shared store."""

from __future__ import annotations

import asyncio
import fcntl
import hashlib
import json
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
import tpmjs_executor
from tpmjs_executor.config import Settings
from tpmjs_executor.npm import Npm
from tpmjs_executor.npmspec import parse_package_spec
from tpmjs_executor.store import PackageStore
from tpmjs_support import NpmRegistry, package_dirs, run

FIXTURES = Path(__file__).parent / "fixtures" / "packages"
# What the built store depends on: the fixture packages, the executor's code and this file.
_STORE_INPUTS = [FIXTURES, Path(__file__), Path(tpmjs_executor.__file__).parent]


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


def _store_key() -> str:
    """A digest of everything the built store depends on, npm's and node's versions included."""
    digest = hashlib.sha256()
    for top in _STORE_INPUTS:
        files = [top] if top.is_file() else sorted(p for p in top.rglob("*") if p.is_file())
        for path in files:
            if "__pycache__" in path.parts:
                continue
            digest.update(str(path.relative_to(top.parent)).encode() + b"\0")
            digest.update(path.read_bytes() + b"\0")
    for tool in ("npm", "node"):
        version = subprocess.run(
            [tool, "--version"], capture_output=True, text=True, check=True
        ).stdout
        digest.update(f"{tool} {version.strip()}\0".encode())
    return digest.hexdigest()[:24]


# Where a cached entry had the registry's URL (npm's lock files record each tarball's URL).
_REGISTRY_TOKEN = "http://registry.invalid:0"
_LOCK_FILES = ("package-lock.json", ".package-lock.json")


def _copy_packages(source: Path, target: Path, registry: str, token: str) -> None:
    """Copy a store's entries, npm's lock files naming `token` where they named `registry`.
    shutil.copy, not copy2: the copies look freshly installed, as after a build."""
    shutil.copytree(source, target, copy_function=shutil.copy)
    for path in target.rglob("*"):
        if path.name in _LOCK_FILES and path.is_file():
            path.write_text(path.read_text().replace(registry, token))


def _build_store(root: Path, registry_url: str, cache: Path | None) -> None:
    """Install every fixture version into `root`, or copy the installed entries from `cache`
    (built by an earlier run from the same inputs) with this run's registry URL in npm's lock
    files: the same store as a fresh build against this run's registry."""
    registry = registry_url.rstrip("/")
    entry = cache / _store_key() if cache is not None else None
    if entry is not None and (entry / "ready").exists():
        try:
            _copy_packages(entry / "packages", root / "packages", _REGISTRY_TOKEN, registry)
            return
        except OSError:  # pruned meanwhile by a concurrent run with other inputs: build
            shutil.rmtree(root / "packages", ignore_errors=True)
    run(_install_all(root, registry_url))
    if entry is None:
        return
    staged = Path(tempfile.mkdtemp(dir=cache, prefix=".building-"))
    try:
        _copy_packages(root / "packages", staged / "packages", registry, _REGISTRY_TOKEN)
        (staged / "ready").touch()
        for stale in cache.iterdir():  # stores built from older inputs, or left unfinished
            if stale != staged:
                shutil.rmtree(stale, ignore_errors=True)
        staged.rename(entry)
    except OSError:
        shutil.rmtree(staged, ignore_errors=True)  # another worker cached it first


def _store_cache(config: pytest.Config) -> Path | None:
    """Where built stores are kept between runs: the pytest cache (`--cache-clear` drops them;
    `-p no:cacheprovider` or TPMJS_TEST_STORE_CACHE=0 builds every run)."""
    cache = getattr(config, "cache", None)
    if cache is None or os.environ.get("TPMJS_TEST_STORE_CACHE") == "0":
        return None
    return Path(cache.mkdir("tpmjs-store"))


@pytest.fixture(scope="session")
def store_dir(
    tmp_path_factory: pytest.TempPathFactory, registry: NpmRegistry, pytestconfig: pytest.Config
) -> Path:
    """One package store with every fixture version installed, shared by the xdist workers
    and, through the pytest cache, reused by later runs while its inputs are unchanged."""
    if os.environ.get("PYTEST_XDIST_WORKER"):
        root = tmp_path_factory.getbasetemp().parent / "tpmjs-shared-store"
    else:
        root = tmp_path_factory.mktemp("store")
    root.mkdir(parents=True, exist_ok=True)
    with open(root.parent / f"{root.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (root / "ready").exists():
            _build_store(root, registry.url, _store_cache(pytestconfig))
            (root / "ready").touch()
    return root


@pytest.fixture
def settings(registry: NpmRegistry, store_dir: Path) -> Settings:
    """Settings for the shared store and the loopback registry, fast timeouts, no pool."""
    return Settings(
        registry=registry.url,
        store_dir=store_dir,
        execution_timeout_s=10.0,
        install_timeout_s=30.0,
        pool_size=0,
    )
