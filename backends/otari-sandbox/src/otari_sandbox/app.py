"""The HTTP service: ``build_app(config)`` and the ``otari-sandbox`` command."""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI

from .api._serving import LocalOnlyGuard, default_bind_host, is_loopback, serve
from .api.server import create_app
from .config import Config, from_env
from .exceptions import SandboxUnavailable
from .service import SandboxService
from .sessions import SessionManager, become_subreaper, preflight

logger = logging.getLogger("otari_sandbox")
# Multipart framing around an uploaded file: boundaries, part headers, the `path` field.
UPLOAD_SLACK_BYTES = 64 * 1024


def build_app(config: Config) -> FastAPI:
    """The contract's app over a SessionManager that starts and stops with the server."""
    manager = SessionManager(config)
    service = SandboxService(manager)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await manager.start()
        try:
            yield
        finally:
            await manager.close()

    # Bodies are capped as they stream in (an upload is its file plus multipart framing), and
    # credentials are checked before one is read; an unknown `tool` answers the declared 400.
    app = create_app(service, bearer_token=config.auth_token or None, lifespan=lifespan,
                     max_body_bytes=config.max_upload_bytes + UPLOAD_SLACK_BYTES,
                     title="otari-sandbox")
    app.state.manager = manager

    @app.get("/health", include_in_schema=False)
    async def health() -> dict[str, object]:
        return {
            "status": "ok",
            "isolation": config.isolation,
            "session_count": manager.count(),
            "max_sessions": config.capacity,
            "pooled": manager.pooled(),
        }

    return app


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="otari-sandbox",
        description="Otari code-execution backend (contract version 1). Every option can "
        "also be set with its SANDBOX_* variable; SANDBOX_AUTH_TOKEN enables bearer auth.",
    )
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8080)
    parser.add_argument("--isolation", choices=["bwrap", "none"], help="default: bwrap")
    parser.add_argument("--network", action=argparse.BooleanOptionalAction, help="default: off")
    parser.add_argument("--workspace-root", type=Path, help="default: a fresh directory in /tmp")
    parser.add_argument("--pool-size", type=int)
    parser.add_argument("--max-sessions", dest="capacity", type=int)
    parser.add_argument("--idle-timeout", dest="idle_timeout_seconds", type=int)
    parser.add_argument("--max-lifetime", dest="max_lifetime_seconds", type=int)
    parser.add_argument("--max-upload-bytes", type=int)
    parser.add_argument("--output-cap", dest="output_cap_bytes", type=int)
    parser.add_argument("--memory-mb", type=int)
    parser.add_argument("--nproc", type=int)
    parser.add_argument("--fsize-mb", type=int)
    parser.add_argument("--cpu-seconds", type=int)
    parser.add_argument("--python", help="the interpreter inside sandboxes (default /usr/bin/python3)")
    parser.add_argument("--uid-base", type=int, help="first host uid of the sandboxes (when root)")
    parser.add_argument(
        "--cgroups", action=argparse.BooleanOptionalAction,
        help="a cgroup per sandbox for its memory and process caps, when usable (default: on)",
    )
    parser.add_argument("--log-level", default="info")
    return parser


def config_from_args(argv: Sequence[str] | None = None) -> tuple[Config, argparse.Namespace]:
    """Environment first, flags over it."""
    args = _parser().parse_args(argv)
    skip = {"host", "port", "log_level"}
    flags = {k: v for k, v in vars(args).items() if k not in skip and v is not None}
    return from_env().with_overrides(**flags), args


def main(argv: Sequence[str] | None = None) -> int:
    """Run the service under uvicorn."""
    config, args = config_from_args(argv)
    logging.basicConfig(level=args.log_level.upper(), format="%(levelname)s %(name)s: %(message)s")
    try:
        preflight(config)
    except SandboxUnavailable as exc:
        print(f"otari-sandbox: {exc}", file=sys.stderr)
        return 2
    # PID 1 on these machines does not reap orphans: make sure ours come back to us.
    become_subreaper()
    host = default_bind_host(bool(config.auth_token), args.host)
    app = build_app(config)
    local = not config.auth_token and is_loopback(host)
    serve(LocalOnlyGuard(app) if local else app, host=host, port=args.port, log_level=args.log_level)
    return 0
