"""The docs' Python examples hold: every ```python block of docs/ and README.md parses, and the
```python run blocks run against a package generated from the contract below (`mypkg.api`).
A ```python listing block lists signatures (pseudo-code, not run)."""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import contractgen
import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
DOCS = [*sorted((ROOT / "docs").glob("*.md")), ROOT / "README.md"]
FENCE = re.compile(r"^(?P<indent> *)```python(?P<info>[^\n]*)\n(?P<code>.*?)^(?P=indent)```",
                   re.M | re.S)
# The contract the `run` examples use: what they name, declared.
CONTRACT = {
    "openapi": "3.1.0", "info": {"title": "Docs", "version": "1"},
    "paths": {"/stats": {"get": {"operationId": "getStats", "responses": {"200": {
        "description": "ok", "content": {"application/json": {"schema": {
            "$ref": "#/components/schemas/Stats"}}}}}}}},
    "components": {"schemas": {"Stats": {"type": "object", "required": ["average"], "properties": {
        "average": {"type": "number"}, "count": {"type": "integer"},
        "value": {"type": ["number", "string"]}}}}},
}


def blocks(kind: str | None = None) -> list[tuple[str, str]]:
    """(where, code) of each ```python block (of `kind`: "run", "listing"; None: all)."""
    found = []
    for doc in DOCS:
        text = doc.read_text(encoding="utf-8")
        for match in FENCE.finditer(text):
            if kind is None or match["info"].split() == [kind]:
                line = text.count("\n", 0, match.start()) + 1
                found.append((f"{doc.relative_to(ROOT)}:{line}", textwrap.dedent(match["code"])))
    return found


def test_the_docs_have_examples_of_each_kind() -> None:
    assert blocks("run") and blocks("listing")
    assert all(info in ("", "run", "listing") for info in _infos()), _infos()


def _infos() -> set[str]:
    return {m["info"].strip() for doc in DOCS for m in FENCE.finditer(doc.read_text("utf-8"))}


@pytest.mark.parametrize(("where", "code"), [b for b in blocks() if b not in blocks("listing")],
                         ids=lambda value: value if ":" in value else "")
def test_an_example_parses(where: str, code: str) -> None:
    try:
        ast.parse(code)
    except SyntaxError as exc:
        pytest.fail(f"{where}: the example does not parse ({exc}); a list of signatures is "
                    "fenced ```python listing")


@pytest.mark.slow
def test_the_run_examples_run(tmp_path: Path) -> None:
    spec = tmp_path / "docs.yaml"
    spec.write_text(yaml.safe_dump(CONTRACT), encoding="utf-8")
    contractgen.generate(spec, tmp_path / "mypkg" / "api")
    (tmp_path / "mypkg" / "__init__.py").write_text("", encoding="utf-8")
    for where, code in blocks("run"):
        done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True,
                              text=True, timeout=120, check=False,
                              env={**os.environ, "PYTHONPATH": str(tmp_path)})
        assert done.returncode == 0, f"{where}:\n{code}\n{done.stderr}"
