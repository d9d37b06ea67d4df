"""Test support shipped with the package: a loopback npm registry and small async helpers."""

from .helpers import execute, run, with_executor
from .registry import NpmRegistry, PublishedVersion, build_tarball, package_dirs

__all__ = [
    "NpmRegistry",
    "PublishedVersion",
    "build_tarball",
    "execute",
    "package_dirs",
    "run",
    "with_executor",
]
