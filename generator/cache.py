"""A content-addressed cache of derived text under `$XDG_CACHE_HOME/contractgen`.

black's output for UNSURE blocks (emit/formatting.py), validation verdicts (spec/verdicts.py),
rendered text (emit/memo.py) and run records (emit/runs.py) are pure functions
of their input and of the tool versions that made them, so each is stored under the SHA-256 of
those, one file per entry. Concurrent runs are safe without locks: an entry is written to a
temporary file and moved into place with `os.replace` (atomic on POSIX), and every entry starts
with the hash of its value, so a torn, truncated or edited file reads as a miss, never as a wrong
value. The folder is bounded: after writing (at most once a minute), the oldest entries (by mtime,
which a hit refreshes) go until it is under `CONTRACTGEN_CACHE_MAX_BYTES` (default 256 MiB).
Set `CONTRACTGEN_NO_CACHE=1` to bypass it. Any OS error (read-only home, full disk) degrades to "no cache", never to a failure.
"""

from __future__ import annotations

import functools
import hashlib
import os
import sys
import threading
import time
from collections.abc import Mapping
from pathlib import Path

DEFAULT_MAX_BYTES = 256 * 1024 * 1024
_EVICT_EVERY = 60.0  # seconds
_REFRESH_AFTER = 3600.0  # seconds; refreshing every hit's mtime would cost a write per hit


