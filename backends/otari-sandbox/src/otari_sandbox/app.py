"""The HTTP service: ``build_app(config)`` and the ``otari-sandbox`` command."""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI
from fastapi.responses import JSONResponse
from pydantic import ValidationError

from .api._serving import LocalOnlyGuard, is_loopback, serve
from .api.server import create_app
from .budget import ensure_fd_limit, fds_needed
from .config import Settings, changed_settings
from .drain import Drain, DrainMiddleware
from .exceptions import SandboxUnavailable
from .processes import become_subreaper
from .service import SandboxService
from .sessions import SessionManager, preflight

logger = logging.getLogger("otari_sandbox")


# Multipart framing around an uploaded file: boundaries, part headers, the `path` field.
UPLOAD_SLACK_BYTES = 64 * 1024
# Once drained (drain.py), what uvicorn still gives requests past the bound before it cancels them.
DRAIN_EXIT_SECONDS = 2


def build_app(config: Settings) -> FastAPI:
    """The contract's app over a SessionManager that starts and stops with the server."""
    manager = SessionManager(config)
    service = SandboxService(manager)
    drain = Drain(config.drain_seconds)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await manager.start()
        drain.install()
        try:
            yield
        finally:
            await manager.close()

    # Bodies are capped as they stream in (an upload is its file plus multipart framing, every
    # other body the JSON cap) and credentials are checked before one is read; an unknown
    # `tool` answers the declared 400 and an unparsable body the declared 422.
    caps = {"PutFile": config.max_upload_bytes + UPLOAD_SLACK_BYTES, "*": config.max_body_bytes}
    app: FastAPI = create_app(service, bearer_token=config.auth_token or None, lifespan=lifespan,
                              max_body_bytes=caps, title="otari-sandbox")
    app.state.manager = manager
    app.state.drain = drain
    app.add_middleware(DrainMiddleware, drain=drain)

    @app.get("/health", include_in_schema=False)
    async def health() -> dict[str, object]:
        return {
            "status": "ok",
            "isolation": config.isolation,
            # "cgroups": memory, processes and CPU capped per sandbox; "per-process": only
            # rlimits, because an operator turned cgroups off (--no-cgroups)
            "limits": "cgroups" if manager.cgroups is not None else "per-process",
            "session_count": manager.count(),
            "max_sessions": manager.capacity,
            "pooled": manager.pooled(),
            "pool_refill_errors": manager.refill_errors,
            "instance": config.instance,
            "draining": drain.draining,
            "requests_in_flight": drain.in_flight,
        }

    @app.get("/health/ready", include_in_schema=False)
    async def ready() -> JSONResponse:
        # Readiness (a proxy's or Kubernetes'): off while draining, so no new session lands here.
        if drain.draining:
            return JSONResponse({"status": "draining"}, status_code=503)
        return JSONResponse({"status": "ready"})

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
    parser.add_argument("--max-body-bytes", type=int, help="cap of every other (JSON) body")
    parser.add_argument(
        "--allowed-hosts",
        help="without a token: Host names served besides loopback ones (comma-separated, * = any)",
    )
    parser.add_argument(
        "--public-without-auth", action="store_true", default=None,
        help="allow a non-loopback --host without SANDBOX_AUTH_TOKEN (anyone who reaches the "
        "port runs code)",
    )
    parser.add_argument("--output-cap", dest="output_cap_bytes", type=int)
    parser.add_argument("--memory-mb", type=int)
    parser.add_argument("--nproc", type=int)
    parser.add_argument("--fsize-mb", type=int)
    parser.add_argument("--cpu-seconds", type=int)
    parser.add_argument("--cpus", type=float, help="CPU rate cap per sandbox (cgroups; default 1)")
    parser.add_argument("--workspace-mb", type=int, help="workspace quota (root: tmpfs; 0 = host disk)")
    parser.add_argument("--tmp-mb", type=int, help="/tmp + /dev/shm quota per sandbox (default 512)")
    parser.add_argument(
        "--total-memory-mb", type=int,
        help="memory of all sandboxes together (cgroups; default 3/4 of what the service may use)",
    )
    parser.add_argument("--python", help="the interpreter inside sandboxes (default /usr/bin/python3)")
    parser.add_argument("--uid-base", type=int, help="first host uid of the sandboxes (when root)")
    parser.add_argument(
        "--cgroups", action=argparse.BooleanOptionalAction,
        help="a cgroup per sandbox for its memory and process caps, when usable (default: on)",
    )
    parser.add_argument("--log-level", default="info")
    return parser


def parse_args(argv: Sequence[str] | None = None) -> tuple[argparse.Namespace, Settings]:
    """Flags over environment over defaults; ValidationError for a value that cannot work.

    ``args.setting_flags`` maps each field a flag set to that flag, for the start-up report.
    """
    parser = _parser()
    args = parser.parse_args(argv)
    skip = {"host", "port", "log_level"}
    flags = {k: v for k, v in vars(args).items() if k not in skip and v is not None}
    options = {action.dest: action.option_strings[0] for action in parser._actions}
    args.setting_flags = {field: options[field] for field in flags}
    return args, Settings(**flags)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the service under uvicorn."""
    try:
        args, config = parse_args(argv)
    except ValidationError as exc:
        problems = "; ".join(str(e["msg"]).removeprefix("Value error, ") for e in exc.errors())
        print(f"otari-sandbox: {problems}", file=sys.stderr)
        return 2
    logging.basicConfig(level=args.log_level.upper(), format="%(levelname)s %(name)s: %(message)s")
    for line in changed_settings(config, args.setting_flags):
        print(f"otari-sandbox: setting {line}", file=sys.stderr)
    # The no-auth guard, as tpmjs-executor's main(): without a token, loopback only unless the
    # operator says otherwise; the Host/Origin check is the generated api._serving's, shared.
    if not config.auth_token:
        if not is_loopback(args.host) and not config.public_without_auth:
            print(
                f"otari-sandbox: refusing to serve {args.host} without SANDBOX_AUTH_TOKEN: anyone "
                "who reaches the port could run code. Set a token, bind 127.0.0.1, or pass "
                "--public-without-auth.", file=sys.stderr,
            )
            return 2
        logger.warning(
            "NO AUTHENTICATION (SANDBOX_AUTH_TOKEN unset): every local user and process can run "
            "code through %s:%s; browsers are kept out by the Host/Origin guard", args.host, args.port,
        )
    # Before the front door sizes its connections from the limit.
    ensure_fd_limit(fds_needed(config))
    try:
        preflight(config)
    except SandboxUnavailable as exc:
        print(f"otari-sandbox: {exc}", file=sys.stderr)
        return 2
    # PID 1 on these machines does not reap orphans: make sure ours come back to us.
    become_subreaper()
    app = build_app(config)
    if not config.auth_token:
        # Without a token, browsers are kept out: DNS rebinding and cross-origin requests.
        hosts = config.allowed_hosts.split(",")
        serve(LocalOnlyGuard(app, allowed_hosts=hosts), host=args.host, port=args.port,
              log_level=args.log_level, timeout_graceful_shutdown=DRAIN_EXIT_SECONDS)
    else:
        serve(app, host=args.host, port=args.port, log_level=args.log_level,
              timeout_graceful_shutdown=DRAIN_EXIT_SECONDS)
    return 0
