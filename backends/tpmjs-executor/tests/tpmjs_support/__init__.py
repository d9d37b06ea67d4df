"""Test support: a loopback npm registry, the executor as a child process, async helpers."""

from .helpers import accepted_socket_option, execute, processes_with, run, with_executor
from .process import ExecutorProcess
from .registry import NpmRegistry, PublishedVersion, build_tarball, package_dirs

__all__ = [
    "ExecutorProcess",
    "NpmRegistry",
    "PublishedVersion",
    "accepted_socket_option",
    "build_tarball",
    "execute",
    "package_dirs",
    "processes_with",
    "run",
    "with_executor",
]
