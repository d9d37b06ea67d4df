"""Declared response headers over real HTTP: the server method sets them (typed, through
`Reply`), a required one it leaves out is a server error, and the client's `*_detailed`
variant returns status, typed headers and body together."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from gen_support import Generated, generate_package, openapi, serve

THING = {"type": "object", "required": ["name"], "properties": {"name": {"type": "string"}}}
SPEC = openapi({
    "/things": {"post": {
        "operationId": "createThing",
        "requestBody": {"required": True, "content": {"application/json": {"schema": THING}}},
        "responses": {"201": {
            "description": "created",
            "headers": {
                "Location": {"required": True, "schema": {"type": "string"}},
                "X-Rate-Limit": {"schema": {"type": "integer"}, "description": "calls left"},
            },
            "content": {"application/json": {"schema": THING}}}}}},
    "/things/{name}": {"delete": {
        "operationId": "deleteThing",
        "parameters": [{"name": "name", "in": "path", "required": True,
                        "schema": {"type": "string"}}],
        "responses": {"204": {"description": "gone", "headers": {
            "X-Deleted": {"required": True, "schema": {"type": "boolean"}}}}}}},
    "/things/{name}/purge": {"post": {
        "operationId": "purgeThing",
        "parameters": [{"name": "name", "in": "path", "required": True,
                        "schema": {"type": "string"}}],
        "responses": {"204": {"description": "gone", "headers": {
            "X-Deleted": {"required": True, "schema": {"type": "boolean"}}}}}}},
})


@pytest.fixture(scope="module")
def pkg(tmp_path_factory: pytest.TempPathFactory) -> Generated:
    return generate_package(SPEC, tmp_path_factory.mktemp("headers"))


@pytest.fixture(scope="module")
def url(pkg: Generated) -> Iterator[str]:
    server = pkg.server

    class Service(server.ServiceBase):  # type: ignore[misc,name-defined]
        async def create_thing(self, body: Any) -> Any:
            if body.name == "forgetful":
                return body  # the contract requires Location: a server error
            return server.Reply(body, server.CreateThingHeaders(
                location=f"/things/{body.name}", x_rate_limit=41))

        async def delete_thing(self, name: str) -> Any:
            return server.Reply(None, server.DeleteThingHeaders(x_deleted=True))

        async def purge_thing(self, name: str) -> Any:
            return server.Reply(None, server.PurgeThingHeaders(x_deleted=True))

    with serve(server.create_app(Service())) as base:
        yield base


def test_the_server_sends_declared_headers(url: str) -> None:
    response = httpx.post(url + "/things", json={"name": "a"})
    assert response.status_code == 201
    assert (response.headers["location"], response.headers["x-rate-limit"]) == ("/things/a", "41")
    assert response.json() == {"name": "a"}
    deleted = httpx.delete(url + "/things/a")
    assert (deleted.status_code, deleted.headers["x-deleted"], deleted.content) == (
        204, "true", b"")


def test_a_missing_required_header_is_a_server_error(url: str) -> None:
    response = httpx.post(url + "/things", json={"name": "forgetful"})
    assert response.status_code == 500
    assert "location" not in response.headers


def test_the_detailed_client_variant_returns_typed_headers(pkg: Generated, url: str) -> None:
    client_module = pkg.client
    with client_module.Client(url) as client:
        thing = client.create_thing(pkg.models.CreateThingRequest(name="b"))
        assert thing.name == "b"  # the plain method returns the body
        answer = client.create_thing_detailed(pkg.models.CreateThingRequest(name="c"))
        assert answer.status == 201
        assert answer.headers == client_module.CreateThingHeaders(
            location="/things/c", x_rate_limit=41)
        assert answer.body.name == "c"
        assert answer.raw_headers["content-type"] == "application/json"
        gone = client.delete_thing_detailed("c")
        assert (gone.status, gone.headers.x_deleted, gone.body) == (204, True, None)

    async def main() -> Any:
        async with client_module.AsyncClient(url) as client:
            return await client.create_thing_detailed(pkg.models.CreateThingRequest(name="d"))

    assert asyncio.run(main()).headers.location == "/things/d"


def test_operations_declaring_the_same_headers_share_their_fields(
    pkg: Generated, url: str
) -> None:
    """A later operation's class subclasses the first's (fewer lines), keeping its own name."""
    client_module = pkg.client
    assert issubclass(client_module.PurgeThingHeaders, client_module.DeleteThingHeaders)
    assert issubclass(pkg.server.PurgeThingHeaders, pkg.server.DeleteThingHeaders)
    with client_module.Client(url) as client:
        purged = client.purge_thing_detailed("p")
    assert type(purged.headers) is client_module.PurgeThingHeaders
    assert repr(purged.headers) == "PurgeThingHeaders(x_deleted=True)"


def test_a_response_lacking_a_required_header_is_unexpected(pkg: Generated) -> None:
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import JSONResponse
    from starlette.routing import Route

    async def create(request: Request) -> JSONResponse:  # a server breaking the contract
        return JSONResponse({"name": "x"}, status_code=201)

    app = Starlette(routes=[Route("/things", create, methods=["POST"])])
    with serve(app) as base, pkg.client.Client(base) as client:
        with pytest.raises(pkg.errors.UnexpectedStatus):
            client.create_thing_detailed(pkg.models.CreateThingRequest(name="x"))
