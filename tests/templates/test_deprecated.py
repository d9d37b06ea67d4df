"""`deprecated: true` and descriptions reach the generated code: the client method warns when
called (over real HTTP) and carries the PEP 702 marker; docstrings say so and describe the
parameters."""

from __future__ import annotations

import asyncio
import inspect
import warnings
from typing import Any

import pytest
from gen_support import GenerateFn, openapi, serve

SPEC = openapi({
    "/old/{id}": {"get": {
        "operationId": "getOld", "deprecated": True, "summary": "Read an old thing.",
        "description": "Use getNew instead.",
        "parameters": [
            {"name": "id", "in": "path", "required": True, "schema": {"type": "string"},
             "description": "The thing's id."},
            {"name": "fmt", "in": "query", "deprecated": True, "schema": {"type": "string"},
             "description": "Ignored."},
        ],
        "responses": {"200": {"description": "ok", "content": {"text/plain": {
            "schema": {"type": "string"}}}}}}},
    "/new": {"get": {"operationId": "getNew", "summary": "Read a new thing.",
                     "responses": {"204": {"description": "none"}}}},
})


def test_deprecated_operations_warn_and_carry_the_marker(generate: GenerateFn) -> None:
    pkg = generate(SPEC)

    class Service(pkg.server.ServiceBase):  # type: ignore[misc,name-defined]
        async def get_old(self, id: str, *, fmt: str | None = None) -> Any:
            return f"old {id}"

        async def get_new(self) -> None:
            return None

    with serve(pkg.server.create_app(Service())) as url:
        with pkg.client.Client(url) as client:
            with pytest.warns(DeprecationWarning, match="getOld is deprecated"):
                assert client.get_old("7") == "old 7"
            with warnings.catch_warnings():
                warnings.simplefilter("error")
                client.get_new()  # not deprecated: no warning

        async def main() -> str:
            async with pkg.client.AsyncClient(url) as client:
                with pytest.warns(DeprecationWarning):
                    result: str = await client.get_old("8")
                return result

        assert asyncio.run(main()) == "old 8"
    for cls in (pkg.client.Client, pkg.client.AsyncClient):
        assert cls.get_old.__deprecated__ == "getOld is deprecated"  # PEP 702
        assert inspect.iscoroutinefunction(cls.get_old) == (cls is pkg.client.AsyncClient)
        assert not hasattr(cls.get_new, "__deprecated__")
    for doc in (pkg.client.Client.get_old.__doc__, pkg.server.ServiceBase.get_old.__doc__):
        assert doc is not None
        assert "Read an old thing." in doc and "Use getNew instead." in doc
        assert "Deprecated:" in doc
        assert "id: The thing's id." in doc and "fmt (deprecated): Ignored." in doc


def test_deprecated_schemas_and_properties_say_so(generate: GenerateFn) -> None:
    pkg = generate(openapi({}, {
        "Old": {"type": "object", "deprecated": True, "description": "An old thing.",
                "properties": {
                    "legacy": {"type": "string", "deprecated": True, "description": "Unused."},
                    "plain": {"type": "string", "deprecated": True},
                    "kept": {"type": "string", "description": "Still here."}}},
        "Mode": {"type": "string", "enum": ["a", "b"], "deprecated": True}}))
    Old = pkg.models.Old
    assert "Deprecated. An old thing." in (Old.__doc__ or "")
    assert Old.model_fields["legacy"].description == "Deprecated. Unused."
    assert Old.model_fields["plain"].description == "Deprecated."
    assert Old.model_fields["kept"].description == "Still here."
    assert "Deprecated." in (pkg.models.Mode.__doc__ or "")
