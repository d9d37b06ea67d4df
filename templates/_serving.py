"""Front door of the generated server: uvicorn with the limits a hostile network peer needs.

Copied verbatim into every package contractgen generates; it needs uvicorn, not the contract.

- `serve(app, host=..., port=..., limits=FrontDoorLimits())` runs uvicorn behind the door:
  request heads are counted before any HTTP parser sees them (431 past `max_header_bytes` or
  `max_header_count`, linear cost whichever parser runs), a head must arrive within
  `header_timeout`, a body may not stall longer than `body_idle_timeout`, and connections past
  `max_connections` are answered 503 and closed at once.
- `raise_fd_limit()` and `fd_budget(limits)`: the descriptor budget a service sizes its capacity by.
- `front_door_protocol(http, limits, max_connections)`: the uvicorn protocol class `serve` uses.
- `LocalOnlyGuard`, `default_bind_host` and `is_loopback`: for services without credentials.

See docs/generated-api.md, "Serving". Why: issue 9 (a 200 MiB header cost httptools 48 s of CPU;
1100 half-sent requests exhausted the descriptors).
"""

import asyncio
import importlib.util
import ipaddress
import json
import logging
import resource
import socket
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from http import HTTPStatus
from typing import Any, ClassVar, cast
from urllib.parse import urlsplit

import h11
import uvicorn
from starlette.routing import Match
from starlette.types import ASGIApp, Receive, Scope, Send
from uvicorn.protocols.http.flow_control import FlowControl
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.server import ServerState

__all__ = [
    "DEFAULT_MAX_CONNECTIONS",
    "RESERVED_FDS",
    "FdBudget",
    "FrontDoorLimits",
    "LocalOnlyGuard",
    "default_bind_host",
    "fd_budget",
    "front_door_protocol",
    "is_loopback",
    "raise_fd_limit",
    "serve",
]

logger = logging.getLogger(__name__)

DEFAULT_MAX_CONNECTIONS = 1024
"""The connection cap when none is given, lowered to half the descriptors a process may open."""

RESERVED_FDS = 64
"""Descriptors kept out of every budget: listeners, logs, imports, the event loop itself."""

_LINGER_SECONDS = 2.0
# asyncio reads at most this much at once: the most a pipelined head can add uncounted.
_MAX_READ = 256 * 1024


@dataclass(frozen=True)
class FrontDoorLimits:
    """What one connection may cost before and while the application sees its request."""

    max_header_bytes: int = 64 * 1024
    """Request line plus header fields; a longer head is answered 431 and closed."""
    max_header_count: int = 100
    """Header fields in one request; more are answered 431 and closed."""
    header_timeout: float = 5.0
    """Seconds from accept (or a later request's first byte) to the end of the head."""
    body_idle_timeout: float = 10.0
    """Seconds a request body may stall while the server reads it; then the connection closes."""
    keep_alive_timeout: int = 5
    """Seconds an idle keep-alive connection stays open between requests."""
    max_connections: int | None = None
    """Open connections; more are answered 503 and closed. None: sized from `fd_budget`."""

    def __post_init__(self) -> None:
        for name, value in vars(self).items():
            if value is not None and not value > 0:
                raise ValueError(
                    f"FrontDoorLimits.{name} must be positive, not {value!r}"
                )


@dataclass(frozen=True)
class FdBudget:
    """This process's file descriptors: the limit, and the share client connections may take."""

    limit: int
    connections: int

    @property
    def spare(self) -> int:
        """Descriptors left for the service's own work when every connection slot is taken."""
        return max(0, self.limit - self.connections - RESERVED_FDS)


def _nr_open() -> int:
    try:
        with open("/proc/sys/fs/nr_open", encoding="ascii") as f:
            return int(f.read())
    except (OSError, ValueError):
        return 1 << 20


