"""Generated models, feature by feature: each schema below is generated, imported and exercised."""

from __future__ import annotations

import enum
import json
import keyword
import re
import typing
from typing import Any

import pytest
from gen_support import Generated, GenerateFn, generate_package, openapi
from pydantic import BaseModel, TypeAdapter, ValidationError

SCHEMAS_31: dict[str, Any] = {
    "Optionality": {
        "type": "object",
        "required": ["req", "req_nullable"],
        "properties": {
            "req": {"type": "string"},
            "req_nullable": {"type": ["integer", "null"]},
            "opt": {"type": "string"},
            "opt_nullable": {"type": ["string", "null"]},
            "opt_ref": {"$ref": "#/components/schemas/Colour"},
            "anything": {"description": "no type: any JSON value, null included"},
        },
    },
    "Literals": {
        "type": "object",
        "required": ["kind", "single", "flag"],
        "properties": {
            "kind": {"const": "fixed"},
            "single": {"type": "string", "enum": ["only"]},
            "flag": {"type": "boolean", "enum": [True]},
            "number": {"const": 3},
        },
    },
    "Colour": {"type": "string", "enum": ["red", "green", "dark-blue"]},
    "Level": {"type": "integer", "enum": [1, 2, 5]},
    "MaybeColour": {"type": ["string", "null"], "enum": ["red", None]},
    # oneOf + discriminator + mapping whose values are not the schema names, members whose tag
    # property is a plain string.
    "CatDef": {
        "type": "object",
        "required": ["petType", "name"],
        "properties": {"petType": {"type": "string"}, "name": {"type": "string"},
                       "lives": {"type": "integer"}},
    },
    "DogDef": {
        "type": "object",
        "required": ["petType", "name"],
        "properties": {"petType": {"type": "string"}, "name": {"type": "string"},
                       "good": {"type": "boolean"}},
    },
    "Lizard": {
        "type": "object",
        "required": ["name"],
        "properties": {"petType": {"type": "string"}, "name": {"type": "string"}},
    },
    "Pet": {
        "oneOf": [{"$ref": "#/components/schemas/CatDef"},
                  {"$ref": "#/components/schemas/DogDef"},
                  {"$ref": "#/components/schemas/Lizard"}],
        "discriminator": {"propertyName": "petType",
                          "mapping": {"cat": "#/components/schemas/CatDef",
                                      "doggo": "#/components/schemas/DogDef"}},
    },
    # oneOf told apart by a const/enum field, without a discriminator (TPMJS's `success`).
    "Ok": {
        "type": "object",
        "required": ["success", "output"],
        "properties": {"success": {"type": "boolean", "enum": [True]}, "output": {}},
    },
    "Failed": {
        "type": "object",
        "required": ["success", "error"],
        "properties": {"success": {"type": "boolean", "enum": [False]},
                       "error": {"type": "string"}},
    },
    "Outcome": {"oneOf": [{"$ref": "#/components/schemas/Ok"},
                          {"$ref": "#/components/schemas/Failed"}]},
    "Loose": {
        "type": "object",
        "properties": {"one": {"oneOf": [{"type": "string"}, {"type": "number"}]},
                       "many": {"type": ["number", "boolean", "null"]}},
    },
    "NotAString": {"not": {"type": "string"}},
    "Handle": {"type": "string", "not": {"enum": ["admin", "root"]}},
    "Open": {"type": "object", "properties": {"a": {"type": "integer"}}},
    "OpenExplicit": {"type": "object", "additionalProperties": True,
                     "properties": {"a": {"type": "integer"}}},
    "Closed": {"type": "object", "additionalProperties": False,
               "properties": {"a": {"type": "integer"}}},
    "Counts": {"type": "object", "additionalProperties": {"type": "integer", "minimum": 0},
               "properties": {"a": {"type": "string"}}},
    "Constrained": {
        "type": "object",
        "properties": {
            "code": {"type": "string", "minLength": 2, "maxLength": 4, "pattern": "^[A-Z]+$"},
            "pct": {"type": "number", "minimum": 0, "maximum": 100},
            "positive": {"type": "integer", "exclusiveMinimum": 0, "exclusiveMaximum": 10},
            "step": {"type": "integer", "multipleOf": 5},
            "pair": {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 2},
            "labels": {"type": "object", "additionalProperties": {"type": "string"},
                       "minProperties": 1, "maxProperties": 2},
        },
    },
    "Defaults": {
        "type": "object",
        "properties": {
            "version": {"type": "string", "default": "latest"},
            "retries": {"type": "integer", "default": 3},
            "ratio": {"type": "number", "default": 1},
            "colour": {"$ref": "#/components/schemas/Colour", "default": "green"},
            "tags": {"type": "array", "items": {"type": "string"}, "default": []},
            "nullable_default": {"type": ["string", "null"], "default": None},
        },
    },
    "WireNames": {
        "type": "object",
        "required": ["X-Rate"],
        "properties": {
            "X-Rate": {"type": "number"},
            "2fa": {"type": "boolean"},
            "@type": {"type": "string"},
            "class": {"type": "string"},
            "camelCase": {"type": "string"},
            "list": {"type": "array", "items": {"type": "string"}},
        },
    },
    "Described": {
        "type": "object",
        "description": "A described model.\n\nWith a second paragraph.",
        "properties": {"field": {"type": "string", "description": "What the field holds."}},
    },
    "TreeNode": {
        "type": "object",
        "required": ["value"],
        "properties": {
            "value": {"type": "string"},
            "children": {"type": "array", "items": {"$ref": "#/components/schemas/TreeNode"}},
            "parent": {"anyOf": [{"$ref": "#/components/schemas/TreeNode"}, {"type": "null"}]},
        },
    },
    "Identified": {"type": "object", "required": ["id"],
                   "properties": {"id": {"type": "string", "format": "uuid"}}},
    "Entity": {
        "allOf": [
            {"$ref": "#/components/schemas/Identified"},
            {"type": "object", "required": ["name"], "properties": {"name": {"type": "string"}}},
        ],
    },
    "TextEditorInput": {
        "type": "object",
        "required": ["command"],
        "properties": {"command": {"type": "string", "enum": ["view", "create"]}},
    },
    "ErrorResponse": {
        "type": "object",
        "properties": {"error": {"type": "object", "properties": {"code": {"type": "string"}}},
                       "items": {"type": "array", "items": {"type": "object", "properties": {
                           "sku": {"type": "string"}}}}},
    },
}

