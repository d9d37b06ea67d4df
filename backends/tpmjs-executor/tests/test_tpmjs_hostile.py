"""Hostile packages: a tarball that lies about its name or version, dependencies from outside
the registry, packages too large for the store. Served by the loopback registry, installed by
real npm, run by real Node."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from tpmjs_executor.config import Settings
from tpmjs_support import NpmRegistry, build_tarball, execute, run
from tpmjs_support.stores import lease_label, make_store, unavailable

TOOL = "export const tool = {{ description: 't', execute: async () => ({{ who: {who!r} }}) }};\n"


def package(
    root: Path, manifest: dict[str, Any], files: dict[str, str | bytes] | None = None
) -> Path:
    """A package folder under `root` with `manifest` and an index.mjs (plus `files`)."""
    folder = root / f"src-{len(list(root.glob('src-*')))}"
    folder.mkdir(parents=True)
    (folder / "package.json").write_text(json.dumps({"main": "index.mjs", **manifest}))
    (folder / "index.mjs").write_text(TOOL.format(who=manifest["name"]))
    for name, data in (files or {}).items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data if isinstance(data, bytes) else data.encode())
    return folder


def publish(registry: NpmRegistry, folder: Path, **packument_fields: Any) -> None:
    """Publish `folder`'s tarball under the manifest's name and version, or under the fields
    given (the registry's metadata then says something else than the tarball)."""
    manifest = json.loads((folder / "package.json").read_text())
    registry.publish({**manifest, **packument_fields}, build_tarball(folder))


@pytest.fixture
def hostile(tmp_path: Path) -> Iterator[NpmRegistry]:
    """A registry of our own for the test, with a genuine `@x/victim@2.0.0`."""
    with NpmRegistry() as reg:
        publish(reg, package(tmp_path / "src", {"name": "@x/victim", "version": "2.0.0"}))
        yield reg


@pytest.fixture
def trap() -> Iterator[tuple[str, list[str]]]:
    """An HTTP server on loopback that records every request (nothing may reach it)."""
    seen: list[str] = []

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            seen.append(self.path)
            self.send_response(404)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}", seen
    server.shutdown()
    server.server_close()


def tree(root: Path) -> set[str]:
    """Every path under `root`, relative."""
    return {p.relative_to(root).as_posix() for p in root.rglob("*")}


@pytest.mark.slow
def test_a_tarball_cannot_rename_itself_over_another_package(
    hostile: NpmRegistry, tmp_path: Path
) -> None:
    store = tmp_path / "store"
    lie = package(tmp_path / "src", {"name": "@x/evil", "version": "1.0.0/../@x+victim@2.0.0"})
    publish(hostile, lie, version="1.0.0")
    message = unavailable(store, hostile.url, "@x/evil", "1.0.0")
    assert "refused" in message and "@x/evil@1.0.0" in message
    assert not list((store / "packages").iterdir())
    # After a restart, the victim is the victim: installed from its own tarball, its own code.
    settings = Settings(registry=hostile.url, store_dir=store, pool_size=0)
    result = execute(settings, "@x/victim", "tool", version="2.0.0")
    assert result.success, result
    assert result.output == {"who": "@x/victim"}


@pytest.mark.slow
def test_a_planted_entry_is_never_reused(hostile: NpmRegistry, tmp_path: Path) -> None:
    # What an older executor left: the evil package's install renamed over the victim's name.
    store = tmp_path / "store"
    planted = store / "packages" / "@x+victim@2.0.0"
    module = planted / "node_modules" / "@x" / "victim"
    module.mkdir(parents=True)
    (module / "package.json").write_text(
        json.dumps({"name": "@x/evil", "version": "1.0.0/../@x+victim@2.0.0", "main": "i.mjs"})
    )
    (module / "i.mjs").write_text(TOOL.format(who="planted"))
    (planted / ".tpmjs").mkdir()
    meta = {"name": "@x/evil", "version": "1.0.0/../@x+victim@2.0.0", "size": 1}
    (planted / ".tpmjs" / "entry.json").write_text(json.dumps(meta))
    settings = Settings(registry=hostile.url, store_dir=store, pool_size=0)
    result = execute(settings, "@x/victim", "tool", version="2.0.0")
    assert result.output == {"who": "@x/victim"}, result


