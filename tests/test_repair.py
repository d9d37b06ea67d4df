"""`contractgen validate --emit-overlay`: an overlay repairing mechanical 3.0 mistakes, which
makes the contract valid once applied."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from gen_support import TPMJS_SPEC

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


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "contractgen", *args], capture_output=True,
                          text=True, check=False)


def _repairs(spec: Path, tmp_path: Path) -> None:
    overlay = tmp_path / "repair.overlay.yaml"
    before = _cli("validate", str(spec), "--emit-overlay", str(overlay))
    assert before.returncode == 1, before.stdout
    assert overlay.is_file()
    after = _cli("validate", str(spec), "--overlay", str(overlay))
    assert after.returncode == 0, after.stdout
    assert "(0 errors, 0 warnings)" in after.stdout


def test_tpmjs_null_member_is_repaired(tmp_path: Path) -> None:
    _repairs(TPMJS_SPEC, tmp_path)


def test_type_lists_and_missing_items_are_repaired(tmp_path: Path) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text(_TYPE_LIST, encoding="utf-8")
    _repairs(spec, tmp_path)


def test_nothing_to_repair_writes_nothing(tmp_path: Path) -> None:
    overlay = tmp_path / "none.yaml"
    result = _cli("validate", str(TPMJS_SPEC.with_name("otari-code-execution.openapi.yaml")),
                  "--emit-overlay", str(overlay))
    assert result.returncode == 0
    assert not overlay.exists()
