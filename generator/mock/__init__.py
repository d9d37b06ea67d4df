"""`contractgen mock`: a stateful mock server of a contract, built on its generated server.

`Mock(spec, MockOptions(...)).app` is the ASGI app; `serving(spec, ...)` runs it under uvicorn
on a free loopback port for the length of a `with` block and yields its base URL.
"""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from .app import Mock, MockOptions

__all__ = ["Mock", "MockOptions", "serving"]


@contextmanager
def serving(spec: str | Path, options: MockOptions | None = None, *,
            host: str = "127.0.0.1", port: int = 0) -> Iterator[str]:
    """Serve the mock of `spec` in a thread; yield the URL its operations are at (the base
    path of the contract's first server URL included)."""
    import uvicorn

    mock = Mock(spec, options or MockOptions())
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(128)  # bound and listening first: a request sent at once waits in the backlog
    server = uvicorn.Server(uvicorn.Config(mock.app, log_level="warning", lifespan="off",
                                           interface="asgi3"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        shown = f"[{host}]" if ":" in host else host
        yield f"http://{shown}:{sock.getsockname()[1]}{mock.base_path}"
    finally:
        server.should_exit = True
        thread.join()
        sock.close()


def run(spec: str | Path, options: MockOptions, *, host: str, port: int) -> Any:
    """`contractgen mock`: serve in the foreground until interrupted."""
    import uvicorn

    mock = Mock(spec, options)
    print(f"contractgen mock: serving {spec} at http://{host}:{port}{mock.base_path} "
          f"({len(mock.store.collections)} collections kept; Ctrl-C stops)", flush=True)
    uvicorn.run(mock.app, host=host, port=port, log_level="warning", lifespan="off",
                interface="asgi3")
