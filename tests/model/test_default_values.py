"""The IR holds a spec `default` and an enum's members as JSON values (issue 29); the emit stage
spells them as Python of the declared type: enum members, models built from their data, list
factories, floats for numbers declared `number`."""

from __future__ import annotations

import json
from typing import Any

import pytest
from contractgen.emit.render import render_package
from contractgen.model.ir import Api, EnumDef, ModelDef
from contractgen.model.parse import build_api
from contractgen.spec import load
from gen_support import openapi

COLOR = {"type": "string", "enum": ["red", "green"], "default": "green"}
SCHEMAS: dict[str, Any] = {
    "Color": {"type": "string", "enum": ["red", "blue"]},
    "Level": {"type": "number", "enum": [1, 2.5]},
    "Count": {"type": "integer", "enum": [1, 2]},
    "Pet": {"type": "object", "properties": {"name": {"type": "string"}}},
    "Holder": {"type": "object", "properties": {
        "color": {"$ref": "#/components/schemas/Color", "default": "blue"},
        "pet": {"$ref": "#/components/schemas/Pet", "default": {"name": "rex"}},
        "tags": {"type": "array", "items": {"type": "string"}, "default": ["a"]},
        "empty": {"type": "array", "items": {"type": "string"}, "default": []},
        "ratio": {"type": "number", "default": 1},
        "level": {"$ref": "#/components/schemas/Level", "default": 1},
        "count": {"$ref": "#/components/schemas/Count", "default": 2},
        "maybe": {"type": ["string", "null"], "default": None},
        "plain": {"type": "string"},
    }},
}
PATHS = {"/h": {"get": {
    "operationId": "get_h",
    "parameters": [{"name": "color", "in": "query", "schema": COLOR},
                   {"name": "size", "in": "query", "schema": {"type": "integer", "default": 10}},
                   {"name": "counts", "in": "query", "schema": {
                       "type": "array", "items": {"$ref": "#/components/schemas/Count"},
                       "default": [2]}},
                   {"name": "ratio", "in": "query", "schema": {"type": "number", "default": 2}}],
    "responses": {"200": {"description": "ok", "content": {"application/json": {
        "schema": {"$ref": "#/components/schemas/Holder"}}}}},
}}}


@pytest.fixture(scope="module")
def api(tmp_path_factory: pytest.TempPathFactory) -> Api:
    spec = tmp_path_factory.mktemp("defaults") / "spec.json"
    spec.write_text(json.dumps(openapi(PATHS, SCHEMAS)), encoding="utf-8")
    document, _ = load(spec)
    return build_api(document, spec_display=spec.name)


def _definition(api: Api, name: str) -> Any:
    return next(d for d in api.definitions if d.name == name)


def test_fields_and_parameters_hold_the_json_default(api: Api) -> None:
    holder = _definition(api, "Holder")
    assert isinstance(holder, ModelDef)
    defaults = {f.name: f.default for f in holder.fields}
    assert defaults == {"color": "blue", "pet": {"name": "rex"}, "tags": ["a"], "empty": [],
                        "ratio": 1, "level": 1, "count": 2, "maybe": None, "plain": None}
    assert type(defaults["ratio"]) is int  # as written: the float is the emitter's spelling
    fields = {f.name: f for f in holder.fields}
    assert fields["maybe"].type.nullable and not fields["maybe"].has_default
    assert fields["color"].has_default and not fields["plain"].has_default
    [op] = api.operations
    assert {p.name: p.default for p in op.keyword_params} == {
        "color": "green", "size": 10, "counts": [2], "ratio": 2}


def test_enum_members_hold_their_values(api: Api) -> None:
    members = {name: dict(_definition(api, name).members) for name in ("Color", "Level", "Count")}
    assert all(isinstance(_definition(api, name), EnumDef) for name in members)
    assert members["Color"] == {"RED": "red", "BLUE": "blue"}
    assert members["Count"] == {"VALUE_1": 1, "VALUE_2": 2}
    level = list(members["Level"].values())
    assert level == [1.0, 2.5] and all(type(v) is float for v in level)  # a float enum's 1 is 1.0


def test_the_emitter_spells_them_in_the_declared_type(api: Api) -> None:
    files = render_package(api)
    models = files["models.py"]
    for line in ('    VALUE_1_0 = 1.0\n', '    VALUE_1 = 1\n', '    BLUE = "blue"\n',
                 "    color: Color = Color.BLUE\n",
                 '    pet: Pet = Field(default_factory=lambda: Pet.model_validate({"name": "rex"}))\n',
                 '    tags: list[str] = Field(default_factory=lambda: ["a"])\n',
                 "    empty: list[str] = Field(default_factory=list)\n",
                 "    ratio: float = 1.0\n", "    level: Level = Level.VALUE_1_0\n",
                 "    count: Count = Count.VALUE_2\n", "    maybe: str | None = None\n"):
        assert line in models
    client = files["client.py"]
    assert "color: models.GetHColor = models.GetHColor.GREEN," in client
    assert "counts: list[models.Count] = [models.Count.VALUE_2]," in client
    server = files["server.py"]
    for line in ("        size: int = 10,\n", "        ratio: float = 2.0,\n",
                 "        ratio: Annotated[float, Query()] = 2.0,\n"):
        assert line in server