SCHEMAS_30: dict[str, Any] = {
    "Nullable30": {
        "type": "object",
        "properties": {
            "maybe": {"type": "string", "nullable": True},
            "never": {"type": "string"},
            "ref_nullable": {"allOf": [{"$ref": "#/components/schemas/Child"}], "nullable": True},
        },
    },
    "Child": {"type": "object", "properties": {"x": {"type": "integer"}}},
    "Exclusive30": {
        "type": "object",
        "properties": {
            "above": {"type": "number", "minimum": 0, "exclusiveMinimum": True},
            "at_most": {"type": "number", "maximum": 10, "exclusiveMaximum": False},
            "below": {"type": "integer", "maximum": 10, "exclusiveMaximum": True},
        },
    },
}


@pytest.fixture(scope="module")
def m31(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return generate_package(openapi(schemas=SCHEMAS_31), tmp_path_factory.mktemp("m31")).models


@pytest.fixture(scope="module")
def m30(tmp_path_factory: pytest.TempPathFactory) -> Any:
    spec = openapi(schemas=SCHEMAS_30, version="3.0.3")
    return generate_package(spec, tmp_path_factory.mktemp("m30")).models


def _rejects(model: Any, data: Any) -> None:
    adapter = TypeAdapter(model)
    with pytest.raises(ValidationError):
        adapter.validate_python(data)


def _json(value: BaseModel) -> Any:
    return value.model_dump(mode="json")


# -- optional and nullable ----------------------------------------------------------------------


def test_optional_is_not_nullable(m31: Any) -> None:
    Model = m31.Optionality
    base = {"req": "r", "req_nullable": None}
    value = Model.model_validate(base)
    assert _json(value) == base  # unset optionals are absent, an explicit null is kept
    for name in ("opt", "opt_ref"):
        _rejects(Model, {**base, name: None})
    assert _json(Model.model_validate({**base, "opt_nullable": None})) == {
        **base, "opt_nullable": None}
    assert _json(Model.model_validate({**base, "anything": None})) == {**base, "anything": None}
    _rejects(Model, {"req": "r"})  # required and nullable: present, may be null
    _rejects(Model, {"req_nullable": 1})
    # In Python, None (what `opt: str | None = None` type-checks) means unset: left out.
    unset = Model(req="r", req_nullable=1, opt=None)
    assert unset.opt is None and _json(unset) == {"req": "r", "req_nullable": 1}
    assert _json(Model(req="r", req_nullable=1, opt_nullable=None)) == {
        "req": "r", "req_nullable": 1, "opt_nullable": None}
    unset.opt = None  # assigned later: still not sent as null
    assert _json(unset) == {"req": "r", "req_nullable": 1}
    assert _json(Model(req="r", req_nullable=2, opt="o")) == {"req": "r", "req_nullable": 2,
                                                              "opt": "o"}


def test_nullable_30(m30: Any) -> None:
    Model = m30.Nullable30
    assert Model.model_validate({"maybe": None, "ref_nullable": None}).maybe is None
    assert Model.model_validate({"ref_nullable": {"x": 1}}).ref_nullable.x == 1
    _rejects(Model, {"never": None})
    assert _json(Model()) == {}


def test_type_list_with_null_31(m31: Any) -> None:
    assert TypeAdapter(m31.MaybeColour).validate_python(None) is None
    assert TypeAdapter(m31.MaybeColour).validate_python("red") == "red"
    _rejects(m31.MaybeColour, "blue")


# -- literals and enums -------------------------------------------------------------------------


def test_const_and_single_value_enums_are_literals(m31: Any) -> None:
    Model = m31.Literals
    for name in ("kind", "single", "flag"):
        assert typing.get_origin(Model.model_fields[name].annotation) is typing.Literal, name
    assert typing.get_args(Model.model_fields["flag"].annotation) == (True,)
    value = Model.model_validate({"kind": "fixed", "single": "only", "flag": True, "number": 3})
    assert _json(value) == {"kind": "fixed", "single": "only", "flag": True, "number": 3}
    good = {"kind": "fixed", "single": "only", "flag": True}
    for name, wrong in (("kind", "other"), ("single", "two"), ("flag", False), ("number", 4)):
        _rejects(Model, {**good, name: wrong})


def test_enums_are_str_and_int_enums(m31: Any) -> None:
    assert issubclass(m31.Colour, enum.StrEnum)
    assert [c.value for c in m31.Colour] == ["red", "green", "dark-blue"]
    assert m31.Colour("dark-blue").name == "DARK_BLUE"
    assert issubclass(m31.Level, enum.IntEnum)
    assert [lv.value for lv in m31.Level] == [1, 2, 5]
    _rejects(m31.Colour, "blue")
    _rejects(m31.Level, 3)


# -- unions -------------------------------------------------------------------------------------


def test_discriminator_mapping_is_honoured(m31: Any) -> None:
    adapter = m31.PetAdapter
    cat = adapter.validate_python({"petType": "cat", "name": "Tom", "lives": 9})
    dog = adapter.validate_python({"petType": "doggo", "name": "Rex"})
    lizard = adapter.validate_python({"petType": "Lizard", "name": "Liz"})
    assert (type(cat), type(dog), type(lizard)) == (m31.CatDef, m31.DogDef, m31.Lizard)
    assert adapter.dump_python(dog, mode="json") == {"petType": "doggo", "name": "Rex"}
    for tag in ("CatDef", "DogDef", "dog", None):
        with pytest.raises(ValidationError):
            adapter.validate_python({"petType": tag, "name": "x"})
    # a member's tag is fixed by the mapping, even though its schema says `type: string`
    _rejects(m31.DogDef, {"petType": "cat", "name": "x"})
    assert m31.Lizard(name="Liz").petType == "Lizard"  # an optional tag defaults to its value
    metadata = typing.get_args(m31.Pet)[1:]
    assert any(getattr(m, "discriminator", None) == "petType" for m in metadata)


def test_union_told_apart_by_a_const_field_is_discriminated(m31: Any) -> None:
    metadata = typing.get_args(m31.Outcome)[1:]
    assert any(getattr(m, "discriminator", None) == "success" for m in metadata)
    adapter = m31.OutcomeAdapter
    assert isinstance(adapter.validate_python({"success": True, "output": [1]}), m31.Ok)
    failed = adapter.validate_json('{"success": false, "error": "boom"}')
    assert isinstance(failed, m31.Failed) and failed.error == "boom"
    with pytest.raises(ValidationError):
        adapter.validate_python({"success": False, "output": 1})


def test_numbers_in_unions_keep_integers(m31: Any) -> None:
    data = {"one": 9007199254740993, "many": 5}
    value = m31.Loose.model_validate_json(json.dumps(data))
    assert json.loads(value.model_dump_json()) == data
    assert type(value.one) is int and type(value.many) is int
    assert m31.Loose.model_validate({"one": 2.5, "many": True}).model_dump() == {
        "one": 2.5, "many": True}


def test_not_rules_out_types_and_values(m31: Any) -> None:
    assert m31.NotAStringAdapter.validate_python({"a": 1}) == {"a": 1}
    assert m31.NotAStringAdapter.validate_python(None) is None
    _rejects(m31.NotAString, "text")
    assert m31.HandleAdapter.validate_python("alice") == "alice"
    _rejects(m31.Handle, "root")


# -- additional properties ----------------------------------------------------------------------


@pytest.mark.parametrize("name", ["Open", "OpenExplicit"])
def test_unknown_fields_survive_a_round_trip(m31: Any, name: str) -> None:
    Model = getattr(m31, name)
    data = {"a": 1, "extra": {"nested": [1, 2]}, "other-key": None}
    value = Model.model_validate_json(json.dumps(data))
    assert _json(value) == data
    assert Model.model_validate(_json(value)) == value


def test_additional_properties_false_forbids(m31: Any) -> None:
    assert _json(m31.Closed(a=1)) == {"a": 1}
    _rejects(m31.Closed, {"a": 1, "b": 2})


def test_schema_valued_additional_properties_are_validated(m31: Any) -> None:
    value = m31.Counts.model_validate({"a": "x", "n": "5", "m": 0})
    assert _json(value) == {"a": "x", "n": 5, "m": 0}
    _rejects(m31.Counts, {"n": -1})
    _rejects(m31.Counts, {"n": "many"})


# -- constraints and defaults -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("field", "good", "bad"),
    [
        ("code", ["AB", "ABCD"], ["A", "ABCDE", "ab", "A1"]),
        ("pct", [0, 100, 55.5], [-0.1, 100.01]),
        ("positive", [1, 9], [0, 10, -3]),
        ("step", [0, 5, -10], [3, 7]),
        ("pair", [[1, 2]], [[1], [1, 2, 3]]),
        ("labels", [{"a": "1"}, {"a": "1", "b": "2"}], [{}, {"a": "1", "b": "2", "c": "3"}]),
    ],
)
def test_constraints_are_enforced(m31: Any, field: str, good: list[Any], bad: list[Any]) -> None:
    for value in good:
        assert getattr(m31.Constrained.model_validate({field: value}), field) == value
    for value in bad:
        _rejects(m31.Constrained, {field: value})


