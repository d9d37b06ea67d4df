"""Vendor extensions: they reach the model as written, and only a target's `extension_notes`
gives them meaning (a sentence in the documentation of the operations that set them)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
import yaml
from contractgen import SpecError
from contractgen.api import render_target
from contractgen.config import load_targets
from contractgen.model.parse import build_api
from contractgen.spec import load
from gen_support import openapi

NOTE = "Optional in the contract (x-optional): answering 501 is conforming."


def _project(tmp_path: Path, notes: str) -> Path:
    spec = openapi({"/a": {
        "get": {"operationId": "Marked", "x-optional": True, "x-tier": {"level": 2},
                "responses": {"204": {"description": "ok"}}},
        "post": {"operationId": "Plain", "x-optional": False,
                 "responses": {"204": {"description": "ok"}}},
    }})
    (tmp_path / "spec.yaml").write_text(yaml.safe_dump(spec), encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text(textwrap.dedent(f"""\
        [[tool.contractgen.targets]]
        spec = "spec.yaml"
        out = "api"
        {notes}
        """), encoding="utf-8")
    return tmp_path / "pyproject.toml"


def test_extensions_reach_the_model_as_written(tmp_path: Path) -> None:
    _project(tmp_path, "")
    document, _ = load(tmp_path / "spec.yaml")
    marked, plain = build_api(document, spec_display="spec.yaml").operations
    assert dict(marked.extensions) == {"x-optional": True, "x-tier": {"level": 2}}
    assert dict(plain.extensions) == {"x-optional": False}
    assert marked.notes == plain.notes == ()


def test_a_configured_note_documents_the_operations_that_set_the_extension(tmp_path: Path) -> None:
    [target] = load_targets(_project(tmp_path, f'extension_notes = {{ "x-optional" = "{NOTE}" }}'))
    server = render_target(target, validate_spec=False)["server.py"]
    marked = server.split("async def marked(", 1)[1].split("raise self", 1)[0]
    plain = server.split("async def plain(", 1)[1].split("raise self", 1)[0]
    assert NOTE in marked
    assert NOTE not in plain


def test_without_configuration_an_extension_means_nothing(tmp_path: Path) -> None:
    [target] = load_targets(_project(tmp_path, ""))
    assert "x-optional" not in render_target(target, validate_spec=False)["server.py"]


@pytest.mark.parametrize("notes", ['extension_notes = { "optional" = "x" }',
                                   'extension_notes = { "x-optional" = 1 }',
                                   'extension_notes = "x-optional"'])
def test_malformed_notes_are_a_located_error(tmp_path: Path, notes: str) -> None:
    with pytest.raises(SpecError) as caught:
        load_targets(_project(tmp_path, notes))
    assert caught.value.problems[0].pointer == "/tool/contractgen/targets/0/extension_notes"
