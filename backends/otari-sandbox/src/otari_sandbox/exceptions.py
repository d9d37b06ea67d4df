"""Runtime failures, each mapped to one HTTP status by the service layer.

    SandboxError
    ├── SessionNotFound      404
    ├── AtCapacity           503 (+ Retry-After)
    ├── InvalidRequest       422
    │   └── UnknownTool      400
    ├── SandboxUnavailable   503 (a sandbox could not be started)
    └── FileError
        ├── PathOutside      403
        ├── FileMissing      404
        ├── NotAFile         400 (a directory or special file where a file was expected)
        ├── InvalidPath      400 (404 when listing): a name the filesystem refuses
        └── TooLarge         413
"""


class SandboxError(Exception):
    """Base class of every runtime failure; ``str(exc)`` is the client-facing detail."""


class SessionNotFound(SandboxError):
    """No live session has this id."""


class AtCapacity(SandboxError):
    """Every session slot is leased."""


class SandboxUnavailable(SandboxError):
    """A sandbox could not be started."""


class InvalidRequest(SandboxError):
    """The call is malformed for its tool kind or command."""


class UnknownTool(InvalidRequest):
    """The tool kind is not one this backend serves."""


class FileError(SandboxError):
    """A file operation was refused."""


class PathOutside(FileError):
    """The path leaves the session's workspace."""


class FileMissing(FileError):
    """No such file or directory."""


class NotAFile(FileError):
    """The path names a directory or a special file."""


class TooLarge(FileError):
    """The upload is over the cap."""


class InvalidPath(FileError):
    """The filesystem refuses the name itself (too long, invalid)."""
