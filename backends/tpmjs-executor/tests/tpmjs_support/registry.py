"""A loopback npm registry: packuments and tarballs built from package folders.

npm 11 installs from it like from registry.npmjs.org: `GET /<name>` answers the packument
(scoped names as `/@scope%2fname` or `/@scope/name`), `GET /<name>/-/<file>.tgz` the tarball,
anything else 404. Tarballs are built in Python with a `package/` prefix and fixed metadata,
so the same folder always gives the same bytes (and the same integrity).
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import io
import json
import re
import tarfile
import threading
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import unquote

__all__ = ["NpmRegistry", "PublishedVersion", "build_tarball", "package_dirs"]

# npm's own tarballs carry this mtime (1985-10-26T08:15:00Z); any constant keeps builds stable.
_TAR_MTIME = 499162500
_TARBALL_PATH = re.compile(r"^/(?P<name>(?:@[^/]+/)?[^/@]+)/-/(?P<file>[^/]+\.tgz)$")


def build_tarball(folder: Path) -> bytes:
    """Pack a package folder like `npm pack`: files under `package/`, deterministic bytes."""
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w", format=tarfile.USTAR_FORMAT) as tar:
        for path in sorted(p for p in folder.rglob("*") if p.is_file()):
            rel = path.relative_to(folder).as_posix()
            if rel.startswith("node_modules/"):
                continue
            data = path.read_bytes()
            info = tarfile.TarInfo(f"package/{rel}")
            info.size = len(data)
            info.mtime = _TAR_MTIME
            info.mode = 0o755 if path.stat().st_mode & 0o111 else 0o644
            info.uname = info.gname = ""
            tar.addfile(info, io.BytesIO(data))
    out = io.BytesIO()
    with gzip.GzipFile(fileobj=out, mode="wb", mtime=0) as gz:
        gz.write(raw.getvalue())
    return out.getvalue()


def package_dirs(root: Path) -> Iterator[Path]:
    """Every folder under `root` that holds a package.json (node_modules excluded)."""
    for manifest in sorted(root.rglob("package.json")):
        if "node_modules" not in manifest.parts:
            yield manifest.parent


def _version_key(version: str) -> tuple[Any, ...]:
    core, _, pre = version.partition("-")
    nums = tuple(int(p) if p.isdigit() else 0 for p in core.split("+")[0].split("."))
    # A release sorts above its prereleases.
    return (nums, pre == "", pre)


@dataclass(frozen=True)
class PublishedVersion:
    """One version as the registry serves it."""

    name: str
    version: str
    manifest: dict[str, Any]
    tarball: bytes

    @property
    def filename(self) -> str:
        """The tarball's file name: `<unscoped name>-<version>.tgz`."""
        return f"{self.name.rsplit('/', 1)[-1]}-{self.version}.tgz"

    @property
    def shasum(self) -> str:
        """Hex sha1 of the tarball (packument `dist.shasum`)."""
        return hashlib.sha1(self.tarball).hexdigest()

    @property
    def integrity(self) -> str:
        """Subresource-integrity sha512 of the tarball (packument `dist.integrity`)."""
        return "sha512-" + base64.b64encode(hashlib.sha512(self.tarball).digest()).decode()


@dataclass
class _State:
    versions: dict[str, dict[str, PublishedVersion]] = field(default_factory=dict)
    tags: dict[str, dict[str, str]] = field(default_factory=dict)
    requests: list[str] = field(default_factory=list)
    tarball_delay_s: float = 0.0
    drip: dict[str, float] = field(default_factory=dict)
    raw: dict[str, Any] = field(default_factory=dict)
    stopping: threading.Event = field(default_factory=threading.Event)
    lock: threading.Lock = field(default_factory=threading.Lock)