@pytest.mark.slow
@pytest.mark.parametrize("depth", [3, 12])
def test_dotdot_versions_create_nothing_outside_the_store(
    hostile: NpmRegistry, tmp_path: Path, depth: int
) -> None:
    store = tmp_path / "deep" / "store"
    store.mkdir(parents=True)
    version = "1.0.0/" + "../" * depth + "escaped@1.0.0"
    publish(
        hostile, package(tmp_path / "src", {"name": "evil", "version": version}), version="1.0.0"
    )
    # A registry that lists the hostile string as a version, tagged latest, is no better.
    folder = package(tmp_path / "src", {"name": "evil2", "version": version})
    publish(hostile, folder)
    before = tree(tmp_path)
    assert "refused" in unavailable(store, hostile.url, "evil", "1.0.0")
    assert "no dist-tag" in unavailable(store, hostile.url, "evil2", "latest")
    created = {p for p in tree(tmp_path) - before if not p.startswith("deep/store/")}
    assert created == set()
    # Twelve levels up from the store's packages is the root directory.
    assert not Path("/escaped@1.0.0").exists()


@pytest.mark.parametrize(
    "case",
    [
        ("dependencies", "git+file://{tmp}/repo.git"),
        ("dependencies", "file:{tmp}/secret.tgz"),
        ("dependencies", "file:../../secret"),
        ("dependencies", "{trap}/x.tgz"),
        ("dependencies", "github:someone/repo"),
        ("dependencies", "someone/repo"),
        ("dependencies", "link:../x"),
        ("dependencies", "workspace:*"),
        ("dependencies", "npm:@x/victim@{trap}/x.tgz"),
        ("optionalDependencies", "{trap}/x.tgz"),
        ("peerDependencies", "git+https://127.0.0.1:9/x.git"),
    ],
)
@pytest.mark.parametrize("transitive", [False, True], ids=["direct", "transitive"])
def test_dependencies_from_outside_the_registry_are_refused_before_any_fetch(
    hostile: NpmRegistry,
    trap: tuple[str, list[str]],
    tmp_path: Path,
    case: tuple[str, str],
    transitive: bool,
) -> None:
    field, spec = case
    url, seen = trap
    bad = {field: {"leak": spec.format(tmp=tmp_path, trap=url)}}
    src = tmp_path / "src"
    if transitive:
        publish(hostile, package(src, {"name": "@x/mid", "version": "1.0.0", **bad}))
        publish(hostile, package(src, {"name": "@x/mid", "version": "1.1.0"}))
        bad = {"dependencies": {"@x/mid": "^1.0.0", "@x/victim": "2"}}
    publish(hostile, package(src, {"name": "@x/app", "version": "1.0.0", **bad}))
    message = unavailable(tmp_path / "store", hostile.url, "@x/app", "1.0.0")
    assert "is not a registry package" in message, message
    assert ("through @x/app@1.0.0 > @x/mid@1.0.0" in message) is transitive
    assert [r for r in hostile.requests if "/-/" in r] == []  # not one tarball fetched
    assert seen == []


@pytest.mark.slow
def test_outside_dependencies_refused_with_the_network_off(
    hostile: NpmRegistry, trap: tuple[str, list[str]], tmp_path: Path
) -> None:
    url, seen = trap
    deps = {"a": f"git+file://{tmp_path}/repo.git", "b": f"{url}/b.tgz"}
    publish(
        hostile,
        package(tmp_path / "src", {"name": "app", "version": "1.0.0", "dependencies": deps}),
    )
    settings = Settings(
        registry=hostile.url, store_dir=tmp_path / "store", pool_size=0, network=False
    )
    result = execute(settings, "app", "tool", version="1.0.0")
    assert result.error_code == "PACKAGE_NOT_FOUND"
    assert "is not a registry package" in (result.error_message or "")
    assert seen == []


