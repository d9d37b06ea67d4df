"""Draining on SIGTERM: refuse new sessions (readiness fails), let calls in flight finish for
up to ``SANDBOX_DRAIN_SECONDS``, then hand the signal to uvicorn, which stops the service.

A proxy sends a refused ``POST /sessions`` (503) to another instance; the sessions this one
holds keep answering while it drains (deploy/README.md).
"""

from __future__ import annotations

import asyncio
import json
import logging
import signal
import threading
import time
from collections.abc import Callable
from types import FrameType
from typing import Any

logger = logging.getLogger(__name__)

Scope = dict[str, Any]
ASGIApp = Callable[..., Any]
_REFUSAL = json.dumps({"detail": "this instance is draining: it takes no new sessions"}).encode()


class Drain:
    """The draining state of one service: requests in flight and whether SIGTERM came."""

    def __init__(self, bound_seconds: float) -> None:
        self.bound_seconds = bound_seconds
        self.draining = False
        self.in_flight = 0
        self._previous: Any = None

    def install(self) -> None:
        """Take SIGTERM over from uvicorn (it gets the signal once drained); main thread only."""
        if threading.current_thread() is not threading.main_thread():
            return
        loop = asyncio.get_running_loop()
        self._previous = signal.getsignal(signal.SIGTERM)

        def on_term(sig: int, frame: FrameType | None) -> None:
            loop.call_soon_threadsafe(self.begin, sig, frame)

        signal.signal(signal.SIGTERM, on_term)

    def begin(self, sig: int = signal.SIGTERM, frame: FrameType | None = None) -> None:
        """Stop taking sessions; a second SIGTERM stops at once."""
        if self.draining:
            self._hand_over(sig, frame)
            return
        self.draining = True
        logger.warning("SIGTERM: draining (%d requests in flight, up to %ss)",
                       self.in_flight, self.bound_seconds)
        asyncio.get_running_loop().create_task(self._finish(sig, frame))

    async def _finish(self, sig: int, frame: FrameType | None) -> None:
        deadline = time.monotonic() + self.bound_seconds
        while self.in_flight and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        if self.in_flight:
            logger.warning("drain bound reached with %d requests in flight", self.in_flight)
        self._hand_over(sig, frame)

    def _hand_over(self, sig: int, frame: FrameType | None) -> None:
        if callable(self._previous):
            self._previous(sig, frame)


class DrainMiddleware:
    """Counts requests in flight (all but /health) and refuses ``POST /sessions`` when draining."""

    def __init__(self, app: ASGIApp, drain: Drain) -> None:
        self.app = app
        self.drain = drain

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope["path"].startswith("/health"):
            await self.app(scope, receive, send)
            return
        if self.drain.draining and scope["method"] == "POST" and scope["path"] == "/sessions":
            await _refuse(send)
            return
        self.drain.in_flight += 1
        try:
            await self.app(scope, receive, send)
        finally:
            self.drain.in_flight -= 1


async def _refuse(send: Any) -> None:
    headers = [(b"content-type", b"application/json"), (b"retry-after", b"1"),
               (b"content-length", str(len(_REFUSAL)).encode())]
    await send({"type": "http.response.start", "status": 503, "headers": headers})
    await send({"type": "http.response.body", "body": _REFUSAL})
