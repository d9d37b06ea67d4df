"""Contracts are read with YAML 1.2's core schema, as OpenAPI 3.x requires (issue #28)."""

from __future__ import annotations

import json
import typing
from pathlib import Path

import pytest
from contractgen.problems import SpecError
from contractgen.spec.loader import load_document
from gen_support import generate_package

SPEC = """\
openapi: 3.0.3
info: {title: t, version: '1'}
paths: {}
components:
  schemas:
    Switch:
      type: string
      enum: [on, off]
    Country:
      type: string
      enum: [NO, SE, DK]
    Slot:
      type: object
      properties:
        at: {type: string, example: 18:00}
        day: {type: string, example: 2020-01-01}
"""


def test_yaml_11_booleans_sexagesimals_and_dates_stay_strings(tmp_path: Path) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text(SPEC, encoding="utf-8")
    schemas = load_document(spec).data["components"]["schemas"]
    assert schemas["Switch"]["enum"] == ["on", "off"]
    assert schemas["Country"]["enum"] == ["NO", "SE", "DK"]
    assert schemas["Slot"]["properties"]["at"]["example"] == "18:00"
    assert schemas["Slot"]["properties"]["day"]["example"] == "2020-01-01"
    gen = generate_package(spec, tmp_path)
    assert {m.value for m in gen.models.Switch} == {"on", "off"}
    assert {m.value for m in gen.models.Country} == {"NO", "SE", "DK"}
    served = json.loads((gen.dir / "openapi.json").read_text(encoding="utf-8"))
    assert served["components"]["schemas"]["Switch"]["enum"] == ["on", "off"]
    assert served["components"]["schemas"]["Slot"]["properties"]["at"]["example"] == "18:00"
    assert typing.get_type_hints(gen.models.Slot)["at"] is not None


@pytest.mark.parametrize(("text", "value"), [
    ("true", True), ("False", False), ("~", None), ("null", None), ("", None),
    ("0o17", 15), ("017", 17), ("0x1F", 31), ("1_000", "1_000"), ("1e3", 1000.0),
    (".inf", float("inf")), ("-.Inf", float("-inf")), ("yes", "yes"), ("Off", "Off"),
    ("1:30", "1:30"), ("!!str 5", "5"), ("!!int '7'", 7),
])
def test_core_schema_scalars(tmp_path: Path, text: str, value: object) -> None:
    spec = tmp_path / "s.yaml"
    spec.write_text(f"v: {text}\n", encoding="utf-8")
    assert load_document(spec).data["v"] == value


def test_an_explicit_tag_on_a_value_it_cannot_read_is_a_located_error(tmp_path: Path) -> None:
    spec = tmp_path / "s.yaml"
    spec.write_text("a: 1\nv: !!bool yes\n", encoding="utf-8")
    with pytest.raises(SpecError) as exc:
        load_document(spec)
    (problem,) = exc.value.problems
    assert (problem.line, problem.col) == (2, 4)
    assert "'yes' is not a YAML 1.2 bool" in problem.message