def test_exclusive_bounds_30_boolean_form(m30: Any) -> None:
    Model = m30.Exclusive30
    assert Model.model_validate({"above": 0.001, "at_most": 10, "below": 9})
    for field, value in (("above", 0), ("below", 10), ("at_most", 10.5)):
        _rejects(Model, {field: value})


def test_defaults_apply_on_parse(m31: Any) -> None:
    value = m31.Defaults.model_validate({})
    assert value.version == "latest"
    assert value.retries == 3
    assert value.ratio == 1.0
    assert value.colour is m31.Colour.GREEN
    assert value.tags == []
    assert value.nullable_default is None
    assert m31.Defaults().tags is not m31.Defaults().tags  # a fresh list each time


def test_unset_optional_fields_are_omitted_as_each_class_derives(m31: Any) -> None:
    # Which optional fields stay out while unset is read off each class's fields at import:
    # those defaulting to None, a declared `default: null` included; not a declared default.
    assert m31.Defaults.contractgen_omit_unset == {"nullable_default"}
    assert _json(m31.Defaults()) == {"version": "latest", "retries": 3, "ratio": 1.0,
                                     "colour": "green", "tags": []}
    assert _json(m31.Defaults(nullable_default=None)) == {
        "version": "latest", "retries": 3, "ratio": 1.0, "colour": "green", "tags": [],
        "nullable_default": None}
    assert m31.Optionality.contractgen_omit_unset == {"opt", "opt_ref", "opt_nullable",
                                                      "anything"}

    class Extended(m31.Optionality):  # a hand-written subclass derives its own set
        extra_opt: str | None = None

    assert Extended.contractgen_omit_unset == m31.Optionality.contractgen_omit_unset | {
        "extra_opt"}
    assert _json(Extended(req="r", req_nullable=1)) == {"req": "r", "req_nullable": 1}


