"""JSON Schema keywords pydantic has no keyword for, over real HTTP where they cross it:
`uniqueItems`, formats (email, uri, date-time; others kept as strings with a comment), tuples
from `prefixItems` / `items: false`, a `$ref` target's description left on the target; and the
located warnings for what is not enforced (if/then/else, oneOf exclusivity, discriminators
on allOf hierarchies, open prefixItems; webhook and callback models)."""

from __future__ import annotations

import datetime
import importlib.util
import json
from pathlib import Path
from typing import Any, Literal

import contractgen
import httpx
import pytest
from gen_support import Generated, generate_package, openapi, serve
from pydantic import ValidationError

THING = {
    "type": "object",
    "properties": {
        "tags": {"type": "array", "items": {"type": "string"}, "uniqueItems": True},
        "points": {"type": "array", "uniqueItems": True, "items": {
            "type": "object", "properties": {"x": {"type": "number"}}}},
        "pair": {"type": "array", "prefixItems": [{"type": "integer"}, {"type": "string"}],
                 "items": False, "minItems": 2},
        "nothing": {"type": "array", "items": False},
        "loose": {"type": "array", "prefixItems": [{"type": "integer"}]},
        "mail": {"type": "string", "format": "email"},
        "site": {"type": "string", "format": "uri"},
        "host": {"type": "string", "format": "hostname"},
        "when": {"type": "string", "format": "date-time"},
        "home": {"$ref": "#/components/schemas/Address"},
        "work": {"$ref": "#/components/schemas/Address", "description": "Where they work."},
        "cond": {"type": "object", "if": {"required": ["a"]}, "then": {"required": ["b"]}},
        "either": {"oneOf": [{"type": "integer"}, {"type": "number"}]},
        "fine": {"oneOf": [{"type": "integer"}, {"type": "string"}]},
    },
}
_PET = {"$ref": "#/components/schemas/Pet"}
_JSON = {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Thing"}}}}
SPEC = openapi(
    {"/things": {"post": {
        "operationId": "makeThing",
        "parameters": [{"name": "ids", "in": "query", "schema": {
            "type": "array", "items": {"type": "integer"}, "uniqueItems": True}}],
        "requestBody": {"required": True, **_JSON},
        "callbacks": {"onDone": {"{$request.body#/callback}": {"post": {
            "requestBody": {"content": {"application/json": {"schema": {
                "type": "object", "properties": {"status": {"type": "string"}}}}}},
            "responses": {"204": {"description": "ok"}}}}}},
        "responses": {"200": {"description": "ok", **_JSON}}}},
     "/pets": {"post": {
        "operationId": "addPet",
        "requestBody": {"required": True, "content": {"application/json": {"schema": _PET}}},
        "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {
            "type": "array", "items": _PET}}}}}}}},
    {
        "Address": {"description": "A postal address.", "type": "object",
                    "properties": {"city": {"type": "string"}}},
        "Thing": THING,
        "Lonely": {"type": "object", "required": ["kind"],
                   "properties": {"kind": {"type": "string"}},
                   "discriminator": {"propertyName": "kind"}},
        "Pet": {"type": "object", "required": ["petType", "name"],
                "properties": {"petType": {"type": "string"}, "name": {"type": "string"}},
                "discriminator": {"propertyName": "petType",
                                  "mapping": {"dog": "#/components/schemas/Dog"}}},
        "Cat": {"allOf": [{"$ref": "#/components/schemas/Pet"}, {
            "type": "object", "properties": {"lives": {"type": "integer", "maximum": 9}}}]},
        "Dog": {"allOf": [{"$ref": "#/components/schemas/Pet"}, {
            "type": "object", "required": ["bark"], "properties": {"bark": {"type": "string"}}}]},
    },
    webhooks={"newThing": {"post": {
        "requestBody": {"content": {"application/json": {"schema": {
            "type": "object", "properties": {"id": {"type": "string"}}}}}},
        "responses": {"200": {"description": "ok"}}}}},
)


@pytest.fixture(scope="module")
def pkg(tmp_path_factory: pytest.TempPathFactory) -> Generated:
    return generate_package(SPEC, tmp_path_factory.mktemp("keywords"))


