"""An operation declaring errors and `default` only, no success (issue 37, DigitalOcean's
retired `POST /v2/gen-ai/models/api_keys`: 410, 401, 429, 500 and `default`). `default`
covers every status not declared, 2xx included: the server answered an empty 200 (which
`default`'s JSON body refuses) and the client raised on it. Now a success is the 2xx answer
`default` describes, with a located warning; over loopback HTTP, judged by openapi-core."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest
from gen_support import Generated, generate_package, openapi, serve

_ERROR = {"type": "object", "required": ["id", "message"], "properties": {
    "id": {"type": "string"}, "message": {"type": "string"}}}


def _error(description: str) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {
        "schema": {"$ref": "#/components/schemas/Error"}}}}


SPEC = openapi({"/keys": {"post": {
    "operationId": "createKey",
    "requestBody": {"content": {"application/json": {"schema": {
        "type": "object", "properties": {"name": {"type": "string"}}}}}},
    "responses": {"410": _error("retired"), "429": {"$ref": "#/components/responses/busy"},
                  "default": {"$ref": "#/components/responses/unexpected"}}}}},
    {"Error": _ERROR},
    components={"responses": {"busy": _error("too many"), "unexpected": _error("unexpected")}},
    version="3.0.3")


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Generated:
    return generate_package(SPEC, tmp_path_factory.mktemp("default_success"))


@pytest.fixture(scope="module")
def url(generated: Generated) -> Iterator[str]:
    models, errors = generated.models, generated.errors

    class Service(generated.server.ServiceBase):  # type: ignore[misc,name-defined]
        async def create_key(self, body: Any = None) -> Any:
            if body is not None and body.name == "old":
                raise errors.ApiError(models.Error(id="gone", message="retired"),
                                      status_code=410)
            return models.Error(id="ok", message=f"made {body.name if body else None}")

    with serve(generated.server.create_app(Service())) as base:
        yield base


def _wire_errors(request: httpx.Request, response: httpx.Response) -> list[Exception]:
    """openapi-core's errors for one exchange as it went on the wire (none: it agrees)."""
    from openapi_core import OpenAPI
    from openapi_core.datatypes import RequestParameters
    from werkzeug.datastructures import Headers, ImmutableMultiDict

    class Request:
        parameters = RequestParameters(query=ImmutableMultiDict(),
                                       header=Headers(dict(request.headers)),
                                       cookie=ImmutableMultiDict())
        host_url = "{0.scheme}://{0.netloc}".format(urlsplit(str(request.url)))
        path = request.url.path
        method = request.method.lower()
        body = request.content
        content_type = request.headers.get("content-type", "")

    class Response:
        data = response.content
        status_code = response.status_code
        content_type = response.headers.get("content-type", "")
        headers = Headers(dict(response.headers))

    spec = OpenAPI.from_dict(SPEC)
    return [*spec.unmarshal_request(Request()).errors,
            *spec.unmarshal_response(Request(), Response()).errors]


def test_a_success_is_what_default_describes(generated: Generated, url: str) -> None:
    exchanges: list[tuple[httpx.Request, httpx.Response]] = []

    class Recorder(httpx.HTTPTransport):
        def handle_request(self, request: httpx.Request) -> httpx.Response:
            request.read()
            response = super().handle_request(request)
            response.read()
            exchanges.append((request, response))
            return response

    with generated.client.Client(url, transport=Recorder()) as client:
        made = client.create_key(generated.models.CreateKeyRequest(name="k"))
        with pytest.raises(generated.errors.CreateKeyGone) as gone:
            client.create_key(generated.models.CreateKeyRequest(name="old"))
    assert made == generated.models.Error(id="ok", message="made k")
    assert gone.value.body.id == "gone"
    (_, answer), (_, refused) = exchanges
    assert (answer.status_code, json.loads(answer.content)) == (
        200, {"id": "ok", "message": "made k"})
    assert refused.status_code == 410
    for sent, answered in exchanges:
        assert _wire_errors(sent, answered) == []


def test_it_is_a_located_warning(tmp_path: Path) -> None:
    import contractgen.api

    path = tmp_path / "spec.json"
    path.write_text(json.dumps(SPEC, indent=1), encoding="utf-8")
    _, problems = contractgen.api.render(path)
    [warning] = [p for p in problems if p.pointer == "/paths/~1keys/post"]
    assert warning.line is not None
    assert warning.message.startswith(
        "the operation declares errors and `default` only, no success, so a success is a 2xx "
        "answer `default` describes: the server answers 200 with what the service returns")
