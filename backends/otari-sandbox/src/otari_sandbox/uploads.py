"""An ASGI guard that caps every request body while it streams in, before anything parses
it: a declared Content-Length over the cap is refused at once, and a body that keeps coming
is cut off at the cap (413) instead of being buffered.

Uploads (POST /sessions/{id}/files) get the upload cap plus multipart framing; every other
route gets the JSON cap, so a 64 MiB `code` is refused before a byte of it is parsed.
"""

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


class BodyLimit:
    """Wraps an ASGI app; every request body is metered against its route's cap."""

    def __init__(self, app: ASGIApp, max_upload_bytes: int, max_json_bytes: int) -> None:
        self.app = app
        self.max_upload_bytes = max_upload_bytes
        self.max_json_bytes = max_json_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if scope["method"] == "POST" and _UPLOAD_PATH.match(scope["path"]):
            cap, limit, what = self.max_upload_bytes, self.max_upload_bytes + SLACK_BYTES, "file"
        else:
            cap, limit, what = self.max_json_bytes, self.max_json_bytes, "request body"
        detail = f"{what} exceeds the {cap} byte limit"
        declared = _content_length(scope)
        if declared is not None and declared > limit:
            await _refuse(send, detail)
            return
        received = 0
        started = False

        async def metered_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
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
                await _refuse(send, detail)


async def _refuse(send: Send, detail: str) -> None:
    body = json.dumps({"detail": detail}).encode()
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
