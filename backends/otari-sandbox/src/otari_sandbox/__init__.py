"""otari-sandbox: the reference Otari code-execution backend.

Layers, each usable on its own: ``agent`` (runs inside a sandbox), ``sandbox`` (one
bubblewrap container and its control socket), ``sessions`` (pool, leases, reaping),
``files`` (confined workspace I/O), ``service`` and ``app`` (the HTTP contract).
"""

from .config import Settings
from .sessions import SessionManager

__all__ = ["SessionManager", "Settings"]
__version__ = "0.1.0"
