"""Path, header and cookie values of Literal or union types read from their text into their
type, over real HTTP (uvicorn on loopback), as query values are: `/items/1` is the integer 1,
`X-Mode: 0.5` the float 0.5, garbage refused with the declared error status and shape (issue 28)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from gen_support import Generated, generate_package, openapi, serve

ONE_OR_TWO = {"type": "integer", "oneOf": [{"const": 1}, {"const": 2}]}
NUMBER_OR_AUTO = {"anyOf": [{"type": "number"}, {"type": "string", "enum": ["auto"]}]}
SPEC = openapi({"/items/{kind}": {"get": {
    "operationId": "getItem",
    "parameters": [
        {"name": "kind", "in": "path", "required": True, "schema": ONE_OR_TWO},
        {"name": "X-Mode", "in": "header", "schema": NUMBER_OR_AUTO},
        {"name": "X-Strict", "in": "header", "required": True,
         "schema": {"type": "boolean", "enum": [True]}},
        {"name": "level", "in": "cookie", "schema": {**NUMBER_OR_AUTO, "default": "auto"}},
    ],
    "responses": {
        "200": {"description": "ok", "content": {"application/json": {"schema": {}}}},
        "400": {"description": "bad", "content": {"application/json": {"schema": {
            "$ref": "#/components/schemas/Error"}}}},
    },
}}}, {"Error": {"type": "object", "required": ["code", "message"], "properties": {
    "code": {"type": "integer"}, "message": {"type": "string"}}}})
STRICT = {"X-Strict": "true"}


@pytest.fixture(scope="module")
def package(tmp_path_factory: pytest.TempPathFactory) -> Generated:
    return generate_package(SPEC, tmp_path_factory.mktemp("parameter_text"))


@pytest.fixture(scope="module")
def http(package: Generated) -> Iterator[httpx.Client]:
    class Service(package.server.ServiceBase):  # type: ignore[misc,name-defined]
        async def get_item(self, kind: Any, **values: Any) -> Any:
            values = {"kind": kind, **values}
            return {name: [value, type(value).__name__] for name, value in values.items()}

    with serve(package.server.create_app(Service())) as url, httpx.Client(
            base_url=url, timeout=10) as client:
        yield client


@pytest.mark.parametrize(("path", "headers", "cookies", "expected"), [
    ("/items/1", {}, {}, {"kind": [1, "int"], "x_mode": [None, "NoneType"],
                          "x_strict": [True, "bool"], "level": ["auto", "str"]}),
    ("/items/2", {"X-Mode": "0.5"}, {"level": "3"}, {
        "kind": [2, "int"], "x_mode": [0.5, "float"], "x_strict": [True, "bool"],
        "level": [3, "int"]}),
    ("/items/1", {"X-Mode": "auto"}, {"level": "2.5"}, {
        "kind": [1, "int"], "x_mode": ["auto", "str"], "x_strict": [True, "bool"],
        "level": [2.5, "float"]}),
])
def test_values_are_read_into_their_type(http: httpx.Client, path: str, headers: dict[str, str],
                                         cookies: dict[str, str], expected: Any) -> None:
    http.cookies.clear()
    answer = http.get(path, headers={**STRICT, **headers}, cookies=cookies)
    assert answer.status_code == 200, answer.text
    assert answer.json() == expected


@pytest.mark.parametrize(("path", "headers", "cookies", "where"), [
    ("/items/3", STRICT, {}, "kind"),
    ("/items/one", STRICT, {}, "kind"),
    ("/items/1", {**STRICT, "X-Mode": "garbage"}, {}, "X-Mode"),
    ("/items/1", {"X-Strict": "false"}, {}, "X-Strict"),
    ("/items/1", {}, {}, "X-Strict"),
    ("/items/1", STRICT, {"level": "high"}, "level"),
])
def test_values_outside_their_type_are_the_declared_400(
        http: httpx.Client, path: str, headers: dict[str, str], cookies: dict[str, str],
        where: str) -> None:
    http.cookies.clear()
    answer = http.get(path, headers=headers, cookies=cookies)
    assert answer.status_code == 400, answer.text
    body = answer.json()
    assert body["code"] == 400 and where in body["message"], body


def test_the_client_sends_them(package: Generated, http: httpx.Client) -> None:
    client = package.client.Client(str(http.base_url))
    found = client.get_item(2, x_mode=0.25, x_strict=True)
    assert found["kind"] == [2, "int"] and found["x_mode"] == [0.25, "float"]


@pytest.mark.slow
def test_the_generated_server_passes_ruff_and_mypy_strict(package: Generated) -> None:
    import subprocess
    import sys

    from gen_support import RUFF_RULES, mypy_strict

    # The project's rule set (ruff's defaults add PYI041 on `int | float`, the type of a
    # `number` in a union, in every signature: not this module's concern).
    ruff = subprocess.run([sys.executable, "-m", "ruff", "check", "--isolated", *RUFF_RULES,
                           str(package.dir / "server.py")], capture_output=True, text=True,
                          check=False)
    assert ruff.returncode == 0, ruff.stdout[-3000:]
    result = mypy_strict(package.dir)
    assert result.returncode == 0, result.stdout + result.stderr