class NpmRegistry:
    """A threaded npm registry on 127.0.0.1; use as a context manager or start()/stop()."""

    def __init__(self, host: str = "127.0.0.1", port: int = 0) -> None:
        self._state = _State()
        self._server = ThreadingHTTPServer((host, port), _make_handler(self._state, self))
        self._server.daemon_threads = True
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        """Base URL with a trailing slash, as npm's `registry` setting expects."""
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}/"

    @property
    def requests(self) -> list[str]:
        """Paths requested so far (a copy), to assert what touched the network."""
        with self._state.lock:
            return list(self._state.requests)

    def set_tarball_delay(self, seconds: float) -> None:
        """Delay every tarball response (to keep installs running while a test probes)."""
        self._state.tarball_delay_s = seconds

    def set_slow_drip(self, target: str, interval_s: float | None) -> None:
        """Serve `target` (a package name: its packument; `name/-/file.tgz`: a tarball) one byte
        every `interval_s` for as long as the client reads (None: at full speed again): a
        registry that never quite stalls."""
        with self._state.lock:
            if interval_s is None:
                self._state.drip.pop(target, None)
            else:
                self._state.drip[target] = interval_s

    def publish_dir(self, folder: Path) -> PublishedVersion:
        """Pack a package folder and publish it."""
        manifest = json.loads((folder / "package.json").read_text())
        return self.publish(manifest, build_tarball(folder))

    def publish_tree(self, root: Path) -> list[PublishedVersion]:
        """Publish every package folder under `root`."""
        return [self.publish_dir(folder) for folder in package_dirs(root)]

    def publish(self, manifest: dict[str, Any], tarball: bytes) -> PublishedVersion:
        """Publish one version; `latest` follows the highest release unless set explicitly."""
        pub = PublishedVersion(manifest["name"], manifest["version"], manifest, tarball)
        with self._state.lock:
            self._state.versions.setdefault(pub.name, {})[pub.version] = pub
        return pub

    def set_dist_tag(self, name: str, tag: str, version: str) -> None:
        """Point a dist-tag of `name` at `version`."""
        with self._state.lock:
            self._state.tags.setdefault(name, {})[tag] = version

    def set_raw_packument(self, name: str, doc: Any) -> None:
        """Serve `doc` as the packument of `name`, as it is (a malformed registry answer)."""
        with self._state.lock:
            self._state.raw[name] = doc

    def published(self) -> Iterable[PublishedVersion]:
        """All published versions."""
        with self._state.lock:
            return [v for versions in self._state.versions.values() for v in versions.values()]

    def packument(self, name: str) -> Any:
        """The packument JSON for `name`, or None when unknown."""
        with self._state.lock:
            if name in self._state.raw:
                return self._state.raw[name]  # type: ignore[no-any-return]
            versions = dict(self._state.versions.get(name, {}))
            tags = dict(self._state.tags.get(name, {}))
        if not versions:
            return None
        releases = [v for v in versions if "-" not in v] or list(versions)
        tags.setdefault("latest", max(releases, key=_version_key))
        base = self.url.rstrip("/")
        entries = {}
        for version, pub in sorted(versions.items()):
            entries[version] = {
                **pub.manifest,
                "_id": f"{name}@{version}",
                "dist": {
                    "tarball": f"{base}/{name}/-/{pub.filename}",
                    "shasum": pub.shasum,
                    "integrity": pub.integrity,
                },
            }
        return {"_id": name, "name": name, "dist-tags": tags, "versions": entries}

    def tarball(self, name: str, filename: str) -> bytes | None:
        """Tarball bytes by package name and file name, or None."""
        with self._state.lock:
            versions = list(self._state.versions.get(name, {}).values())
        return next((v.tarball for v in versions if v.filename == filename), None)

    def start(self) -> NpmRegistry:
        """Serve in a daemon thread."""
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving and close the socket."""
        self._state.stopping.set()
        self._server.shutdown()
        self._server.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def __enter__(self) -> NpmRegistry:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def _make_handler(state: _State, registry: NpmRegistry) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_GET(self) -> None:
            path = unquote(self.path.split("?", 1)[0])
            with state.lock:
                state.requests.append(path)
            match = _TARBALL_PATH.match(path)
            with state.lock:
                drip = state.drip.get(path.lstrip("/"))
            if match:
                data = registry.tarball(match["name"], match["file"])
                if data is not None:
                    if state.tarball_delay_s:
                        time.sleep(state.tarball_delay_s)
                    self._send(200, data, "application/octet-stream", drip)
                    return
            else:
                doc = registry.packument(path.lstrip("/"))
                if doc is not None:
                    self._send(200, json.dumps(doc).encode(), "application/json", drip)
                    return
            self._send(404, b'{"error":"Not found"}', "application/json")

        def _send(
            self, status: int, body: bytes, content_type: str, drip: float | None = None
        ) -> None:
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if drip is None:
                self.wfile.write(body)
                return
            for i in range(len(body)):
                if state.stopping.wait(drip):
                    return
                try:
                    self.wfile.write(body[i : i + 1])
                    self.wfile.flush()
                except OSError:
                    return

        def log_message(self, format: str, *args: Any) -> None:
            pass

    return Handler
