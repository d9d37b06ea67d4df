"""Pagination: `<method>_iter` yields items across pages, sync and async, against a loopback
server serving three pages, on operations cut from real contracts (Box: marker and offset;
Twilio: next_page_uri), RFC 8288 Link headers, `x-pagination`, and the located warning."""

from __future__ import annotations

import asyncio
import copy
import gzip
import itertools
import json
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from failing_server import Script, failing_server
from gen_support import Generated, cli, generate_package, openapi
from shared_corpus import corpus_file


def _refs(node: Any) -> set[str]:
    if isinstance(node, dict):
        found = {node["$ref"]} if isinstance(node.get("$ref"), str) else set()
        return found.union(*(_refs(v) for v in node.values()))
    if isinstance(node, list):
        return set().union(*(_refs(v) for v in node))
    return set()


def cut(corpus: str, paths: list[str]) -> dict[str, Any]:
    """The contract `corpus` cut down to `paths` (GET only) and the components they refer to."""
    whole = json.loads(gzip.decompress(corpus_file(corpus).read_bytes()))
    doc = {"openapi": whole["openapi"], "info": whole["info"],
           "paths": {p: {"get": whole["paths"][p]["get"]} for p in paths},
           "components": {"securitySchemes": whole["components"].get("securitySchemes", {})}}
    pending, seen = _refs(doc["paths"]), set()
    while pending:
        ref = pending.pop()
        seen.add(ref)
        _, _, kind, name = ref.split("/", 3)
        node = whole["components"][kind][name]
        doc["components"].setdefault(kind, {})[name] = copy.deepcopy(node)
        pending |= _refs(node) - seen
    return doc


