"""Retries, timeouts and deadlines of the generated client: how one call is sent.

Copied verbatim into every client (already black-formatted). `Retry` and `Options` are
exported by `client`; the rest is private.

A call is tried again only when that cannot do a thing twice: the request never reached the
server (connection refused), its method is idempotent (RFC 9110 section 9.2.2), it carries an
idempotency key (the operation declares an `Idempotency-Key` header, or `Retry` names one),
generated once per call and sent unchanged with every attempt, or the answer's status is one
the contract marks `x-contractgen-retryable` (the service says it did nothing).
"""

import asyncio
import copy
import dataclasses
import email.utils
import random
import time
import uuid
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Self

import httpx

from . import errors
from ._client_runtime import REQUEST_ID_HEADERS, _Request

IDEMPOTENT = frozenset({"GET", "HEAD", "OPTIONS", "PUT", "DELETE", "TRACE"})
# Failures before the request was sent: safe to retry whatever the method.
_NOT_SENT = (httpx.ConnectError, httpx.ConnectTimeout, httpx.PoolTimeout)


@dataclasses.dataclass(frozen=True)
class Retry:
    """When a call is tried again, and how long it waits in between.

    The wait before retry n (1, 2...) is `backoff * 2**(n-1)`, at most `max_backoff`, less a
    random part of up to `jitter` of it; a `Retry-After` answer (seconds or an HTTP date) is
    waited for instead, or kept as the answer when it asks for more than `max_retry_after`.
    `clock`, `wall`, `sleep`, `asleep` and `random` are for tests.
    """

    max_retries: int = 2
    statuses: frozenset[int] = frozenset({408, 429, 500, 502, 503, 504})
    backoff: float = 0.5
    max_backoff: float = 8.0
    jitter: float = 0.25
    max_retry_after: float = 60.0
    idempotency_header: str | None = None
    clock: Callable[[], float] = dataclasses.field(
        default=time.monotonic, compare=False
    )
    wall: Callable[[], float] = dataclasses.field(default=time.time, compare=False)
    sleep: Callable[[float], None] = dataclasses.field(
        default=time.sleep, compare=False
    )
    asleep: Callable[[float], Awaitable[None]] = dataclasses.field(
        default=asyncio.sleep, compare=False
    )
    random: Callable[[], float] = dataclasses.field(
        default=random.random, compare=False
    )


NO_RETRY = Retry(max_retries=0)


@dataclasses.dataclass(frozen=True)
class Options:
    """How a client sends its calls: retries, timeouts (httpx's connect, read, write and pool;
    `total` for each attempt, from sending to the last byte), the `deadline` of a whole call
    across its attempts and waits (seconds), and the headers that carry a request id."""

    retry: Retry = Retry()
    timeout: httpx.Timeout = dataclasses.field(
        default_factory=lambda: httpx.Timeout(30.0)
    )
    total: float | None = None
    deadline: float | None = None
    request_id_headers: tuple[str, ...] = REQUEST_ID_HEADERS
    open_enums: bool = True


def _options(
    *,
    retry: Retry | None,
    timeout: float | httpx.Timeout,
    total: float | None,
    deadline: float | None,
    request_id_headers: Sequence[str],
    open_enums: bool,
) -> Options:
    return Options(
        retry or Retry(),
        httpx.Timeout(timeout),
        total,
        deadline,
        tuple(name.lower() for name in request_id_headers),
        open_enums,
    )


class _Configurable:
    """`with_options` of `Client` and `AsyncClient`."""

    _options: Options

    def with_options(
        self,
        *,
        retry: Retry | None = None,
        timeout: float | httpx.Timeout | None = None,
        total: float | None = None,
        deadline: float | None = None,
        open_enums: bool | None = None,
    ) -> Self:
        """This client (its connections and credentials) with other options for the calls made
        through the copy: `client.with_options(retry=NO_RETRY, deadline=5).get_item("7")`.
        """
        changes: dict[str, Any] = {
            "retry": retry,
            "total": total,
            "deadline": deadline,
            "open_enums": open_enums,
        }
        if timeout is not None:
            changes["timeout"] = httpx.Timeout(timeout)
        clone = copy.copy(self)
        clone._options = dataclasses.replace(
            self._options, **{k: v for k, v in changes.items() if v is not None}
        )
        return clone


def _replayable(request: _Request) -> bool:
    """Whether the body can be sent again (a file object is read once)."""
    parts = [part[1] for part in request.files or ()]
    contents = [part[1] if isinstance(part, tuple) else part for part in parts]
    return all(isinstance(content, bytes | str | None) for content in contents)


def _retry_after(response: httpx.Response, wall: Callable[[], float]) -> float | None:
    """The seconds a `Retry-After` header asks for (a number or an HTTP date), if any."""
    value = response.headers.get("retry-after", "").strip()
    if not value:
        return None
    if value.isdigit():
        return float(value)
    try:
        return max(0.0, email.utils.parsedate_to_datetime(value).timestamp() - wall())
    except (TypeError, ValueError):
        return None


