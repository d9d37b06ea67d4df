"""The package store: each (name, resolved version) installed once, into a directory of its own.

    <store>/packages/<name with / as +>@<version>/   package.json, node_modules/, .tpmjs/
    <store>/staging/p<pid>-<id>/                      installs in progress (renamed when done)

An entry is named and keyed by the name and version resolved from the registry's metadata,
both validated (npm name rules, canonical semver), never by anything inside the tarball; the
installed manifest must say the same name and version or the install is refused. Before npm
runs, the dependency tree is checked against the registry's metadata (metadata.py): only
registry packages are installed. An install is bounded in time, unpacked bytes and files, and
a package larger than the store's whole budget is refused. Concurrent requests for the same
version wait for one install, which is cancelled when the last of them leaves. Past the disk
budget, the least recently used entries that no call is using are removed. A folder of
tarballs can seed the store offline at start-up.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
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
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .metadata import PackageUnavailable, Registry, drop_finished
from .npm import InstallError, Npm
from .npmspec import (
    InvalidSpec,
    PackageSpec,
    canonical_version,
    parse_dependency,
    validate_package_name,
)
from .runner import LOADER
from .semver import max_satisfying, parse_range

if TYPE_CHECKING:
    from .config import Settings

__all__ = ["Entry", "PackageStore", "PackageUnavailable", "entry_dirname"]

log = logging.getLogger("tpmjs_executor.store")

_LOADER_SOURCE = (
    "// Written by tpmjs-executor: imports resolve from this entry's node_modules.\n"
    "export default (specifier) => import(specifier);\n"
)
_MIB = 1024 * 1024
_LOCK = ".lock"


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


def entry_dirname(name: object, version: object) -> str:
    """The directory of `name@version` in the store; PackageUnavailable unless `name` is a
    valid npm name and `version` a canonical semver version (so it is one path component)."""
    try:
        valid_name = validate_package_name(name)  # type: ignore[arg-type]
    except InvalidSpec as exc:
        raise PackageUnavailable(f"refused: {exc}") from None
    valid_version = canonical_version(version)
    if valid_version is None:
        raise PackageUnavailable(f"refused: {str(version)[:100]!r} is not a semver version")
    return f"{valid_name.replace('/', '+')}@{valid_version}"


def _lock_staging(staging: Path) -> int:
    """Create our staging dir and hold its lock for as long as this process lives (the lock,
    not the pid in the name, says whether its owner is alive: pids are reused)."""
    staging.mkdir(parents=True, exist_ok=True)
    fd = os.open(staging / _LOCK, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    return fd


def _clear_stale_staging(staging_root: Path, mine: Path) -> list[str]:
    """Remove the staging dirs no live store holds (a killed executor's, or ours from a past
    life); return their names."""
    removed = []
    for path in staging_root.glob("p*"):
        if path != mine:
            try:
                fd = os.open(path / _LOCK, os.O_RDWR | os.O_CLOEXEC)
            except FileNotFoundError:
                fd = -1  # no lock file: left by an executor of before the locks
            except OSError:
                continue
            try:
                if fd >= 0:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                continue  # its executor is alive
            finally:
                if fd >= 0:
                    os.close(fd)
        shutil.rmtree(path, ignore_errors=True)
        removed.append(path.name)
    return removed


def _du(path: Path) -> tuple[int, int]:
    """Bytes and files under `path` (symlinks not followed)."""
    total = files = 0
    for root, _, names in os.walk(path):
        for name in names:
            files += 1
            with contextlib.suppress(OSError):
                total += os.lstat(os.path.join(root, name)).st_size
    return total, files


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
        fetch_timeout_s: float = 30.0,
        install_max_bytes: int = 512 * _MIB,
        install_max_files: int = 100_000,
        slot_hold_s: float = 5.0,
        on_evict: Callable[[Path], Awaitable[None]] | None = None,
        protect_recent_s: float = 10.0,
    ) -> None:
        self.root = root
        self._npm = npm
        self.registry = Registry(
            npm.registry, fetch_timeout_s=fetch_timeout_s, resolve_ttl_s=resolve_ttl_s
        )
        self._max_bytes = max_bytes
        # One install may never take more than the whole budget; what npm downloads (its
        # cache, deleted after the install) is bounded by the install limit alone.
        self._install_max_bytes = min(install_max_bytes, max_bytes)
        self._download_max_bytes = install_max_bytes
        self._install_max_files = install_max_files
        self._slots = asyncio.Semaphore(install_concurrency)
        self._slot_hold_s = slot_hold_s
        self._on_evict = on_evict
        # An entry used this recently is not evicted: its caller may not hold its lease yet.
        self._protect_recent_s = protect_recent_s
        self._packages = root / "packages"
        # Per store, locked while it lives, so another executor sharing the root never
        # disturbs it and a killed one's is known to be stale.
        self._staging = root / "staging" / f"p{os.getpid()}-{uuid.uuid4().hex[:8]}"
        self._entries: dict[tuple[str, str], Entry] = {}
        self._installing: dict[tuple[str, str], asyncio.Task[Entry]] = {}
        self._waiters: dict[tuple[str, str], int] = {}
        # Installs started for callers (not seeding): cancelled when the last caller leaves.
        self._on_demand: weakref.WeakSet[asyncio.Task[Entry]] = weakref.WeakSet()
        self._lock_fd: int | None = None

    @classmethod
    def from_settings(
        cls, settings: Settings, on_evict: Callable[[Path], Awaitable[None]] | None = None
    ) -> PackageStore:
        """The store the settings describe, with its npm."""
        npm = Npm(
            settings.npm, settings.registry, settings.store_dir, settings.install_timeout_s
        )
        return cls(
            settings.store_dir,
            npm,
            max_bytes=settings.store_max_bytes,
            resolve_ttl_s=settings.resolve_ttl_s,
            install_concurrency=settings.install_concurrency,
            fetch_timeout_s=settings.fetch_timeout_s,
            install_max_bytes=settings.install_max_bytes,
            install_max_files=settings.install_max_files,
            slot_hold_s=settings.install_slot_hold_s,
            on_evict=on_evict,
        )

    @property
    def entries(self) -> list[Entry]:
        """Installed entries, least recently used first."""
        return sorted(self._entries.values(), key=lambda e: e.last_used)

    @property
    def installing(self) -> list[str]:
        """`name@version` of the installs in progress."""
        return [f"{name}@{version}" for name, version in sorted(self._installing)]

    @property
    def total_bytes(self) -> int:
        """Disk used by installed entries."""
        return sum(e.size for e in self._entries.values())

    async def start(self, seed_dir: Path | None = None) -> None:
        """Load the entries already on disk, and start seeding from `seed_dir` if given."""
        self._packages.mkdir(parents=True, exist_ok=True)
        removed = await asyncio.to_thread(_clear_stale_staging, self._staging.parent, self._staging)
        if removed:
            log.info("removed stale staging folders: %s", ", ".join(sorted(removed)))
        self._staging.mkdir(parents=True, exist_ok=True)
        self._lock_fd = _lock_staging(self._staging)
        for entry in await asyncio.to_thread(self._scan):
            self._entries[(entry.name, entry.version)] = entry
        await self.registry.start()
        if seed_dir is not None:
            await self._seed(seed_dir)

    async def close(self) -> None:
        """Cancel installs in progress and close the registry client."""
        tasks = list(self._installing.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await self.registry.close()
        if self._lock_fd is not None:
            os.close(self._lock_fd)
            self._lock_fd = None

    def _scan(self) -> list[Entry]:
        """Entries on disk; one whose record is unreadable, invalid or not its folder's name
        (renamed, or written by an older version) is removed, never reused."""
        found = []
        for path in sorted(self._packages.iterdir()):
            meta = path / ".tpmjs" / "entry.json"
            try:
                info = json.loads(meta.read_text())
                if path.name != entry_dirname(info["name"], info["version"]):
                    raise ValueError(f"{path.name} records {info['name']}@{info['version']}")
                found.append(
                    Entry(
                        info["name"], info["version"], path, int(info["size"]), meta.stat().st_mtime
                    )
                )
            except (OSError, ValueError, KeyError, TypeError, PackageUnavailable) as exc:
                log.warning("store entry %s removed: %s", path.name, exc)
                shutil.rmtree(path, ignore_errors=True)
        return found

    @contextlib.asynccontextmanager
    async def lease(self, spec: PackageSpec) -> AsyncIterator[Entry]:
        """Resolve and install `spec` if needed; the entry is not evicted while held."""
        version = await self.resolve(spec)
        key = (spec.name, version)
        entry = self._entries.get(key) or await self._wait_for_install(key)
        if (entry.name, entry.version) != key:
            raise PackageUnavailable(f"npm package {spec.name}@{version}: store entry mismatch")
        entry.refs += 1
        entry.last_used = time.time()
        try:
            yield entry
        finally:
            entry.refs -= 1

    async def _wait_for_install(self, key: tuple[str, str]) -> Entry:
        """Join (or start) the install of `key`; the last caller to leave cancels it."""
        task = self._installing.get(key)
        if task is None:
            task = self._start_install(key, None)
            self._on_demand.add(task)
        self._waiters[key] = self._waiters.get(key, 0) + 1
        try:
            return await asyncio.shield(task)
        finally:
            self._waiters[key] -= 1
            if not self._waiters[key]:
                del self._waiters[key]
                if not task.done() and task in self._on_demand:
                    task.cancel()  # nobody wants it any more: free its slot and its npm

    def _start_install(
        self, key: tuple[str, str], tarballs: list[Path] | None
    ) -> asyncio.Task[Entry]:
        task = asyncio.create_task(self._install(*key, tarballs))
        self._installing[key] = task
        task.add_done_callback(functools.partial(self._installed, key))
        return task

    async def resolve(self, spec: PackageSpec) -> str:
        """The exact version `spec` stands for (see Registry.resolve)."""
        return await self.registry.resolve(spec)

    @contextlib.asynccontextmanager
    async def _slot(self) -> AsyncIterator[None]:
        """An install slot, given back at the end or after `slot_hold_s`, whichever is first:
        installs that long are waiting on the network, and must not hold back the others."""
        await self._slots.acquire()
        released = False

        def release() -> None:
            nonlocal released
            if not released:
                released = True
                self._slots.release()

        timer = asyncio.get_running_loop().call_later(self._slot_hold_s, release)
        try:
            yield
        finally:
            timer.cancel()
            release()

    async def _install(self, name: str, version: str, tarballs: list[Path] | None = None) -> Entry:
        dirname = entry_dirname(name, version)
        if tarballs is None:
            # Before anything is fetched: only registry packages, whatever the depth.
            await self.registry.check_tree(name, version)
        async with self._slot():
            staging = Path(tempfile.mkdtemp(prefix="install-", dir=self._staging))
            try:
                entry = await self._install_into(staging, dirname, name, version, tarballs)
            except BaseException:
                await asyncio.to_thread(shutil.rmtree, staging, True)
                raise
        await self._evict(keep=entry)
        return entry

    async def _install_into(
        self, staging: Path, dirname: str, name: str, version: str, tarballs: list[Path] | None
    ) -> Entry:
        label = f"{name}@{version}"
        manifest = {"name": "tpmjs-store-entry", "version": "0.0.0", "private": True}
        (staging / "package.json").write_text(json.dumps(manifest))
        specs = [label] if tarballs is None else [str(t) for t in tarballs]
        try:
            await self._npm.install(
                staging,
                specs,
                offline=tarballs is not None,
                max_bytes=self._install_max_bytes,
                max_files=self._install_max_files,
                max_download=self._download_max_bytes,
            )
        except InstallError as exc:
            raise PackageUnavailable(str(exc)) from None
        self._check_installed(staging, name, version)
        (staging / LOADER).parent.mkdir(exist_ok=True)
        (staging / LOADER).write_text(_LOADER_SOURCE)
        size, files = await asyncio.to_thread(_du, staging)
        if size > self._install_max_bytes or files > self._install_max_files:
            raise PackageUnavailable(
                f"npm package {label} refused: it installs {size} bytes in {files} files, over "
                f"the limit of {self._install_max_bytes} bytes and {self._install_max_files} files"
            )
        meta = {"name": name, "version": version, "size": size, "installedAt": time.time()}
        (staging / ".tpmjs" / "entry.json").write_text(json.dumps(meta))
        final = self._packages / dirname
        if final.parent != self._packages or not final.resolve().is_relative_to(
            self._packages.resolve()
        ):
            raise PackageUnavailable(f"npm package {label} refused: its path leaves the store")
        try:
            os.rename(staging, final)
        except OSError:
            # Already there (renames are atomic, so it is complete): keep the existing copy,
            # if it is what it says it is.
            try:
                info = json.loads((final / ".tpmjs" / "entry.json").read_text())
            except (OSError, ValueError):
                raise PackageUnavailable(f"npm package {label}: store entry unreadable") from None
            if (info.get("name"), info.get("version")) != (name, version):
                raise PackageUnavailable(f"npm package {label}: store entry mismatch") from None
            await asyncio.to_thread(shutil.rmtree, staging, True)
        entry = Entry(name, version, final, size, time.time())
        self._entries[(name, version)] = entry
        return entry

    @staticmethod
    def _check_installed(staging: Path, name: str, version: str) -> None:
        """The manifest npm unpacked must be the package asked for, with the version asked for."""
        installed = staging / "node_modules" / name / "package.json"
        try:
            actual = json.loads(installed.read_text())
            found = (actual.get("name"), canonical_version(actual.get("version")))
        except (OSError, ValueError, AttributeError):
            raise PackageUnavailable(f"npm package {name}@{version} installed nothing") from None
        if found != (name, version):
            shown = f"{str(actual.get('name'))[:100]}@{str(actual.get('version'))[:100]}"
            raise PackageUnavailable(
                f"npm package {name}@{version} refused: its tarball's package.json says {shown!r}"
            )

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
            try:
                tarballs = [path, *_closure(manifest, by_name, manifests)]
            except InvalidSpec as exc:
                log.warning("seed tarball %s skipped: %s", path, exc)
                continue
            self._start_install(key, tarballs)

    def _installed(self, key: tuple[str, str], task: asyncio.Task[Entry]) -> None:
        error = drop_finished(self._installing, key, task)
        if error is not None:
            log.info("installing %s@%s failed: %s", *key, error)


def _read_manifests(seed_dir: Path) -> list[tuple[Path, dict[str, Any]]]:
    out = []
    for path in sorted(seed_dir.glob("*.tgz")):
        try:
            with tarfile.open(path, "r:gz") as tar:
                member = tar.extractfile("package/package.json")
                if member is None:
                    continue
                manifest = json.load(io.TextIOWrapper(member, encoding="utf-8"))
            entry_dirname(manifest.get("name"), manifest.get("version"))
            out.append((path.resolve(), manifest))
        except (OSError, KeyError, ValueError, tarfile.TarError, PackageUnavailable) as exc:
            log.warning("seed tarball %s skipped: %s", path, exc)
    return out


def _closure(
    root: dict[str, Any],
    by_name: dict[str, list[tuple[str, Path]]],
    manifests: list[tuple[Path, dict[str, Any]]],
) -> list[Path]:
    """Seed tarballs that satisfy `root`'s dependencies, transitively; InvalidSpec when one
    is not a registry dependency (npm would fetch or read it from elsewhere)."""
    manifest_of = {path: manifest for path, manifest in manifests}
    chosen: dict[str, Path] = {}
    todo = [root]
    while todo:
        manifest = todo.pop()
        deps = {}
        for field in ("dependencies", "optionalDependencies", "peerDependencies"):
            for dep, wanted in sorted((manifest.get(field) or {}).items()):
                parsed = parse_dependency(dep, wanted)
                deps[parsed.name] = parsed.spec
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