def raise_fd_limit() -> int:
    """Raise the soft RLIMIT_NOFILE to the hard limit; the soft limit in force afterwards."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = _nr_open() if hard == resource.RLIM_INFINITY else hard
    if soft == resource.RLIM_INFINITY:
        return target
    if soft < target:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError) as exc:
            logger.warning("could not raise the descriptor limit %d: %s", soft, exc)
    return soft


def fd_budget(limits: FrontDoorLimits | None = None) -> FdBudget:
    """Raise the descriptor limit, then split it: connection slots, and the rest (`spare`)."""
    limits = limits or FrontDoorLimits()
    limit = raise_fd_limit()
    connections = limits.max_connections
    if connections is None:
        connections = max(16, min(DEFAULT_MAX_CONNECTIONS, (limit - RESERVED_FDS) // 2))
    elif connections > limit - RESERVED_FDS:
        logger.warning(
            "max_connections=%d leaves no descriptors for work (limit %d)",
            connections,
            limit,
        )
    return FdBudget(limit=limit, connections=connections)


# -- the head gate -----------------------------------------------------------------------------
class _TooLarge(Exception):
    pass


def _head_end(window: bytes) -> int:
    """Offset just past the first empty line (CRLF or bare LF), -1 when there is none yet."""
    crlf = window.find(b"\n\r\n")
    lf = window.find(b"\n\n")
    if crlf < 0:
        return -1 if lf < 0 else lf + 2
    return crlf + 3 if lf < 0 or crlf < lf else lf + 2


class _HeadGate:
    """Counts a request head's bytes and lines before the parser sees them: linear, bounded."""

    __slots__ = ("active", "lines", "size", "started", "tail")

    def __init__(self) -> None:
        self.reset(started=False)

    def reset(self, *, started: bool, tail: bytes = b"") -> None:
        self.active = True
        self.started = started
        self.size = 0
        self.lines = 0
        self.tail = tail

    def scan(self, data: bytes, limits: FrontDoorLimits) -> int:
        """The offset in `data` just past the head, or -1 when it goes on. Raises _TooLarge."""
        start = 0
        if not self.started:
            # RFC 9112 section 2.2: empty lines before a request line are ignored (not free).
            if data[:1] in (b"\r", b"\n"):
                start = len(data) - len(data.lstrip(b"\r\n"))
            self.size += start
            if self.size > limits.max_header_bytes:
                raise _TooLarge(f"request head over {limits.max_header_bytes} bytes")
            if start == len(data):
                return -1
            self.started = True
        room = limits.max_header_bytes - self.size
        prefix = len(self.tail)
        if prefix == 0 and start == 0 and len(data) <= room:
            window = data
        else:
            window = self.tail + data[start : start + room]
        end = _head_end(window)
        if end < 0:
            self.lines += window.count(b"\n", prefix)
            if len(data) - start > room:
                raise _TooLarge(f"request head over {limits.max_header_bytes} bytes")
            if self.lines - 1 > limits.max_header_count:
                raise _TooLarge(f"more than {limits.max_header_count} header fields")
            self.size += len(window) - prefix
            self.tail = window[-2:]
            return -1
        # Lines of the head: the request line, one per field, the empty line.
        self.lines += window.count(b"\n", prefix, end)
        if self.lines - 2 > limits.max_header_count:
            raise _TooLarge(f"more than {limits.max_header_count} header fields")
        self.active = False
        return start + max(0, end - prefix)


def _response(app: Any, status: int, reason: str, *extra: str) -> bytes:
    """A refusal written before any request reaches `app`: the contract's error for `status`
    where `app` is a generated app (its app-wide shape), else the reason as text."""
    found = _declared(app)
    declared = _error_body(found[1], "", status, reason) if found else None
    body, media = declared or (reason.encode(), "text/plain; charset=utf-8")
    head = [
        f"HTTP/1.1 {status} {HTTPStatus(status).phrase}",
        f"content-type: {media}",
        f"content-length: {len(body)}",
        "connection: close",
        *extra,
    ]
    return ("\r\n".join(head) + "\r\n\r\n").encode() + body


# Where the parser stands after a read.
_IDLE, _HEAD, _BODY, _OTHER = range(4)
# Timers.
_NO_TIMER, _HEAD_TIMER, _BODY_TIMER, _LINGER_TIMER = range(4)


