"""Where the mock's stateless answers come from (issue 40): the contract's examples first, Prism's
`Prefer` headers, values made up from the schema with formats honoured and stable for one seed;
requests checked as the generated server checks them (security by form, the declared 4xx)."""

from __future__ import annotations

import asyncio
import re
import uuid
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

import httpx
import pytest
from contractgen.mock import Mock, MockOptions, serving

HERE = Path(__file__).resolve().parent
BOOKS = HERE / "books.yaml"
AUTH = {"Authorization": "Bearer whatever"}
BOOK = "/books/0b7d6c1e-1111-4c59-9d36-1b5f0f0f4c11"


@pytest.fixture(scope="module")
def client() -> Iterator[httpx.Client]:
    with serving(BOOKS, MockOptions(stateless=True)) as base, \
            httpx.Client(base_url=base, headers=AUTH) as http:
        yield http


def test_it_serves_at_the_first_server_urls_path(client: httpx.Client) -> None:
    assert str(client.base_url).rstrip("/").endswith("/v1")


def test_without_prefer_the_first_example_of_the_lowest_2xx(client: httpx.Client) -> None:
    assert client.get(BOOK).json()["title"] == "Emma"
    assert client.post("/books", json={"title": "x"}).json()["title"] == "Dune"


def test_prefer_example_names_one(client: httpx.Client) -> None:
    assert client.get(BOOK, headers={"Prefer": "example=second"}).json()["title"] == "Ulysses"
    assert client.get(BOOK, params={"__example": "second"}).json()["title"] == "Ulysses"
    unknown = client.get(BOOK, headers={"Prefer": "example=nope"})
    assert unknown.status_code == 404 and unknown.headers["X-Mock-Error"] == "NOT_FOUND"


def test_prefer_code_answers_that_declared_status(client: httpx.Client) -> None:
    missing = client.get(BOOK, headers={"Prefer": "code=404"})
    assert missing.status_code == 404 and set(missing.json()) == {"code", "message"}
    assert client.get(BOOK, params={"__code": "404"}).status_code == 404
    undeclared = client.get(BOOK, headers={"Prefer": "code=418"})
    assert undeclared.status_code == 404
    assert undeclared.headers["X-Mock-Error"] == "NO_RESPONSE_DEFINED"


def test_prefer_dynamic_makes_one_up_from_the_schema(client: httpx.Client) -> None:
    made = client.get(BOOK, headers={"Prefer": "dynamic=true"}).json()
    assert made["title"] not in ("Emma", "Ulysses")
    uuid.UUID(made["id"])
    datetime.fromisoformat(made["created_at"])


def test_made_up_values_honour_formats_and_patterns(client: httpx.Client) -> None:
    profile = client.get("/profile").json()
    uuid.UUID(profile["id"])
    assert re.fullmatch(r"[^@\s]+@[^@\s]+\.[a-z]+", profile["email"])
    assert httpx.URL(profile["homepage"]).scheme == "https"
    datetime.fromisoformat(profile["joined"])
    assert re.fullmatch(r"[A-Z]{3}-[0-9]{4}", profile["code"])
    assert 10 <= profile.get("score", 10) <= 20


def test_made_up_values_depend_on_the_seed_and_the_request_only() -> None:
    def answers(seed: int) -> list[object]:
        with serving(BOOKS, MockOptions(seed=seed, stateless=True)) as base:
            return [httpx.get(f"{base}{path}", headers=AUTH).json()
                    for path in ("/profile", "/profile", "/authors/3/notes")]

    first, again, other = answers(1), answers(1), answers(2)
    assert first == again  # the same in one run and across restarts
    assert first[0] == first[1]
    assert first != other


def test_a_missing_credential_is_the_declared_401(client: httpx.Client) -> None:
    url = str(client.base_url).rstrip("/") + BOOK
    refused = httpx.get(url)
    assert refused.status_code == 401 and set(refused.json()) == {"code", "message"}
    assert httpx.get(url, headers={"Authorization": "Basic eDp5"}).status_code == 401
    assert httpx.get(url, headers={"Authorization": "Bearer 1"}).status_code == 200


def test_a_bad_request_is_the_declared_4xx(client: httpx.Client) -> None:
    refused = client.post("/books", json={"title": ""})
    assert refused.status_code == 400 and set(refused.json()) == {"code", "message"}
    assert client.get("/books/not-a-uuid").status_code == 422  # as the generated server answers


def test_the_app_is_usable_in_process() -> None:
    async def ask() -> int:
        transport = httpx.ASGITransport(app=Mock(BOOKS).app)
        async with httpx.AsyncClient(transport=transport, base_url="http://mock") as http:
            return (await http.get("/v1/profile", headers=AUTH)).status_code

    assert asyncio.run(ask()) == 200


def test_an_operation_that_only_redirects_answers_its_3xx(tmp_path: Path) -> None:
    """No 2xx declared: the lowest 3xx is the success, as the generated server answers it
    (GitHub's 302 to an archive, Twilio's 307 with a JSON body), with its declared headers; the
    mock answered an undeclared 200."""
    import json

    spec = tmp_path / "redirects.json"
    spec.write_text(json.dumps({"openapi": "3.0.3", "info": {"title": "r", "version": "1"},
        "paths": {
            "/archive": {"get": {"operationId": "archive", "responses": {"302": {
                "description": "there", "headers": {"Location": {"required": True, "schema": {
                    "type": "string", "format": "uri"}}}}}}},
            "/moved": {"get": {"operationId": "moved", "responses": {
                "307": {"description": "elsewhere", "content": {"application/json": {
                    "schema": {"type": "object", "required": ["redirect_to"], "properties": {
                        "redirect_to": {"type": "string"}}}}}},
                "404": {"description": "none"}}}}}}), encoding="utf-8")

    async def ask() -> list[httpx.Response]:
        transport = httpx.ASGITransport(app=Mock(spec).app)
        async with httpx.AsyncClient(transport=transport, base_url="http://mock") as http:
            return [await http.get("/archive"), await http.get("/moved")]

    archive, moved = asyncio.run(ask())
    assert archive.status_code == 302 and archive.headers["location"].startswith("http")
    assert moved.status_code == 307 and isinstance(moved.json()["redirect_to"], str)
