"""Concrete paths are matched before the templated ones that would take their requests (OpenAPI:
"concrete (non-templated) paths would be matched before their templated counterparts"), whatever
order the contract lists them in: over real HTTP on a minimal contract, and for every operation
of the corpus contracts through the app's own router."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import contractgen.api
import httpx
import pytest
from contractgen.emit.matching import in_match_order
from contractgen.model.paths import answered_by, bare
from gen_support import GenerateFn, contract_operations, generate_package, openapi, serve
from shared_corpus import CORPUS_SPECS, corpus_data
from starlette.routing import Match


def _get(operation_id: str, *params: str) -> dict[str, Any]:
    return {"get": {
        "operationId": operation_id,
        "parameters": [{"name": p, "in": "path", "required": True,
                        "schema": {"type": "string"}} for p in params],
        "responses": {"200": {"description": "ok", "content": {"text/plain": {
            "schema": {"type": "string"}}}}}}}


# Each templated path is listed before the concrete ones it would shadow.
SPEC = openapi({
    "/items/{item_id}": _get("getItem", "item_id"),
    "/items/search": _get("searchItems"),
    "/numbers/{sid}.json": _get("getNumber", "sid"),
    "/numbers/{sid}": _get("getNumberBare", "sid"),
    "/numbers/Local.json": _get("listLocal"),
    "/{kind}/{name}/info": _get("getInfo", "kind", "name"),
    "/users/{name}/info": _get("getUserInfo", "name"),
    "/users/me/info": _get("getMyInfo"),
    # Box lists variants of a path with a fragment, which no request carries.
    "/items/{item_id}#shared": _get("getItemShared", "item_id"),
    "/things#v1": _get("listThingsV1"),
    # OpenAI lists variants of a path with a query, which requests carry in their query string.
    "/widgets": _get("listWidgets"),
    "/widgets?beta=true": _get("listWidgetsBeta"),
    "/gadgets?beta=true": _get("listGadgetsBeta"),
})


def test_concrete_paths_answer_their_own_requests(generate: GenerateFn) -> None:
    pkg = generate(SPEC)

    class Service(pkg.server.ServiceBase):  # type: ignore[misc,name-defined]
        async def get_item(self, item_id: str) -> Any:
            return f"item {item_id}"

        async def search_items(self) -> Any:
            return "search"

        async def get_number(self, sid: str) -> Any:
            return f"number {sid}"

        async def get_number_bare(self, sid: str) -> Any:
            return f"bare {sid}"

        async def list_local(self) -> Any:
            return "local"

        async def get_info(self, kind: str, name: str) -> Any:
            return f"info {kind} {name}"

        async def get_user_info(self, name: str) -> Any:
            return f"user {name}"

        async def get_my_info(self) -> Any:
            return "me"

        async def get_item_shared(self, item_id: str) -> Any:
            raise AssertionError("the server routes its requests to get_item")

        async def list_things_v1(self) -> Any:
            return "things"

        async def list_widgets(self) -> Any:
            return "widgets"

        async def list_widgets_beta(self) -> Any:
            raise AssertionError("the server routes its requests to list_widgets")

        async def list_gadgets_beta(self) -> Any:
            return "gadgets"

    expected = {
        "/items/search": "search",  # not getItem with item_id="search"
        "/items/abcdef": "item abcdef",
        "/numbers/Local.json": "local",
        "/numbers/PN12345.json": "number PN12345",  # `{sid}.json` before the bare `{sid}`
        "/numbers/PN12345": "bare PN12345",
        "/users/me/info": "me",
        "/users/alice/info": "user alice",
        "/teams/alice/info": "info teams alice",
        "/things": "things",  # the only GET of /things: its variant is routed there
        "/gadgets?beta=true": "gadgets",  # routed at /gadgets, its path
        "/widgets?beta=true": "widgets",  # the bare path's own operation answers
    }
    with serve(pkg.server.create_app(Service())) as url:
        for path, answer in expected.items():
            response = httpx.get(url + path)
            assert (response.status_code, response.text) == (200, answer), path
        with pkg.client.Client(url) as client:  # the client sends the variant to the bare path
            assert client.get_item_shared("abc") == "item abc"
            assert client.list_things_v1() == "things"
            assert client.list_gadgets_beta() == "gadgets"  # sent to /gadgets?beta=true


def test_a_variant_the_server_cannot_route_to_is_a_located_warning(tmp_path: Path) -> None:
    spec = tmp_path / "spec.json"
    spec.write_text(json.dumps(SPEC, indent=2), encoding="utf-8")
    _, problems = contractgen.api.render(spec)
    (warning,) = [p for p in problems if "#shared" in p.message]
    assert warning.pointer == "/paths/~1items~1{item_id}#shared/get"
    lines = spec.read_text().splitlines()
    assert lines[warning.line - 2] == '    "/items/{item_id}#shared": {'  # at its `"get"` line
    assert lines[warning.line - 1].strip() == '"get": {'
    assert "routes them to `GET /items/{item_id}` (getItem)" in warning.message
    assert "never calls `get_item_shared`" in warning.message
    assert not [p for p in problems if "#v1" in p.message]  # routed at /things
    (query,) = [p for p in problems if "?beta=true" in p.message]
    assert query.pointer == "/paths/~1widgets?beta=true/get"
    assert "carry `?beta=true` as their query" in query.message
    assert "routes them to `GET /widgets` (listWidgets)" in query.message
    assert not [p for p in problems if "/gadgets" in p.message]  # routed at /gadgets
    _, client_only = contractgen.api.render(spec, parts=("client",))
    assert not [p for p in client_only if "#shared" in p.message]  # the client sends it fine


def _ops(*paths: str) -> list[Any]:
    from types import SimpleNamespace

    return [SimpleNamespace(path=path, http_method=method, id=f"{method} {path}")
            for method, path in (p.split(" ", 1) for p in paths)]


def test_routes_move_only_where_a_request_would_go_astray() -> None:
    ops = _ops("GET /a/{x}", "GET /b", "POST /a/b", "GET /a/b", "GET /{y}/b", "DELETE /a/{x}")
    order = [op.id for op in in_match_order(ops)]
    # GET /a/{x} waits for GET /a/b, and GET /{y}/b for both (less concrete from the left);
    # other methods and lengths keep the contract's order.
    assert order == ["GET /b", "POST /a/b", "GET /a/b", "GET /a/{x}", "GET /{y}/b",
                     "DELETE /a/{x}"]
    unrelated = _ops("GET /z", "GET /a/{x}", "GET /a/{x}/c", "GET /m.json")
    assert in_match_order(unrelated) == unrelated  # nothing to move: the contract's order
    # A `#variant` (Box's way to list a path twice) is not part of any URL.
    variants = _ops("GET /a/{x}#shared", "GET /a/{x}", "GET /a/me#shared")
    assert [op.id for op in in_match_order(variants)] == [
        "GET /a/me#shared", "GET /a/{x}#shared", "GET /a/{x}"]
    disjoint = _ops("GET /{x}.xml", "GET /{x}.json", "GET /Local.json")
    assert [op.id for op in in_match_order(disjoint)] == [
        "GET /{x}.xml", "GET /Local.json", "GET /{x}.json"]


def _sample_url(path: str) -> str:
    """A URL of `path` whose parameters are a value no concrete segment spells."""
    return re.sub(r"\{[^{}/]*\}", "zz9", path)


@pytest.mark.slow
@pytest.mark.parametrize("name", CORPUS_SPECS)
def test_every_corpus_operation_is_routed_to_itself(name: str, tmp_path: Path) -> None:
    data = corpus_data(name)
    pkg = generate_package(data, tmp_path)
    app = pkg.server.create_app(pkg.server.ServiceBase(), insecure_no_auth=True,
                                base_path="")
    ops = contract_operations(data)
    # Box's `/x#variant` paths: one operation per method and bare path answers (model/paths.py)
    answering = answered_by(ops)
    astray = []
    for op in ops:
        scope = {"type": "http", "method": op.http_method, "path": _sample_url(bare(op.path)),
                 "root_path": "", "headers": [], "query_string": b""}
        # What Starlette's router does: the first route whose path and method match.
        route = next(r for r in app.router.routes if r.matches(scope)[0] is Match.FULL)
        if route.name != answering.get(op.id, op).id:
            astray.append(f"{op.http_method} {op.path} -> {route.name}")
    assert astray == []
