"""The contract as the mock reads it: its operations."""

from __future__ import annotations

from pathlib import Path

from contractgen.mock.contract import Judge, operations


def test_a_path_items_ref_is_followed() -> None:
    """3.1's `components/pathItems`: `paths: {/uploads: {$ref: ...}}` is served (it was a 404,
    `NO_OPERATION`), its responses read at the item the `$ref` leads to."""
    spec = {"openapi": "3.1.0", "paths": {
        "/uploads": {"$ref": "#/components/pathItems/Upload"},
        "/things": {"get": {"operationId": "list", "responses": {"200": {"description": "ok"}}}},
    }, "components": {"pathItems": {"Upload": {"post": {
        "operationId": "upload", "responses": {"201": {"description": "Uploaded"}}}}}}}
    ops = {op.id: op for op in operations(spec)}
    assert set(ops) == {"upload", "list"}
    assert ops["upload"].path == "/uploads" and ops["upload"].match("/uploads") == {}
    assert ops["upload"].pointer == "/components/pathItems/Upload/post"
    assert set(ops["upload"].responses) == {"201"}


def test_the_judge_says_a_lone_surrogate_is_invalid() -> None:
    """The ECMA-262 engine behind `pattern` reads UTF-8: a lone surrogate is a problem, not a
    crash (the mock answered 500)."""
    spec = {"openapi": "3.0.3", "components": {"schemas": {
        "Pair": {"type": "string", "pattern": r"^\uD83D\uDE00$"}}}}
    judge = Judge(spec)
    assert not judge.valid("/components/schemas/Pair", "\ud83d\ude00")
    assert judge.valid("/components/schemas/Pair", "\U0001F600")


def test_the_judge_says_a_value_it_cannot_resolve_is_invalid() -> None:
    """every_field_31.yaml's `$dynamicRef: '#node'` resolves against Thing's `$id`, where no
    anchor `node` is: a value reaching it is a problem, not a crash (a 500)."""
    spec = {"openapi": "3.1.0", "components": {"schemas": {
        "Thing": {"$id": "https://example.com/schemas/thing", "type": "object",
                  "properties": {"nested": {"$dynamicRef": "#node"}}},
        "Node": {"$dynamicAnchor": "node", "type": "object"}}}}
    judge = Judge(spec)
    assert judge.valid("/components/schemas/Thing", {})
    problems = judge.problems("/components/schemas/Thing", {"nested": {}})
    assert len(problems) == 1 and "leads nowhere" in problems[0]


def test_a_path_parameter_holding_a_slash_is_its_operations() -> None:
    """ecma_patterns.yaml's `/refs/{ref}` takes `a/b` (its pattern allows `/`): sent as
    `/refs/a%2Fb`, it is getRef's call with `ref` decoded (it was a 404, `NO_OPERATION`)."""
    from contractgen.mock import Mock

    mock = Mock(Path(__file__).resolve().parents[1] / "corpus" / "ecma_patterns.yaml")
    scope = {"type": "http", "method": "GET", "path": f"{mock.base_path}/refs/a/b",
             "raw_path": f"{mock.base_path}/refs/a%2Fb".encode(), "headers": []}
    call = mock.call_of(scope, b"")
    assert call is not None and call.op.id == "getRef" and call.params == {"ref": "a/b"}
    assert mock.call_of({**scope, "raw_path": None}, b"") is None  # the path decoded: no match


def test_an_operations_own_server_is_where_it_is_matched() -> None:
    """Box's POST /files/upload_sessions is served at upload.box.com/api/2.0: the generated
    server routes it under `/api/2.0`, and the mock matched it under the API's `/2.0` only
    (a 404 NO_OPERATION to the SDK's call)."""
    ok = {"200": {"description": "ok"}}
    spec = {"openapi": "3.0.3", "servers": [{"url": "https://api.example.com/2.0"}], "paths": {
        "/uploads": {"post": {"operationId": "upload", "responses": ok, "servers": [
            {"url": "https://{host}/api/2.0", "variables": {"host": {"default": "up.example.com"}}}]}},
        "/files": {"servers": [{"url": "https://files.example.com/v9/"}],
                   "get": {"operationId": "files", "responses": ok}},
        "/same": {"get": {"operationId": "same", "responses": ok,
                          "servers": [{"url": "https://api.example.com/2.0"}]}},
        "/relative": {"get": {"operationId": "relative", "responses": ok,
                              "servers": [{"url": "/elsewhere"}]}},
    }}
    ops = {op.id: op.server_path for op in operations(spec)}
    assert ops == {"upload": "/api/2.0", "files": "/v9", "same": None, "relative": None}
