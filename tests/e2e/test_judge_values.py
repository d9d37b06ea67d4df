"""The judge's value maker (judge_values.py, judge_strings.py): every value it makes is valid by
openapi-schema-validator, and a schema that admits no value is proved so, saying why."""

from __future__ import annotations

from typing import Any

import pytest
from judge_values import NoValue, Unsatisfiable, Values


def _values(schemas: dict[str, Any], version: str = "3.0.3") -> Values:
    return Values({"openapi": version, "components": {"schemas": schemas}})


def _valid(values: Values, schema: Any) -> Any:
    made = values.value(schema)
    assert values.errors(schema, made) == []
    return made


def test_an_ecma_pattern_is_drawn_as_ecma_reads_it() -> None:
    """`[\\w-./:]` is a class of `\\w`, `-`, `.`, `/`, `:` in ECMA-262 (Python's `re` refuses it)."""
    made = _valid(_values({}), {"type": "string", "pattern": r"^(?:[\w-./:]+)$", "minLength": 3})
    assert len(made) >= 3


def test_a_placeholder_pattern_on_a_format_is_proved_empty() -> None:
    schema = {"type": "string", "format": "date-time", "pattern": "YYYY-MM-DDThh:mm:ssZ"}
    with pytest.raises(Unsatisfiable, match="date-time"):
        _values({}).value(schema)


def test_a_required_name_no_property_declares_is_filled() -> None:
    schema = {"type": "object", "required": ["grant_type"],
              "properties": {"token": {"type": "string"}}}
    assert "grant_type" in _valid(_values({}), schema)


def test_a_required_name_a_closed_object_forbids_is_proved_empty() -> None:
    schema = {"type": "object", "required": ["cluster"], "additionalProperties": False,
              "properties": {"label": {"type": "string"}}}
    with pytest.raises(Unsatisfiable, match="`cluster` is required"):
        _values({}).value(schema)


def test_an_all_of_whose_closed_member_forbids_a_required_property_is_proved_empty() -> None:
    schema = {"allOf": [
        {"type": "object", "additionalProperties": False, "properties": {"label": {}}},
        {"type": "object", "properties": {"password": {"type": "string"}}}],
        "required": ["label", "password"]}
    with pytest.raises(Unsatisfiable, match="`password` is required, and an `allOf` member"):
        _values({}).value(schema)


def test_a_discriminator_value_is_a_mapping_key_or_a_member_s_name() -> None:
    schemas = {
        "Cat": {"type": "object", "required": ["kind"], "properties": {"kind": {"type": "string"}}},
        "Dog": {"type": "object", "required": ["kind", "bark"],
                "properties": {"kind": {"type": "string"}, "bark": {"type": "boolean"}}}}
    mapped = {"oneOf": [{"$ref": "#/components/schemas/Cat"}, {"$ref": "#/components/schemas/Dog"}],
              "discriminator": {"propertyName": "kind",
                                "mapping": {"woof": "#/components/schemas/Dog"}}}
    values = _values(schemas)
    assert _valid(values, mapped)["kind"] == "woof"
    implicit = {**mapped, "discriminator": {"propertyName": "kind"}}
    assert _valid(values, implicit)["kind"] == "Cat"


def test_a_discriminator_that_selects_no_member_is_proved_empty() -> None:
    """OpenAI's messages: no mapping, and each member's `role` refuses its own schema's name,
    so no value selects a member (openapi-schema-validator refuses every one)."""
    schemas = {"System": {"type": "object", "properties": {"role": {"enum": ["system"]}}},
               "User": {"type": "object", "properties": {"role": {"enum": ["user"]}}}}
    schema = {"oneOf": [{"$ref": "#/components/schemas/System"},
                        {"$ref": "#/components/schemas/User"}],
              "discriminator": {"propertyName": "role"}}
    with pytest.raises(Unsatisfiable, match="discriminator `role` selects no member"):
        _values(schemas).value(schema)
    dangling = {**schema, "discriminator": {"propertyName": "role",
                                            "mapping": {"system": "other.yml#/System"}}}
    with pytest.raises(Unsatisfiable, match="resolves nowhere"):
        _values(schemas).value({**dangling, "oneOf": [{"$ref": "#/components/schemas/System"}]})


