"""Validation of the mistakes real contracts make (issue 10): every problem in one pass, no false
positives, one message per problem, problems of other files located in those files."""

from __future__ import annotations

from pathlib import Path

import contractgen
from contractgen.problems import Level, Problem

_RESPONSE = {"200": {"description": "ok"}}


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def _errors(problems: list[Problem]) -> list[tuple[str, str]]:
    return [(p.pointer, p.message) for p in problems if p.level is Level.ERROR]


_TWO_FLAGS = """\
openapi: {version}
info: {{title: T, version: "1"}}
paths: {{}}
components:
  schemas:
    Limits:
      type: object
      properties:
        low: {{type: integer, minimum: 1, exclusiveMinimum: true}}
        high: {{type: integer, maximum: 9, exclusiveMaximum: true}}
"""


def test_every_schema_error_in_one_pass_31(tmp_path: Path) -> None:
    spec = _write(tmp_path / "spec.yaml", _TWO_FLAGS.format(version="3.1.0"))
    pointers = [pointer for pointer, _ in _errors(contractgen.validate(spec))]
    assert pointers == [
        "/components/schemas/Limits/properties/low/exclusiveMinimum",
        "/components/schemas/Limits/properties/high/exclusiveMaximum",
    ]


def test_every_schema_error_in_one_pass_30(tmp_path: Path) -> None:
    text = _TWO_FLAGS.format(version="3.0.3").replace("true", "3")
    spec = _write(tmp_path / "spec.yaml", text)
    assert len(_errors(contractgen.validate(spec))) == 2


def test_required_defined_by_a_sibling_allof_member_is_fine(tmp_path: Path) -> None:
    spec = _write(tmp_path / "spec.yaml", """\
openapi: 3.1.0
info: {title: T, version: "1"}
paths: {}
components:
  schemas:
    Base:
      type: object
      properties:
        id: {type: string}
    Derived:
      allOf:
        - $ref: "#/components/schemas/Base"
        - type: object
          required: [id, name]
          properties:
            name: {type: string}
    Broken:
      allOf:
        - $ref: "#/components/schemas/Base"
        - type: object
          required: [missing]
          properties:
            name: {type: string}
""")
    problems = contractgen.validate(spec)
    assert [(p.level, p.pointer) for p in problems] == [
        (Level.WARNING, "/components/schemas/Broken/allOf/1/required"),
    ]
    assert "`missing`" in problems[0].message


def test_bad_status_code_is_one_problem(tmp_path: Path) -> None:
    for version in ("3.0.3", "3.1.0"):
        spec = _write(tmp_path / version / "spec.yaml", f"""\
openapi: {version}
info: {{title: T, version: "1"}}
paths:
  /a:
    get:
      operationId: a
      responses:
        "20x":
          description: ok
""")
        errors = _errors(contractgen.validate(spec))
        assert len(errors) == 1, (version, errors)
        pointer, message = errors[0]
        assert pointer == "/paths/~1a/get/responses"
        assert "20x" in message


def test_problems_of_another_file_are_located_there_once(tmp_path: Path) -> None:
    common = _write(tmp_path / "schemas" / "common.yaml", """\
components:
  schemas:
    Thing:
      type: object
      properties:
        when: {type: string, format: date-time, default: 2024-01-02}
""")
    spec = _write(tmp_path / "spec.yaml", """\
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
              schema: {$ref: "schemas/common.yaml#/components/schemas/Thing"}
  /b:
    get:
      operationId: b
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: {$ref: "schemas/common.yaml#/components/schemas/Thing"}
""")
    problems = [p for p in contractgen.validate(spec) if p.level is Level.ERROR]
    assert len(problems) == 1, problems
    [problem] = problems
    assert Path(problem.file).resolve() == common.resolve()
    assert problem.line == 6
    assert problem.pointer == "/components/schemas/Thing/properties/when/default"
