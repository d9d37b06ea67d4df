"""The generated webhook receiver over real HTTP (uvicorn on loopback): bodies read with JSON
Schema's types ("25" is not a number, 1 not a boolean), and every error it answers itself (a
refused body, a signature, a hook not overridden) in the shape and status the hook declares,
wherever its router is mounted (issue 28)."""

from __future__ import annotations

import importlib
import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from gen_support import Generated, generate_package, openapi, serve
from pydantic import ValidationError
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route


def _json(schema: dict[str, Any]) -> dict[str, Any]:
    return {"description": "it", "content": {"application/json": {"schema": schema}}}


def _hook(body: dict[str, Any], responses: dict[str, Any]) -> dict[str, Any]:
    return {"post": {"requestBody": {"required": True, "content": {
        "application/json": {"schema": body}}}, "responses": responses}}


ORDER = {"type": "object", "required": ["id", "total", "paid"], "properties": {
    "id": {"type": "string"}, "total": {"type": "number"}, "paid": {"type": "boolean"},
    "count": {"type": "integer"}}}
ERROR = {"$ref": "#/components/schemas/ApiError"}
SPEC = openapi({}, {
    "Order": ORDER,
    "Error": {"type": "object", "required": ["code", "message"], "properties": {
        "code": {"type": "integer"}, "message": {"type": "string"}}},
    "ApiError": {"allOf": [{"$ref": "#/components/schemas/Error"}]},
    "Conduit": {"type": "object", "required": ["errors"], "properties": {"errors": {
        "type": "object", "required": ["body"], "properties": {
            "body": {"type": "array", "items": {"type": "string"}}}}}},
}, webhooks={
    "orderPaid": _hook({"$ref": "#/components/schemas/Order"}, {
        "204": {"description": "received"}, "400": _json(ERROR), "default": _json(ERROR)}),
    "orderLost": _hook({"$ref": "#/components/schemas/Order"}, {
        "204": {"description": "received"}, "422": _json({"$ref": "#/components/schemas/Conduit"}),
        "401": {"description": "no", "content": {"text/plain": {"schema": {"type": "string"}}}}}),
    "orderBare": _hook({"$ref": "#/components/schemas/Order"}, {
        "204": {"description": "received"}}),
    "orderAck": _hook({"$ref": "#/components/schemas/Order"}, {"200": _json({
        "type": "object", "required": ["ok"], "properties": {"ok": {"type": "boolean"}}})}),
})
GOOD = {"id": "o1", "total": 2.5, "paid": True, "count": 3}


@pytest.fixture(scope="module")
def pkg(tmp_path_factory: pytest.TempPathFactory) -> Generated:
    generated = generate_package(SPEC, tmp_path_factory.mktemp("hook_errors"))
    generated.webhooks = importlib.import_module(f"{generated.name}.webhooks")
    return generated


@pytest.fixture(scope="module")
def received() -> list[Any]:
    return []


@pytest.fixture(scope="module")
def url(pkg: Generated, received: list[Any]) -> Iterator[str]:
    class Receiver(pkg.webhooks.WebhookReceiverBase):  # type: ignore[misc,name-defined]
        async def order_paid_webhook(self, body: Any) -> None:
            received.append(body)

        async def order_bare_webhook(self, body: Any) -> None:
            received.append(body)

    with serve(pkg.webhooks.create_webhook_app(Receiver())) as base:
        yield base


def _is_error(body: Any, code: int) -> bool:
    return isinstance(body, dict) and body.get("code") == code and isinstance(
        body.get("message"), str)


def test_a_good_body_reaches_the_hook(url: str, received: list[Any]) -> None:
    answer = httpx.post(f"{url}/webhooks/order_paid_webhook", json=GOOD, timeout=10)
    assert answer.status_code == 204, answer.text
    assert received[-1].total == 2.5 and received[-1].paid is True


@pytest.mark.parametrize(("field", "value"), [
    ("total", "25"), ("paid", 1), ("paid", "true"), ("count", "5"), ("id", 7)])
