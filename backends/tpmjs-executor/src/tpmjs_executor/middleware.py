"""ASGI layers around the generated app, outermost first:

    Cors          CORS and protocol headers on every response, errors and 500s included
    ApiPrefix     `/api/health`, `/api/info`, `/api/execute-tool` as aliases (as the templates do)
    RequestBody   read the execute-tool body as JSON whatever its Content-Type, refuse
                  malformed JSON (NaN, nesting past the limit, lone surrogates) clearly, and
                  smooth the platform's quirks (env as a list, nulls); it runs inside the
                  generated app (`create_app(middleware=...)`), after the generated gate has
                  checked the key and while it caps the body. Browsers are kept out of a
                  key-less executor by `_serving.LocalOnlyGuard` (see `app.main`).

Cors and ApiPrefix wrap the whole FastAPI app (not `app.add_middleware`), so that even the
answers of Starlette's outermost error handler carry the CORS headers.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

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
    """Prepares the execute-tool body (see the module docstring); the generated gate outside
    it has capped the body (`create_app(max_body_bytes=...)`) as it streams in."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "POST" or scope.get("path") != "/execute-tool":
            await self.app(scope, receive, send)
            return
        chunks: list[bytes] = []
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            chunks.append(message.get("body", b""))
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


async def _refuse(send: Send, message: str) -> None:
    error = {"code": "INVALID_REQUEST", "message": message}
    payload = json.dumps({"success": False, "error": error}).encode()
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(payload)).encode()),
        (b"connection", b"close"),
    ]
    await send({"type": "http.response.start", "status": 400, "headers": headers})
    await send({"type": "http.response.body", "body": payload})


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
