"""Webhooks (OpenAPI 3.1 `webhooks`) and callbacks over real HTTP: the generated receiver
(`webhooks.py`) runs under uvicorn on loopback, the generated sender (`webhook_sender.py`)
posts typed payloads to it and gets the typed answer back."""

from __future__ import annotations

import asyncio
import importlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from gen_support import RUFF_RULES, Generated, generate_package, mypy_strict, openapi, serve

EVENT = {"type": "object", "required": ["id"],
         "properties": {"id": {"type": "string"}, "secret": {"type": "string", "writeOnly": True},
                        "at": {"type": "string", "format": "date-time"}}}
ACK = {"type": "object", "required": ["ok"], "properties": {"ok": {"type": "boolean"}}}
SPEC = openapi(
    {"/subscriptions": {"post": {
        "operationId": "subscribe",
        "requestBody": {"required": True, "content": {"application/json": {"schema": {
            "type": "object", "properties": {"callback": {"type": "string"}}}}}},
        "callbacks": {"onEvent": {"{$request.body#/callback}": {"post": {
            "summary": "An event happened.",
            "requestBody": {"required": True, "content": {"application/json": {
                "schema": {"$ref": "#/components/schemas/Event"}}}},
            "responses": {"200": {"description": "ack", "content": {"application/json": {
                "schema": {"$ref": "#/components/schemas/Ack"}}}}}}}}},
        "responses": {"201": {"description": "subscribed"}}}}},
    {"Event": EVENT, "Ack": ACK},
    webhooks={
        "newThing": {"post": {
            "operationId": "newThing",
            "description": "A thing was made.",
            "requestBody": {"required": True, "content": {"application/json": {
                "schema": {"$ref": "#/components/schemas/Event"}}}},
            "responses": {"204": {"description": "received"}}}},
        "signed": {"post": {
            "parameters": [{"name": "X-Signature", "in": "header", "schema": {"type": "string"}}],
            "requestBody": {"content": {"text/plain": {"schema": {"type": "string"}}}},
            "responses": {"200": {"description": "ok"}}}},
    },
)


@pytest.fixture(scope="module")
def pkg(tmp_path_factory: pytest.TempPathFactory) -> Generated:
    generated = generate_package(SPEC, tmp_path_factory.mktemp("hooks"))
    generated.webhooks = importlib.import_module(f"{generated.name}.webhooks")
    generated.sender = importlib.import_module(f"{generated.name}.webhook_sender")
    return generated


@pytest.fixture(scope="module")
def received() -> list[Any]:
    return []


@pytest.fixture(scope="module")
def url(pkg: Generated, received: list[Any]) -> Iterator[str]:
    class Receiver(pkg.webhooks.WebhookReceiverBase):  # type: ignore[misc,name-defined]
        async def new_thing(self, body: Any) -> None:
            received.append(body)

        async def subscribe_on_event_callback(self, body: Any) -> Any:
            received.append(body)
            return pkg.models.Ack(ok=body.id == "good")

    with serve(pkg.webhooks.create_webhook_app(Receiver())) as base:
        yield base


def test_routes_and_signatures(pkg: Generated) -> None:
    assert pkg.webhooks.WEBHOOK_ROUTES == {
        "new_thing": "/webhooks/new_thing", "signed_webhook": "/webhooks/signed_webhook",
        "subscribe_on_event_callback": "/callbacks/subscribe_on_event_callback"}
    doc = pkg.sender.WebhookSender.subscribe_on_event_callback.__doc__
    assert "Callback `onEvent` of `subscribe`, sent to `{$request.body#/callback}`" in doc
    assert "A thing was made." in pkg.webhooks.WebhookReceiverBase.new_thing.__doc__


def test_webhook_sent_and_received(pkg: Generated, url: str, received: list[Any]) -> None:
    event = pkg.models.EventRequest(id="w1", secret="s", at="2026-01-02T03:04:05Z")
    with pkg.sender.WebhookSender() as sender:
        assert sender.new_thing(url + "/webhooks/new_thing", event) is None
    body = received[-1]
    assert isinstance(body, pkg.models.EventRequest)  # the request model: writeOnly kept
    assert (body.id, body.secret, body.at.year) == ("w1", "s", 2026)


