"""The package store: resolution, single installs, failures, eviction, offline seeding."""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path

import pytest
from tpmjs_executor.config import Settings
from tpmjs_executor.npm import Npm
from tpmjs_executor.npmspec import parse_package_spec
from tpmjs_executor.store import Entry, PackageUnavailable
from tpmjs_support import NpmRegistry, build_tarball, execute, run
from tpmjs_support.stores import lease_label, make_store, unavailable

FIXTURES = Path(__file__).parent / "fixtures" / "packages"
DEAD_REGISTRY = "http://127.0.0.1:9/"


def test_concurrent_requests_install_once(registry: NpmRegistry, tmp_path: Path) -> None:
    tarball = "/@fixture/cjs-tools/-/cjs-tools-1.0.0.tgz"
    before = registry.requests.count(tarball)

    async def main() -> list[Path]:
        store = make_store(tmp_path, registry.url)
        await store.start()
        spec = parse_package_spec("@fixture/cjs-tools", "1.0.0")

        async def one() -> Path:
            async with store.lease(spec) as entry:
                return entry.path

        try:
            return list(await asyncio.gather(*(one() for _ in range(6))))
        finally:
            await store.close()

    paths = run(main())
    assert len(set(paths)) == 1
    assert registry.requests.count(tarball) - before == 1
    entry_dir = paths[0]
    assert entry_dir.name == "@fixture+cjs-tools@1.0.0"
    assert (entry_dir / ".tpmjs" / "load.mjs").is_file()
    assert json.loads((entry_dir / ".tpmjs" / "entry.json").read_text())["version"] == "1.0.0"


def test_tags_and_ranges_resolve_against_the_packument(
    registry: NpmRegistry, store_dir: Path
) -> None:
    async def main() -> list[str]:
        store = make_store(store_dir, registry.url)
        await store.start()
        try:
            return [
                await lease_label(store, "@fixture/multi", version)
                for version in (
                    None,
                    "latest",
                    "next",
                    "^1.0.0",
                    "1.0.0",
                    "~1.0",
                    "<2",
                    ">=2.0.0-beta",
                )
            ]
        finally:
            await store.close()

    assert run(main()) == [
        "@fixture/multi@2.0.0",
        "@fixture/multi@2.0.0",
        "@fixture/multi@2.1.0-beta.1",
        "@fixture/multi@1.1.0",
        "@fixture/multi@1.0.0",
        "@fixture/multi@1.0.0",
        "@fixture/multi@1.1.0",
        "@fixture/multi@2.0.0",
    ]


@pytest.mark.parametrize(
    ("name", "version", "fragment"),
    [
        ("@fixture/nope", "1.0.0", "not found in the registry"),
        ("@fixture/nope", "latest", "not found in the registry"),
        ("@fixture/multi", "9.9.9", "no such version"),
        ("@fixture/multi", "^9", "no such version"),
        ("@fixture/multi", "nosuchtag", "has no dist-tag"),
    ],
)
def test_unavailable_packages_give_short_messages(
    registry: NpmRegistry, store_dir: Path, name: str, version: str, fragment: str
) -> None:
    message = unavailable(store_dir, registry.url, name, version)
    assert fragment in message
    assert "npm error" not in message and len(message) < 200


def test_installed_versions_need_no_registry(registry: NpmRegistry, store_dir: Path) -> None:
    async def main() -> tuple[str, str]:
        warm = make_store(store_dir, registry.url)
        await warm.start()
        await lease_label(warm, "@fixture/multi", "1.0.0")
        await warm.close()
        # A new store over the same directory, with the registry unreachable.
        cold = make_store(store_dir, DEAD_REGISTRY)
        await cold.start()
        try:
            label = await lease_label(cold, "@fixture/multi", "1.0.0")
            try:
                await lease_label(cold, "@fixture/multi", "latest")
            except PackageUnavailable as exc:
                return label, str(exc)
        finally:
            await cold.close()
        raise AssertionError("latest resolved without a registry")

    label, message = run(main())
    assert label == "@fixture/multi@1.0.0"
    assert "unreachable" in message


def test_the_shared_store_is_complete_and_names_a_live_registry(store_dir: Path) -> None:
    # Built, or copied from an earlier run's cache (conftest.py): either way every fixture
    # version is installed and npm's lock files name a loopback registry, never the cache's token.
    names = {path.name for path in (store_dir / "packages").iterdir()}
    assert "@fixture+multi@1.0.0" in names and "@fixture+leftpad@1.0.0" in names
    locks = [p for p in (store_dir / "packages").rglob("*package-lock.json") if p.is_file()]
    assert locks
    for lock in locks:
        text = lock.read_text()
        assert "registry.invalid" not in text, lock
        for value in json.loads(text).get("packages", {}).values():
            if "resolved" in value:
                assert value["resolved"].startswith("http://127.0.0.1:"), (lock, value)


