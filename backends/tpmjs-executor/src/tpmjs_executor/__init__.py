"""Reference TPMJS executor: runs npm-packaged AI tools in sandboxed Node processes."""

from .config import Settings
from .exceptions import ExecutorBusy, ExecutorError, RequestError
from .executor import ExecutionRequest, ExecutionResult, Executor

__version__ = "0.1.0"
PROTOCOL_VERSION = "1.0"

__all__ = [
    "PROTOCOL_VERSION",
    "ExecutionRequest",
    "ExecutionResult",
    "Executor",
    "ExecutorBusy",
    "ExecutorError",
    "RequestError",
    "Settings",
    "__version__",
]
