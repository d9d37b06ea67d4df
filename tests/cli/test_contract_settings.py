"""`[tool.contractgen]` says what a contract one does not own leaves out: a target's `pagination`
(operationId -> what `x-pagination` takes) and `closed_enums` (schemas kept closed, as
`x-enum-closed: true`), exercised through the generated clients over a loopback server, sync
and async; a name the contract does not declare is an error located in the configuration."""

from __future__ import annotations

import asyncio
import importlib
import json
import sys
import textwrap
import uuid
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from contractgen import SpecError
from contractgen.api import render_target
from contractgen.config import load_targets
from failing_server import Script, failing_server
from gen_support import cli, openapi


def _json(schema: dict[str, Any]) -> dict[str, Any]:
    return {"content": {"application/json": {"schema": schema}}}


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


SPEC = openapi(
    {
        "/things": {"get": {
            "operationId": "listThings",
            "parameters": [{"name": "size", "in": "query", "schema": {"type": "integer"}}],
            "responses": {"200": {"description": "ok", **_json(
                {"type": "array", "items": {"type": "string"}})}},
        }},
        "/pet": {"get": {
            "operationId": "getPet",
            "responses": {"200": {"description": "ok", **_json(_ref("Pet"))}},
        }},
    },
    {
        "Kind": {"type": "string", "enum": ["cat", "dog"]},
        "Cat": {"type": "object", "required": ["kind"], "properties": {"kind": {"const": "cat"}}},
        "Dog": {"type": "object", "required": ["kind"], "properties": {"kind": {"const": "dog"}}},
        "Animal": {"oneOf": [_ref("Cat"), _ref("Dog")]},
        "Pet": {"type": "object", "required": ["kind"], "properties": {
            "kind": _ref("Kind"), "animal": _ref("Animal")}},
    },
)

SETTINGS = """\
    closed_enums = ["Kind", "Animal"]

    [tool.contractgen.targets.pagination]
    listThings = { page = "size" }
"""


def _project(tmp_path: Path, settings: str) -> tuple[Path, str]:
    package = f"gen_{uuid.uuid4().hex[:10]}"
    (tmp_path / "spec.json").write_text(json.dumps(SPEC), encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text(textwrap.dedent(f"""\
        [[tool.contractgen.targets]]
        spec = "spec.json"
        out = "{package}"
    """) + textwrap.dedent(settings), encoding="utf-8")
    return tmp_path / "pyproject.toml", package


def _answer(body: Any) -> tuple[int, dict[str, str], bytes]:
    return 200, {"content-type": "application/json"}, json.dumps(body).encode()


def _run(client: Any, url: str, mode: str, call: Any) -> Any:
    """`call(client)` on a sync or an async client of `url`; an async iterator is drained."""
    if mode == "sync":
        with client.Client(url) as opened:
            result = call(opened)
            return list(result) if hasattr(result, "__next__") else result

    async def main() -> Any:
        async with client.AsyncClient(url) as opened:
            result = call(opened)
            if hasattr(result, "__aiter__"):
                return [item async for item in result]
            return await result

    return asyncio.run(main())


@pytest.fixture(scope="module")
def configured(tmp_path_factory: pytest.TempPathFactory) -> Any:
    base = tmp_path_factory.mktemp("settings")
    config, package = _project(base, SETTINGS)
    [target] = load_targets(config)
    for name, text in render_target(target).items():
        (base / package / name).parent.mkdir(parents=True, exist_ok=True)
        (base / package / name).write_text(text, encoding="utf-8")
    sys.path.insert(0, str(base))
    importlib.invalidate_caches()
    return importlib.import_module(f"{package}.client")


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_configured_pagination(configured: Any, mode: str) -> None:
    script = Script([_answer(["a"]), _answer(["b"]), _answer([])])
    with failing_server(script) as url:
        assert _run(configured, url, mode, lambda c: c.list_things_iter()) == ["a", "b"]
    assert [parse_qs(urlsplit(s.path).query).get("size") for s in script.seen] == [
        None, ["2"], ["3"]]


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_configured_closed_enum_and_union(configured: Any, mode: str) -> None:
    refused = configured.errors.ResponseValidationError
    for body in ({"kind": "bird"}, {"kind": "cat", "animal": {"kind": "bird"}}):
        with failing_server(Script([_answer(body)])) as url, pytest.raises(refused):
            _run(configured, url, mode, lambda c: c.get_pet())
    with failing_server(Script([_answer({"kind": "cat", "animal": {"kind": "dog"}})])) as url:
        assert _run(configured, url, mode, lambda c: c.get_pet()).animal.kind == "dog"


def test_the_contract_served_stays_as_written(configured: Any) -> None:
    served = (Path(configured.__file__).parent / "openapi.json").read_text(encoding="utf-8")
    assert "x-pagination" not in served and "x-enum-closed" not in served


def test_without_settings_the_same_contract_stays_open(tmp_path: Path) -> None:
    config, _ = _project(tmp_path, "")
    models = render_target(load_targets(config)[0])["models.py"]
    assert 'Cat | Dog | UnknownMember, OpenUnion("kind")' in models and "_missing_" in models


@pytest.mark.parametrize(("settings", "pointer", "hint"), [
    ('closed_enums = ["Kinds"]\n', "/tool/contractgen/targets/0/closed_enums/0", "`Kind`"),
    ('[tool.contractgen.targets.pagination]\nlistThing = { page = "size" }\n',
     "/tool/contractgen/targets/0/pagination/listThing", "`listThings`"),
])
def test_an_unknown_name_is_a_located_error(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], settings: str, pointer: str,
        hint: str) -> None:
    config, _ = _project(tmp_path, settings)
    with pytest.raises(SpecError) as caught:
        render_target(load_targets(config)[0])
    [problem] = caught.value.problems
    assert (problem.file, problem.pointer) == (str(config.resolve()), pointer)
    assert "which the contract does not declare" in problem.message and hint in (problem.hint or "")
    result = cli(capsys, "generate", cwd=tmp_path)
    assert result.returncode != 0 and pointer in result.stdout + result.stderr


@pytest.mark.parametrize("settings", ['closed_enums = "Kind"\n', "closed_enums = [1]\n",
                                      "pagination = { listThings = 1 }\n", "pagination = 2\n"])
def test_malformed_settings_are_a_located_error(tmp_path: Path, settings: str) -> None:
    config, _ = _project(tmp_path, settings)
    with pytest.raises(SpecError) as caught:
        load_targets(config)
    key = "closed_enums" if "closed" in settings else "pagination"
    assert caught.value.problems[0].pointer == f"/tool/contractgen/targets/0/{key}"
