"""The registry's metadata: packuments, version resolution, and the dependency-tree check.

Before npm runs, the tree a version would install is walked through the registry's metadata
(no tarball is fetched): every dependency, optional and peer dependency of every version npm
could pick for it (all versions satisfying the range, so npm's deduplication cannot choose one
we did not look at) must be a registry package: a semver range, a dist-tag or an `npm:` alias,
whose tarball is served by the registry itself, without a shrinkwrap (its locked `resolved`
URLs would be fetched as they are) or bundled dependencies (unseen until unpacked). Anything
else (git, file, link, http, github, workspace...) is refused before anything is fetched.
Every fetch has an overall deadline and a size cap, so a slow-drip registry cannot hold it.
"""

from __future__ import annotations

import asyncio
import functools
import json
import time
from collections.abc import Iterable
from typing import Any
from urllib.parse import quote, urlsplit

import httpx

from .exceptions import InvalidSpec, PackageUnavailable
from .npmspec import PackageSpec, canonical_version, parse_dependency
from .semver import max_satisfying, parse_version

__all__ = ["PackageUnavailable", "Registry", "drop_finished"]

_DEP_FIELDS = ("dependencies", "optionalDependencies", "peerDependencies")
_MAX_PACKUMENT_BYTES = 64 * 1024 * 1024
_PARSE_IN_THREAD_BYTES = 1024 * 1024
_CACHE_ENTRIES = 256
_FETCHES_AT_ONCE = 8


class _NotFound(PackageUnavailable):
    """The registry has no such package (404)."""


