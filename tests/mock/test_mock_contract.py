"""The contract as the mock reads it: its operations."""

from __future__ import annotations

from contractgen.mock.contract import operations


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