def test_values_of_another_json_type_are_refused_in_the_declared_shape(
        url: str, received: list[Any], field: str, value: Any) -> None:
    before = len(received)
    answer = httpx.post(f"{url}/webhooks/order_paid_webhook", json={**GOOD, field: value},
                        timeout=10)
    assert answer.status_code == 400, answer.text  # the hook declares 400, not 422
    assert _is_error(answer.json(), 400) and field in answer.json()["message"]
    assert len(received) == before


def test_invalid_json_and_a_hook_not_overridden_answer_the_declared_error(url: str) -> None:
    broken = httpx.post(f"{url}/webhooks/order_paid_webhook", content=b"{nope",
                        headers={"Content-Type": "application/json"}, timeout=10)
    assert broken.status_code == 400 and _is_error(broken.json(), 400)
    lost = httpx.post(f"{url}/webhooks/order_lost_webhook", json={**GOOD, "total": "25"},
                      timeout=10)
    assert lost.status_code == 422
    assert any(line.startswith("total") for line in lost.json()["errors"]["body"])
    missing = httpx.post(f"{url}/webhooks/order_lost_webhook", json=GOOD, timeout=10)
    assert missing.status_code == 501
    assert missing.json() == {"errors": {"body": ["order_lost_webhook is not implemented"]}}


def test_where_no_error_is_declared_the_shape_is_detail(url: str) -> None:
    answer = httpx.post(f"{url}/webhooks/order_bare_webhook", json={**GOOD, "paid": 0},
                        timeout=10)
    assert answer.status_code == 422
    assert [problem["loc"] for problem in answer.json()["detail"]] == [["body", "paid"]]


def test_a_refused_signature_is_the_declared_401_in_a_router_mounted_anywhere(
        pkg: Generated) -> None:
    signing = importlib.import_module(f"{pkg.name}._webhook_signing")
    app = FastAPI()  # no generated exception handlers: the routes answer their own errors
    verify = signing.StandardWebhooks("whsec_" + "c2VjcmV0LWtleS0xMjM0NTY3OA==")
    app.include_router(pkg.webhooks.create_webhook_router(
        pkg.webhooks.WebhookReceiverBase(), verify=verify))
    with serve(app) as base:
        unsigned = httpx.post(f"{base}/webhooks/order_lost_webhook", json=GOOD, timeout=10)
        assert unsigned.status_code == 401
        assert unsigned.headers["content-type"].startswith("text/plain")
        assert "signature" in unsigned.text
        paid = httpx.post(f"{base}/webhooks/order_paid_webhook", json=GOOD, timeout=10)
        assert paid.status_code == 401 and _is_error(paid.json(), 401)  # its `default`
        body = json.dumps({**GOOD, "total": "25"}).encode()
        signed = httpx.post(f"{base}/webhooks/order_paid_webhook", content=body,
                            headers={**verify.headers(body), "Content-Type": "application/json"},
                            timeout=10)
        assert signed.status_code == 400 and _is_error(signed.json(), 400)


def test_the_sender_reads_answers_with_json_types(pkg: Generated) -> None:
    sender = importlib.import_module(f"{pkg.name}.webhook_sender")
    answers = iter([{"ok": True}, {"ok": 1}])

    async def ack(request: Request) -> JSONResponse:
        return JSONResponse(next(answers))

    with serve(Starlette(routes=[Route("/ack", ack, methods=["POST"])])) as base, \
            sender.WebhookSender() as send:
        order = pkg.models.Order.model_validate(GOOD)
        assert send.order_ack_webhook(f"{base}/ack", order).ok is True
        with pytest.raises(ValidationError):
            send.order_ack_webhook(f"{base}/ack", order)  # 1 is no boolean


@pytest.mark.slow
def test_the_generated_receiver_passes_ruff_and_mypy_strict(pkg: Generated) -> None:
    import subprocess
    import sys

    from gen_support import RUFF_RULES, mypy_strict

    files = [str(pkg.dir / "webhooks.py"), str(pkg.dir / "webhook_sender.py")]
    for rules in (RUFF_RULES, []):  # the project's rule set and ruff's defaults
        ruff = subprocess.run([sys.executable, "-m", "ruff", "check", "--isolated", *rules,
                               *files], capture_output=True, text=True, check=False)
        assert ruff.returncode == 0, ruff.stdout[-3000:]
    result = mypy_strict(pkg.dir)
    assert result.returncode == 0, result.stdout + result.stderr