class _Plan:
    """One call: its attempts, its waits and its idempotency key."""

    def __init__(self, request: _Request, options: Options) -> None:
        self.request, self.options, self.retry = request, options, options.retry
        self.start = self.retry.clock()
        self.attempt = 0
        self.headers = dict(request.headers or {})
        name = request.idempotency or self.retry.idempotency_header
        safe = request.method in IDEMPOTENT
        if name and not safe:
            if name.lower() not in {key.lower() for key in self.headers}:
                self.headers[name] = str(uuid.uuid4())
            safe = True
        self.safe = safe and _replayable(request)

    def _left(self) -> float | None:
        if self.options.deadline is None:
            return None
        return self.options.deadline - (self.retry.clock() - self.start)

    def next(self) -> tuple[dict[str, Any], float | None]:
        """The next attempt's arguments for httpx's `request`, and its total time limit."""
        self.attempt += 1
        left = self._left()
        if left is not None and left <= 0:
            raise self.failure(httpx.TimeoutException("the call's deadline passed"))
        limits = [x for x in (self.options.total, left) if x is not None]
        limit = min(limits) if limits else None
        timeout = self.options.timeout
        if limit is not None:
            connect, read, write, pool = (
                limit if x is None else min(x, limit) for x in _phases(timeout)
            )
            timeout = httpx.Timeout(connect=connect, read=read, write=write, pool=pool)
        request = self.request
        extensions = {
            "contractgen_attempt": self.attempt,
            "contractgen_request_id": self.options.request_id_headers,
            "contractgen_open_enums": self.options.open_enums,
            "contractgen_operation": request.operation,
        }
        kwargs = {
            "method": request.method,
            "url": request.url,
            "params": request.params,
            "headers": self.headers,
            "content": request.content,
            "data": request.data,
            "files": request.files,
            "timeout": timeout,
            "extensions": extensions,
        }
        return kwargs, limit

    def answered(self, response: httpx.Response) -> float | None:
        """How long to wait before trying again, or None to keep this answer."""
        status = response.status_code
        declared = status in self.request.retryable and _replayable(self.request)
        if not declared and (status not in self.retry.statuses or not self.safe):
            return None
        wait = _retry_after(response, self.retry.wall)
        if wait is not None and wait > self.retry.max_retry_after:
            return None
        return self._within(self._backoff() if wait is None else wait)

    def failed(self, exc: httpx.TransportError) -> float:
        """How long to wait after a failure; raises `errors.TransportError` to give up."""
        wait = None
        if self.safe or isinstance(exc, _NOT_SENT):
            wait = self._within(self._backoff())
        if wait is None:
            raise self.failure(exc) from exc
        return wait

    def failure(self, exc: httpx.TransportError) -> errors.TransportError:
        """The client's error for a transport failure: TimedOut for a timeout."""
        cls = errors.TimedOut if isinstance(exc, httpx.TimeoutException) else None
        message = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
        error = (cls or errors.TransportError)(message)
        error.operation = self.request.operation or None
        error.attempts = self.attempt
        return error

    def _backoff(self) -> float:
        delay = min(
            self.retry.max_backoff, self.retry.backoff * 2.0 ** (self.attempt - 1)
        )
        return delay * (1 - self.retry.jitter * self.retry.random())

    def _within(self, wait: float) -> float | None:
        if self.attempt > self.retry.max_retries:
            return None
        left = self._left()
        return None if left is not None and wait >= left else wait


def _phases(timeout: httpx.Timeout) -> tuple[float | None, ...]:
    return timeout.connect, timeout.read, timeout.write, timeout.pool


def _send(http: httpx.Client, request: _Request, options: Options) -> httpx.Response:
    """Send one call, trying again as `options.retry` allows."""
    plan = _Plan(request, options)
    while True:
        try:
            response = _attempt(http, *plan.next())
        except httpx.TransportError as exc:
            wait = plan.failed(exc)
        else:
            found = plan.answered(response)
            if found is None:
                return response
            wait = found
        options.retry.sleep(wait)


async def _asend(
    http: httpx.AsyncClient, request: _Request, options: Options
) -> httpx.Response:
    """Send one call, trying again as `options.retry` allows."""
    plan = _Plan(request, options)
    while True:
        try:
            response = await _aattempt(http, *plan.next())
        except httpx.TransportError as exc:
            wait = plan.failed(exc)
        else:
            found = plan.answered(response)
            if found is None:
                return response
            wait = found
        await options.retry.asleep(wait)


def _attempt(
    http: httpx.Client, kwargs: dict[str, Any], limit: float | None
) -> httpx.Response:
    """One attempt; with a `limit`, the body is read in chunks, the time checked after each
    (a sync socket read cannot be cut short: the total may run over by one read timeout).
    """
    if limit is None:
        return http.request(**kwargs)
    ends = time.monotonic() + limit
    response = http.send(http.build_request(**kwargs), stream=True)
    chunks = []
    try:
        for chunk in response.iter_raw():
            chunks.append(chunk)
            if time.monotonic() > ends:
                raise httpx.ReadTimeout(
                    "the total timeout passed", request=response.request
                )
    finally:
        response.close()
    return _whole(response, b"".join(chunks))


async def _aattempt(
    http: httpx.AsyncClient, kwargs: dict[str, Any], limit: float | None
) -> httpx.Response:
    """One attempt, cancelled when its `limit` passes."""
    if limit is None:
        return await http.request(**kwargs)
    try:
        return await asyncio.wait_for(http.request(**kwargs), limit)
    except TimeoutError:
        raise httpx.ReadTimeout("the total timeout passed") from None


def _whole(response: httpx.Response, raw: bytes) -> httpx.Response:
    """A streamed response as if read at once (the body decoded as httpx would)."""
    return httpx.Response(
        response.status_code,
        headers=response.headers,
        content=raw,
        request=response.request,
        extensions=response.extensions,
    )
