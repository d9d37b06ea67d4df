"""Real contracts (issue 10): generate stops on an invalid contract before formatting, external
files with YAML timestamps, and (slow) every corpus contract generates, imports, routes every
operation, passes mypy --strict and ruff, and is deterministic."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import contractgen
import pytest
from contractgen.problems import SpecError

_INVALID = """\
openapi: 3.0.3
info: {title: T, version: "1"}
paths:
  /a:
    get:
      operationId: a
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: {type: object, properties: {n: {type: integer, minimum: x}}}
"""


def test_generate_stops_before_formatting_an_invalid_contract(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from contractgen.emit import formatting

    formatted: list[Any] = []
    original = formatting.format_package

    def spy(*args: Any, **kwargs: Any) -> Any:
        formatted.append(args)
        return original(*args, **kwargs)

    monkeypatch.setattr(formatting, "format_package", spy)
    spec = tmp_path / "spec.yaml"
    spec.write_text(_INVALID, encoding="utf-8")
    with pytest.raises(SpecError) as caught:
        contractgen.generate(spec, tmp_path / "out")
    assert [p.pointer for p in caught.value.problems if p.is_error] == [
        "/paths/~1a/get/responses/200/content/application~1json/schema/properties/n"]
    assert formatted == []
    assert not (tmp_path / "out").exists()


def test_external_file_timestamps_stay_strings(tmp_path: Path) -> None:
    (tmp_path / "schemas").mkdir()
    (tmp_path / "schemas" / "thing.yaml").write_text("""\
Thing:
  type: object
  example: {when: 2024-01-02T03:04:05Z, day: 2024-01-02}
  properties:
    when: {type: string, format: date-time, example: 2024-01-02T03:04:05Z}
    day: {type: string, format: date, default: 2024-01-02}
""", encoding="utf-8")
    spec = tmp_path / "spec.yaml"
    spec.write_text("""\
openapi: 3.0.3
info: {title: T, version: "1"}
paths:
  /a:
    get:
      operationId: a
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: {$ref: "schemas/thing.yaml#/Thing"}
              example: {when: 2024-01-02T03:04:05Z}
""", encoding="utf-8")
    assert [p for p in contractgen.validate(spec) if p.is_error] == []
    contractgen.generate(spec, tmp_path / "out")
    text = (tmp_path / "out" / "openapi.json").read_text(encoding="utf-8")
    assert '"2024-01-02T03:04:05Z"' in text
