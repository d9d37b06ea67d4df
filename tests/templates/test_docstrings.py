"""Examples and links a contract declares are kept in the operation's docstrings (server and
client): parameters' and the request body's `example` (else the first of `examples`), and the
`links` of success responses."""

from __future__ import annotations

from gen_support import GenerateFn, openapi

SPEC = openapi({
    "/users/{id}": {
        "parameters": [{"name": "id", "in": "path", "required": True,
                        "schema": {"type": "string"}, "example": "u-42"}],
        "put": {
            "operationId": "putUser", "summary": "Replace a user.",
            "parameters": [{"name": "dry", "in": "query", "schema": {"type": "boolean"},
                            "examples": {"yes": {"value": True}, "no": {"value": False}}}],
            "requestBody": {"content": {"application/json": {
                "schema": {"type": "object", "properties": {"name": {"type": "string"}}},
                "example": {"name": "Ann \"\"\" Lee"}}}},
            "responses": {"200": {
                "description": "ok",
                "links": {"GetGroup": {"operationId": "getGroup",
                                       "parameters": {"gid": "$response.body#/group"}}}}}}},
    "/groups/{gid}": {"get": {
        "operationId": "getGroup",
        "parameters": [{"name": "gid", "in": "path", "required": True,
                        "schema": {"type": "string"}}],
        "responses": {"204": {"description": "ok"}}}},
})


def test_examples_and_links_are_in_docstrings(generate: GenerateFn) -> None:
    pkg = generate(SPEC)
    for doc in (pkg.client.Client.put_user.__doc__, pkg.server.ServiceBase.put_user.__doc__,
                pkg.client.AsyncClient.put_user.__doc__):
        assert doc is not None
        assert "Examples:\n" in doc
        assert 'id: "u-42"' in doc and "dry: true" in doc
        assert 'body: {"name": "Ann \\"\\"\\" Lee"}' in doc  # escaped JSON, quotes intact
        assert "Links:\n" in doc
        assert "GetGroup (200): getGroup with gid=$response.body#/group" in doc
    assert "Examples" not in (pkg.client.Client.get_group.__doc__ or "")


def test_client_methods_are_defs_that_help_and_jump_to_definition_land_on(
        generate: GenerateFn) -> None:
    # Each method is written out in client.py (issue 38): its source is a `def` with the
    # operation's signature and docstring, whose short body calls the runtime.
    import inspect

    pkg = generate(SPEC)
    for cls, prefix in ((pkg.client.Client, "def"), (pkg.client.AsyncClient, "async def")):
        for name in ("put_user", "put_user_detailed", "get_group", "get_group_detailed"):
            method = getattr(cls, name)
            assert inspect.isfunction(method) and method.__qualname__ == f"{cls.__name__}.{name}"
            assert method.__code__.co_filename == pkg.client.__file__
            source = inspect.getsource(method)
            assert source.lstrip().startswith(f"{prefix} {name}(")
            assert f"_build_{name.removesuffix('_detailed')}(" in source
            assert len(source.split('"""')[-1].strip().splitlines()) <= 6  # a short body
        assert list(inspect.signature(cls.put_user).parameters) == ["self", "id", "body", "dry"]
        assert "Replace a user." in (cls.put_user.__doc__ or "")
        assert inspect.iscoroutinefunction(cls.get_group) is (cls is pkg.client.AsyncClient)
