"""Signed webhooks (Standard Webhooks): the generated sender signs, the generated receiver
(uvicorn on loopback) verifies, refuses wrong signatures and replays, and accepts rotated keys."""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import importlib
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from gen_support import Generated, serve
from test_webhooks import pkg, received

OLD, NEW = ("whsec_" + base64.b64encode(key).decode() for key in (b"old key", b"new key"))
__all__ = ["pkg", "received"]  # the fixtures of test_webhooks, used here too


@pytest.fixture(scope="module")
def signing(pkg: Generated) -> Any:
    return importlib.import_module(f"{pkg.name}._webhook_signing")


@pytest.fixture(scope="module")
def url(pkg: Generated, received: list[Any], signing: Any) -> Iterator[str]:
    class Receiver(pkg.webhooks.WebhookReceiverBase):  # type: ignore[misc,name-defined]
        async def new_thing(self, body: Any) -> None:
            received.append(body.id)

    # Rotation: the receiver accepts the new key and, for now, the old one.
    verify = signing.StandardWebhooks([NEW, OLD], tolerance=60)
    with serve(pkg.webhooks.create_webhook_app(Receiver(), verify=verify)) as base:
        yield base


def test_sender_signs_and_receiver_verifies(pkg: Generated, signing: Any, url: str,
                                            received: list[Any]) -> None:
    for key in (NEW, OLD):
        signer = signing.StandardWebhooks(key)
        with pkg.sender.WebhookSender(signer=signer) as sender:
            sender.new_thing(f"{url}/webhooks/new_thing", pkg.models.EventRequest(id=key[-4:]))

    async def main() -> None:
        signer = signing.StandardWebhooks(NEW)
        async with pkg.sender.AsyncWebhookSender(signer=signer) as sender:
            await sender.new_thing(f"{url}/webhooks/new_thing", pkg.models.EventRequest(id="async"))

    asyncio.run(main())
    assert received[-3:] == [NEW[-4:], OLD[-4:], "async"]


def _post(url: str, body: bytes, headers: dict[str, str]) -> httpx.Response:
    return httpx.post(f"{url}/webhooks/new_thing", content=body,
                      headers={"content-type": "application/json", **headers})


def _signed(key: bytes, msg_id: str, stamp: int, body: bytes) -> str:
    digest = hmac.new(key, f"{msg_id}.{stamp}.".encode() + body, hashlib.sha256).digest()
    return "v1," + base64.b64encode(digest).decode()


def test_the_scheme_by_hand(url: str, received: list[Any]) -> None:
    body, now = b'{"id": "by-hand"}', int(time.time())
    ok = _post(url, body, {"webhook-id": "msg_1", "webhook-timestamp": str(now),
                           "webhook-signature": "v1,bm90IGl0 " + _signed(b"new key", "msg_1", now, body)})
    assert ok.status_code == 204 and received[-1] == "by-hand"


@pytest.mark.parametrize(("case", "headers"), [
    ("unsigned", {}),
    ("wrong key", {"webhook-signature": _signed(b"other", "msg_2", 0, b"")}),
    ("body changed", {"tamper": "1"}),
    ("replayed", {"webhook-timestamp": str(int(time.time()) - 3600)}),
])
def test_refused(signing: Any, url: str, received: list[Any], case: str,
                 headers: dict[str, str]) -> None:
    before = len(received)
    body = b'{"id": "evil"}'
    signed = signing.StandardWebhooks(NEW).headers(body, msg_id="msg_2")
    sent = {} if case == "unsigned" else {**signed, **headers}
    if case == "replayed":  # signed for its (old) timestamp, so only the window refuses it
        stamp = int(headers["webhook-timestamp"])
        sent["webhook-signature"] = _signed(b"new key", "msg_2", stamp, body)
    refused = _post(url, b'{"id": "evil2"}' if case == "body changed" else body,
                    {k: v for k, v in sent.items() if k != "tamper"})
    assert refused.status_code == 401, (case, refused.text)
    assert len(received) == before