def test_types_and_checks(pkg: Generated) -> None:
    Thing = pkg.models.Thing
    with pytest.raises(ValidationError, match="unique"):
        Thing(tags=["a", "a"])
    with pytest.raises(ValidationError, match="unique"):
        Thing.model_validate({"points": [{"x": 1}, {"x": 1.0}]})  # equal as JSON values
    assert Thing(tags=["a", "b"]).tags == ["a", "b"]
    assert Thing.model_validate({"pair": [1, "a"]}).pair == (1, "a")
    for bad in ([1], [1, "a", 2], ["a", 1]):
        with pytest.raises(ValidationError):
            Thing.model_validate({"pair": bad})
    assert Thing.model_validate({"nothing": []}).model_dump(mode="json") == {"nothing": []}
    with pytest.raises(ValidationError):
        Thing.model_validate({"nothing": [1]})
    assert Thing.model_validate({"loose": [1, "x", None]}).loose == [1, "x", None]
    assert Thing(site="https://example.com").site == "https://example.com"  # not normalized
    assert Thing(site="urn:isbn:0451450523").site == "urn:isbn:0451450523"
    with pytest.raises(ValidationError, match="absolute URI"):
        Thing(site="/relative")
    assert isinstance(Thing.model_validate({"when": "2024-01-02T03:04:05Z"}).when,
                      datetime.datetime)
    assert Thing(host="not a host!").host == "not a host!"
    if importlib.util.find_spec("email_validator") is None:
        assert Thing(mail="not-an-email").mail == "not-an-email"  # without the optional package
    else:
        assert Thing(mail="ann@example.com").mail == "ann@example.com"
        with pytest.raises(ValidationError, match="email"):
            Thing(mail="not-an-email")


def test_source_says_what_it_does_not_check(pkg: Generated) -> None:
    source = (pkg.dir / "models.py").read_text()
    assert "# format 'hostname' is not checked: any string" in source
    assert "A postal address." in source  # the class docstring, once
    assert source.count("A postal address.") == 1
    assert pkg.models.Thing.model_fields["work"].description == "Where they work."
    assert pkg.models.Thing.model_fields["home"].description is None
    # webhook and callback schemas are models
    assert pkg.models.NewThingWebhookRequest(id="1").id == "1"
    assert pkg.models.MakeThingOnDoneCallbackRequest(status="ok").status == "ok"


def test_unenforced_keywords_are_located_warnings(tmp_path: Path) -> None:
    spec = tmp_path / "spec.json"
    spec.write_text(json.dumps(SPEC, indent=1))
    _, warnings = contractgen.render(spec)
    found = {(w.pointer, w.message.split(":")[0]) for w in warnings}
    thing = "/components/schemas/Thing/properties"
    assert (f"{thing}/loose", "`prefixItems` is not enforced (a tuple needs `items") in found
    assert (f"{thing}/cond", "`if`/`then`/`else` is not enforced") in found
    assert (f"{thing}/either", "`oneOf` exclusivity is not enforced") in found
    assert not any(p.endswith("/fine") for p, _ in found)  # integer or string: exclusive
    assert ("/components/schemas/Lonely", "`discriminator` without `oneOf`/`anyOf` is not "
            "enforced") in found
    assert not any(p == "/components/schemas/Pet" for p, _ in found)  # Cat and Dog extend it
    # webhooks and callbacks have a receiver and a sender (tests/templates/test_webhooks.py): no warning
    assert not any("/webhooks/" in p or "/callbacks/" in p for p, _ in found)
    assert all(w.line is not None and w.file == str(spec) for w in warnings)


