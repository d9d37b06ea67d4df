"""Runtime failures of the executor, each turned into one answer (otari-sandbox's
exceptions.py is drawn the same way).

    ExecutorError                 base of every runtime failure
    ├── RequestError              400 INVALID_REQUEST: the call itself is malformed
    ├── ExecutorBusy              500 INTERNAL_ERROR + Retry-After: running and queued calls full
    ├── PackageUnavailable        a PACKAGE_NOT_FOUND result: unknown package or version, the
    │                             registry down or its metadata malformed, a refused tree
    ├── InstallError              npm could not install (the store makes it PackageUnavailable)
    ├── InvalidSpec (ValueError)  a package name, version or dependency that may not be used:
    │                             RequestError in a request, PackageUnavailable in a dependency
    └── JsonProblem (ValueError)  too deep, or a lone surrogate: RequestError in a request,
                                  a TOOL_EXECUTION_ERROR result in a tool's answer

netlink.NetlinkError stays an OSError: it carries the kernel's errno, and setting up a run's
network is an OS failure like the others there.
"""

__all__ = [
    "ExecutorBusy",
    "ExecutorError",
    "InstallError",
    "InvalidSpec",
    "JsonProblem",
    "PackageUnavailable",
    "RequestError",
]


class ExecutorError(Exception):
    """Base class of every runtime failure; `str(exc)` is the client-facing message."""


class RequestError(ExecutorError):
    """The request is malformed; the message says what to fix."""


class ExecutorBusy(ExecutorError):
    """All execution slots and queue places are taken."""


class PackageUnavailable(ExecutorError):
    """The package or version cannot be had (unknown, registry down, refused, install failed)."""


class InstallError(ExecutorError):
    """npm could not install; the message is short and meant for the caller."""


class InvalidSpec(ExecutorError, ValueError):
    """A package name or version a request may not use; the message says why."""


class JsonProblem(ExecutorError, ValueError):
    """A value that cannot be answered as JSON (too deep, or a lone surrogate)."""
