"""Operations another route answers (OpenAI's `/responses?beta=true` beside `/responses`) have
no route of their own: a parameter annotation only they share is not written as a module alias
(it named a FastAPI marker server.py did not import: a NameError at import, issue 37)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from gen_support import GenerateFn, openapi, serve

_BETA = {"name": "openai-beta", "in": "header", "required": False,
         "schema": {"type": "array", "items": {"type": "string", "enum": ["v1"]}}}


def _get(operation_id: str, *parameters: dict[str, Any]) -> dict[str, Any]:
    return {"get": {"operationId": operation_id, "parameters": list(parameters),
                    "responses": {"200": {"description": "ok", "content": {"application/json": {
                        "schema": {"type": "string"}}}}}}}


@pytest.mark.slow  # ~3.5 s: a package generated, imported and served
def test_a_header_only_answered_operations_share_does_not_break_the_import(
        generate: GenerateFn) -> None:
    pkg = generate(openapi({
        "/responses": _get("getResponses"), "/responses?beta=true": _get("betaGetResponses", _BETA),
        "/items": _get("getItems"), "/items?beta=true": _get("betaGetItems", _BETA)}))

    class Service(pkg.server.ServiceBase):  # type: ignore[misc,name-defined]
        async def get_responses(self) -> str:
            return "plain"

    with serve(pkg.server.create_app(Service())) as url:
        assert httpx.get(f"{url}/responses").json() == "plain"
