"""The generated client reads responses with JSON Schema's types, over real HTTP (a server on
loopback answering what a slightly-off API would): `"25"` is not a number, `1` not a boolean,
`0` not a date-time (a ResponseValidationError), while unknown fields and unknown values of open
enums are kept (issue 28; forward compatibility, issue 32)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest
from gen_support import Generated, generate_package, openapi, serve
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

THING = {"type": "object", "required": ["n", "flag"], "properties": {
    "n": {"type": "number"}, "count": {"type": "integer"}, "flag": {"type": "boolean"},
    "at": {"type": "string", "format": "date-time"}, "name": {"type": "string"},
    "color": {"type": "string", "enum": ["red", "green"]}}}
SPEC = openapi({"/things/{key}": {"get": {
    "operationId": "getThing",
    "parameters": [{"name": "key", "in": "path", "required": True, "schema": {"type": "string"}}],
    "responses": {"200": {"description": "ok", "content": {"application/json": {
        "schema": {"$ref": "#/components/schemas/Thing"}}}}},
}}}, {"Thing": THING})
GOOD = {"n": 2.5, "flag": True}
ANSWERS: dict[str, Any] = {
    "good": {**GOOD, "count": 3, "at": "2026-12-04T10:00:00Z", "name": "x"},
    "whole": {**GOOD, "n": 25},  # an integer is a number
    "newer": {**GOOD, "color": "blue", "added": {"k": 1}},  # grown since: kept
    "n-text": {**GOOD, "n": "25"},
    "count-text": {**GOOD, "count": "5"},
    "flag-number": {**GOOD, "flag": 1},
    "flag-text": {**GOOD, "flag": "true"},
    "at-number": {**GOOD, "at": 0},
    "name-number": {**GOOD, "name": 7},
}


@pytest.fixture(scope="module")
def package(tmp_path_factory: pytest.TempPathFactory) -> Generated:
    return generate_package(SPEC, tmp_path_factory.mktemp("response_types"))


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    async def thing(request: Request) -> JSONResponse:
        return JSONResponse(ANSWERS[request.path_params["key"]])

    with serve(Starlette(routes=[Route("/things/{key}", thing)])) as base:
        yield base


def test_values_of_their_json_types_are_read(package: Generated, url: str) -> None:
    client = package.client.Client(url)
    good = client.get_thing("good")
    assert (good.n, good.count, good.flag, good.at.year, good.name) == (2.5, 3, True, 2026, "x")
    assert client.get_thing("whole").n == 25


def test_unknown_fields_and_enum_values_are_kept(package: Generated, url: str) -> None:
    newer = package.client.Client(url).get_thing("newer")
    assert newer.color.value == "blue" and newer.color.name == "UNKNOWN"  # an open enum
    assert newer.model_extra == {"added": {"k": 1}}


@pytest.mark.parametrize(("key", "where"), [
    ("n-text", "n"), ("count-text", "count"), ("flag-number", "flag"), ("flag-text", "flag"),
    ("at-number", "at"), ("name-number", "name")])
def test_values_of_another_json_type_are_a_response_validation_error(
        package: Generated, url: str, key: str, where: str) -> None:
    with pytest.raises(package.errors.ResponseValidationError) as caught:
        package.client.Client(url).get_thing(key)
    assert f"at {where}:" in str(caught.value), str(caught.value)
    assert caught.value.body == ANSWERS[key]


def test_the_async_client_reads_them_alike(package: Generated, url: str) -> None:
    async def calls() -> None:
        async with package.client.AsyncClient(url) as client:
            assert (await client.get_thing("good")).flag is True
            with pytest.raises(package.errors.ResponseValidationError):
                await client.get_thing("flag-number")

    asyncio.run(calls())