class Registry:
    """Reads packuments from one registry; `start()` before use, `close()` after."""

    def __init__(
        self,
        url: str,
        *,
        fetch_timeout_s: float,
        resolve_ttl_s: float,
        max_tree_versions: int = 2000,
    ) -> None:
        self.url = url if url.endswith("/") else url + "/"
        parts = urlsplit(self.url)
        self._origin = (parts.scheme, parts.netloc)
        self._fetch_timeout_s = fetch_timeout_s
        self._ttl = resolve_ttl_s
        self._max_versions = max_tree_versions
        self._inflight: dict[str, asyncio.Task[dict[str, Any]]] = {}
        self._docs: dict[str, tuple[dict[str, Any], float]] = {}
        self._resolved: dict[tuple[str, str], tuple[str, float]] = {}
        self._fetches = asyncio.Semaphore(_FETCHES_AT_ONCE)
        self._http: httpx.AsyncClient | None = None

    async def start(self) -> None:
        """Open the HTTP client."""
        self._http = httpx.AsyncClient(timeout=httpx.Timeout(10.0, connect=5.0))

    async def close(self) -> None:
        """Cancel fetches in progress and close the HTTP client."""
        tasks = list(self._inflight.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        if self._http is not None:
            await self._http.aclose()

    async def resolve(self, spec: PackageSpec) -> str:
        """The exact version `spec` stands for (cached for the TTL, stale if the registry fails)."""
        if spec.kind == "version":
            return spec.spec
        key = (spec.name, spec.spec)
        cached = self._resolved.get(key)
        if cached is not None and cached[1] > time.monotonic():
            return cached[0]
        try:
            packument = await self.packument(spec.name)
        except PackageUnavailable:
            if cached is not None:
                return cached[0]
            raise
        version = pick(packument, spec)
        self._resolved[key] = (version, time.monotonic() + self._ttl)
        return version

    async def packument(self, name: str) -> dict[str, Any]:
        """The packument of `name` (one fetch at a time per name, kept for the TTL)."""
        cached = self._docs.get(name)
        if cached is not None and cached[1] > time.monotonic():
            return cached[0]
        task = self._inflight.get(name)
        if task is None:
            task = asyncio.create_task(self._fetch(name))
            self._inflight[name] = task
            task.add_done_callback(functools.partial(drop_finished, self._inflight, name))
        doc = await asyncio.shield(task)
        self._docs.pop(name, None)
        self._docs[name] = (doc, time.monotonic() + self._ttl)
        while len(self._docs) > _CACHE_ENTRIES:
            del self._docs[next(iter(self._docs))]
        return doc

    async def _fetch(self, name: str) -> dict[str, Any]:
        assert self._http is not None, "Registry.start() was not awaited"
        url = self.url + quote(name, safe="@")
        headers = {"Accept": "application/vnd.npm.install-v1+json; q=1.0, application/json; q=0.8"}
        try:
            async with self._fetches, asyncio.timeout(self._fetch_timeout_s):
                async with self._http.stream("GET", url, headers=headers) as response:
                    if response.status_code == 404:
                        raise _NotFound(f"npm package {name} not found in the registry")
                    if response.status_code != 200:
                        raise PackageUnavailable(
                            f"npm package {name} could not be resolved: registry answered "
                            f"{response.status_code}"
                        )
                    body = bytearray()
                    async for chunk in response.aiter_bytes():
                        body += chunk
                        if len(body) > _MAX_PACKUMENT_BYTES:
                            raise PackageUnavailable(
                                f"npm package {name}: the registry's metadata is larger than "
                                f"{_MAX_PACKUMENT_BYTES // (1024 * 1024)} MiB"
                            )
        except TimeoutError:
            raise PackageUnavailable(
                f"npm package {name} could not be resolved: registry {self.url} did not answer "
                f"within {self._fetch_timeout_s:g}s"
            ) from None
        except httpx.HTTPError as exc:
            raise PackageUnavailable(
                f"npm package {name} could not be resolved: registry {self.url} "
                f"unreachable ({type(exc).__name__})"
            ) from None
        try:
            doc = (
                await asyncio.to_thread(json.loads, bytes(body))
                if len(body) > _PARSE_IN_THREAD_BYTES
                else json.loads(body)
            )
        except ValueError:
            raise PackageUnavailable(
                f"npm package {name}: the registry sent invalid JSON"
            ) from None
        if not isinstance(doc, dict) or not isinstance(doc.get("versions"), dict):
            raise PackageUnavailable(f"npm package {name} has no versions in the registry")
        return doc

    async def check_tree(self, name: str, version: str) -> int:
        """Refuse (PackageUnavailable) unless everything `name@version` could install comes
        from this registry; return how many package versions were checked."""
        root = f"{name}@{version}"
        checked: set[tuple[str, str]] = set()
        edges_seen: set[tuple[str, str]] = set()
        # Each round: the packuments of the edges' packages, then the versions they allow.
        edges: list[tuple[PackageSpec, str]] = [(PackageSpec(name, version, "version"), "")]
        while edges:
            docs = await self._packuments({spec.name for spec, _ in edges}, root)
            next_edges: list[tuple[PackageSpec, str]] = []
            for spec, via in edges:
                doc = docs.get(spec.name)
                if doc is None:
                    continue  # unknown dependency: npm fails on it without fetching anything
                for candidate in _candidates(doc, spec):
                    if (spec.name, candidate) in checked:
                        continue
                    checked.add((spec.name, candidate))
                    if len(checked) > self._max_versions:
                        raise PackageUnavailable(
                            f"npm package {root} could not be installed: its dependency tree has "
                            f"more than {self._max_versions} package versions"
                        )
                    label = f"{via} > {spec.name}@{candidate}" if via else root
                    manifest = doc["versions"][candidate]
                    for dep in self._dependencies(root, label, manifest):
                        if (dep.name, dep.spec) not in edges_seen:
                            edges_seen.add((dep.name, dep.spec))
                            next_edges.append((dep, label))
            edges = next_edges
        return len(checked)

    async def _packuments(self, names: Iterable[str], root: str) -> dict[str, dict[str, Any]]:
        async def one(dep: str) -> tuple[str, dict[str, Any] | None]:
            try:
                return dep, await self.packument(dep)
            except _NotFound:
                if dep != root.rpartition("@")[0]:
                    return dep, None
                raise
            except PackageUnavailable as exc:
                raise PackageUnavailable(
                    f"npm package {root} could not be installed: {exc}"
                ) from None

        found = await asyncio.gather(*(one(dep) for dep in sorted(names)))
        return {dep: doc for dep, doc in found if doc is not None}

    def _dependencies(self, root: str, label: str, manifest: Any) -> list[PackageSpec]:
        def refuse(why: str) -> PackageUnavailable:
            where = "" if label == root else f" (through {label})"
            return PackageUnavailable(f"npm package {root} could not be installed{where}: {why}")

        if not isinstance(manifest, dict):
            raise refuse("the registry's metadata for it is not an object")
        if manifest.get("_hasShrinkwrap"):
            raise refuse("it ships an npm-shrinkwrap.json, whose locked sources are not checked")
        if manifest.get("bundleDependencies") or manifest.get("bundledDependencies"):
            raise refuse("it bundles dependencies, which cannot be checked before unpacking")
        dist = manifest.get("dist")
        tarball = dist.get("tarball") if isinstance(dist, dict) else None
        parts = urlsplit(tarball) if isinstance(tarball, str) else None
        if parts is None or (parts.scheme, parts.netloc) != self._origin:
            raise refuse(f"its tarball {tarball!r} is not served by the registry {self.url}")
        specs = []
        for field in _DEP_FIELDS:
            deps = manifest.get(field) or {}
            if not isinstance(deps, dict):
                raise refuse(f"its {field} is not an object")
            for dep, wanted in sorted(deps.items()):
                try:
                    specs.append(parse_dependency(dep, wanted))
                except InvalidSpec as exc:
                    raise refuse(str(exc)) from None
        return specs


def _candidates(packument: dict[str, Any], spec: PackageSpec) -> list[str]:
    """Every version npm could pick for `spec`: the exact one, the tag's, or all in range."""
    versions = list(_versions(packument))
    if spec.kind == "version":
        return [spec.spec] if spec.spec in versions else []
    if spec.kind == "tag":
        tagged = _tags(packument).get(spec.spec)
        return [tagged] if tagged in versions else []
    assert spec.range is not None
    found = []
    for version in versions:
        parsed = parse_version(version)
        if parsed is not None and spec.range.satisfied_by(parsed):
            found.append(version)
    return found


def _versions(packument: dict[str, Any]) -> dict[str, Any]:
    """The packument's canonical versions; {} when `versions` is missing or not an object."""
    versions = packument.get("versions")
    if not isinstance(versions, dict):
        return {}
    return {v: m for v, m in versions.items() if isinstance(v, str) and canonical_version(v)}


def _tags(packument: dict[str, Any]) -> dict[str, str]:
    """The packument's dist-tags that name a version as a string ({} when not an object): a
    registry's `"dist-tags": "latest"` or `{"latest": ["1.0.0"]}` is no tag, not a crash."""
    tags = packument.get("dist-tags")
    if not isinstance(tags, dict):
        return {}
    return {t: v for t, v in tags.items() if isinstance(t, str) and isinstance(v, str)}


def pick(packument: dict[str, Any], spec: PackageSpec) -> str:
    """The version npm picks for a tag or range (only canonical semver versions count)."""
    versions = _versions(packument)
    tags = _tags(packument)
    if spec.kind == "tag":
        version = tags.get(spec.spec)
        if version is None or version not in versions:
            raise PackageUnavailable(f"npm package {spec.name} has no dist-tag {spec.spec!r}")
        return version
    assert spec.range is not None
    # As npm-pick-manifest: the `latest` tag wins when it satisfies the range.
    latest = tags.get("latest")
    parsed_latest = parse_version(latest) if latest in versions else None
    if latest is not None and parsed_latest is not None and spec.range.satisfied_by(parsed_latest):
        return latest
    best = max_satisfying(versions, spec.range)
    if best is None:
        raise PackageUnavailable(f"npm package {spec} could not be installed: no such version")
    return best


def drop_finished(tasks: dict[Any, Any], key: Any, task: asyncio.Task[Any]) -> BaseException | None:
    """Drop a finished single-flight task; its exception is retrieved (and returned) even
    when every waiter has gone, so asyncio never reports it as lost."""
    tasks.pop(key, None)
    return None if task.cancelled() else task.exception()
