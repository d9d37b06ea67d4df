"""The package store: each (name, resolved version) installed once, into a directory of its own.

    <store>/packages/<name with / as +>@<version>/   package.json, node_modules/, .tpmjs/
    <store>/staging/p<pid>/                           installs in progress (renamed when done)

Dist-tags and ranges are resolved against the registry's packument, cached for a short TTL;
exact versions already installed need no network at all. Concurrent requests for the same
version wait for one install. Past the disk budget, the least recently used entries that no
call is using are removed. A folder of tarballs can seed the store offline at start-up.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import io
import json
import logging
import os
import shutil
import tarfile
import tempfile
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx

from .npm import InstallError, Npm
from .npmspec import PackageSpec
from .runner import LOADER
from .semver import max_satisfying, parse_range, parse_version

__all__ = ["Entry", "PackageStore", "PackageUnavailable"]

log = logging.getLogger("tpmjs_executor.store")

_LOADER_SOURCE = (
    "// Written by tpmjs-executor: imports resolve from this entry's node_modules.\n"
    "export default (specifier) => import(specifier);\n"
)


class PackageUnavailable(Exception):
    """The package or version cannot be had (unknown, registry down, install failed)."""


@dataclass
class Entry:
    """One installed package version."""

    name: str
    version: str
    path: Path
    size: int
    last_used: float
    refs: int = 0

    @property
    def label(self) -> str:
        """`name@version`."""
        return f"{self.name}@{self.version}"


def _entry_dirname(name: str, version: str) -> str:
    return f"{name.replace('/', '+')}@{version}"


def _clear_stale_staging(root: Path) -> None:
    """Remove the staging dirs of processes that are gone (and our own, from a past life)."""
    for path in root.glob("staging/p*"):
        try:
            pid = int(path.name[1:])
            if pid != os.getpid():
                os.kill(pid, 0)
                continue
        except ValueError:
            pass
        except ProcessLookupError:
            pass
        except PermissionError:
            continue
        shutil.rmtree(path, ignore_errors=True)


def _du(path: Path) -> int:
    total = 0
    for root, _, files in os.walk(path):
        for name in files:
            with contextlib.suppress(OSError):
                total += os.lstat(os.path.join(root, name)).st_size
    return total


class PackageStore:
    """Resolves, installs, caches and evicts package versions."""

    def __init__(
        self,
        root: Path,
        npm: Npm,
        *,
        max_bytes: int,
        resolve_ttl_s: float,
        install_concurrency: int,
        on_evict: Callable[[Path], Awaitable[None]] | None = None,
        protect_recent_s: float = 10.0,
    ) -> None:
        self.root = root
        self._npm = npm
        self._max_bytes = max_bytes
        self._ttl = resolve_ttl_s
        self._slots = asyncio.Semaphore(install_concurrency)
        self._on_evict = on_evict
        # An entry used this recently is not evicted: its caller may not hold its lease yet.
        self._protect_recent_s = protect_recent_s
        self._packages = root / "packages"
        # Per process, so another executor (or a test) sharing the store never disturbs it.
        self._staging = root / "staging" / f"p{os.getpid()}"
        self._entries: dict[tuple[str, str], Entry] = {}
        self._installing: dict[tuple[str, str], asyncio.Task[Entry]] = {}
        self._resolved: dict[tuple[str, str], tuple[str, float]] = {}
        self._packuments: dict[str, asyncio.Task[dict[str, Any]]] = {}
        self._background: set[asyncio.Task[Any]] = set()
        self._http: httpx.AsyncClient | None = None

    @property
    def entries(self) -> list[Entry]:
        """Installed entries, least recently used first."""
        return sorted(self._entries.values(), key=lambda e: e.last_used)

    @property
    def total_bytes(self) -> int:
        """Disk used by installed entries."""
        return sum(e.size for e in self._entries.values())

    async def start(self, seed_dir: Path | None = None) -> None:
        """Load the entries already on disk, and start seeding from `seed_dir` if given."""
        self._packages.mkdir(parents=True, exist_ok=True)
        await asyncio.to_thread(_clear_stale_staging, self._staging.parent)
        self._staging.mkdir(parents=True, exist_ok=True)
        for entry in await asyncio.to_thread(self._scan):
            self._entries[(entry.name, entry.version)] = entry
        self._http = httpx.AsyncClient(timeout=httpx.Timeout(10.0, connect=5.0))
        if seed_dir is not None:
            await self._seed(seed_dir)

    async def close(self) -> None:
        """Cancel installs in progress and close the registry client."""
        tasks = [*self._installing.values(), *self._packuments.values(), *self._background]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        if self._http is not None:
            await self._http.aclose()

    def _scan(self) -> list[Entry]:
        found = []
        for path in sorted(self._packages.iterdir()):
            meta = path / ".tpmjs" / "entry.json"
            try:
                info = json.loads(meta.read_text())
                found.append(
                    Entry(
                        info["name"], info["version"], path, int(info["size"]), meta.stat().st_mtime
                    )
                )
            except (OSError, ValueError, KeyError):
                shutil.rmtree(path, ignore_errors=True)
        return found

    @contextlib.asynccontextmanager
    async def lease(self, spec: PackageSpec) -> AsyncIterator[Entry]:
        """Resolve and install `spec` if needed; the entry is not evicted while held."""
        version = await self.resolve(spec)
        key = (spec.name, version)
        entry = self._entries.get(key)
        if entry is None:
            task = self._installing.get(key)
            if task is None:
                task = asyncio.create_task(self._install(spec.name, version))
                self._installing[key] = task
                task.add_done_callback(functools.partial(self._installed, key))
            entry = await asyncio.shield(task)
        entry.refs += 1
        entry.last_used = time.time()
        try:
            yield entry
        finally:
            entry.refs -= 1

    async def resolve(self, spec: PackageSpec) -> str:
        """The exact version `spec` stands for (cached for the TTL, stale if the registry fails)."""
        if spec.kind == "version":
            return spec.spec
        key = (spec.name, spec.spec)
        cached = self._resolved.get(key)
        if cached is not None and cached[1] > time.monotonic():
            return cached[0]
        try:
            packument = await self._packument(spec.name)
        except PackageUnavailable:
            if cached is not None:
                return cached[0]
            raise
        version = _pick(packument, spec)
        self._resolved[key] = (version, time.monotonic() + self._ttl)
        return version

    async def _packument(self, name: str) -> dict[str, Any]:
        task = self._packuments.get(name)
        if task is None:
            task = asyncio.create_task(self._fetch_packument(name))
            self._packuments[name] = task
            task.add_done_callback(functools.partial(_forget, self._packuments, name))
        return await asyncio.shield(task)

    async def _fetch_packument(self, name: str) -> dict[str, Any]:
        assert self._http is not None, "PackageStore.start() was not awaited"
        url = self._npm.registry + quote(name, safe="@")
        headers = {"Accept": "application/vnd.npm.install-v1+json; q=1.0, application/json; q=0.8"}
        try:
            response = await self._http.get(url, headers=headers)
        except httpx.HTTPError as exc:
            raise PackageUnavailable(
                f"npm package {name} could not be resolved: registry {self._npm.registry} "
                f"unreachable ({type(exc).__name__})"
            ) from None
        if response.status_code == 404:
            raise PackageUnavailable(f"npm package {name} not found in the registry")
        if response.status_code != 200:
            raise PackageUnavailable(
                f"npm package {name} could not be resolved: registry answered {response.status_code}"
            )
        try:
            doc = response.json()
        except ValueError:
            raise PackageUnavailable(
                f"npm package {name}: the registry sent invalid JSON"
            ) from None
        if not isinstance(doc, dict) or not isinstance(doc.get("versions"), dict):
            raise PackageUnavailable(f"npm package {name} has no versions in the registry")
        return doc

    async def _install(self, name: str, version: str, tarballs: list[Path] | None = None) -> Entry:
        async with self._slots:
            staging = Path(tempfile.mkdtemp(prefix="install-", dir=self._staging))
            try:
                entry = await self._install_into(staging, name, version, tarballs)
            except BaseException:
                await asyncio.to_thread(shutil.rmtree, staging, True)
                raise
        await self._evict(keep=entry)
        return entry

    async def _install_into(
        self, staging: Path, name: str, version: str, tarballs: list[Path] | None
    ) -> Entry:
        manifest = {"name": "tpmjs-store-entry", "version": "0.0.0", "private": True}
        (staging / "package.json").write_text(json.dumps(manifest))
        try:
            if tarballs is None:
                await self._npm.install(staging, [f"{name}@{version}"])
            else:
                await self._npm.install(staging, [str(t) for t in tarballs], offline=True)
        except InstallError as exc:
            raise PackageUnavailable(str(exc)) from None
        installed = staging / "node_modules" / name / "package.json"
        try:
            actual = json.loads(installed.read_text())["version"]
        except (OSError, ValueError, KeyError):
            raise PackageUnavailable(f"npm package {name}@{version} installed nothing") from None
        (staging / LOADER).parent.mkdir(exist_ok=True)
        (staging / LOADER).write_text(_LOADER_SOURCE)
        size = await asyncio.to_thread(_du, staging)
        meta = {"name": name, "version": actual, "size": size, "installedAt": time.time()}
        (staging / ".tpmjs" / "entry.json").write_text(json.dumps(meta))
        final = self._packages / _entry_dirname(name, actual)
        try:
            os.rename(staging, final)
        except OSError:
            # Already there (renames are atomic, so it is complete): keep the existing copy.
            if not (final / ".tpmjs" / "entry.json").is_file():
                raise
            await asyncio.to_thread(shutil.rmtree, staging, True)
        entry = Entry(name, actual, final, size, time.time())
        self._entries[(name, actual)] = entry
        return entry

    async def _evict(self, keep: Entry) -> None:
        now = time.time()
        for entry in self.entries:
            if self.total_bytes <= self._max_bytes:
                break
            if entry is keep or entry.refs > 0 or now - entry.last_used < self._protect_recent_s:
                continue
            await self.remove(entry)

    async def remove(self, entry: Entry) -> None:
        """Delete an unused entry from disk (its idle tool processes are stopped first)."""
        if entry.refs > 0:
            raise RuntimeError(f"{entry.label} is in use")
        self._entries.pop((entry.name, entry.version), None)
        if self._on_evict is not None:
            await self._on_evict(entry.path)
        trash = self._staging / f"evicted-{uuid.uuid4().hex}"
        with contextlib.suppress(OSError):
            os.rename(entry.path, trash)
            await asyncio.to_thread(shutil.rmtree, trash, True)
        log.info("evicted %s (%d bytes)", entry.label, entry.size)

    async def _seed(self, seed_dir: Path) -> None:
        manifests = await asyncio.to_thread(_read_manifests, seed_dir)
        by_name: dict[str, list[tuple[str, Path]]] = {}
        for path, manifest in manifests:
            by_name.setdefault(manifest["name"], []).append((manifest["version"], path))
        for path, manifest in manifests:
            key = (manifest["name"], manifest["version"])
            if key in self._entries or key in self._installing:
                continue
            tarballs = [path, *_closure(manifest, by_name, manifests)]
            task = asyncio.create_task(self._install(key[0], key[1], tarballs))
            self._installing[key] = task
            task.add_done_callback(functools.partial(self._installed, key))

    def _installed(self, key: tuple[str, str], task: asyncio.Task[Entry]) -> None:
        error = _forget(self._installing, key, task)
        if error is not None:
            log.info("installing %s@%s failed: %s", *key, error)


def _forget(tasks: dict[Any, Any], key: Any, task: asyncio.Task[Any]) -> BaseException | None:
    """Drop a finished single-flight task; its exception is retrieved (and returned) even
    when every waiter has gone, so asyncio never reports it as lost."""
    tasks.pop(key, None)
    return None if task.cancelled() else task.exception()


def _pick(packument: dict[str, Any], spec: PackageSpec) -> str:
    versions = packument.get("versions") or {}
    tags = packument.get("dist-tags") or {}
    if spec.kind == "tag":
        version = tags.get(spec.spec)
        if not isinstance(version, str) or version not in versions:
            raise PackageUnavailable(f"npm package {spec.name} has no dist-tag {spec.spec!r}")
        return version
    assert spec.range is not None
    # As npm-pick-manifest: the `latest` tag wins when it satisfies the range.
    latest = tags.get("latest")
    parsed_latest = parse_version(latest) if isinstance(latest, str) else None
    if latest in versions and parsed_latest is not None and spec.range.satisfied_by(parsed_latest):
        return str(latest)
    best = max_satisfying(versions, spec.range)
    if best is None:
        raise PackageUnavailable(f"npm package {spec} could not be installed: no such version")
    return best


def _read_manifests(seed_dir: Path) -> list[tuple[Path, dict[str, Any]]]:
    out = []
    for path in sorted(seed_dir.glob("*.tgz")):
        try:
            with tarfile.open(path, "r:gz") as tar:
                member = tar.extractfile("package/package.json")
                if member is None:
                    continue
                manifest = json.load(io.TextIOWrapper(member, encoding="utf-8"))
            if isinstance(manifest.get("name"), str) and isinstance(manifest.get("version"), str):
                out.append((path.resolve(), manifest))
        except (OSError, KeyError, ValueError, tarfile.TarError) as exc:
            log.warning("seed tarball %s skipped: %s", path, exc)
    return out


def _closure(
    root: dict[str, Any],
    by_name: dict[str, list[tuple[str, Path]]],
    manifests: list[tuple[Path, dict[str, Any]]],
) -> list[Path]:
    """Seed tarballs that satisfy `root`'s dependencies, transitively."""
    manifest_of = {path: manifest for path, manifest in manifests}
    chosen: dict[str, Path] = {}
    todo = [root]
    while todo:
        deps = todo.pop().get("dependencies") or {}
        for dep, wanted in sorted(deps.items()):
            if dep in chosen or dep == root["name"] or dep not in by_name:
                continue
            candidates = dict(by_name[dep])
            wanted_range = parse_range(str(wanted))
            best = max_satisfying(candidates, wanted_range) if wanted_range else None
            if best is None:
                continue
            chosen[dep] = candidates[best]
            todo.append(manifest_of[candidates[best]])
    return [chosen[name] for name in sorted(chosen)]