def test_over_http(pkg: Generated) -> None:
    seen: list[Any] = []

    class Service(pkg.server.ServiceBase):  # type: ignore[misc,name-defined]
        async def make_thing(self, body: Any, *, ids: Any = None) -> Any:
            seen.append((body, ids))
            return body

    with serve(pkg.server.create_app(Service())) as url:
        sent = {"tags": ["a", "b"], "pair": [1, "x"], "site": "https://example.com",
                "when": "2024-01-02T03:04:05Z"}
        assert httpx.post(f"{url}/things", json=sent).json() == sent
        for bad in ({"tags": ["a", "a"]}, {"pair": [1]}, {"site": "nope"}, {"nothing": [1]}):
            assert httpx.post(f"{url}/things", json=bad).status_code == 422, bad
        assert httpx.post(f"{url}/things", params=[("ids", 1), ("ids", 1)],
                          json={}).status_code == 422
        with pkg.client.Client(url) as client:
            thing = client.make_thing(pkg.models.Thing.model_validate(sent), ids=[1, 2])
            assert thing.pair == (1, "x") and seen[-1][1] == [1, 2]
            with pytest.raises(pkg.errors.UnexpectedStatus) as refused:  # the server's check
                client.make_thing(pkg.models.Thing(), ids=[3, 3])
            assert refused.value.status_code == 422 and "unique" in refused.value.text


def test_discriminator_on_an_allof_hierarchy_over_http(pkg: Generated) -> None:
    """`Pet` with a discriminator, extended by `Cat` and `Dog` through allOf: a Pet-typed body
    or item is `PetUnion`, the extending model chosen by `petType` (mapped, else the name)."""
    models = pkg.models
    assert models.Dog.model_fields["petType"].annotation == Literal["dog"]
    assert models.Cat.model_fields["petType"].annotation == Literal["Cat"]
    assert "name" in models.Pet.model_fields  # the base model stays

    class Service(pkg.server.ServiceBase):  # type: ignore[misc,name-defined]
        async def add_pet(self, body: Any) -> Any:
            return [body, models.Cat(petType="Cat", name="tom", lives=3)]

    with serve(pkg.server.create_app(Service())) as url:
        with pkg.client.Client(url) as client:
            pets = client.add_pet(models.Dog(petType="dog", name="rex", bark="woof"))
        assert [type(p).__name__ for p in pets] == ["Dog", "Cat"]
        assert pets[0].bark == "woof" and pets[1].lives == 3
        # the tag chooses the schema whose own constraints apply
        assert httpx.post(f"{url}/pets", json={"petType": "Cat", "name": "a",
                                               "lives": 10}).status_code == 422
        assert httpx.post(f"{url}/pets", json={"petType": "dog", "name": "a"}).status_code == 422
        assert httpx.post(f"{url}/pets", json={"petType": "cow", "name": "a"}).status_code in (
            400, 422)


def test_a_warning_in_a_merged_allof_is_located_at_the_nearest_node_of_the_document() -> None:
    """Conversions of schemas the builder makes (a merged allOf) have no place of their own: a
    warning there names the innermost node of the document being converted. And the paths of
    the document's nodes are found only when something warns (a walk of the whole contract)."""
    from contractgen.model.keywords import Notes

    document = {"components": {"schemas": {"A": {"type": "object"}}}}
    notes = Notes(document)
    target = document["components"]["schemas"]["A"]
    notes.enter(target)
    notes.enter({"type": "object", "if": {}})  # made on the way: not the document's
    assert notes._paths is None
    notes.warn("`if`/`then`/`else` is not enforced")
    notes.leave()
    notes.warn("outer")
    notes.leave()
    notes.warn("nowhere")
    assert list(notes.found) == [("/components/schemas/A", "`if`/`then`/`else` is not enforced"),
                                 ("/components/schemas/A", "outer"), ("", "nowhere")]
    quiet = Notes(document)
    quiet.enter(target)
    quiet.leave()
    assert quiet._paths is None


def test_an_allof_member_that_warns_is_located_in_the_member(tmp_path: Path) -> None:
    document = openapi({}, {"Base": {"type": "object", "properties": {"id": {"type": "string"}}},
                            "Both": {"allOf": [{"$ref": "#/components/schemas/Base"}, {
                                "type": "object", "properties": {"when": {
                                    "type": "object", "if": {"required": ["a"]},
                                    "then": {"required": ["b"]}}}}]}})
    spec = tmp_path / "spec.json"
    spec.write_text(json.dumps(document, indent=1))
    _, warnings = contractgen.render(spec)
    assert {(w.pointer, w.message.split(":")[0]) for w in warnings} >= {
        ("/components/schemas/Both/allOf/1/properties/when", "`if`/`then`/`else` is not enforced")}
