"""Validation: located problems, hints, lints, and the snapshot of every invalid spec."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest
from contractgen import validate
from contractgen.problems import Level, Problem
from contractgen.spec import read
from contractgen.spec.loader import load_document
from contractgen.spec.validate import validate_document

REPO = Path(__file__).resolve().parents[2]
TPMJS = REPO / "specs" / "tpmjs-executor.openapi.yaml"
OTARI = REPO / "specs" / "otari-code-execution.openapi.yaml"
NULL_MEMBER = "/components/schemas/ExecuteToolSuccessResponse/properties/output/oneOf/5"


def validate_text(tmp_path: Path, text: str, name: str = "spec.yaml") -> list[Problem]:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return validate_document(load_document(path))


def summary(problems: list[Problem]) -> list[tuple[str, int | None, str]]:
    return [(p.level.value, p.line, p.pointer) for p in problems]


def test_tpmjs_null_type_is_an_error_at_the_member_with_a_nullable_hint() -> None:
    problems = validate_document(load_document(TPMJS))
    errors = [p for p in problems if p.level is Level.ERROR]
    assert [(p.pointer, p.line, p.col) for p in errors] == [(NULL_MEMBER, 417, 15)]
    [error] = errors
    assert error.message == (
        "`type` must be one of array, boolean, integer, number, object, string, not 'null'"
    )
    assert error.hint == (
        "OpenAPI 3.0 has no 'null' type; use `nullable: true` on the parent schema "
        "(3.1 allows type: 'null')"
    )
    assert error.format().startswith(f"{TPMJS}:417:15: error: {NULL_MEMBER}: ")


def test_tpmjs_array_without_items_is_a_warning() -> None:
    problems = validate_document(load_document(TPMJS))
    warnings = [p for p in problems if p.level is Level.WARNING]
    assert summary(warnings) == [
        ("warning", 413, "/components/schemas/ExecuteToolSuccessResponse/properties/output/oneOf/1")
    ]
    assert warnings[0].hint == "add `items: {}` for any item, or the item schema"


def test_otari_is_clean() -> None:
    assert validate_document(load_document(OTARI)) == []


def test_tpmjs_with_overlay_is_clean() -> None:
    overlay = REPO / "specs" / "tpmjs-executor.overlay.yaml"
    assert validate(TPMJS, overlay=overlay) == []
    assert read(TPMJS, overlay)[0].overlay_path is not None


def test_missing_and_unsupported_versions(tmp_path: Path) -> None:
    [problem] = validate_text(tmp_path, "info: {title: t, version: '1'}\npaths: {}\n")
    assert (problem.pointer, problem.message) == ("", "no OpenAPI version string (`openapi`)")
    assert problem.hint and "openapi: 3.0.3" in problem.hint
    [problem] = validate_text(tmp_path, "openapi: 3.0\ninfo: {title: t, version: '1'}\npaths: {}\n")
    assert (problem.pointer, problem.line) == ("/openapi", 1)  # 3.0 is a number in YAML
    [problem] = validate_text(tmp_path, "openapi: 4.0.0\ninfo: {title: t, version: '1'}\n")
    assert problem.message == "unsupported OpenAPI version '4.0.0'"


HEAD_30 = "openapi: 3.0.3\ninfo: {title: t, version: '1'}\n"
HEAD_31 = "openapi: 3.1.0\ninfo: {title: t, version: '1'}\n"


def test_array_without_items_warns_in_30_only(tmp_path: Path) -> None:
    body = "paths: {}\ncomponents:\n  schemas:\n    L: {type: array}\n    M: {type: array, items: {}}\n"
    assert summary(validate_text(tmp_path, HEAD_30 + body)) == [
        ("warning", 6, "/components/schemas/L")
    ]
    assert validate_text(tmp_path, HEAD_31 + body) == []


def test_examples_and_defaults_are_data_not_schemas(tmp_path: Path) -> None:
    body = (
        "paths: {}\ncomponents:\n  schemas:\n    L:\n      type: object\n"
        "      example: {type: array, $ref: nowhere}\n      default: {type: array}\n"
        "      properties:\n        default: {type: string}\n        example: {type: string}\n"
    )
    assert validate_text(tmp_path, HEAD_30 + body) == []


OPS = """\
paths:
  /pets/{petId}/toys:
    get:
      operationId: listToys
      parameters:
        - {name: petId, in: path, required: true, schema: {type: string}}
      responses: {'200': {description: ok}}
    post:
      parameters:
        - {name: petId, in: path, required: true, schema: {type: string}}
      responses: {'200': {description: ok}}
    put:
      operationId: listToys
      parameters:
        - {name: petId, in: path, required: true, schema: {type: string}}
      responses: {'200': {description: ok}}
