"""`contractgen validate --emit-overlay`: an overlay repairing mechanical 3.0 mistakes, which
makes the contract valid once applied."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from gen_support import TPMJS_SPEC, cli

_TYPE_LIST = """\
openapi: 3.0.3
info: {title: T, version: "1"}
paths: {}
components:
  schemas:
    Maybe:
      type: object
      properties:
        name: {type: [string, 'null']}
        tags: {type: array}
        either:
          anyOf: [{type: integer}, {type: 'null'}]
"""


def _repairs(spec: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    overlay = tmp_path / "repair.overlay.yaml"
    before = cli(capsys, "validate", str(spec), "--emit-overlay", str(overlay))
    assert before.returncode == 1, before.stdout
    assert overlay.is_file()
    after = cli(capsys, "validate", str(spec), "--overlay", str(overlay))
    assert after.returncode == 0, after.stdout
    assert "(0 errors, 0 warnings)" in after.stdout


def test_tpmjs_null_member_is_repaired(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _repairs(TPMJS_SPEC, tmp_path, capsys)


def test_type_lists_and_missing_items_are_repaired(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text(_TYPE_LIST, encoding="utf-8")
    _repairs(spec, tmp_path, capsys)


def test_nothing_to_repair_writes_nothing(tmp_path: Path) -> None:
    # Through `python -m contractgen` (the others call the CLI in process).
    overlay = tmp_path / "none.yaml"
    result = subprocess.run(
        [sys.executable, "-m", "contractgen", "validate",
         str(TPMJS_SPEC.with_name("otari-code-execution.openapi.yaml")),
         "--emit-overlay", str(overlay)], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    assert not overlay.exists()


def test_const_and_schema_examples_in_30_are_repaired(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The hint says `const` is 3.1, "in 3.0 write `enum: [value]`": so does the overlay (#28).
    spec = tmp_path / "spec.yaml"
    spec.write_text(_TYPE_LIST.replace("        tags: {type: array}\n", (
        "        kind: {type: string, const: pet}\n"
        "        age: {type: integer, examples: [3, 4]}\n")), encoding="utf-8")
    _repairs(spec, tmp_path, capsys)
    overlay = (tmp_path / "repair.overlay.yaml").read_text(encoding="utf-8")
    assert "update:\n    enum:\n    - pet\n" in overlay, overlay


def test_nullable_beside_a_type_in_31_is_repaired(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text(_TYPE_LIST.replace("3.0.3", "3.1.0").replace(
        "        name: {type: [string, 'null']}\n        tags: {type: array}\n"
        "        either:\n          anyOf: [{type: integer}, {type: 'null'}]\n",
        "        name: {type: string, nullable: true}\n"), encoding="utf-8")
    overlay = tmp_path / "repair.overlay.yaml"
    before = cli(capsys, "validate", str(spec), "--emit-overlay", str(overlay))
    assert "`nullable` is not an OpenAPI 3.1 keyword" in before.stdout + before.stderr
    after = cli(capsys, "validate", str(spec), "--overlay", str(overlay))
    assert after.returncode == 0 and "(0 errors, 0 warnings)" in after.stdout, after


def test_the_overlay_quotes_strings_yaml_12_or_11_would_read_as_other_types() -> None:
    from contractgen.spec.repair import repair_overlay
    from contractgen.spec.yamltext import parse_yaml

    values = ["08", "on", "1e3", "0o17", "yes", 8]
    schemas = {f"S{i}": {"const": v} for i, v in enumerate(values)}
    text = repair_overlay({"openapi": "3.0.3", "components": {"schemas": schemas}}, "t")
    assert text is not None
    actions = parse_yaml(text, Path("overlay.yaml"))[0]["actions"]
    assert [a["update"]["enum"][0] for a in actions if "update" in a] == values
