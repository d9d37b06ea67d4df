"""Values made up from schemas: valid against them (jsonschema, formats checked), drawn from the
rng alone, and strings that match a schema's `pattern`."""

from __future__ import annotations

import random
import re

import pytest
from contractgen.mock.fake import Faker
from contractgen.mock.regex import matches, sample
from openapi_schema_validator import OAS30Validator

SPEC = {"openapi": "3.0.3", "components": {"schemas": {
    "Pet": {"type": "object", "required": ["id", "name", "born"], "properties": {
        "id": {"type": "string", "format": "uuid"},
        "name": {"type": "string", "minLength": 2, "maxLength": 5},
        "born": {"type": "string", "format": "date"},
        "owner": {"type": "string", "format": "email"},
        "site": {"type": "string", "format": "uri"},
        "weight": {"type": "number", "minimum": 0.5, "exclusiveMaximum": True, "maximum": 9},
        "legs": {"type": "integer", "minimum": 2, "maximum": 4, "multipleOf": 2},
        "tags": {"type": "array", "minItems": 2, "uniqueItems": True,
                 "items": {"type": "string", "enum": ["a", "b", "c"]}},
        "kind": {"oneOf": [{"type": "string", "enum": ["cat"]}, {"type": "integer"}]},
        "secret": {"type": "string", "writeOnly": True},
    }},
}}}
PATTERNS = [r"^[A-Z]{3}-\d{4}$", r"^(?:ab|cd)+x?$", r"^[^\s@]+@example\.(com|org)$",
            r"v[0-9]+\.[0-9]+", r"^\w{2,4}$"]


@pytest.mark.parametrize("seed", range(20))
def test_a_made_up_value_is_valid_and_drawn_from_its_rng_alone(seed: int) -> None:
    faker = Faker(SPEC)
    schema = {"$ref": "#/components/schemas/Pet"}
    value = faker.value(schema, random.Random(seed))
    validator = OAS30Validator({**SPEC["components"]["schemas"]["Pet"]},
                               format_checker=OAS30Validator.FORMAT_CHECKER)
    assert list(validator.iter_errors(value)) == []
    assert "secret" not in value  # writeOnly: never in an answer
    assert value == faker.value(schema, random.Random(seed))


@pytest.mark.parametrize("pattern", PATTERNS)
def test_a_pattern_is_matched(pattern: str) -> None:
    made = {sample(pattern, random.Random(seed)) for seed in range(10)}
    assert None not in made and all(re.search(pattern, m or "") for m in made)
    assert len(made) > 1


def test_a_pattern_it_cannot_walk_gives_none() -> None:
    assert sample(r"(a)\1", random.Random(0)) is None  # a back-reference


# ECMA-262 spellings Python's `re` reads otherwise (or refuses): tests/corpus/ecma_patterns.yaml
ECMA_PATTERNS = [r"^(?:[\w-./:]+)$", r"^\u{1F600}$", r"^\uD83D\uDE00$", r"^(?<n>a)b$",
                 r"^[^]$", r"^\cJ$", r"^a{$", r"^(?!b)a", r"\bab\b", r"^a\sb$"]


@pytest.mark.parametrize("pattern", ECMA_PATTERNS)
def test_an_ecma_pattern_is_matched_as_ecma_reads_it(pattern: str) -> None:
    """A surrogate pair is the character it spells, never two lone surrogates (which the
    judge's ECMA-262 engine cannot even read: the mock answered 500)."""
    made = [sample(pattern, random.Random(seed)) for seed in range(10)]
    assert None not in made and all(matches(pattern, m or "") for m in made)
    assert not any(0xD800 <= ord(c) <= 0xDFFF for m in made for c in m or "")


def test_an_optional_string_no_value_fits_is_left_out() -> None:
    schema = {"type": "object", "required": ["name"], "properties": {
        "name": {"type": "string", "pattern": "^[a-z]+$"},
        "nothing": {"type": "string", "pattern": "^[]$"}}}
    assert sample("^[]$", random.Random(0)) is None
    value = Faker({"openapi": "3.0.3"}).value(schema, random.Random(0))
    assert set(value) == {"name"} and matches("^[a-z]+$", value["name"])


TAGGED = {"openapi": "3.0.3", "components": {"schemas": {
    "Animal": {"type": "object", "required": ["petType", "name"],
               "discriminator": {"propertyName": "petType"},
               "properties": {"petType": {"type": "string"}, "name": {"type": "string"}}},
    "Cat": {"allOf": [{"$ref": "#/components/schemas/Animal"}, {
        "type": "object", "required": ["hunts"], "properties": {"hunts": {"type": "boolean"}}}]},
    "Dog": {"allOf": [{"$ref": "#/components/schemas/Animal"}, {
        "type": "object", "required": ["pack"], "properties": {"pack": {"type": "integer"}}}]},
    "Pet": {"oneOf": [{"$ref": "#/components/schemas/Cat"}, {"$ref": "#/components/schemas/Dog"}],
            "discriminator": {"propertyName": "petType",
                              "mapping": {"dog": "#/components/schemas/Dog"}}},
    "Made": {"type": "object", "required": ["id", "secret"], "properties": {
        "id": {"type": "string", "readOnly": True},
        "secret": {"type": "string", "writeOnly": True}}},
}}}


@pytest.mark.parametrize("seed", range(10))
def test_a_discriminated_value_names_the_member_it_was_made_from(seed: int) -> None:
    """composition.yaml's Pet was made with any petType, which a tagged union refuses."""
    faker = Faker(TAGGED)
    pet = faker.value({"$ref": "#/components/schemas/Pet"}, random.Random(seed))
    assert pet["petType"] == ("Cat" if "hunts" in pet else "dog")  # the mapping's key, else the name
    cat = faker.value({"$ref": "#/components/schemas/Cat"}, random.Random(seed))
    assert cat["petType"] == "Cat"  # an allOf subclass of the discriminated Animal


def test_a_request_carries_no_read_only_member_an_answer_no_write_only_one() -> None:
    faker = Faker(TAGGED)
    made = {"$ref": "#/components/schemas/Made"}
    assert set(faker.value(made, random.Random(1), reading=False)) == {"secret"}
    assert "id" in faker.value(made, random.Random(1))
