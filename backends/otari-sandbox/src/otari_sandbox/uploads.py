"""An ASGI guard that enforces the upload cap while the body streams in, before any
multipart parsing spools it: a declared Content-Length over the cap is refused at once,
and a body that keeps coming is cut off at the cap (413) instead of being buffered."""

from __future__ import annotations

import json
import re
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

_UPLOAD_PATH = re.compile(r"^/sessions/[^/]+/files/?$")
# Multipart framing around the file: boundaries, part headers, the `path` field.
SLACK_BYTES = 64 * 1024


class _BodyTooLarge(BaseException):
    # A BaseException so that no `except Exception` on the way (FastAPI turns body
    # errors into 400) can swallow it before it reaches the guard.
    pass


class UploadLimit:
    """Wraps an ASGI app; only POSTs to the upload route are metered."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.limit = max_bytes + SLACK_BYTES
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "POST" or not _UPLOAD_PATH.match(scope["path"]):
            await self.app(scope, receive, send)
            return
        declared = _content_length(scope)
        if declared is not None and declared > self.limit:
            await self._refuse(send)
            return
        received = 0
        started = False

        async def metered_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.limit:
                    raise _BodyTooLarge
            return message

        async def tracking_send(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, metered_receive, tracking_send)
        except _BodyTooLarge:
            if not started:
                await self._refuse(send)

    async def _refuse(self, send: Send) -> None:
        body = json.dumps({"detail": f"file exceeds the {self.max_bytes} byte limit"}).encode()
        headers: list[Any] = [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
            (b"connection", b"close"),
        ]
        await send({"type": "http.response.start", "status": 413, "headers": headers})
        await send({"type": "http.response.body", "body": body})


def _content_length(scope: Scope) -> int | None:
    for name, value in scope["headers"]:
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None
