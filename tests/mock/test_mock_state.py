"""`contractgen mock`'s state, over loopback HTTP: the CRUD scenario of issue 40 replayed by
`contractgen conformance` (which judges every answer against the contract with jsonschema),
paging, filters, merge-patch, nested collections, `--data`, reset and `--stateless`."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from contractgen.mock import MockOptions, serving
from contractgen.project.conformance import run_scenario

HERE = Path(__file__).resolve().parent
BOOKS = HERE / "books.yaml"
AUTH = {"Authorization": "Bearer any-token-of-the-right-form"}


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    with serving(BOOKS) as base:
        yield base


@pytest.fixture
def client(url: str) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=url, headers=AUTH) as http:
        http.post(url.rsplit("/", 1)[0] + "/__mock/reset")
        yield http


def test_the_crud_scenario_conforms(url: str, client: httpx.Client) -> None:
    results = run_scenario(BOOKS, HERE / "books-crud.yaml", url, token="t")
    assert [(r.operation, r.status, r.problems) for r in results if r.problems] == []
    assert [r.status for r in results][-3:] == [204, 404, 404]


def test_a_created_item_keeps_what_was_sent_and_gets_its_read_only_fields(
        client: httpx.Client) -> None:
    made = client.post("/books", json={"title": "Dune", "author_email": "f@example.com"})
    assert made.status_code == 201
    book = made.json()
    assert book["title"] == "Dune" and book["author_email"] == "f@example.com"
    assert len(book["id"]) == 36 and book["created_at"].endswith("Z")  # uuid, date-time
    assert client.get(f"/books/{book['id']}").json() == book


def test_the_list_pages_by_the_contracts_cursor(client: httpx.Client) -> None:
    titles = [f"t{i}" for i in range(5)]
    for title in titles:
        client.post("/books", json={"title": title})
    seen, cursor, pages = [], None, 0
    while True:
        page = client.get("/books", params={"limit": 2, **({"cursor": cursor} if cursor else {})})
        assert page.status_code == 200
        seen += [b["title"] for b in page.json()["items"]]
        pages += 1
        cursor = page.json().get("next_cursor")
        if not cursor:
            break
    assert (seen, pages) == (titles, 3)


def test_the_list_filters_by_plain_equality(client: httpx.Client) -> None:
    for title, genre in (("a", "sf"), ("b", "classic"), ("c", "sf")):
        client.post("/books", json={"title": title, "genre": genre})
    found = client.get("/books", params={"genre": "sf", "limit": 10}).json()["items"]
    assert [b["title"] for b in found] == ["a", "c"]


def test_patch_merges_and_null_removes(client: httpx.Client) -> None:
    book = client.post("/books", json={"title": "Emma", "genre": "classic"}).json()
    patched = client.patch(f"/books/{book['id']}", content=json.dumps({"genre": None}),
                           headers={"Content-Type": "application/merge-patch+json"})
    assert patched.status_code == 200
    assert "genre" not in patched.json() and patched.json()["title"] == "Emma"
    assert patched.json()["created_at"] == book["created_at"]


def test_a_deleted_item_is_the_declared_404_in_the_declared_shape(client: httpx.Client) -> None:
    book = client.post("/books", json={"title": "Gone"}).json()
    assert client.delete(f"/books/{book['id']}").status_code == 204
    missing = client.get(f"/books/{book['id']}")
    assert missing.status_code == 404
    assert set(missing.json()) == {"code", "message"} and missing.json()["code"] == "NOT_FOUND"


def test_nested_collections_are_kept_per_parent(client: httpx.Client) -> None:
    first = client.post("/authors/1/notes", json={"text": "one"}).json()
    client.post("/authors/2/notes", json={"text": "two"})
    assert first["id"] == 1  # an integer id counts up
    assert [n["text"] for n in client.get("/authors/1/notes").json()] == ["one"]
    assert client.get("/authors/2/notes/1").json()["text"] == "two"
    assert client.get("/authors/1/notes/9").status_code == 404


def test_reset_empties_the_collections(url: str, client: httpx.Client) -> None:
    client.post("/books", json={"title": "x"})
    assert httpx.post(url.rsplit("/", 1)[0] + "/__mock/reset").status_code == 200
    assert client.get("/books").json()["items"] == []


def test_data_seeds_and_stateless_stores_nothing(tmp_path: Path) -> None:
    data = tmp_path / "data.json"
    book = {"id": "0b7d6c1e-1111-4c59-9d36-1b5f0f0f4c11", "title": "Seeded",
            "created_at": "2026-01-01T00:00:00Z"}
    data.write_text(json.dumps({"/books": [book]}))
    with serving(BOOKS, MockOptions(data=data)) as base:
        assert httpx.get(f"{base}/books/{book['id']}", headers=AUTH).json() == book
    with serving(BOOKS, MockOptions(stateless=True)) as base:
        made = httpx.post(f"{base}/books", json={"title": "x"}, headers=AUTH).json()
        again = httpx.get(f"{base}/books/{made['id']}", headers=AUTH)
        assert again.status_code == 200 and again.json()["title"] == "Emma"  # the first example


def test_a_list_paged_by_cursor_and_offset_pages_by_what_the_request_sends(
        tmp_path: Path) -> None:
    """Box's /users takes `marker` and `offset`: a client at the markers' end goes on by
    offset, which was read as the first page again (an SDK's iteration never ended)."""
    thing = {"type": "object", "required": ["id"], "properties": {
        "id": {"type": "integer", "readOnly": True}, "name": {"type": "string"}}}
    ok = {"description": "ok", "content": {"application/json": {"schema": {"$ref": "#/T"}}}}
    spec = {"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {
        "/things": {"post": {"operationId": "add", "responses": {"201": ok}, "requestBody": {
            "content": {"application/json": {"schema": {"$ref": "#/T"}}}}},
            "get": {"operationId": "list", "parameters": [
                {"name": n, "in": "query", "schema": {"type": t}}
                for n, t in (("marker", "string"), ("offset", "integer"), ("limit", "integer"))],
                "responses": {"200": {"description": "ok", "content": {"application/json": {
                    "schema": {"type": "object", "required": ["entries"], "properties": {
                        "entries": {"type": "array", "items": {"$ref": "#/T"}},
                        "next_marker": {"type": "string", "nullable": True}}}}}}}}},
        "/things/{id}": {"get": {"operationId": "get", "parameters": [
            {"name": "id", "in": "path", "required": True, "schema": {"type": "integer"}}],
            "responses": {"200": ok, "404": {"description": "gone"}}}}},
        "components": {"schemas": {"T": thing}}}
    text = json.dumps(spec).replace('"#/T"', '"#/components/schemas/T"')
    (tmp_path / "things.json").write_text(text)
    with serving(tmp_path / "things.json") as base, httpx.Client(base_url=base) as http:
        for name in "abc":
            http.post("/things", json={"name": name})
        first = http.get("/things", params={"limit": 2}).json()
        assert [t["name"] for t in first["entries"]] == ["a", "b"] and first["next_marker"]
        by_offset = http.get("/things", params={"limit": 2, "offset": 2}).json()
        assert [t["name"] for t in by_offset["entries"]] == ["c"]
        assert "next_marker" not in by_offset
        assert http.get("/things", params={"offset": 3}).json()["entries"] == []