@pytest.mark.parametrize(
    ("fields", "fragment"),
    [
        ({"_hasShrinkwrap": True}, "npm-shrinkwrap.json"),
        ({"bundleDependencies": ["x"]}, "bundles dependencies"),
        ({"dist": {"tarball": "http://127.0.0.1:9/app-1.0.0.tgz"}}, "not served by the registry"),
        ({"dependencies": {"../../x": "1.0.0"}}, "is not an npm package name"),
    ],
)
def test_metadata_that_would_fetch_elsewhere_is_refused(
    tmp_path: Path, fields: dict[str, Any], fragment: str
) -> None:
    with NpmRegistry() as reg:
        folder = package(tmp_path / "src", {"name": "app", "version": "1.0.0"})
        publish(reg, folder)
        doc = reg.packument("app")
        assert doc is not None
        original = reg.packument

        def patched(name: str) -> dict[str, Any] | None:
            found = original(name)
            if found is not None and name == "app":
                found["versions"]["1.0.0"].update(fields)
            return found

        reg.packument = patched  # type: ignore[method-assign]
        message = unavailable(tmp_path / "store", reg.url, "app", "1.0.0")
        assert fragment in message
        assert [r for r in reg.requests if "/-/" in r] == []


@pytest.mark.slow
def test_a_package_larger_than_the_budget_is_refused_and_evicts_nobody(
    hostile: NpmRegistry, tmp_path: Path
) -> None:
    big = {"blob.bin": bytes(200_000)}  # compresses to almost nothing, unpacks to 200 kB
    publish(hostile, package(tmp_path / "src", {"name": "big", "version": "1.0.0"}, big))

    async def main() -> tuple[list[str], str]:
        store = make_store(tmp_path / "store", hostile.url, max_bytes=100_000, protect_recent_s=0)
        await store.start()
        try:
            await lease_label(store, "@x/victim", "2.0.0")
            try:
                await lease_label(store, "big", "1.0.0")
            except Exception as exc:  # PackageUnavailable
                return [e.label for e in store.entries], str(exc)
            raise AssertionError("big was installed")
        finally:
            await store.close()

    kept, message = run(main())
    assert kept == ["@x/victim@2.0.0"]
    assert "refused" in message and "big@1.0.0" in message
    assert [p.name for p in (tmp_path / "store" / "packages").iterdir()] == ["@x+victim@2.0.0"]
    assert list((tmp_path / "store" / "staging").glob("*/install-*")) == []


@pytest.mark.slow
@pytest.mark.parametrize(
    ("files", "limits", "fragment"),
    [
        ({f"f/{i}.js": "x" for i in range(300)}, {"install_max_files": 100}, "files"),
        ({"blob.bin": bytes(4 * 1024 * 1024)}, {"install_max_bytes": 1024 * 1024}, "bytes"),
    ],
    ids=["files", "bytes"],
)
def test_installs_are_bounded_in_files_and_unpacked_bytes(
    hostile: NpmRegistry,
    tmp_path: Path,
    files: dict[str, str | bytes],
    limits: dict[str, int],
    fragment: str,
) -> None:
    publish(hostile, package(tmp_path / "src", {"name": "bomb", "version": "1.0.0"}, files))
    message = unavailable(tmp_path / "store", hostile.url, "bomb", "1.0.0", **limits)
    assert "bomb@1.0.0 refused" in message and fragment in message, message
    assert not list((tmp_path / "store" / "packages").iterdir())
    assert list((tmp_path / "store" / "staging").glob("*/install-*")) == []
