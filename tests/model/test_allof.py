"""Schemas of real contracts that came out wrong (issue 10): allOf of any type, fractional
bounds in unions, enum and union defaults. Each is a minimal reproduction, generated and imported;
the typing ones are checked by `mypy --strict` once over one package."""

from __future__ import annotations

import enum
from typing import Any

import pytest
from gen_support import Generated, GenerateFn, generate_package, mypy_strict, openapi
from pydantic import TypeAdapter, ValidationError

_REF = "#/components/schemas/"

ALLOF_SCHEMAS: dict[str, Any] = {
    # allOf whose members are not objects: the intersection is a string.
    "Described": {"allOf": [{"type": "string"}, {"description": "a name"}]},
    "Shade": {"type": "string", "enum": ["light", "dark"]},
    "ShadeRef": {"type": "string", "allOf": [{"$ref": _REF + "Shade"}]},
    "Bounded": {"allOf": [{"type": "integer", "minimum": 1}, {"maximum": 9}]},
    "Holder": {
        "type": "object",
        "required": ["name", "shade"],
        "properties": {
            "name": {"allOf": [{"$ref": _REF + "Described"}], "description": "x"},
            "shade": {"allOf": [{"$ref": _REF + "Shade"}], "description": "y"},
        },
    },
    # Nested allOf: both members define `inner`; the result requires what either requires.
    "Nested": {
        "allOf": [
            {"type": "object", "required": ["inner"], "properties": {
                "inner": {"type": "object", "required": ["id"],
                          "properties": {"id": {"type": "string"}}},
                "kept": {"type": "string"},
            }},
            {"type": "object", "properties": {
                "inner": {"type": "object",
                          "properties": {"name": {"type": "string"}}},
                "other": {"type": "integer"},
            }},
        ],
    },
    # Box's shape: a mini object extended by a full one, both declaring `type` and `id`.
    "FolderMini": {
        "type": "object",
        "required": ["id", "type"],
        "properties": {"id": {"type": "string"}, "type": {"type": "string", "enum": ["folder"]}},
    },
    "Folder": {
        "allOf": [
            {"$ref": _REF + "FolderMini"},
            {"type": "object", "properties": {
                "id": {"description": "the folder's id", "example": "12345"},
                "size": {"type": "integer"},
            }},
        ],
    },
}


@pytest.fixture(scope="module")
def allof(tmp_path_factory: pytest.TempPathFactory) -> Generated:
    return generate_package(openapi(schemas=ALLOF_SCHEMAS, version="3.0.3"),
                            tmp_path_factory.mktemp("allof"))


def _accepts(kind: Any, value: Any) -> bool:
    adapter: TypeAdapter[Any] = TypeAdapter(kind)
    try:
        adapter.validate_python(value)
    except ValidationError:
        return False
    return True


def test_allof_of_strings_is_a_string(allof: Generated) -> None:
    kind = allof.models.Described
    assert _accepts(kind, "3")
    assert not _accepts(kind, {})
    assert not _accepts(kind, 3)


def test_allof_with_a_string_enum_is_the_enum(allof: Generated) -> None:
    kind = allof.models.ShadeRef
    assert _accepts(kind, "dark")
    assert not _accepts(kind, "grey")
    assert not _accepts(kind, {})


def test_allof_merges_number_bounds(allof: Generated) -> None:
    kind = allof.models.Bounded
    assert _accepts(kind, 5)
    assert not _accepts(kind, 0)
    assert not _accepts(kind, 10)


def test_properties_through_single_allof_keep_their_type(allof: Generated) -> None:
    holder = allof.models.Holder
    assert holder.model_validate({"name": "n", "shade": "light"}).shade == "light"
    with pytest.raises(ValidationError):
        holder.model_validate({"name": {}, "shade": "light"})
    with pytest.raises(ValidationError):
        holder.model_validate({"name": "n", "shade": "grey"})


def test_nested_allof_intersects_properties(allof: Generated) -> None:
    nested = allof.models.Nested
    value = nested.model_validate({"inner": {"id": "a", "name": "b"}, "kept": "k", "other": 1})
    assert value.inner.id == "a"
    assert value.inner.name == "b"
    assert value.kept == "k"
    assert value.other == 1
    with pytest.raises(ValidationError):  # `id` is required by the first member
        nested.model_validate({"inner": {"name": "b"}})
    with pytest.raises(ValidationError):  # and typed by it
        nested.model_validate({"inner": {"id": 3}})
    with pytest.raises(ValidationError):  # `inner` is required
        nested.model_validate({"other": 1})


def test_annotation_only_member_keeps_the_property_type(allof: Generated) -> None:
    folder = allof.models.Folder
    value = folder.model_validate({"id": "1", "type": "folder", "size": 3})
    assert value.id == "1"
    with pytest.raises(ValidationError):
        folder.model_validate({"id": 1, "type": "folder"})
    with pytest.raises(ValidationError):
        folder.model_validate({"id": "1", "type": "file"})
    with pytest.raises(ValidationError):
        folder.model_validate({"type": "folder"})


