"""A discriminator's mapping copied from another file refers to the schemas as bundled
(generator/spec/resolve.py): DigitalOcean's `mapping: {attach: models/attach.yml}` and
`{assign: '#/assign'}` inside a models file resolved nowhere in the bundled `openapi.json`, so
every value was refused by openapi-core, and no member had its tag."""

from __future__ import annotations

from pathlib import Path

from contractgen.spec.loader import load_document
from contractgen.spec.resolve import bundle

MAIN = """\
openapi: 3.0.3
info: {title: t, version: '1'}
paths:
  /actions:
    $ref: resources/actions.yml
"""
ACTIONS = """\
post:
  operationId: act
  requestBody:
    content:
      application/json:
        schema:
          anyOf:
            - $ref: models/attach.yml
            - $ref: models/kinds.yml#/assign
          discriminator:
            propertyName: type
            mapping:
              attach: models/attach.yml
              assign: models/kinds.yml#/assign
              named: Named
  responses:
    '204': {description: done}
put:
  operationId: inner
  requestBody:
    content:
      application/json:
        schema: {$ref: models/kinds.yml#/inner}
  responses:
    '204': {description: done}
"""
KINDS = """\
assign:
  type: object
  properties: {type: {type: string}}
inner:
  oneOf:
    - $ref: '#/assign'
  discriminator:
    propertyName: type
    mapping: {assign: '#/assign'}
"""


def test_mapping_values_from_other_files_refer_to_the_bundled_schemas(tmp_path: Path) -> None:
    (tmp_path / "resources" / "models").mkdir(parents=True)
    (tmp_path / "resources" / "actions.yml").write_text(ACTIONS)
    (tmp_path / "resources" / "models" / "attach.yml").write_text(
        "type: object\nproperties: {type: {type: string}}\n")
    (tmp_path / "resources" / "models" / "kinds.yml").write_text(KINDS)
    (tmp_path / "main.yaml").write_text(MAIN)
    data = bundle(load_document(tmp_path / "main.yaml"))[0]
    schema = data["paths"]["/actions"]["post"]["requestBody"]["content"]["application/json"][
        "schema"]
    members = [m["$ref"] for m in schema["anyOf"]]
    assert schema["discriminator"]["mapping"] == {
        "attach": members[0], "assign": members[1], "named": "Named"}
    schemas = data["components"]["schemas"]
    assert all(ref.removeprefix("#/components/schemas/") in schemas for ref in members)
    inner = schemas["inner"]  # `#/assign` inside kinds.yml means kinds.yml's `assign`
    assert inner["discriminator"]["mapping"] == {"assign": inner["oneOf"][0]["$ref"]}
    assert inner["oneOf"][0]["$ref"] == members[1]