# -- names, docs, recursion, composition --------------------------------------------------------


def test_wire_names_get_aliases_and_both_names_are_accepted(m31: Any) -> None:
    Model = m31.WireNames
    fields = Model.model_fields
    aliases = {name: info.alias for name, info in fields.items() if info.alias}
    assert set(aliases.values()) >= {"X-Rate", "2fa", "@type", "class", "list"}
    assert "camelCase" in fields and fields["camelCase"].alias is None
    for name in fields:
        assert name.isidentifier() and not keyword.iskeyword(name)
    wire = {"X-Rate": 1.5, "2fa": True, "@type": "t", "class": "c", "camelCase": "k", "list": ["x"]}
    by_wire = Model.model_validate(wire)
    by_name = Model.model_validate({py: wire[alias] for py, alias in
                                    {**aliases, "camelCase": "camelCase"}.items()})
    assert by_wire == by_name
    assert _json(by_name) == wire
    assert _json(Model(**{aliases_py: wire[a] for aliases_py, a in aliases.items()})) == {
        k: v for k, v in wire.items() if k != "camelCase"}


def test_descriptions_become_docstrings_and_field_descriptions(m31: Any) -> None:
    assert m31.Described.__doc__ == "A described model.\n\n    With a second paragraph."
    assert m31.Described.model_fields["field"].description == "What the field holds."