def test_fractional_bound_in_a_union_is_a_float(generate: GenerateFn) -> None:
    spec = openapi(schemas={"Scale": {"type": "object", "properties": {"v": {
        "oneOf": [{"type": "number", "minimum": 0.5, "maximum": 2.5}, {"type": "string"}]}}}})
    models = generate(spec).models
    assert models.Scale.model_validate({"v": 0.75}).v == 0.75
    assert models.Scale.model_validate({"v": 2}).v == 2
    assert models.Scale.model_validate({"v": "x"}).v == "x"
    with pytest.raises(ValidationError):
        models.Scale.model_validate({"v": 0.25})
    with pytest.raises(ValidationError):
        models.Scale.model_validate({"v": 3})


TYPING_SCHEMAS: dict[str, Any] = {
    "Ratio": {"type": "number", "enum": [4.1, 4.2, 5]},
    "Colour": {"type": "string", "enum": ["red", "green"]},
    "Kind": {"type": "object", "required": ["kind"],
             "properties": {"kind": {"type": "string", "enum": ["a"]}, "x": {"type": "integer"}}},
    "Other": {"type": "object", "required": ["kind"],
              "properties": {"kind": {"type": "string", "enum": ["b"]}}},
    "Defaults": {
        "type": "object",
        "properties": {
            "ratio": {"$ref": _REF + "Ratio"},
            "ratio_default": {"type": "number", "enum": [0.5, 1.5], "default": 1.5},
            "colour": {"$ref": _REF + "Colour", "default": "green"},
            "colour_allof": {"allOf": [{"$ref": _REF + "Colour"}], "default": "red"},
            "colours": {"type": "array", "items": {"$ref": _REF + "Colour"},
                        "default": ["red", "green"]},
            "either": {"anyOf": [{"$ref": _REF + "Colour"}, {"type": "integer"}],
                       "default": "red"},
            "choice": {"oneOf": [{"type": "string", "enum": ["auto", "none"]},
                                 {"$ref": _REF + "Kind"}], "default": "auto"},
            "tagged": {"oneOf": [{"$ref": _REF + "Kind"}, {"$ref": _REF + "Other"}],
                       "discriminator": {"propertyName": "kind"}, "default": {"kind": "b"}},
            "nested": {"$ref": _REF + "Kind", "default": {"kind": "a", "x": 1}},
            "number": {"oneOf": [{"type": "number"}, {"type": "string"}], "default": 1},
        },
    },
}


@pytest.fixture(scope="module")
def typed(tmp_path_factory: pytest.TempPathFactory) -> Generated:
    return generate_package(openapi(schemas=TYPING_SCHEMAS), tmp_path_factory.mktemp("typed"))


def test_non_integer_numeric_enum(typed: Generated) -> None:
    ratio = typed.models.Ratio
    assert _accepts(ratio, 4.1)
    assert _accepts(ratio, 5)
    assert not _accepts(ratio, 4.3)


def test_defaults_are_values_of_the_field_type(typed: Generated) -> None:
    models = typed.models
    value = models.Defaults()
    assert isinstance(value.colour, enum.Enum) and value.colour.value == "green"
    assert isinstance(value.colour_allof, enum.Enum) and value.colour_allof.value == "red"
    assert [c.value for c in value.colours] == ["red", "green"]
    assert all(isinstance(c, enum.Enum) for c in value.colours)
    assert isinstance(value.either, enum.Enum) and value.either.value == "red"
    assert value.choice == "auto"
    assert isinstance(value.tagged, models.Other)
    assert isinstance(value.nested, models.Kind) and value.nested.x == 1
    assert value.ratio_default == 1.5
    assert value.number == 1
    # A fresh default per instance: mutating one leaves the next alone.
    value.colours.append(value.colours[0])
    assert len(models.Defaults().colours) == 2
    assert models.Defaults().model_dump(mode="json", exclude_unset=True) == {}


@pytest.mark.slow
def test_generated_models_pass_mypy_strict(allof: Generated, typed: Generated) -> None:
    for generated in (allof, typed):
        result = mypy_strict(generated.dir)
        assert result.returncode == 0, result.stdout + result.stderr


def test_allof_of_type_lists_keeps_the_types_both_allow(generate: GenerateFn) -> None:
    # OpenAI once its `nullable` is repaired into 3.1's type lists: this was a TypeError.
    spec = openapi(schemas={"Count": {"allOf": [{"type": ["number", "null"]},
                                                {"type": ["integer", "null"], "minimum": 1}]}})
    count = generate(spec).models.Count
    assert _accepts(count, 2)
    assert _accepts(count, None)
    assert not _accepts(count, 1.5)
    assert not _accepts(count, 0)