def _page(body: dict[str, Any], headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    return 200, {"content-type": "application/json", **(headers or {})}, json.dumps(body).encode()


def run(api: Generated, url: str, mode: str, method: str, *args: Any, **kwargs: Any) -> list[Any]:
    """All items of `client.<method>_iter(*args, **kwargs)`, sync or async."""
    if mode == "sync":
        with api.client.Client(url) as client:
            return list(getattr(client, method + "_iter")(*args, **kwargs))

    async def main() -> list[Any]:
        async with api.client.AsyncClient(url) as client:
            return [item async for item in getattr(client, method + "_iter")(*args, **kwargs)]

    return asyncio.run(main())


def _queries(script: Script) -> list[dict[str, list[str]]]:
    return [parse_qs(urlsplit(seen.path).query) for seen in script.seen]


@pytest.fixture(scope="module")
def box(tmp_path_factory: pytest.TempPathFactory) -> Generated:
    return generate_package(cut("box.openapi.json.gz", ["/users"]), tmp_path_factory.mktemp("box"))


@pytest.fixture(scope="module")
def twilio(tmp_path_factory: pytest.TempPathFactory) -> Generated:
    spec = cut("twilio-api-v2010.openapi.json.gz", ["/2010-04-01/Accounts/{AccountSid}/Messages.json"])
    return generate_package(spec, tmp_path_factory.mktemp("twilio"))


def _user(n: int) -> dict[str, Any]:
    return {"id": str(n), "type": "user", "name": f"user {n}"}


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_box_marker(box: Generated, mode: str) -> None:
    script = Script([
        _page({"entries": [_user(1), _user(2)], "limit": 2, "next_marker": "m2"}),
        _page({"entries": [_user(3), _user(4)], "limit": 2, "next_marker": "m3"}),
        _page({"entries": [_user(5)], "limit": 2, "next_marker": None}),
    ])
    with failing_server(script) as url:
        users = run(box, url, mode, "get_users", usemarker=True, limit=2)
    assert [u.id for u in users] == ["1", "2", "3", "4", "5"]
    queries = _queries(script)
    assert [q.get("marker") for q in queries] == [None, ["m2"], ["m3"]]
    assert all(q["usemarker"] == ["true"] and q["limit"] == ["2"] for q in queries)


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_box_offset(box: Generated, mode: str) -> None:
    script = Script([
        _page({"entries": [_user(1), _user(2)], "limit": 2, "offset": 0, "total_count": 5}),
        _page({"entries": [_user(3), _user(4)], "limit": 2, "offset": 2, "total_count": 5}),
        _page({"entries": [_user(5)], "limit": 2, "offset": 4, "total_count": 5}),
    ])
    with failing_server(script) as url:
        users = run(box, url, mode, "get_users", limit=2)
    assert [u.id for u in users] == ["1", "2", "3", "4", "5"]
    assert [q.get("offset") for q in _queries(script)] == [["0"], ["2"], ["4"]]


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_page_size_and_max_items(box: Generated, mode: str) -> None:
    pages = [_page({"entries": [_user(1), _user(2)], "next_marker": "m2"}),
             _page({"entries": [_user(3), _user(4)], "next_marker": "m3"}),
             _page({"entries": [_user(5)], "next_marker": None})]
    script = Script(list(pages))
    with failing_server(script) as url:
        users = run(box, url, mode, "get_users", usemarker=True, page_size=2, max_items=3)
    assert [u.id for u in users] == ["1", "2", "3"]
    assert [q.get("limit") for q in _queries(script)] == [["2"], ["2"]]  # no third page
    script = Script(list(pages))
    with failing_server(script) as url:
        assert [u.id for u in run(box, url, mode, "get_users", usemarker=True,
                                  max_items=2)] == ["1", "2"]
        assert len(script.seen) == 1 and "limit" not in _queries(script)[0]
        assert run(box, url, mode, "get_users", max_items=0) == [] and len(script.seen) == 1
        with pytest.raises(ValueError, match="max_items"):
            run(box, url, mode, "get_users", max_items=-1)


def test_box_iterates_lazily(box: Generated) -> None:
    script = Script([_page({"entries": [_user(1), _user(2)], "limit": 2, "next_marker": "m2"}),
                     _page({"entries": [_user(3)], "limit": 2, "next_marker": None})])
    with failing_server(script) as url, box.client.Client(url) as client:
        first = list(itertools.islice(client.get_users_iter(usemarker=True, limit=2), 2))
        assert [u.id for u in first] == ["1", "2"] and len(script.seen) == 1


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_twilio_next_page_uri(twilio: Generated, mode: str) -> None:
    base = "/2010-04-01/Accounts/AC1/Messages.json"
    sid = "SM{:032d}".format

    def page(sids: list[int], token: str | None) -> tuple[int, dict[str, str], bytes]:
        # Declared `format: uri`, but relative, as Twilio answers it: read leniently in a
        # response, and followed relative to the page's URL.
        nxt = f"{base}?PageSize=2&Page=1&PageToken={token}" if token else None
        return _page({"messages": [{"sid": sid(s)} for s in sids], "next_page_uri": nxt,
                      "page": 0, "page_size": 2})

    script = Script([page([1, 2], "t2"), page([3, 4], "t3"), page([5], None)])
    with failing_server(script) as url:
        messages = run(twilio, url, mode, "list_message", "AC1", page_size=2)
    assert [m.sid for m in messages] == [sid(n) for n in range(1, 6)]
    queries = _queries(script)
    assert [q.get("PageToken") for q in queries] == [None, ["t2"], ["t3"]]
    assert [q.get("PageSize") for q in queries] == [["2"]] * 3
    assert all(urlsplit(s.path).path == base for s in script.seen)


def test_a_relative_uri_is_lenient_only_in_responses(twilio: Generated) -> None:
    from pydantic import ValidationError

    relative = "/2010-04-01/Accounts/AC1/Messages.json?Page=1"
    cls = next(getattr(twilio.models, n) for n in twilio.models.__all__
               if "next_page_uri" in getattr(getattr(twilio.models, n), "model_fields", {}))
    with pytest.raises(ValidationError, match="not an absolute URI"):
        cls.model_validate({"messages": [], "next_page_uri": relative})  # not a response
    script = Script([_page({"messages": [], "next_page_uri": "/a b"})])
    with failing_server(script) as url, twilio.client.Client(url) as client, \
            pytest.raises(twilio.errors.ResponseValidationError, match="not an absolute URI"):
        client.list_message("AC1")


LIST = {"type": "array", "items": {"type": "string"}}


def _listing(**operation: Any) -> dict[str, Any]:
    return openapi({"/things": {"get": {
        "operationId": "listThings",
        "parameters": [{"name": n, "in": "query", "schema": {"type": "integer"}}
                       for n in ("size", "limit")],
        "responses": {"200": {"description": "ok", "content": {"application/json": {
            "schema": operation.pop("schema", LIST)}}, **operation.pop("response", {})}},
        **operation,
    }}})


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_link_header_and_x_pagination(tmp_path: Path, mode: str) -> None:
    spec = _listing(response={"headers": {"Link": {"schema": {"type": "string"}}}})
    api = generate_package(spec, tmp_path)
    script = Script([_page(["a"], {"link": '</things?page=2>; rel="next"'}),
                     _page(["b"], {"link": '</things?page=3>; rel="next", </things>; rel="first"'}),
                     _page(["c"])])
    with failing_server(script) as url:
        assert run(api, url, mode, "list_things") == ["a", "b", "c"]
    declared = _listing(**{"x-pagination": {"page": "size"}})
    other = generate_package(declared, tmp_path)
    script = Script([_page(["a"]), _page(["b"]), _page([])])
    with failing_server(script) as url:
        assert run(other, url, mode, "list_things") == ["a", "b"]
    assert [q.get("size") for q in _queries(script)] == [None, ["2"], ["3"]]


def test_ambiguous_paging_is_warned_located(tmp_path: Path) -> None:
    import contractgen

    path = tmp_path / "spec.json"
    path.write_text(json.dumps(_listing()))
    result = contractgen.render(path)
    warnings = [str(w) for w in getattr(result, "warnings", result[1] if isinstance(result, tuple) else [])]
    assert any("looks paged (it takes `limit`)" in w and "/paths/~1things/get" in w
               for w in warnings), warnings


SNOWFLAKE = {"type": "string", "pattern": "^(0|[1-9][0-9]*)$", "format": "snowflake"}


def discord_messages() -> dict[str, Any]:
    """GET /channels/{channel_id}/messages as discord/discord-api-spec (MIT) declares it in
    specs/openapi.json, cut to the operation and what it refers to, `MessageResponse` cut to
    four of its properties (the rest, and the rate-limit headers and error responses, unused)."""
    ref = {"$ref": "#/components/schemas/SnowflakeType"}
    return {
        "openapi": "3.1.0", "info": {"title": "Discord HTTP API (Preview)", "version": "10"},
        "paths": {"/channels/{channel_id}/messages": {
            "parameters": [{"name": "channel_id", "in": "path", "schema": ref, "required": True}],
            "get": {
                "operationId": "list_messages",
                "parameters": [*({"name": n, "in": "query", "schema": ref}
                                 for n in ("around", "before", "after")),
                               {"name": "limit", "in": "query",
                                "schema": {"type": "integer", "minimum": 1, "maximum": 100}}],
                "responses": {"200": {"description": "200 response for list_messages",
                                      "content": {"application/json": {"schema": {
                                          "type": ["array", "null"],
                                          "items": {"$ref": "#/components/schemas/MessageResponse"},
                                      }}}}},
                "security": [{"BotToken": []}],
            }}},
        "components": {
            "schemas": {"SnowflakeType": SNOWFLAKE, "MessageResponse": {
                "type": "object", "required": ["content", "timestamp", "id", "channel_id"],
                "properties": {"id": ref, "channel_id": ref, "content": {"type": "string"},
                               "timestamp": {"type": "string", "format": "date-time"}}}},
            "securitySchemes": {"BotToken": {"type": "apiKey", "description": "Discord bot token",
                                             "name": "Authorization", "in": "header"}},
        },
    }


@pytest.fixture(scope="module")
def discord(tmp_path_factory: pytest.TempPathFactory) -> Generated:
    return generate_package(discord_messages(), tmp_path_factory.mktemp("discord"))


def _messages(*ids: int) -> tuple[int, dict[str, str], bytes]:
    return _page([{"id": str(n), "channel_id": "7", "content": f"m{n}",
                   "timestamp": "2026-12-04T08:00:00Z"} for n in ids])


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_discord_before(discord: Generated, mode: str) -> None:
    # Newest first, as Discord answers; 99 > 100 as text, not as snowflakes.
    script = Script([_messages(1000, 999, 100), _messages(99, 98, 10), _messages(9)])
    with failing_server(script) as url:
        messages = run(discord, url, mode, "list_messages", "7", limit=3)
    assert [m.id for m in messages] == ["1000", "999", "100", "99", "98", "10", "9"]
    queries = _queries(script)
    assert [q.get("before") for q in queries] == [None, ["100"], ["10"]]
    assert all(q["limit"] == ["3"] for q in queries)
    assert all(urlsplit(s.path).path == "/channels/7/messages" for s in script.seen)


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_discord_after(discord: Generated, mode: str) -> None:
    script = Script([_messages(9, 10), _messages(98, 99), _messages(100), _messages()])
    with failing_server(script) as url:
        messages = run(discord, url, mode, "list_messages", "7", after="1", page_size=2)
    assert [m.id for m in messages] == ["9", "10", "98", "99", "100"]
    assert [q.get("after") for q in _queries(script)] == [["1"], ["10"], ["99"]]
    script = Script([_messages(5, 4), _messages(4, 5)])  # no progress: stop, not loop
    with failing_server(script) as url:
        assert len(run(discord, url, mode, "list_messages", "7", after="1")) == 4
    assert len(script.seen) == 2


def test_x_pagination_before_after(tmp_path: Path) -> None:
    spec = _listing(schema={"type": "array", "items": {
        "type": "object", "properties": {"id": {"type": "integer"}}}},
        **{"x-pagination": {"before": "size"}})
    api = generate_package(spec, tmp_path)
    script = Script([_page([{"id": 5}, {"id": 4}]), _page([{"id": 3}]), _page([])])
    with failing_server(script) as url:
        assert [t.id for t in run(api, url, "sync", "list_things")] == [5, 4, 3]
    assert [q.get("size") for q in _queries(script)] == [None, ["4"], ["3"]]
    # Discord's guild members: `after` the largest `user.id` (12 > 3 as snowflakes).
    member = {"type": "object", "properties": {"user": {
        "type": "object", "properties": {"id": SNOWFLAKE}}}}
    spec = _listing(schema={"type": "array", "items": member},
                    **{"x-pagination": {"after": "size", "item_id": "user.id"}})
    api = generate_package(spec, tmp_path)
    script = Script([_page([{"user": {"id": "3"}}, {"user": {"id": "12"}}]), _page([])])
    with failing_server(script) as url:
        assert len(run(api, url, "async", "list_things")) == 2
    assert [q.get("size") for q in _queries(script)] == [None, ["12"]]


_ASANA_NEXT_PAGE = {"type": "object", "nullable": True, "properties": {
    "offset": {"type": "string", "readOnly": True}, "path": {"type": "string", "readOnly": True},
    "uri": {"type": "string", "readOnly": True}}}
# Asana's list shape (every list operation), cut down: `offset` is an opaque token the answer's
# `next_page.offset` gives, not a count (a count is a 400 on page 2).
ASANA = openapi({"/tasks": {"get": {
    "operationId": "getTasks",
    "parameters": [
        {"name": "limit", "in": "query", "schema": {"type": "integer", "minimum": 1}},
        {"name": "offset", "in": "query", "schema": {"type": "string"}},
        {"name": "project", "in": "query", "schema": {"type": "string"}}],
    "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {
        "type": "object", "properties": {
            "data": {"type": "array", "items": {"$ref": "#/components/schemas/TaskCompact"}},
            "next_page": {"$ref": "#/components/schemas/NextPage"}}}}}}},
}}}, {"NextPage": _ASANA_NEXT_PAGE, "TaskCompact": {"type": "object", "properties": {
    "gid": {"type": "string"}, "name": {"type": "string"}}}}, version="3.0.3")


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_asana_offset_token_in_a_next_page_object(tmp_path: Path, mode: str) -> None:
    api = generate_package(ASANA, tmp_path)

    def page(first: int, token: str | None) -> tuple[int, dict[str, str], bytes]:
        tasks = [{"gid": str(n), "name": f"t{n}"} for n in range(first, first + 2)]
        after = None if token is None else {"offset": token, "path": "/tasks?offset=" + token,
                                            "uri": "https://app.asana.com/api/1.0/tasks"}
        return _page({"data": tasks if token else tasks[:1], "next_page": after})

    script = Script([page(1, "eyJ0eXAi2"), page(3, "eyJ0eXAi3"), page(5, None)])
    with failing_server(script) as url:
        tasks = run(api, url, mode, "get_tasks", project="p", limit=2)
    assert [t.gid for t in tasks] == ["1", "2", "3", "4", "5"]
    queries = _queries(script)
    assert [q.get("offset") for q in queries] == [None, ["eyJ0eXAi2"], ["eyJ0eXAi3"]]
    assert all(q["project"] == ["p"] and q["limit"] == ["2"] for q in queries)


def test_a_string_offset_without_a_next_page_object_is_warned_not_counted(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Asana's `/teams/{team_gid}/users` takes the `offset` token but its answer declares no
    `next_page`: no way to the next page is shown, so it does not page, and says so."""
    spec = copy.deepcopy(ASANA)
    del spec["paths"]["/tasks"]["get"]["responses"]["200"]["content"]["application/json"][
        "schema"]["properties"]["next_page"]
    api = generate_package(spec, tmp_path)
    assert not hasattr(api.client.Client, "get_tasks_iter")
    (tmp_path / "asana.json").write_text(json.dumps(spec), encoding="utf-8")
    done = cli(capsys, "generate", str(tmp_path / "asana.json"), "--out", str(tmp_path / "out"))
    assert done.returncode == 0
    assert "/paths/~1tasks/get: looks paged (it takes `limit`) but shows no way" in done.stderr