def test_recursive_schemas(m31: Any) -> None:
    data = {"value": "root", "children": [{"value": "a", "children": [{"value": "a1"}]}],
            "parent": None}
    tree = m31.TreeNode.model_validate(data)
    assert tree.children[0].children[0].value == "a1"
    assert _json(tree) == data
    _rejects(m31.TreeNode, {"value": "r", "children": [{"children": []}]})


def test_all_of_composition(m31: Any) -> None:
    entity = m31.Entity.model_validate({"id": "0b6f3a52-7b7e-4a42-a4d6-4f6c2b1f0c8e", "name": "n"})
    assert str(entity.id) == "0b6f3a52-7b7e-4a42-a4d6-4f6c2b1f0c8e"
    _rejects(m31.Entity, {"name": "n"})
    _rejects(m31.Entity, {"id": "0b6f3a52-7b7e-4a42-a4d6-4f6c2b1f0c8e"})
    _rejects(m31.Entity, {"id": "not-a-uuid", "name": "n"})


def test_inline_schemas_are_named_from_their_context(m31: Any) -> None:
    assert issubclass(m31.TextEditorInputCommand, enum.StrEnum)
    assert m31.TextEditorInput.model_fields["command"].annotation is m31.TextEditorInputCommand
    assert issubclass(m31.ErrorResponseError, BaseModel)
    assert issubclass(m31.ErrorResponseItemsItem, BaseModel)
    assert not [n for n in m31.__all__ if re.fullmatch(r"(Model|Schema|Variant)\d*", n)]


