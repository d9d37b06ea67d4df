"""The HTTP service: `tpmjs-executor --host H --port P [--registry URL] [...]`.

Configuration comes from the environment (`EXECUTOR_*`, `npm_config_registry`; see
config.ENV_VARS) and is overridden by flags. The API key is read from `EXECUTOR_API_KEY` or
`--api-key-file`, never from a flag (command lines are visible to every local user).
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import socket
import sys
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from pydantic import ValidationError
from starlette.middleware import Middleware

from . import PROTOCOL_VERSION, __version__
from .api._serving import LocalOnlyGuard, default_bind_host, is_loopback, serve
from .api.server import create_app
from .config import Settings, changed_settings, settings_error
from .disconnect import CancelOnDisconnect
from .executor import Executor
from .middleware import ApiPrefix, Cors, RequestBody
from .service import ExecutorService

__all__ = ["build_app", "main", "parse_args"]

log = logging.getLogger("tpmjs_executor")


def build_app(settings: Settings, *, local_only: bool = False) -> Any:
    """The whole ASGI application: generated routes, our service, CORS and limits.

    `local_only` (a key-less executor on loopback) keeps browsers out: DNS rebinding and
    cross-origin simple requests answer the contract's 400 INVALID_REQUEST, with CORS headers.
    """
    executor = Executor(settings)
    service = ExecutorService(executor)

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await executor.start()
        try:
            yield
        finally:
            await executor.close()

    # The generated runtime checks the key (constant time) before any body is read, then caps
    # the body as it streams in (the declared 400 INVALID_REQUEST); RequestBody runs inside it.
    app = create_app(service, bearer_token=settings.api_key or None, lifespan=lifespan,
                     max_body_bytes=settings.max_body_bytes, version=__version__,
                     middleware=[Middleware(RequestBody)])
    app.state.executor = executor
    inner = LocalOnlyGuard(app, status=400, error_body=_invalid_request) if local_only else app
    return CancelOnDisconnect(Cors(ApiPrefix(inner), PROTOCOL_VERSION))


def parse_args(argv: Sequence[str] | None = None) -> tuple[argparse.Namespace, Settings]:
    """Flags over environment over defaults."""
    p = argparse.ArgumentParser(prog="tpmjs-executor", description=__doc__.splitlines()[0])
    p.add_argument("--host", default="127.0.0.1", help="interface to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8080, help="port, 0 for any free one (default 8080)")
    p.add_argument("--registry", help="npm registry URL (default: $npm_config_registry or npmjs)")
    p.add_argument("--store-dir", type=Path, help="package store directory")
    p.add_argument("--store-max-bytes", type=int, help="disk budget of the package store")
    p.add_argument("--seed-dir", type=Path, help="folder of .tgz packages installed at start-up")
    p.add_argument("--install-timeout-s", type=float, help="one npm install (default 60)")
    p.add_argument("--execution-timeout-s", type=float, help="per-call limit (default 120)")
    p.add_argument("--max-concurrency", type=int, help="calls running at once")
    p.add_argument("--max-queue", type=int, help="calls waiting beyond those; more are refused")
    p.add_argument(
        "--memory-mb", type=int, help="memory of a whole tool run (heap, buffers, children, /tmp)"
    )
    p.add_argument("--max-tasks", type=int, help="processes and threads of a whole tool run")
    p.add_argument("--isolation", choices=["auto", "bwrap", "process"])
    p.add_argument("--no-network", action="store_true", help="tools get no network (bwrap only)")
    p.add_argument("--no-cgroups", action="store_true",
                   help="run without a cgroup per run (rlimits per process only)")
    p.add_argument(
        "--network-allow", action="append", metavar="CIDR",
        help="IPv4 range tools may reach despite the deny-list (repeatable)",
    )
    p.add_argument(
        "--network-deny", action="append", metavar="CIDR",
        help="IPv4 range tools may not reach, besides the default deny-list (repeatable)",
    )
    p.add_argument("--pool-size", type=int, help="tool processes kept started ahead (0: none)")
    p.add_argument("--max-body-bytes", type=int)
    p.add_argument("--max-output-bytes", type=int)
    p.add_argument("--legacy-errors", action="store_true", help="answer `error` as a string")
    p.add_argument("--api-key-file", type=Path, help="file holding the API key")
    p.add_argument(
        "--allow-unauthenticated",
        action="store_true",
        help="listen beyond loopback even without an API key (anyone reaching it runs code)",
    )
    p.add_argument("--install-concurrency", type=int, help="npm installs at once (default 2)")
    p.add_argument("--install-slot-hold-s", type=float, help="an install's slot is lent out after")
    p.add_argument("--install-max-bytes", type=int, help="unpacked size of one install")
    p.add_argument("--install-max-files", type=int, help="files of one install")
    p.add_argument("--fetch-timeout-s", type=float, help="deadline of one registry metadata fetch")
    p.add_argument("--name", help="executor name shown by /info")
    p.add_argument("--log-level", default="info")
    args = p.parse_args(argv)
    flags = dict(
        registry=args.registry,
        store_dir=args.store_dir,
        store_max_bytes=args.store_max_bytes,
        seed_dir=args.seed_dir,
        install_timeout_s=args.install_timeout_s,
        execution_timeout_s=args.execution_timeout_s,
        max_concurrency=args.max_concurrency,
        max_queue=args.max_queue,
        memory_mb=args.memory_mb,
        max_tasks=args.max_tasks,
        isolation=args.isolation,
        network=False if args.no_network else None,
        cgroups=False if args.no_cgroups else None,
        network_allow=",".join(args.network_allow) if args.network_allow else None,
        network_deny=",".join(args.network_deny) if args.network_deny else None,
        pool_size=args.pool_size,
        max_body_bytes=args.max_body_bytes,
        max_output_bytes=args.max_output_bytes,
        legacy_errors=True if args.legacy_errors else None,
        api_key=_api_key(args.api_key_file),
        name=args.name,
        allow_unauthenticated=True if args.allow_unauthenticated else None,
        install_concurrency=args.install_concurrency,
        install_slot_hold_s=args.install_slot_hold_s,
        install_max_bytes=args.install_max_bytes,
        install_max_files=args.install_max_files,
        fetch_timeout_s=args.fetch_timeout_s,
    )
    # The environment fills what no flag says (pydantic-settings); flags win.
    given = {k: v for k, v in flags.items() if v is not None}
    spelled = {"api_key": "--api-key-file", "network": "--no-network", "cgroups": "--no-cgroups"}
    args.setting_flags = {k: spelled.get(k, "--" + k.replace("_", "-")) for k in given}
    return args, Settings(**given)


def _api_key(path: Path | None) -> str | None:
    """The key from `path` (None: EXECUTOR_API_KEY, read by Settings); an empty one is an
    error, never "no authentication"."""
    if path is None:
        return None
    key = path.read_text().strip()
    if not key:
        raise ValueError(f"the API key file {path} is empty")
    return key


def _invalid_request(message: str) -> dict[str, Any]:
    return {"success": False, "error": {"code": "INVALID_REQUEST", "message": message}}


def _refuse(why: str) -> int:
    """Exit status 2 (as otari-sandbox, and argparse) with one line on stderr."""
    print(f"tpmjs-executor: {why}", file=sys.stderr)
    return 2


def main(argv: Sequence[str] | None = None) -> int:
    """Run the service until interrupted; 2 for a configuration it refuses."""
    try:
        args, settings = parse_args(argv)
    except ValidationError as exc:
        return _refuse(settings_error(exc))
    except (ValueError, OSError) as exc:
        return _refuse(str(exc))
    logging.basicConfig(level=args.log_level.upper(), format="%(levelname)s %(name)s: %(message)s")
    for line in changed_settings(settings, args.setting_flags):
        print(f"tpmjs-executor: setting {line}", file=sys.stderr)
    # The no-auth guard, as otari-sandbox's main(): without a key, loopback only unless the
    # operator says otherwise; the Host/Origin check is the generated api._serving's, shared.
    if not settings.api_key:
        loopback = is_loopback(args.host)
        if not loopback and not settings.allow_unauthenticated:
            return _refuse(
                f"refusing to listen on {args.host} without an API key: set "
                "EXECUTOR_API_KEY or --api-key-file, or pass --allow-unauthenticated"
            )
        log.warning(
            "NO API KEY: anyone who can reach %s:%s can run any npm package here%s",
            args.host, args.port,
            "" if loopback else " (and it listens beyond loopback)",
        )  # fmt: skip
    host = default_bind_host(bool(settings.api_key), args.host)
    try:
        app = build_app(settings, local_only=not settings.api_key and is_loopback(host))
    except ValueError as exc:
        return _refuse(str(exc))
    family = socket.AF_INET6 if ":" in args.host else socket.AF_INET
    # proto must be IPPROTO_TCP: asyncio sets TCP_NODELAY on accepted connections only then,
    # and without it every response waits ~40 ms on Nagle and delayed ACKs.
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    sock.bind((host, args.port))
    host, port = sock.getsockname()[:2]
    # Printed before serving so a supervisor (or a test) can learn a port chosen by the OS.
    print(f"tpmjs-executor listening on http://{host}:{port}", flush=True)
    log.info(
        "isolation=%s registry=%s store=%s auth=%s",
        "process" if settings.isolation == "process" else "bwrap",
        settings.registry,
        settings.store_dir,
        "on" if settings.api_key else "off",
    )
    serve(app, sock=sock, log_level=args.log_level, lifespan="on", timeout_graceful_shutdown=5)
    return 0


if __name__ == "__main__":
    sys.exit(main())
