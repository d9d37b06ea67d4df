"""Published contracts' mechanical errors (issue 37, item 5), each a minimal reproduction: a
default that breaks its own schema (TGI's and Xero's `default: 'false'` on a boolean, OpenAI's
`default: null` on an object and list defaults on strings), OpenAI's boolean `exclusiveMinimum`
in 3.1 and duplicated `required` name, 2019-09's `$recursiveAnchor`, TGI's numeric
`exclusiveMinimum` in 3.0.

`validate` reports each at its line and pointer with a hint; `--emit-overlay` repairs every one
(the contract is then valid); `generate --lenient` applies the same repairs with a warning each
and keeps every operation. openapi-schema-validator judges the defaults generated.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from gen_support import cli, generate_package
from openapi_schema_validator import OAS30Validator, OAS31Validator

TGI = """\
openapi: 3.0.3
info: {title: TGI, version: "1"}
paths:
  /generate:
    post:
      operationId: generate
      requestBody:
        content:
          application/json:
            schema: {$ref: '#/components/schemas/GenerateParameters'}
      responses:
        "200": {description: ok}
components:
  schemas:
    GenerateParameters:
      type: object
      properties:
        stream:
          type: boolean
          default: 'false'
        max_new_tokens:
          type: integer
          nullable: true
          default: '1024'
          exclusiveMinimum: 0
        seed:
          type: integer
          nullable: true
          default: 'null'
        details:
          type: object
          properties: {best_of: {type: integer}}
          default: 'null'
"""

OPENAI = """\
openapi: 3.1.0
info: {title: OpenAI, version: "1"}
paths:
  /completions:
    post:
      operationId: createCompletion
      requestBody:
        content:
          application/json:
            schema: {$ref: '#/components/schemas/CompletionRequest'}
      responses:
        "200": {description: ok}
  /filters:
    post:
      operationId: createFilter
      requestBody:
        content:
          application/json:
            schema: {$ref: '#/components/schemas/CompoundFilter'}
      responses:
        "200": {description: ok}
components:
  schemas:
    CompletionRequest:
      type: object
      required: [model, prompt, model]
      properties:
        model: {type: string}
        prompt: {type: string}
        logprobs:
          type: integer
          default: null
        modalities:
          type: array
          items:
            type: string
            enum: [text, audio]
            default: [text, audio]
        learning_rate:
          oneOf:
            - {type: string, enum: [auto]}
            - {type: number, minimum: 0, exclusiveMinimum: true}
    CompoundFilter:
      $recursiveAnchor: true
      type: object
      required: [type]
      properties:
        type: {type: string, enum: [and, or]}
        filters:
          type: array
          items:
            oneOf:
              - {type: string}
              - {$recursiveRef: '#'}