def test_real_contracts_name_inline_schemas(contracts: dict[str, Generated]) -> None:
    otari, tpmjs = contracts["otari"].models, contracts["tpmjs"].models
    assert issubclass(otari.TextEditorInputCommand, enum.StrEnum)
    assert issubclass(tpmjs.ErrorResponseError, BaseModel)
    assert tpmjs.ErrorResponse.model_fields["error"].annotation is tpmjs.ErrorResponseError
    for models in (otari, tpmjs):
        assert not [n for n in models.__all__ if re.search(r"Model\d+$", n)]
    request = otari.ExecRequestAdapter.validate_python(
        {"tool": "text_editor_code_execution", "input": {"command": "view", "path": "a.py"}})
    assert isinstance(request, otari.TextEditorRequest)
    assert request.input.command is otari.TextEditorInputCommand.VIEW
    result = tpmjs.ExecuteToolResponseAdapter.validate_python(
        {"success": False, "error": {"code": "TOOL_NOT_FOUND", "message": "m"},
         "executionTimeMs": 1})
    assert isinstance(result, tpmjs.ExecuteToolErrorResponse)


def test_annotations_resolve_whatever_the_definition_order_and_field_names(
        generate: GenerateFn) -> None:
    # models.py evaluates annotations at class creation: a class used before its definition
    # (or by itself), an alias (defined after every class), and fields named like what
    # annotations use (`list`, `datetime`) must all resolve.
    pkg = generate(openapi(schemas={
        "AAA": {"type": "object", "properties": {
            "next": {"$ref": "#/components/schemas/Zed"},
            "self": {"$ref": "#/components/schemas/AAA"},
            "either": {"$ref": "#/components/schemas/Either"}}},
        "Zed": {"type": "object", "required": ["n"], "properties": {"n": {"type": "integer"}}},
        "Either": {"oneOf": [{"type": "string"}, {"$ref": "#/components/schemas/Zed"}]},
        "Shadowing": {"type": "object", "properties": {
            "list": {"type": "array", "items": {"type": "string"}},
            "datetime": {"type": "string", "format": "date-time"},
            "later": {"type": "array", "items": {"type": "string"}},
            "when": {"type": "string", "format": "date-time"}}},
    }))
    models = pkg.models
    value = models.AAA.model_validate(
        {"next": {"n": 1}, "self": {"either": {"n": 2}}, "either": "x"})
    assert value.next.n == 1 and value.self.either.n == 2 and value.either == "x"
    with pytest.raises(ValidationError):
        models.AAA.model_validate({"next": {"n": "one"}})
    shadow = models.Shadowing.model_validate(
        {"list": ["a"], "datetime": "2024-01-02T03:04:05Z", "later": ["b"],
         "when": "2024-01-02T03:04:05Z"})
    assert shadow.later == ["b"] and shadow.when.year == 2024
    assert models.EitherAdapter.validate_python({"n": 3}).n == 3