"""


def test_operation_ids_missing_and_duplicate(tmp_path: Path) -> None:
    problems = validate_text(tmp_path, HEAD_30 + OPS)
    assert [p.format().split(": ", 1)[1] for p in problems] == [
        "warning: /paths/~1pets~1{petId}~1toys/post: POST /pets/{petId}/toys has no operationId; "
        "its method will be `post_pets_pet_id_toys` (hint: add `operationId:` to choose the name)",
        "error: /paths/~1pets~1{petId}~1toys/put/operationId: duplicate operationId 'listToys': "
        "also used at /paths/~1pets~1{petId}~1toys/get/operationId (line 6) "
        "(hint: operationIds name the generated methods and must be unique)",
    ]
    assert [p.line for p in problems] == [10, 15]


def test_unresolvable_local_ref_points_at_the_ref(tmp_path: Path) -> None:
    body = (
        "paths: {}\ncomponents:\n  schemas:\n    Pet:\n      type: object\n      properties:\n"
        "        owner: {$ref: '#/components/schemas/Persn'}\n"
        "        tag: {$ref: '#/components/schemas/Pet/properties/nope'}\n"
        "    Person: {type: object}\n"
    )
    problems = validate_text(tmp_path, HEAD_31 + body)
    assert summary(problems) == [
        ("error", 9, "/components/schemas/Pet/properties/owner/$ref"),
        ("error", 10, "/components/schemas/Pet/properties/tag/$ref"),
    ]
    assert problems[0].message == "cannot resolve $ref '#/components/schemas/Persn'"
    assert problems[0].hint == "did you mean 'Person'?"


def test_refs_under_a_schema_id_are_left_to_json_schema(tmp_path: Path) -> None:
    body = (
        "paths: {}\ncomponents:\n  schemas:\n    A:\n      $id: https://example.com/a\n"
        "      $defs: {B: {type: string}}\n      properties:\n        b: {$ref: '#/$defs/B'}\n"
    )
    # openapi-spec-validator cannot follow it either; that is a warning, not an error.
    assert [p.level for p in validate_text(tmp_path, HEAD_31 + body)] == [Level.WARNING]


def test_ref_siblings_warn_in_30_only(tmp_path: Path) -> None:
    body = (
        "paths: {}\ncomponents:\n  schemas:\n    A: {type: string}\n"
        "    B: {$ref: '#/components/schemas/A', description: d, x-note: fine}\n"
    )
    problems = validate_text(tmp_path, HEAD_30 + body)
    assert summary(problems) == [("warning", 7, "/components/schemas/B")]
    assert problems[0].message == "`description` beside `$ref` is ignored in OpenAPI 3.0"
    assert validate_text(tmp_path, HEAD_31 + body) == []


def test_nullable_in_31_warns(tmp_path: Path) -> None:
    body = "paths: {}\ncomponents:\n  schemas:\n    A: {type: string, nullable: true}\n"
    [problem] = validate_text(tmp_path, HEAD_31 + body)
    assert (problem.level, problem.pointer) == (Level.WARNING, "/components/schemas/A/nullable")
    assert problem.hint and "type: [X, 'null']" in problem.hint
    assert validate_text(tmp_path, HEAD_30 + body) == []


@pytest.mark.parametrize(
    ("schema", "pointer", "hint"),
    [
        ("{type: [string, 'null']}", "/components/schemas/A/type", "OpenAPI 3.0 `type` takes one string"),
        ("{const: 1}", "/components/schemas/A", "`const` is OpenAPI 3.1; in 3.0 write `enum: [value]`"),
        ("{examples: [1]}", "/components/schemas/A", "3.0 schemas take one `example`"),
        ("{type: object, properties: {a: {required: true}}}", "/components/schemas/A/properties/a",
         "in a schema, `required` is a list"),
        ("{typ: string}", "/components/schemas/A", "did you mean `type`?"),
    ],
)
def test_hints_for_known_30_mistakes(tmp_path: Path, schema: str, pointer: str, hint: str) -> None:
    body = f"paths: {{}}\ncomponents:\n  schemas:\n    A: {schema}\n"
    [problem] = validate_text(tmp_path, HEAD_30 + body)
    assert (problem.level, problem.pointer, problem.line) == (Level.ERROR, pointer, 6)
    assert problem.hint and problem.hint.startswith(hint)


def test_every_problem_is_reported_not_just_the_first(tmp_path: Path) -> None:
    body = (
        "paths: {}\ncomponents:\n  schemas:\n    A:\n      type: object\n      properties:\n"
        "        a: {type: strin}\n        b: {type: 'null'}\n    B: {type: [integer]}\n"
    )
    assert summary(validate_text(tmp_path, HEAD_30 + body)) == [
        ("error", 9, "/components/schemas/A/properties/a"),
        ("error", 10, "/components/schemas/A/properties/b"),
        ("error", 11, "/components/schemas/B/type"),
    ]


def test_semantic_checks_are_located(tmp_path: Path) -> None:
    body = (
        "paths:\n  /a/{id}:\n    get:\n      operationId: a\n      parameters:\n"
        "        - {name: ID, in: path, required: true, schema: {type: string}}\n"
        "      responses: {'200': {description: ok}}\n"
        "components:\n  schemas:\n    N: {type: integer, default: x}\n"
    )
    problems = validate_text(tmp_path, HEAD_30 + body)
    assert [(p.line, p.pointer, p.message) for p in problems] == [
        (5, "/paths/~1a~1{id}/get", "path parameter 'ID' does not appear in the path /a/{id}"),
        (5, "/paths/~1a~1{id}/get", "path parameter 'id' is not declared (`in: path`)"),
        (12, "/components/schemas/N/default",
         "default value is invalid: must be an integer, not the string 'x'"),
    ]
    assert problems[0].hint == "names are case-sensitive: the path says {id}"


def test_validator_is_imported_lazily() -> None:
    code = (
        "import sys, contractgen.spec.validate, contractgen.spec.overlay, contractgen.spec.resolve\n"
        "assert 'openapi_spec_validator' not in sys.modules\n"
        "assert 'prance' not in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def _regen() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "invalid_specs_regen", REPO / "tests" / "invalid_specs" / "regen.py"
    )
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


REGEN = _regen()


@pytest.mark.parametrize("spec", REGEN.cases(), ids=lambda p: p.name)
def test_invalid_spec_problems_match_snapshot(spec: Path) -> None:
    expected = REGEN.expected_file(spec)
    assert expected.exists(), "run `python -m tests.invalid_specs.regen`"
    actual = REGEN.render(spec)
    assert actual, "an invalid spec must have problems"
    assert actual == expected.read_text(encoding="utf-8"), (
        "problems changed; if intended, run `python -m tests.invalid_specs.regen`"
    )


def test_cli_reports_problems_inside_referenced_files_with_the_rest(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from contractgen.cli import main

    (tmp_path / "common.yaml").write_text(
        "components:\n  schemas:\n    Item:\n      $ref: '#/components/schemas/Gone'\n",
        encoding="utf-8")
    (tmp_path / "spec.yaml").write_text(
        "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths:\n  /items:\n    get:\n"
        "      responses:\n        '200':\n          description: ok\n          content:\n"
        "            application/json:\n              schema:\n"
        "                $ref: 'common.yaml#/components/schemas/Item'\n", encoding="utf-8")
    assert main(["validate", str(tmp_path / "spec.yaml")]) == 1
    err = capsys.readouterr().err
    assert "common.yaml:4:" in err  # the reference that does not resolve, in the other file
    assert "has no operationId" in err  # and the spec's own problems beside it


_TWO_DANGLING = """\
openapi: 3.1.0
info: {title: t, version: '1'}
paths:
  /a:
    get:
      operationId: a
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: {oneOf: [{type: string}, {type: string, maxLength: 3}]}
components:
  schemas:
    A:
      type: object
      properties:
        x: {$ref: '#/components/schemas/Nope'}
        y: {$ref: '#/components/schemas/Nope2'}
        z: {$ref: 'other.yaml#/X'}
"""


def test_generate_reports_every_error_validate_reports(tmp_path: Path) -> None:
    # A reference to a missing file stopped `generate` before the dangling local ones (#28).
    import contractgen
    from contractgen.problems import SpecError

    spec = tmp_path / "spec.yaml"
    spec.write_text(_TWO_DANGLING, encoding="utf-8")
    expected = [p.format() for p in validate(spec) if p.level is Level.ERROR]
    assert len(expected) == 3
    with pytest.raises(SpecError) as exc:
        contractgen.generate(spec, tmp_path / "out")
    assert [p.format() for p in exc.value.problems if p.level is Level.ERROR] == expected


def test_validate_prints_the_warnings_generate_prints(tmp_path: Path) -> None:
    import contractgen

    spec = tmp_path / "spec.yaml"
    spec.write_text(_TWO_DANGLING.split("components:", maxsplit=1)[0], encoding="utf-8")
    warned = [p.format() for p in validate(spec)]
    generated = [p.format() for p in contractgen.render(spec)[1]]
    assert warned == generated
    assert any("`oneOf` exclusivity is not enforced" in w for w in warned)