"""


def _spec(tmp_path: Path, text: str) -> Path:
    spec = tmp_path / "spec.yaml"
    spec.write_text(text, encoding="utf-8")
    return spec


def _line(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


def test_a_default_breaking_its_schema_is_a_located_error_with_a_hint(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    done = cli(capsys, "validate", str(_spec(tmp_path, TGI)))
    assert done.returncode == 1
    said = done.stdout + done.stderr
    stream = _line(TGI, "default: 'false'")
    assert (f"spec.yaml:{stream}:11: error: /components/schemas/GenerateParameters/properties/"
            "stream/default: default value is invalid: must be a boolean, not the string "
            "'false' (hint: write the JSON value `default: false`") in said
    assert "details/default: default value is invalid: must be an object" in said
    assert "hint: drop the default" in said


@pytest.mark.parametrize("text", [TGI, OPENAI], ids=["tgi-3.0", "openai-3.1"])
def test_the_overlay_repairs_every_error(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                         text: str) -> None:
    spec, overlay = _spec(tmp_path, text), tmp_path / "repairs.yaml"
    before = cli(capsys, "validate", str(spec), "--emit-overlay", str(overlay))
    assert before.returncode == 1 and overlay.is_file(), before.stdout
    after = cli(capsys, "validate", str(spec), "--overlay", str(overlay))
    assert after.returncode == 0, after.stdout + after.stderr
    assert "(0 errors" in after.stdout


def _defaults(models: Any, name: str) -> dict[str, Any]:
    fields = getattr(models, name).model_fields
    return {k: f.default for k, f in fields.items() if not f.is_required()}


def test_generated_defaults_are_values_their_schema_accepts(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec, overlay = _spec(tmp_path, TGI), tmp_path / "repairs.yaml"
    cli(capsys, "validate", str(spec), "--emit-overlay", str(overlay))
    models = generate_package(spec, tmp_path, overlay=overlay).models
    defaults = _defaults(models, "GenerateParameters")
    assert defaults == {"stream": False, "max_new_tokens": 1024, "seed": None, "details": None}
    assert type(defaults["stream"]) is bool
    schemas = {"stream": {"type": "boolean"},
               "max_new_tokens": {"type": "integer", "nullable": True, "minimum": 0,
                                  "exclusiveMinimum": True},
               "seed": {"type": "integer", "nullable": True}}
    for name, schema in schemas.items():
        assert OAS30Validator(schema).is_valid(defaults[name]), name
    assert "details" not in models.GenerateParameters().model_dump(mode="json")
    assert models.GenerateParameters().model_dump(mode="json")["stream"] is False
    with pytest.raises(ValueError):  # the bound is exclusive
        models.GenerateParameters(max_new_tokens=0)


def test_lenient_repairs_first_keeps_every_operation_and_warns(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec, out = _spec(tmp_path, OPENAI), tmp_path / "lenient"
    done = cli(capsys, "generate", str(spec), "--out", str(out), "--lenient")
    assert done.returncode == 0, done.stderr
    said = done.stdout + done.stderr
    assert "skipped" not in said
    for repair in ("`default: null` must be an integer, not null: dropped",
                   "`required` lists a name twice", "`$recursiveAnchor` is JSON Schema 2019-09",
                   "`minimum` is exclusive: 3.1 says so in `exclusiveMinimum`"):
        assert f"repaired: {repair}" in said, repair
    models = generate_package(spec, tmp_path, overlay=_emitted(tmp_path, spec, capsys)).models
    request = models.CompletionRequest
    assert request(model="m", prompt="p", learning_rate=0.5).learning_rate == 0.5
    with pytest.raises(ValueError):
        request(model="m", prompt="p", learning_rate=0)
    with pytest.raises(ValueError):
        request(prompt="p")
    assert _defaults(models, "CompletionRequest")["logprobs"] is None
    nested = models.CompoundFilter.model_validate(
        {"type": "and", "filters": ["x", {"type": "or", "filters": []}]})
    assert isinstance(nested.filters[1], models.CompoundFilter)
    assert OAS31Validator({"type": "integer"}).is_valid(1)
    routes = (out / "server.py").read_text(encoding="utf-8")
    assert '"/completions"' in routes and '"/filters"' in routes


def _emitted(tmp_path: Path, spec: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    overlay = tmp_path / "repairs.yaml"
    cli(capsys, "validate", str(spec), "--emit-overlay", str(overlay))
    return overlay


def test_a_default_in_another_file_is_located_there_and_lenient_repairs_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # DigitalOcean's `stop: {default: null}` in one of its 2,907 files.
    (tmp_path / "models").mkdir()
    (tmp_path / "models" / "request.yml").write_text(
        "type: object\nproperties:\n  stop:\n    type: string\n    default: null\n",
        encoding="utf-8")
    spec = _spec(tmp_path, TGI.replace(
        "{$ref: '#/components/schemas/GenerateParameters'}", "{$ref: 'models/request.yml'}"
    ).split("components:")[0])
    done = cli(capsys, "validate", str(spec))
    said = done.stdout + done.stderr
    assert done.returncode == 1
    assert "request.yml:5:5: error: /properties/stop/default: default value is invalid" in said
    assert "`generate --lenient` repairs it" in said
    out = tmp_path / "out"
    lenient = cli(capsys, "generate", str(spec), "--out", str(out), "--lenient")
    assert lenient.returncode == 0, lenient.stderr
    assert "request.yml:3:3: warning: /properties/stop: repaired: `default: null`" in (
        lenient.stdout + lenient.stderr)
    assert "skipped" not in lenient.stdout + lenient.stderr


_GLANCES = [
    ({"type": "boolean"}, False), ({"type": "boolean"}, "false"), ({"type": "integer"}, True),
    ({"type": "integer", "minimum": 1, "maximum": 100}, 30), ({"type": "integer", "minimum": 1}, 0),
    ({"type": "string", "enum": ["a", "b"]}, "b"), ({"type": "string", "enum": ["a"]}, "c"),
    ({"type": "string", "maxLength": 2}, "abc"), ({"type": "string", "format": "uri"}, ""),
    ({"type": "string", "format": "date-time"}, "2024-01-02"),
    ({"type": "integer", "format": "int32"}, 2**40), ({"type": "number", "format": "float"}, 1.5),
    ({"type": "array", "items": {"type": "string", "enum": ["push"]}}, ["push"]),
    ({"type": "array", "items": {"type": "string"}}, [1]), ({"type": "object"}, None),
]


@pytest.mark.parametrize(("schema", "value"), _GLANCES)
def test_a_default_cleared_at_a_glance_is_one_the_validator_accepts(schema: dict[str, Any],
                                                                   value: Any) -> None:
    """The glance that spares most contracts the validator's import clears only what
    openapi-schema-validator (with its format checker) accepts."""
    from contractgen.spec.defaults import plainly_valid
    from openapi_schema_validator import oas30_format_checker

    accepted = OAS30Validator(schema, format_checker=oas30_format_checker).is_valid(value)
    assert not plainly_valid(schema, value) or accepted


_GLANCES_31 = [
    ({"type": ["string", "null"]}, ""), ({"type": ["string", "null"]}, None),
    ({"type": ["integer", "null"]}, 0), ({"type": ["integer", "null"]}, "0"),
    ({"type": ["string"]}, None), ({"type": ["string", "null"], "enum": ["a"]}, None),
    ({"type": ["array", "null"], "items": {"$ref": "#/components/schemas/X"}}, []),
    ({"type": ["array", "null"], "items": {"type": "string"}}, [1]),
    ({"const": "result"}, "result"), ({"const": "result"}, "other"), ({"const": 1}, True),
    ({"type": "string", "const": "a"}, "a"), ({"type": "integer", "const": "a"}, "a"),
]


@pytest.mark.parametrize(("schema", "value"), _GLANCES_31)
def test_a_31_default_cleared_at_a_glance_is_one_the_validator_accepts(
        schema: dict[str, Any], value: Any) -> None:
    """3.1's type lists and `const` (otari's result types): cleared at a glance only when
    openapi-schema-validator accepts the value, so that otari never imports it."""
    from contractgen.spec.defaults import plainly_valid
    from openapi_schema_validator import oas31_format_checker

    document = {"components": {"schemas": {"X": {"type": "object"}}}, **schema}
    accepted = OAS31Validator(document, format_checker=oas31_format_checker).is_valid(value)
    assert not plainly_valid(schema, value) or accepted


def test_the_seeds_defaults_are_all_cleared_at_a_glance() -> None:
    from contractgen.spec import load
    from contractgen.spec.defaults import SCHEMA_KEYS, plainly_valid
    from contractgen.spec.tree import walk_objects
    from gen_support import OTARI_SPEC, TPMJS_SPEC

    for spec in (OTARI_SPEC, TPMJS_SPEC):
        data = load(spec)[0].data
        judged = [path for path, obj in walk_objects(data) if "default" in obj
                  and SCHEMA_KEYS & obj.keys() and not plainly_valid(obj, obj["default"])]
        assert judged == [], spec.name


@pytest.mark.parametrize(("default", "refused"), [({"kind": "b"}, False), ({"kind": "c"}, True)])
def test_a_discriminated_default_is_judged_by_its_members(default: dict[str, str], refused: bool) -> None:
    """A discriminator without a mapping picks a member; it is no keyword of its own (the
    validator would read `b` as a schema's name and refuse a default its member accepts)."""
    from contractgen.spec.defaults import bad_defaults

    member = {"type": "object", "required": ["kind"], "properties": {"kind": {"type": "string"}}}
    data = {"openapi": "3.0.3", "components": {"schemas": {
        "Kind": {**member, "properties": {"kind": {"type": "string", "enum": ["a"]}}},
        "Other": {**member, "properties": {"kind": {"type": "string", "enum": ["b"]}}},
        "Holder": {"type": "object", "properties": {"tagged": {
            "oneOf": [{"$ref": "#/components/schemas/Kind"}, {"$ref": "#/components/schemas/Other"}],
            "discriminator": {"propertyName": "kind"}, "default": default}}}}}}
    assert [bad.pointer for bad in bad_defaults(data)] == (
        ["/components/schemas/Holder/properties/tagged/default"] if refused else [])