def test_callback_answer_is_typed(pkg: Generated, url: str) -> None:
    event = pkg.models.EventRequest(id="good")
    with pkg.sender.WebhookSender() as sender:
        ack = sender.subscribe_on_event_callback(url + "/callbacks/subscribe_on_event_callback",
                                                 event)
    assert ack == pkg.models.Ack(ok=True)

    async def send() -> Any:
        async with pkg.sender.AsyncWebhookSender() as sender:
            return await sender.subscribe_on_event_callback(
                url + "/callbacks/subscribe_on_event_callback", pkg.models.EventRequest(id="x"))

    assert asyncio.run(send()) == pkg.models.Ack(ok=False)


def test_invalid_body_and_unimplemented(pkg: Generated, url: str) -> None:
    response = httpx.post(url + "/webhooks/new_thing", json={"at": "never"})
    assert response.status_code == 422
    assert {tuple(e["loc"][-1:]) for e in response.json()["detail"]} >= {("id",), ("at",)}
    with pkg.sender.WebhookSender() as sender, pytest.raises(pkg.errors.UnexpectedStatus) as err:
        sender.signed_webhook(url + "/webhooks/signed_webhook")
    assert err.value.status_code == 501


def test_paths_are_settable(pkg: Generated) -> None:
    app = pkg.webhooks.create_webhook_app(pkg.webhooks.WebhookReceiverBase(),
                                          paths={"new_thing": "/in/things"})
    with serve(app) as base:
        assert httpx.post(base + "/in/things", json={"id": "1"}).status_code == 501
        assert httpx.post(base + "/webhooks/new_thing", json={"id": "1"}).status_code == 404
    with pytest.raises(ValueError, match="unknown hooks"):
        pkg.webhooks.create_webhook_router(pkg.webhooks.WebhookReceiverBase(), paths={"x": "/"})


def test_what_is_not_generated_is_warned() -> None:
    import json
    import tempfile
    from pathlib import Path

    import contractgen

    document = json.loads(json.dumps(SPEC))
    document["webhooks"]["signed"]["post"]["security"] = [{"hookKey": []}]
    document.setdefault("components", {})["securitySchemes"] = {
        "hookKey": {"type": "apiKey", "in": "header", "name": "X-Hook-Key"}}
    with tempfile.TemporaryDirectory() as folder:
        spec = Path(folder) / "hooks.json"
        spec.write_text(json.dumps(document), encoding="utf-8")
        _, problems = contractgen.render(spec)
    found = {p.pointer: p.message for p in problems}
    assert "header parameter `X-Signature`" in found["/webhooks/signed/post"]
    assert "text/plain body" in found["/webhooks/signed/post"]
    assert "security (hookKey: not checked" in found["/webhooks/signed/post"]
    assert "insecure_no_auth=True" in found["/webhooks/signed/post"]
    assert "/webhooks/newThing/post" not in found
    assert not any("callbacks" in pointer for pointer in found)


@pytest.mark.slow
def test_generated_hooks_pass_ruff_and_mypy_strict(pkg: Generated) -> None:
    import subprocess
    import sys


    files = [str(pkg.dir / "webhooks.py"), str(pkg.dir / "webhook_sender.py")]
    for rules in (RUFF_RULES, []):  # the project's rule set and ruff's defaults
        ruff = subprocess.run([sys.executable, "-m", "ruff", "check", "--isolated", *rules, *files],
                              capture_output=True, text=True, check=False)
        assert ruff.returncode == 0, ruff.stdout[-3000:]
    result = mypy_strict(pkg.dir)
    assert result.returncode == 0, result.stdout + result.stderr


def test_declared_security_is_refused_unless_opted_out(tmp_path: Path) -> None:
    # Safe by default: the receiver does not check a hook's declared security, so it will not
    # be built until the caller says it checks it (in front of the router).
    document = json.loads(json.dumps(SPEC))
    document["webhooks"]["newThing"]["post"]["security"] = [{"hookKey": []}]
    document["components"]["securitySchemes"] = {
        "hookKey": {"type": "apiKey", "in": "header", "name": "X-Hook-Key"}}
    webhooks = importlib.import_module(f"{generate_package(document, tmp_path).name}.webhooks")
    receiver = webhooks.WebhookReceiverBase()
    with pytest.raises(ValueError, match=r"new_thing \(hookKey\).*insecure_no_auth=True"):
        webhooks.create_webhook_router(receiver)
    with pytest.raises(ValueError, match="insecure_no_auth"):
        webhooks.create_webhook_app(receiver)
    app = webhooks.create_webhook_app(receiver, insecure_no_auth=True)
    with serve(app) as base:
        assert httpx.post(base + "/webhooks/new_thing", json={"id": "1"}).status_code == 501