def cache_root() -> Path:
    """`$XDG_CACHE_HOME/contractgen`, defaulting to `~/.cache/contractgen`."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "contractgen"


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


@functools.cache
def _dist_infos() -> tuple[tuple[str, str, str], ...]:
    """(folder, distribution name normalised, version) of every `.dist-info` folder where Python
    finds packages, in `sys.path` order: one listing of each folder, much cheaper than
    `importlib.metadata`, which parses a whole METADATA file per question."""
    found = []
    for entry in sys.path:
        try:
            names = os.listdir(entry or ".")
        except OSError:
            continue
        for name in sorted(names):
            if name.endswith(".dist-info"):
                distribution, _, version = name[:-len(".dist-info")].partition("-")
                found.append((entry, distribution.lower().replace(".", "_"), version))
    return tuple(found)


@functools.cache
def version_of(distribution: str) -> str:
    """The installed version of `distribution` (part of cache keys), read from the name of its
    `.dist-info` folder (`_dist_infos`). Falls back to importlib.metadata when the folder is not
    found or is ambiguous."""
    wanted = distribution.lower().replace("-", "_").replace(".", "_")
    for entry in dict.fromkeys(entry for entry, _, _ in _dist_infos()):
        versions = [version for where, name, version in _dist_infos()
                    if where == entry and name == wanted]
        if len(versions) == 1 and versions[0]:
            return versions[0]
        if versions:
            break
    from importlib import metadata

    return metadata.version(distribution)


# The libraries whose behaviour shapes the output or the verdict (as `_dist_infos` names them).
_LIBRARIES = frozenset({"black", "jinja2", "pyyaml", "openapi_spec_validator",
                        "openapi_schema_validator", "jsonschema", "jsonschema_path",
                        "jsonschema_rs", "openapi_spec_validator_rs"})


@functools.cache
def code_fingerprint() -> str:
    """A hash of the code that makes contractgen's output and verdicts: its sources and built-in
    templates (inside the package when installed, beside it in a checkout), the Python version
    and the installed versions of the libraries that shape them. Part of every cache key.
    A file counts by its path, size and mtime, as Python's bytecode cache judges a source
    (~0.7 ms; hashing the bytes took ~7 ms of every run)."""
    from .version import __version__

    package = Path(__file__).resolve().parent
    digest = hashlib.sha256(f"{__version__} {sys.version_info[:2]}".encode())
    for entry, name, version in _dist_infos():
        if name in _LIBRARIES:
            digest.update(f"\0{entry}/{name}-{version}".encode())
    beside = package.parent / "templates"
    folders = [package] if (package / "templates").is_dir() or not beside.is_dir() else [
        package, beside]
    for folder in folders:
        for root, dirs, names in os.walk(folder):
            dirs[:] = sorted(name for name in dirs if name != "__pycache__")
            for name in sorted(names):
                if not name.endswith(".pyc"):
                    stat = os.stat(os.path.join(root, name))
                    where = os.path.relpath(os.path.join(root, name), folder)
                    digest.update(f"\0{where}\0{stat.st_size} {stat.st_mtime_ns}".encode())
    return digest.hexdigest()


class TextCache:
    """Text values keyed by text inputs, in one namespace (the versions that made them)."""

    def __init__(self, namespace: str) -> None:
        self.namespace = namespace
        self.enabled = os.environ.get("CONTRACTGEN_NO_CACHE", "") in ("", "0")
        self.folder = cache_root() / namespace

    def key(self, text: str) -> str:
        """The address of the value derived from `text`."""
        return _sha(f"{self.namespace}\0{text}")

    def _path(self, key: str) -> Path:
        return self.folder / key[:2] / key[2:]

    def get(self, key: str) -> str | None:
        """The stored value, or None when absent or damaged."""
        if not self.enabled:
            return None
        path = self._path(key)
        try:
            with open(path, "rb") as handle:
                raw = handle.read()
                mtime = os.fstat(handle.fileno()).st_mtime
        except OSError:
            return None
        digest, newline, body = raw.partition(b"\n")
        if not newline or hashlib.sha256(body).hexdigest().encode() != digest:
            return None
        try:
            value = body.decode("utf-8")
        except UnicodeDecodeError:
            return None
        if mtime < time.time() - _REFRESH_AFTER:
            try:
                os.utime(path)
            except OSError:
                pass
        return value

    def put_many(self, values: Mapping[str, str]) -> None:
        """Store values (key -> value) atomically, then keep the whole cache under its cap."""
        if not self.enabled or not values:
            return
        made: set[str] = set()  # folders known to exist (a cold run writes hundreds of entries)
        try:
            for key, value in values.items():
                self._put(key, value, made)
        except OSError:
            return
        _maybe_evict(cache_root())

    def _put(self, key: str, value: str, made: set[str]) -> None:
        body = value.encode("utf-8")
        folder = os.path.join(self.folder, key[:2])
        if folder not in made:
            os.makedirs(folder, exist_ok=True)
            made.add(folder)
        # A name no other writer uses (process, thread and key), created exclusively, then moved
        # into place; one a killed run left under a reused process id is replaced (`evict`
        # sweeps the others).
        temp = os.path.join(folder, f".tmp-{os.getpid()}-{threading.get_native_id()}-{key[2:]}")
        try:
            fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        except FileExistsError:
            os.unlink(temp)
            fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(hashlib.sha256(body).hexdigest().encode() + b"\n" + body)
            os.replace(temp, os.path.join(folder, key[2:]))
        except BaseException:
            Path(temp).unlink(missing_ok=True)
            raise


def max_bytes() -> int:
    """The size cap of the cache folder."""
    try:
        return int(os.environ.get("CONTRACTGEN_CACHE_MAX_BYTES", DEFAULT_MAX_BYTES))
    except ValueError:
        return DEFAULT_MAX_BYTES


def _maybe_evict(root: Path) -> None:
    """`evict`, at most once a minute: walking a large cache on every run would cost more than
    the entries it saves (the cap is soft by a minute's worth of writes)."""
    stamp = root / ".last-eviction"
    try:
        if time.time() - stamp.stat().st_mtime < _EVICT_EVERY:
            return
    except OSError:
        pass
    try:
        stamp.touch()
    except OSError:
        return
    evict(root)


def evict(root: Path, limit: int | None = None) -> None:
    """Delete the least recently used entries until `root` holds at most 80% of `limit`."""
    limit = max_bytes() if limit is None else limit
    entries: list[tuple[float, int, str]] = []
    total = 0
    stale = time.time() - 3600
    for folder, _, names in os.walk(root):
        for name in names:
            path = os.path.join(folder, name)
            try:
                stat = os.stat(path)
            except OSError:
                continue
            if name == ".last-eviction":
                continue
            if name.startswith(".tmp-") and stat.st_mtime < stale:  # left by a killed run
                _unlink(path)
                continue
            entries.append((stat.st_mtime, stat.st_size, path))
            total += stat.st_size
    if total <= limit:
        return
    entries.sort()
    for _, size, path in entries:
        if total <= limit * 0.8:
            break
        _unlink(path)
        total -= size


def _unlink(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:  # another run evicted it first
        pass