def test_registry_failure_during_install_is_package_not_found(tmp_path: Path) -> None:
    assert "unreachable" in unavailable(tmp_path, DEAD_REGISTRY, "@fixture/multi", "1.0.0")


def test_install_timeout(tmp_path: Path) -> None:
    with NpmRegistry() as slow:
        slow.publish_dir(FIXTURES / "multi-1.0.0")
        slow.set_tarball_delay(5.0)
        message = unavailable(tmp_path, slow.url, "@fixture/multi", "1.0.0", timeout_s=1.0)
    assert "took longer than 1s" in message
    assert not list((tmp_path / "packages").iterdir())


def test_install_scripts_never_run(settings: Settings) -> None:
    result = execute(settings, "@fixture/install-script", "scriptsTool", version="1.0.0")
    assert result.success, result
    assert result.output == {
        "PREINSTALL_RAN": False,
        "INSTALL_RAN": False,
        "POSTINSTALL_RAN": False,
    }
    entry = settings.store_dir / "packages" / "@fixture+install-script@1.0.0"
    assert not list(entry.rglob("*_RAN"))


def test_npm_ignores_the_hosts_configuration(
    registry: NpmRegistry, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "home"
    home.mkdir()
    (home / ".npmrc").write_text(f"registry={DEAD_REGISTRY}\n")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("npm_config_registry", DEAD_REGISTRY)
    monkeypatch.setenv("NPM_CONFIG_USERCONFIG", str(home / ".npmrc"))
    monkeypatch.setenv("EXECUTOR_API_KEY", "not-for-npm")
    npm = Npm("npm", registry.url, tmp_path / "state", timeout_s=30)
    env = npm.env()
    assert env["npm_config_registry"] == registry.url
    assert env["npm_config_userconfig"].startswith(str(tmp_path / "state"))
    assert "EXECUTOR_API_KEY" not in env and "NPM_CONFIG_USERCONFIG" not in env
    target = tmp_path / "target"
    target.mkdir()
    (target / "package.json").write_text("{}")
    run(npm.install(target, ["@fixture/leftpad@1.0.0"]))
    assert (target / "node_modules" / "@fixture" / "leftpad").is_dir()


@pytest.mark.slow
def test_lru_eviction_past_the_budget(registry: NpmRegistry, tmp_path: Path) -> None:
    evicted: list[str] = []

    async def on_evict(path: Path) -> None:
        evicted.append(path.name)

    async def main() -> list[str]:
        # Each of the three entries takes about 1.4 kB: two fit in the budget, three do not.
        store = make_store(
            tmp_path, registry.url, max_bytes=3600, protect_recent_s=0.0, on_evict=on_evict
        )
        await store.start()
        try:
            await lease_label(store, "@fixture/leftpad", "1.0.0")
            spec = parse_package_spec("@fixture/leftpad", "1.1.0")
            async with store.lease(spec):
                # In use: installing another version must not evict this one.
                await lease_label(store, "@fixture/multi", "1.0.0")
                held = [e.label for e in store.entries]
            assert "@fixture/leftpad@1.1.0" in held
            return [e.label for e in store.entries]
        finally:
            await store.close()

    remaining = run(main())
    assert evicted == ["@fixture+leftpad@1.0.0"]
    assert remaining == ["@fixture/leftpad@1.1.0", "@fixture/multi@1.0.0"]
    assert not (tmp_path / "packages" / "@fixture+leftpad@1.0.0").exists()


def test_entries_survive_a_restart(registry: NpmRegistry, store_dir: Path) -> None:
    async def main() -> list[Entry]:
        first = make_store(store_dir, registry.url)
        await first.start()
        await lease_label(first, "@fixture/leftpad", "1.0.0")
        await first.close()
        second = make_store(store_dir, registry.url)
        await second.start()
        await second.close()
        return second.entries

    labels = [e.label for e in run(main())]
    assert "@fixture/leftpad@1.0.0" in labels


@pytest.mark.slow
def test_seeding_from_tarballs_needs_no_registry(tmp_path: Path, registry: NpmRegistry) -> None:
    seed = tmp_path / "seed"
    seed.mkdir()
    for folder in ("tpmjs-hello-0.0.2", "ai-6.0.0-beta.124"):
        (seed / f"{folder}.tgz").write_bytes(build_tarball(FIXTURES / folder))
    (seed / "junk.tgz").write_bytes(b"not a tarball")
    settings = Settings(
        registry=DEAD_REGISTRY, store_dir=tmp_path / "store", seed_dir=seed, pool_size=0
    )
    before = len(registry.requests)
    result = execute(
        settings,
        "@tpmjs/hello",
        "helloWorldTool",
        version="0.0.2",
        params={"includeTimestamp": False},
    )
    assert result.success, result
    assert result.output == {"message": "Hello, World!"}
    assert len(registry.requests) == before
    assert os.path.isdir(
        tmp_path / "store" / "packages" / "@tpmjs+hello@0.0.2" / "node_modules" / "ai"
    )