class _Door:
    """One connection's front door: head gate, head and body timers, refusals."""

    __slots__ = (
        "_conn",
        "_gate",
        "_last_read",
        "_limits",
        "_open",
        "_timer",
        "_timer_kind",
    )

    def __init__(self, conn: "_FrontDoorMixin", limits: FrontDoorLimits) -> None:
        self._conn = conn
        self._limits = limits
        self._gate = _HeadGate()
        self._open = True
        self._timer: asyncio.TimerHandle | None = None
        self._timer_kind = _NO_TIMER
        self._last_read = 0.0
        # From accept: a connection that never sends a byte holds its slot no longer.
        self._arm(_HEAD_TIMER, limits.header_timeout)

    def _arm(self, kind: int, delay: float) -> None:
        self._cancel()
        self._timer_kind = kind
        self._timer = self._conn.loop.call_later(delay, self._expired)

    def _cancel(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._timer_kind = _NO_TIMER

    def close(self) -> None:
        """The connection is gone or handed over (upgrade): stop every timer."""
        self._open = False
        self._cancel()

    def before_parser(self, data: bytes) -> bool:
        """Whether the parser may see `data` (False once the connection is being refused)."""
        if not self._open:
            return False
        gate = self._gate
        if not gate.active:
            self._last_read = self._conn.loop.time()
            return True
        try:
            end = gate.scan(data, self._limits)
        except _TooLarge as exc:
            self._refuse(431, str(exc))
            return False
        if end >= 0:
            self._cancel()
        elif self._timer_kind != _HEAD_TIMER:
            # Armed only for a head that spans reads: a whole head in one read costs no timer.
            self._arm(_HEAD_TIMER, self._limits.header_timeout)
        return True

    def after_parser(self, data: bytes) -> None:
        """Follow the parser: arm the gate for the next head, or watch the body."""
        conn = self._conn
        if conn.transport.get_protocol() is not conn:
            self.close()
            return
        if not self._open or self._gate.active:
            return
        phase, pending = conn.front_door_phase()
        if phase == _BODY:
            if self._timer_kind != _BODY_TIMER:
                self._last_read = conn.loop.time()
                self._arm(_BODY_TIMER, self._limits.body_idle_timeout)
            return
        if self._timer_kind == _BODY_TIMER:
            self._cancel()
        if phase == _HEAD:
            # httptools began a pipelined head inside this read; count it from here on.
            self._gate.reset(started=True, tail=data[-2:])
            self._arm(_HEAD_TIMER, self._limits.header_timeout)
        elif phase == _IDLE:
            self._gate.reset(started=False)
            if pending:
                self.before_parser(pending)

    def _expired(self) -> None:
        self._timer = None
        kind, self._timer_kind = self._timer_kind, _NO_TIMER
        conn = self._conn
        if kind == _LINGER_TIMER:
            conn.transport.close()
        elif kind == _HEAD_TIMER and self._open and self._gate.active:
            self._open = False
            if self._gate.started and not conn.front_door_busy():
                conn.transport.write(
                    _response(conn.app, 408, "request head not received in time")
                )
            conn.transport.close()
        elif kind == _BODY_TIMER and self._open and conn.front_door_phase()[0] == _BODY:
            now = conn.loop.time()
            if conn.flow.read_paused:
                # Not the peer's stall: the application has not read what came.
                self._last_read = now
            if now < self._last_read + self._limits.body_idle_timeout:
                self._arm(
                    _BODY_TIMER, self._last_read + self._limits.body_idle_timeout - now
                )
                return
            self._open = False
            logger.info("closing a connection whose request body stalled")
            conn.transport.close()

    def _refuse(self, status: int, reason: str) -> None:
        logger.warning("%s: answered %d and closed", reason, status)
        self._open = False
        transport = self._conn.transport
        if self._conn.front_door_busy():
            # A pipelined head behind a response in flight: no room for a second answer.
            self._cancel()
            transport.close()
            return
        transport.write(_response(self._conn.app, status, reason))
        if transport.can_write_eof():
            transport.write_eof()
        # Keep reading (and dropping) a little while: closing with unread data would send
        # a reset, and the peer would likely never see the answer.
        self._arm(_LINGER_TIMER, _LINGER_SECONDS)


# -- the protocol classes ----------------------------------------------------------------------
class _FrontDoorMixin(asyncio.Protocol):
    """What both parsers' protocol classes share; mixed in before uvicorn's class."""

    front_door_limits: ClassVar[FrontDoorLimits] = FrontDoorLimits()
    front_door_max_connections: ClassVar[int] = DEFAULT_MAX_CONNECTIONS

    # Set by uvicorn's protocol classes.
    app: ASGIApp
    loop: asyncio.AbstractEventLoop
    transport: asyncio.Transport
    flow: FlowControl
    server_state: ServerState
    _door: _Door | None = None

    def front_door_phase(self) -> tuple[int, bytes | None]:
        """Where the parser stands, and the bytes it holds unparsed (None: not known)."""
        raise NotImplementedError

    def front_door_busy(self) -> bool:
        """Whether a request on this connection still has its response to finish."""
        raise NotImplementedError

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        if len(self.server_state.connections) >= self.front_door_max_connections:
            logger.warning("connection cap %d reached", self.front_door_max_connections)
            cast(asyncio.Transport, transport).write(
                _response(self.app, 503, "too many connections", "retry-after: 1")
            )
            transport.close()
            return
        super().connection_made(transport)
        self._door = _Door(self, self.front_door_limits)

    def connection_lost(self, exc: Exception | None) -> None:
        if self._door is None:
            return  # refused at accept
        self._door.close()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        door = self._door
        if door is not None and door.before_parser(data):
            super().data_received(data)
            door.after_parser(data)


class FrontDoorH11(_FrontDoorMixin, H11Protocol):
    """uvicorn's h11 protocol behind the front door."""

    def front_door_phase(self) -> tuple[int, bytes | None]:
        state = self.conn.their_state
        if state is h11.SEND_BODY:
            return _BODY, None
        if state is h11.IDLE or state is h11.DONE:
            return _IDLE, self.conn.trailing_data[0]
        return _OTHER, None

    def front_door_busy(self) -> bool:
        return self.cycle is not None and not self.cycle.response_complete


def _httptools_protocol() -> type[_FrontDoorMixin]:
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

    class FrontDoorHttpTools(_FrontDoorMixin, HttpToolsProtocol):
        """uvicorn's httptools protocol behind the front door."""

        _phase = _IDLE

        def front_door_phase(self) -> tuple[int, bytes | None]:
            return self._phase, None

        def front_door_busy(self) -> bool:
            return self.cycle is not None and not self.cycle.response_complete

        def on_message_begin(self) -> None:
            self._phase = _HEAD
            super().on_message_begin()

        def on_headers_complete(self) -> None:
            self._phase = _BODY
            super().on_headers_complete()

        def on_message_complete(self) -> None:
            self._phase = _IDLE
            super().on_message_complete()

    return FrontDoorHttpTools


def front_door_protocol(
    http: str = "auto",
    limits: FrontDoorLimits | None = None,
    max_connections: int | None = None,
) -> type[asyncio.Protocol]:
    """uvicorn's HTTP/1.1 protocol class for `http` ("auto", "httptools", "h11"), gated.

    Give uvicorn `h11_max_incomplete_event_size` above `max_header_bytes` too (`serve` does),
    so that h11's own cap does not answer 400 first.
    """
    limits = limits or FrontDoorLimits()
    if http == "auto":
        http = "httptools" if importlib.util.find_spec("httptools") else "h11"
    base: type[_FrontDoorMixin]
    if http == "httptools":
        base = _httptools_protocol()
    elif http == "h11":
        base = FrontDoorH11
    else:
        raise ValueError(f"http must be 'auto', 'httptools' or 'h11', not {http!r}")
    if max_connections is None:
        max_connections = fd_budget(limits).connections
    settings = {
        "front_door_limits": limits,
        "front_door_max_connections": max_connections,
    }
    return cast(type[asyncio.Protocol], type(base.__name__, (base,), settings))


class _Server(uvicorn.Server):
    """uvicorn's server, with the kernel's accept queue set apart from asyncio's accept batch."""

    listen_queue = 2048

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets=sockets)
        # asyncio listen()s with `backlog` and also accepts up to `backlog` connections per
        # loop turn; a refused one frees its descriptor a few turns later. A small batch keeps
        # a flood within the budget, a long queue (which costs no descriptors) absorbs bursts.
        for sock in sockets or ():
            sock.listen(self.listen_queue)


