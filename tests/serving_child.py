"""A tiny ASGI app served by templates/_serving.py (or plain uvicorn), in its own process.

Used by tests/templates/test_serving.py and bench/serving.py. Argument: one JSON object with
`http` ("httptools" | "h11"), `limits` (FrontDoorLimits fields), `guard` (wrap the app in
LocalOnlyGuard), `nofile` ([soft, hard] RLIMIT_NOFILE to start with), `plain` (plain uvicorn).
Prints `port N` once the socket listens.
"""

import importlib.util
import json
import resource
import socket
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def load_serving() -> ModuleType:
    """templates/_serving.py as a module (it needs no package around it)."""
    spec = importlib.util.spec_from_file_location("_serving", ROOT / "templates" / "_serving.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["_serving"] = module
    spec.loader.exec_module(module)
    return module


async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """/limits: the RLIMIT_NOFILE pair; /echo: the body's length; anything else: ok."""
    if scope["type"] == "lifespan":
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
            else:
                await send({"type": "lifespan.shutdown.complete"})
                return
    body = b"ok"
    if scope["path"] == "/limits":
        body = json.dumps(resource.getrlimit(resource.RLIMIT_NOFILE)).encode()
    elif scope["path"] == "/echo":
        size, more = 0, True
        while more:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            size += len(message.get("body", b""))
            more = message.get("more_body", False)
        body = str(size).encode()
    headers = [(b"content-type", b"text/plain"), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": 200, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def main() -> None:
    """Listen on a free loopback port, print it, serve until terminated."""
    options = json.loads(sys.argv[1])
    if options.get("nofile"):
        resource.setrlimit(resource.RLIMIT_NOFILE, tuple(options["nofile"]))
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    sock.listen(2048)
    print(f"port {sock.getsockname()[1]}", flush=True)
    if options.get("plain"):
        import uvicorn

        config = uvicorn.Config(app, http=options["http"], log_level="warning")
        uvicorn.Server(config).run(sockets=[sock])
        return
    serving = load_serving()
    served: Any = serving.LocalOnlyGuard(app) if options.get("guard") else app
    limits = serving.FrontDoorLimits(**options.get("limits", {}))
    serving.serve(served, sock=sock, http=options["http"], limits=limits, log_level="warning")


if __name__ == "__main__":
    main()