def test_a_one_of_value_valid_under_two_members_is_made_exclusive() -> None:
    """Linode's X-Filter: an open object, or a closed one with optional properties only."""
    schema = {"oneOf": [{"type": "object"},
                        {"type": "object", "additionalProperties": False,
                         "properties": {"+and": {"type": "array"}}}]}
    _valid(_values({}), schema)


def test_unique_items_min_properties_and_optional_properties_without_a_value() -> None:
    values = _values({})
    assert len(set(_valid(values, {"type": "array", "minItems": 3, "uniqueItems": True,
                                   "items": {"type": "string"}}))) == 3
    assert len(_valid(values, {"type": "object", "minProperties": 2})) >= 2
    optional = {"type": "object", "properties": {
        "never": {"type": "object", "required": ["x"], "additionalProperties": False}}}
    assert _valid(values, optional) == {}


def test_a_schema_without_a_value_is_no_value_and_not_proved_empty() -> None:
    """What the maker cannot find is not said to be impossible: `NoValue`, not `Unsatisfiable`."""
    schema = {"type": "string", "pattern": "^a$", "minLength": 2}
    with pytest.raises(NoValue) as caught:
        _values({}).value(schema)
    assert not isinstance(caught.value, Unsatisfiable)


def test_the_events_of_a_stream_are_judged_one_by_one() -> None:
    """openapi-core does not read `text/event-stream`: each event's `data` is validated with
    openapi-schema-validator (`[DONE]` ends the stream and is no event)."""
    from judge_calls import event_errors

    schema = {"type": "object", "required": ["token"], "properties": {"token": {"type": "string"}}}
    good = b'data: {"token": "a"}\n\nevent: x\ndata: {"token":\ndata: "b"}\n\ndata: [DONE]\n\n'
    assert event_errors(_values({}), schema, good) == []
    bad = b'data: {"token": 1}\r\n\r\ndata: not json\n\n'
    found = event_errors(_values({}), schema, bad)
    assert [f.split(":")[0] for f in found] == ["event 0", "event 1"]
    assert "is not of type 'string'" in found[0] and "not JSON" in found[1]


def test_all_of_members_enums_hold_together() -> None:
    """PagerDuty's log entries: the base's `type` enum of 17, narrowed by each member to one."""
    schemas = {"Entry": {"type": "object", "properties": {"type": {"enum": ["a", "b", "c"]}}}}
    narrowed = {"allOf": [{"$ref": "#/components/schemas/Entry"},
                          {"type": "object", "required": ["type"],
                           "properties": {"type": {"enum": ["b"]}}}]}
    assert _valid(_values(schemas), narrowed)["type"] == "b"


def test_an_optional_property_whose_value_is_invalid_is_left_out() -> None:
    """A `oneOf` of two identical members admits no value; optional, it is simply not sent."""
    same = {"type": "object", "required": ["id"], "properties": {"id": {"type": "string"}}}
    schema = {"type": "object", "properties": {"agent": {"oneOf": [same, same]},
                                               "name": {"type": "string"}}}
    assert _valid(_values({}), schema) == {"name": "judge"}


def test_a_one_of_with_twin_members_covering_the_others_is_proved_empty() -> None:
    """PagerDuty's invocation agent: a reference twice (once inline), and a user reference
    whose values are references too: no value is valid under exactly one member."""
    ref = {"type": "object", "required": ["id", "type"],
           "properties": {"id": {"type": "string"}, "type": {"type": "string"}}}
    schemas = {"Ref": ref, "UserRef": {"allOf": [{"$ref": "#/components/schemas/Ref"},
                                                 {"properties": {"type": {"enum": ["user"]}}}]}}
    twins = {"oneOf": [{"$ref": "#/components/schemas/UserRef"},
                       {"$ref": "#/components/schemas/Ref"}, {**ref, "description": "again"}]}
    with pytest.raises(Unsatisfiable, match="same schema"):
        _values(schemas).value(twins)
    titled = {"type": "object", "properties": {"title": {"type": "string"}}}
    untitled = {"type": "object", "properties": {"name": {"type": "string"}}}
    assert _values({}).value({"oneOf": [titled, untitled, {"type": "string"}]}) is not None