def _bind(host: str, port: int) -> socket.socket:
    family, kind, _, _, address = socket.getaddrinfo(
        host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
    )[0]
    # IPPROTO_TCP: asyncio sets TCP_NODELAY on accepted connections only then.
    sock = socket.socket(family, kind, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(address)
    return sock


def serve(
    app: Any,
    *,
    host: str = "127.0.0.1",
    port: int = 8000,
    sock: socket.socket | None = None,
    http: str = "auto",
    limits: FrontDoorLimits | None = None,
    log_level: str = "info",
    **uvicorn_options: Any,
) -> None:
    """Run `app` under uvicorn behind the front door until interrupted.

    `sock`, when given, is an already bound socket to serve on (host and port are then unused);
    `uvicorn_options` go to `uvicorn.Config` (e.g. `lifespan="on"`; `backlog` sets the length
    of the kernel's accept queue).
    """
    limits = limits or FrontDoorLimits()
    budget = fd_budget(limits)
    if sock is None:
        sock = _bind(host, port)
    logger.info(
        "front door on %s: %d connections (descriptor limit %d, %d spare); heads up to"
        " %d bytes and %d fields within %ss; bodies idle up to %ss",
        sock.getsockname(),
        budget.connections,
        budget.limit,
        budget.spare,
        limits.max_header_bytes,
        limits.max_header_count,
        limits.header_timeout,
        limits.body_idle_timeout,
    )
    listen_queue = uvicorn_options.pop("backlog", _Server.listen_queue)
    config = uvicorn.Config(
        app,
        log_level=log_level,
        http=front_door_protocol(http, limits, budget.connections),
        timeout_keep_alive=limits.keep_alive_timeout,
        h11_max_incomplete_event_size=limits.max_header_bytes + _MAX_READ,
        backlog=max(8, budget.connections // 16),
        **uvicorn_options,
    )
    server = _Server(config)
    server.listen_queue = listen_queue
    server.run(sockets=[sock])


# -- services without credentials --------------------------------------------------------------
def is_loopback(host: str) -> bool:
    """Whether `host` (a name or address, without port) can only mean this machine."""
    name = host.strip().lower().removeprefix("[").removesuffix("]").rstrip(".")
    # RFC 6761 section 6.3: localhost names resolve to loopback (browsers enforce it).
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        address = ipaddress.ip_address(name)
    except ValueError:
        return False
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped.is_loopback
    return address.is_loopback


def default_bind_host(auth_configured: bool, requested: str | None) -> str:
    """The address to listen on: `requested` when given, else loopback; warns without auth."""
    host = requested or "127.0.0.1"
    if auth_configured:
        return host
    if is_loopback(host):
        logger.warning(
            "no credentials configured: listening on %s only, for loopback clients",
            host,
        )
    else:
        logger.warning(
            "NO AUTHENTICATION and listening on %s: anyone who reaches this address can use "
            "this service. Configure credentials, or listen on 127.0.0.1.",
            host,
        )
    return host


_SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
# The content types a web page may POST cross-origin without a CORS preflight.
_SIMPLE_TYPES = frozenset(
    {"text/plain", "application/x-www-form-urlencoded", "multipart/form-data"}
)


def _local(name: str, allowed: frozenset[str]) -> bool:
    return is_loopback(name) or name.strip().lower().rstrip(".") in allowed


def _host_is_loopback(value: str, allowed: frozenset[str] = frozenset()) -> bool:
    """A Host header (RFC 9110 section 7.2: host and optional port) naming this machine."""
    value = value.strip()
    if value.startswith("["):
        name, bracket, rest = value[1:].partition("]")
        if not bracket or (rest and not rest.startswith(":")):
            return False
        port = rest[1:]
    else:
        name, _, port = value.partition(":")
    return (not port or port.isdigit()) and _local(name, allowed)


def _url_is_loopback(url: str, allowed: frozenset[str] = frozenset()) -> bool:
    try:
        parts = urlsplit(url)
    except ValueError:
        return False
    host = parts.hostname
    return (
        parts.scheme in ("http", "https") and host is not None and _local(host, allowed)
    )


def _refusal(scope: Scope, allowed: frozenset[str] = frozenset()) -> str | None:
    hosts: list[str] = []
    found: dict[bytes, str] = {}
    for name, value in scope["headers"]:
        if name == b"host":
            hosts.append(value.decode("latin-1"))
        elif name in (b"origin", b"referer", b"sec-fetch-site", b"content-type"):
            found[name] = value.decode("latin-1").strip()
    # DNS rebinding: a page on evil.example resolved to 127.0.0.1 still sends its own Host.
    if len(hosts) != 1 or not _host_is_loopback(hosts[0], allowed):
        return "the Host header must name a loopback address"
    origin = found.get(b"origin")
    if origin is not None and not _url_is_loopback(origin, allowed):
        return "cross-origin requests are refused"
    if found.get(b"sec-fetch-site", "").lower() == "cross-site":
        return "cross-site requests are refused"
    method = scope.get("method", "GET")
    kind = found.get(b"content-type", "").partition(";")[0].strip().lower()
    referer = found.get(b"referer")
    if (
        method not in _SAFE_METHODS
        and kind in _SIMPLE_TYPES
        and origin is None
        and referer is not None
        and not _url_is_loopback(referer, allowed)
    ):
        return "cross-origin requests are refused"
    return None


_STATUSES = frozenset(int(status) for status in HTTPStatus)


def _declared(app: Any) -> tuple[Any, Any] | None:
    """The generated app under `app` (a `create_app` app, maybe wrapped in middleware that
    keep it as `.app`) and its service, which builds error bodies in the contract's shapes.
    None if there is none."""
    for _ in range(16):
        service = getattr(getattr(app, "state", None), "service", None)
        if callable(getattr(service, "error_body", None)):
            return app, service
        app = getattr(app, "app", None)
        if app is None:
            return None
    return None


def _operation(app: Any, scope: Scope) -> str:
    """The operationId (route name) of the route the request is for, else ""."""
    for route in getattr(getattr(app, "router", None), "routes", ()):
        match, _ = route.matches(scope)
        if match is Match.FULL:
            return str(getattr(route, "name", "") or "")
    return ""


def _refusal_body(
    app: Any, scope: Scope, status: int, reason: str
) -> tuple[bytes, str]:
    """The body and media type of a refusal: the contract's error for the request's operation
    and `status` (its `default` response, else `{"detail": reason}` when none is declared).
    """
    found = _declared(app)
    declared = (
        _error_body(found[1], _operation(found[0], scope), status, reason)
        if found
        else None
    )
    return declared or (json.dumps({"detail": reason}).encode(), "application/json")


def _error_body(
    service: Any, operation_id: str, status: int, reason: str
) -> tuple[bytes, str] | None:
    """The body and media type the generated service builds for an error it did not see
    coming (None if building it fails: the caller's own shape is used)."""
    phrase = HTTPStatus(status).phrase if status in _STATUSES else "Error"
    code = phrase.upper().replace(" ", "_").replace("-", "_")
    try:
        body = service.error_body(operation_id, status, code, reason, None)
        media = str(service.error_media_type(operation_id, status))
        if body is None:
            return b"", media
        if isinstance(body, str) and "json" not in media.partition(";")[0]:
            return body.encode(), media
        if hasattr(body, "model_dump_json"):
            return body.model_dump_json(by_alias=True).encode(), media
        return json.dumps(body).encode(), media
    except Exception:
        logger.exception("building the error body of a %d refusal", status)
        return None


class LocalOnlyGuard:
    """ASGI middleware for a service without credentials: loopback names and pages only.

    Answers `status` (403; a WebSocket: close 1008) when the Host is not a loopback address
    or localhost (DNS rebinding), the Origin is not loopback, the browser says
    `Sec-Fetch-Site: cross-site`,
    or an unsafe request with a CORS-simple content type (a `text/plain` POST from a web page)
    comes from a non-loopback Referer. `allowed_hosts` names further hosts served as local
    (e.g. a name in /etc/hosts). The body is the contract's error for the request's operation
    and `status` (as the generated server answers its own errors; `{"detail": message}` when
    `app` is no generated app), or `error_body(message)` (JSON) when given.
    """

    def __init__(
        self,
        app: ASGIApp,
        *,
        allowed_hosts: Iterable[str] = (),
        status: int = 403,
        error_body: Callable[[str], Any] | None = None,
    ) -> None:
        self.app = app
        self.status = status
        self.allowed = frozenset(
            h.strip().lower().rstrip(".") for h in allowed_hosts if h.strip()
        )
        self.error_body = error_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        reason = (
            _refusal(scope, self.allowed)
            if scope["type"] in ("http", "websocket")
            else None
        )
        if reason is None:
            await self.app(scope, receive, send)
            return
        logger.warning(
            "refused %s %s: %s", scope.get("method", "WS"), scope["path"], reason
        )
        if scope["type"] == "websocket":
            await receive()
            await send({"type": "websocket.close", "code": 1008})
            return
        if self.error_body is not None:
            body, media = (
                json.dumps(self.error_body(reason)).encode(),
                "application/json",
            )
        else:
            body, media = _refusal_body(self.app, scope, self.status, reason)
        headers = [
            (b"content-type", media.encode("latin-1")),
            (b"content-length", str(len(body)).encode()),
        ]
        await send(
            {"type": "http.response.start", "status": self.status, "headers": headers}
        )
        await send({"type": "http.response.body", "body": body})
