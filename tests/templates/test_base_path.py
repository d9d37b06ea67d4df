"""`servers[0].url`'s path is the base path, over real HTTP: the server mounts the operations
under it (configurable), the client joins paths onto a base URL carrying it, and server
variables are substituted from their defaults or as given."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from gen_support import GenerateFn, openapi, serve

SPEC = openapi(
    {"/ping/{id}": {"get": {
        "operationId": "ping",
        "parameters": [{"name": "id", "in": "path", "required": True, "schema": {"type": "string"}}],
        "responses": {"200": {"description": "ok", "content": {"text/plain": {
            "schema": {"type": "string"}}}}}}}},
    servers=[{"url": "https://{host}/api/v{version}/",
              "variables": {"host": {"default": "example.com"},
                            "version": {"default": "2", "enum": ["1", "2"]}}}],
)


def test_the_api_is_mounted_under_the_base_path(generate: GenerateFn) -> None:
    pkg = generate(SPEC)
    assert pkg.server.BASE_PATH == "/api/v2"

    class Service(pkg.server.ServiceBase):  # type: ignore[misc,name-defined]
        async def ping(self, id: str) -> Any:
            return f"pong {id}"

    with serve(pkg.server.create_app(Service())) as url:
        assert httpx.get(url + "/api/v2/ping/1").text == "pong 1"
        assert httpx.get(url + "/ping/1").status_code == 404
        with pkg.client.Client(url + pkg.server.BASE_PATH) as client:
            assert client.ping("a b") == "pong a b"
    with serve(pkg.server.create_app(Service(), base_path="")) as url:  # behind a stripping proxy
        assert httpx.get(url + "/ping/1").text == "pong 1"
        with pkg.client.Client(url) as client:
            assert client.ping("2") == "pong 2"
    with pytest.raises(ValueError, match="base_path"):
        pkg.server.create_app(Service(), base_path="api")


def test_server_variables_are_substituted(generate: GenerateFn) -> None:
    client = generate(SPEC).client
    assert client.SERVERS == ("https://example.com/api/v2/",)
    assert client.server_url() == "https://example.com/api/v2/"
    assert client.server_url(host="127.0.0.1:8000", version="1") == "https://127.0.0.1:8000/api/v1/"
    with pytest.raises(ValueError, match="unknown server variables"):
        client.server_url(region="eu")


def test_the_server_takes_server_variables(generate: GenerateFn) -> None:
    pkg = generate(SPEC)

    class Service(pkg.server.ServiceBase):  # type: ignore[misc,name-defined]
        async def ping(self, id: str) -> Any:
            return f"pong {id}"

    app = pkg.server.create_app(Service(), server_variables={"version": "1", "host": "h"})
    with serve(app) as url:
        assert httpx.get(url + "/api/v1/ping/1").text == "pong 1"
        assert httpx.get(url + "/api/v2/ping/1").status_code == 404
        with pkg.client.Client(url + "/api/v1") as client:
            assert client.ping("x") == "pong x"
    app = pkg.server.create_app(Service(), base_path="/x", server_variables={"version": "1"})
    with serve(app) as url:  # an explicit base_path wins
        assert httpx.get(url + "/x/ping/1").text == "pong 1"
    router = pkg.server.create_router(Service(), server_variables={"version": "1"})
    assert {route.path for route in router.routes} == {"/api/v1/ping/{id}"}
    with pytest.raises(ValueError, match="unknown server variables"):
        pkg.server.create_app(Service(), server_variables={"region": "eu"})
