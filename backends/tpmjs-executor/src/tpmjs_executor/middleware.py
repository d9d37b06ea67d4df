"""ASGI layers around the generated app, outermost first:

    Cors          CORS and protocol headers on every response, errors and 500s included
    ApiPrefix     `/api/health`, `/api/info`, `/api/execute-tool` as aliases (as the templates do)
    RequestBody   for execute-tool: decide authentication before reading anything; without
                  an API key, refuse cross-origin (browser) requests; refuse bodies over the
                  advertised limit while they stream in; read the body as JSON whatever its
                  Content-Type, refuse malformed JSON (NaN, nesting past the limit, lone
                  surrogates) clearly, and smooth the platform's quirks (env as a list, nulls)

They wrap the whole FastAPI app (not `app.add_middleware`), so that even the answers of
Starlette's outermost error handler carry the CORS headers.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any
from urllib.parse import urlsplit

from .jsonvalues import MAX_DEPTH, check_json

__all__ = ["CORS_HEADERS", "ApiPrefix", "Cors", "RequestBody", "normalize_execute_body"]

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

CORS_HEADERS = {
    "access-control-allow-origin": "*",
    "access-control-allow-methods": "GET, POST, OPTIONS",
    "access-control-allow-headers": "Content-Type, Authorization, X-TPMJS-Protocol-Version",
    "access-control-max-age": "86400",
}
_ENDPOINTS = ("/health", "/info", "/execute-tool")
_PARSE_IN_THREAD = 256 * 1024


class Cors:
    """Adds the CORS headers and `X-TPMJS-Protocol-Version` to every HTTP response."""

    def __init__(self, app: ASGIApp, protocol_version: str) -> None:
        self.app = app
        extra = {**CORS_HEADERS, "x-tpmjs-protocol-version": protocol_version}
        self._headers = [(k.encode(), v.encode()) for k, v in extra.items()]
        self._names = {k.encode() for k in extra}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                kept = [
                    (k, v) for k, v in message.get("headers", []) if k.lower() not in self._names
                ]
                message["headers"] = kept + self._headers
            await send(message)

        await self.app(scope, receive, send_with_headers)


class ApiPrefix:
    """Serves `/api/<endpoint>` as `/<endpoint>`."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "")
        if scope["type"] == "http" and path.startswith("/api/") and path[4:] in _ENDPOINTS:
            scope = dict(scope)
            scope["path"] = path[4:]
            scope["raw_path"] = path[4:].encode()
        await self.app(scope, receive, send)


def normalize_execute_body(doc: Any) -> Any:
    """The platform's quirks, smoothed: an `env` that is not an object (a tool's env
    declaration is sometimes sent as a list) is dropped, and so are null `env`, `params`
    and `version` (meaning: not given)."""
    if not isinstance(doc, dict):
        return doc
    out = dict(doc)
    if "env" in out and not isinstance(out["env"], dict):
        del out["env"]
    for key in ("params", "version"):
        if key in out and out[key] is None:
            del out[key]
    return out


class RequestBody:
    """Guards and prepares the execute-tool body (see the module docstring): 401 without
    valid credentials when `verify` is set, else 400 INVALID_REQUEST for a cross-origin
    request; 400 for a body over `limit` bytes, read no further."""

    def __init__(
        self, app: ASGIApp, limit: int, verify: Callable[[str | None], bool] | None = None
    ) -> None:
        self.app = app
        self.limit = limit
        self.verify = verify

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            scope["type"] != "http"
            or scope["method"] != "POST"
            or scope.get("path") != "/execute-tool"
        ):
            await self.app(scope, receive, send)
            return
        headers = _headers(scope)
        if self.verify is not None:
            if not self.verify(_bearer(headers.get("authorization", ""))):
                await _refuse(send, "Invalid or missing credentials", 401, "UNAUTHORIZED")
                return
        elif _cross_origin(headers):
            # Without a key, a web page must not be able to run tools through the browser of
            # someone who can reach this executor (a text/plain POST needs no CORS preflight).
            await _refuse(
                send,
                "Cross-origin requests are refused: this executor has no API key configured",
            )
            return
        declared = _content_length(scope)
        if declared is not None and declared > self.limit:
            await _refuse(send, f"Request body exceeds the {self.limit}-byte limit")
            return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.limit:
                await _refuse(send, f"Request body exceeds the {self.limit}-byte limit")
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        try:
            body = await _normalized(body)
        except ValueError as exc:
            await _refuse(send, f"Request body is not valid JSON: {exc}")
            return
        kept = [(k, v) for k, v in scope.get("headers", []) if k.lower() != b"content-type"]
        scope = {**scope, "headers": [*kept, (b"content-type", b"application/json")]}
        await self.app(scope, _replay(body, receive), send)


def _headers(scope: Scope) -> dict[str, str]:
    return {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}


def _bearer(value: str) -> str | None:
    # As the generated security check reads it: RFC 9110 schemes are case-insensitive.
    kind, _, credential = value.strip().partition(" ")
    return credential.strip() or None if kind.lower() == "bearer" else None


def _cross_origin(headers: dict[str, str]) -> bool:
    if headers.get("sec-fetch-site", "same-origin") not in ("same-origin", "none"):
        return True
    origin = headers.get("origin")
    if origin is None:
        return False  # not sent by a browser (browsers send Origin on every cross-origin POST)
    return origin == "null" or urlsplit(origin).netloc.lower() != headers.get("host", "").lower()


async def _refuse(
    send: Send, message: str, status: int = 400, code: str = "INVALID_REQUEST"
) -> None:
    payload = json.dumps({"success": False, "error": {"code": code, "message": message}}).encode()
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(payload)).encode()),
        (b"connection", b"close"),
    ]
    if status == 401:
        headers.append((b"www-authenticate", b"Bearer"))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": payload})


def _content_length(scope: Scope) -> int | None:
    for name, value in scope.get("headers", []):
        if name.lower() == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None


async def _normalized(body: bytes) -> bytes:
    def work() -> bytes:
        try:
            doc = json.loads(body, parse_constant=_not_json)
        except RecursionError:
            raise ValueError(f"it is nested deeper than {MAX_DEPTH + 1} levels") from None
        # One level for the body object itself, so `params` may nest MAX_DEPTH levels.
        check_json(doc, "it", MAX_DEPTH + 1)
        fixed = normalize_execute_body(doc)
        return body if fixed is doc or fixed == doc else json.dumps(fixed).encode()

    # Large bodies are parsed off the event loop, so /health stays fast.
    return await asyncio.to_thread(work) if len(body) > _PARSE_IN_THREAD else work()


def _not_json(constant: str) -> Any:
    raise ValueError(f"{constant} is not a JSON number")


def _replay(body: bytes, receive: Receive) -> Receive:
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay
