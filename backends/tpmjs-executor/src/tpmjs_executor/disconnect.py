"""Cancel a request's handler when its client leaves before the answer is sent.

Starlette keeps running an endpoint whose client has disconnected, so a call would keep its
execution slot, and its install its npm process, until the end. This middleware listens for
`http.disconnect` once the body has been read and cancels the handler if the answer is not
complete: the store then stops an install nobody waits for (store.PackageStore.lease).
"""

from __future__ import annotations

import asyncio
import contextlib

from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["CancelOnDisconnect"]


class CancelOnDisconnect:
    """ASGI middleware: the handler of an HTTP request is cancelled when its client leaves."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        body_read = asyncio.Event()
        gone = asyncio.Event()
        answered = False

        async def receive_body() -> Message:
            if body_read.is_set():
                await gone.wait()  # only the watcher reads past the body
                return {"type": "http.disconnect"}
            message = await receive()
            if message["type"] == "http.disconnect":
                gone.set()
            if message["type"] == "http.disconnect" or not message.get("more_body", False):
                body_read.set()
            return message

        async def send_answer(message: Message) -> None:
            nonlocal answered
            if message["type"] == "http.response.body" and not message.get("more_body", False):
                answered = True
            await send(message)

        handler = asyncio.ensure_future(self.app(scope, receive_body, send_answer))

        async def watch() -> None:
            await body_read.wait()
            if not gone.is_set():
                while (await receive())["type"] != "http.disconnect":
                    pass
                gone.set()
            if not answered:
                handler.cancel()

        watcher = asyncio.create_task(watch())
        try:
            await asyncio.wait({handler})
        finally:
            watcher.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await watcher
            if not handler.done():  # we were cancelled ourselves
                handler.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await handler
        if not handler.cancelled():
            handler.result()  # the handler's own exception, if any, goes on up
