"""Driving a PackageStore directly (no HTTP, no tool run) from synchronous tests."""

from __future__ import annotations

from pathlib import Path

from tpmjs_executor.npm import Npm
from tpmjs_executor.npmspec import parse_package_spec
from tpmjs_executor.store import PackageStore, PackageUnavailable

from .helpers import run

__all__ = ["lease_label", "make_store", "unavailable"]


def make_store(root: Path, registry: str, **kwargs: object) -> PackageStore:
    """A store over `root` installing from `registry`."""
    npm = Npm("npm", registry, root, timeout_s=float(kwargs.pop("timeout_s", 30.0)))  # type: ignore[arg-type]
    options: dict[str, object] = {
        "max_bytes": 1 << 30,
        "resolve_ttl_s": 60.0,
        "install_concurrency": 2,
    }
    options.update(kwargs)
    return PackageStore(root, npm, **options)  # type: ignore[arg-type]


async def lease_label(store: PackageStore, name: str, version: str | None) -> str:
    """Lease a spec and return the installed `name@version`."""
    async with store.lease(parse_package_spec(name, version)) as entry:
        return entry.label


def unavailable(root: Path, registry: str, name: str, version: str, **kwargs: object) -> str:
    """The PackageUnavailable message for leasing `name@version` from a fresh store over `root`."""

    async def main() -> str:
        store = make_store(root, registry, **kwargs)
        await store.start()
        try:
            label = await lease_label(store, name, version)
        except PackageUnavailable as exc:
            return str(exc)
        finally:
            await store.close()
        raise AssertionError(f"{label} was installed")

    return run(main())
