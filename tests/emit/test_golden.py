"""Golden records: the reference backends' committed `api` packages, generated from their
contracts by the targets in their pyproject.toml, lint clean.

That they equal what the contracts generate now is `contractgen check --strict` (`make test`,
`make check`); that they type-check is the backends' mypy (`make lint`). Regenerate with
`make regen` after changing the generator or templates, and review the diff.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from contractgen.api import render
from gen_support import OTARI_OVERLAY, OTARI_SPEC, ROOT, TPMJS_OVERLAY, TPMJS_SPEC, openapi

SOURCES = {
    "otari_sandbox": ROOT / "backends" / "otari-sandbox" / "src",
    "tpmjs_executor": ROOT / "backends" / "tpmjs-executor" / "src",
}
CASES = {
    "otari_sandbox": (OTARI_SPEC, OTARI_OVERLAY),
    "tpmjs_executor": (TPMJS_SPEC, TPMJS_OVERLAY),
}


def golden(name: str) -> Path:
    """The committed package a contract's rendering must equal."""
    return SOURCES[name] / name / "api"


@pytest.mark.parametrize("config", ["defaults", "isolated", "project"])
def test_golden_output_passes_ruff(config: str) -> None:
    ruff = [sys.executable, "-m", "ruff", "check", "--no-cache"]
    if config == "defaults":  # what a user's own ruff, unconfigured, says of the package
        ruff += ["--isolated"]
    elif config == "isolated":
        # black owns line length; long description strings cannot be wrapped
        ruff += ["--isolated", "--select", "E,F,I,UP,B,RUF", "--ignore", "E501"]
    else:
        ruff += ["--config", str(ROOT / "pyproject.toml")]
    paths = sorted(str(p) for name in CASES for p in golden(name).glob("*.py"))
    proc = subprocess.run([*ruff, *paths], cwd=ROOT, capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr


@pytest.mark.parametrize("name", ["_server_runtime.py", "_serving.py", "_server_media.py",
                                  "_server_requests.py",
                                  "_client_streams.py", "_client_runtime.py", "_client_retry.py",
                                  "_client_pages.py", "_enums.py", "_json_types.py",
                                  "_webhook_signing.py"])
def test_static_runtime_is_already_black_formatted(name: str) -> None:
    # It is copied verbatim into every package, so black must have nothing left to change.
    from contractgen.emit.formatting import format_source
    from contractgen.emit.render import CLIENT_VERBATIM, HOOKS_VERBATIM, MODELS_VERBATIM, VERBATIM

    assert name in VERBATIM | CLIENT_VERBATIM | MODELS_VERBATIM | HOOKS_VERBATIM
    source = (ROOT / "templates" / name).read_text(encoding="utf-8")
    assert format_source(source) == source


@pytest.mark.parametrize(("parts", "absent"), [
    (("client",), ("_serv",)), (("server",), ("_client",)), (("server", "client"), ())])
def test_a_package_carries_only_the_runtime_it_imports(parts: tuple[str, ...],
                                                       absent: tuple[str, ...],
                                                       tmp_path: Path) -> None:
    # Issue 38: every runtime module copied is imported by a generated module (or is the
    # hand-written app's `_serving.py`); a client-only package has no server runtime, and the
    # reverse; the seeds page nothing, so neither carries `_client_pages.py`.
    import re


    files, _ = render(OTARI_SPEC, overlay=OTARI_OVERLAY, parts=parts)
    runtime = {name for name in files if name.startswith("_") and name != "__init__.py"}
    assert runtime and not any(name.startswith(absent) for name in runtime if absent)
    assert "_client_pages.py" not in runtime
    assert ("_serving.py" in runtime) is ("server" in parts)
    imported = {f"{module}.py" for text in files.values()
                for module in re.findall(r"^\s*from \.(_\w+) import", text, re.M)}
    assert runtime - {"_serving.py"} <= imported
    paged = tmp_path / "paged.json"
    paged.write_text(json.dumps(openapi({"/things": {"get": {
        "operationId": "listThings", "x-pagination": {"page": "size"},
        "parameters": [{"name": "size", "in": "query", "schema": {"type": "integer"}}],
        "responses": {"200": {"description": "ok", "content": {"application/json": {
            "schema": {"type": "array", "items": {"type": "string"}}}}}}}}})), encoding="utf-8")
    assert ("_client_pages.py" in render(paged, parts=parts)[0]) is ("client" in parts)


def test_generated_lines_are_within_the_projects_line_length(tmp_path: Path) -> None:
    # Issue 38: every line of the generated code within the line length a generated project
    # sets (its pyproject's ruff `line-length`); black lays the code out within 88 columns,
    # and the operations' docstrings are wrapped at 88 too. Only a contract's text in one
    # string literal (`description="..."`), which black cannot split either, and the header
    # naming the user's own spec path may run over.
    import re

    project = (ROOT / "templates/project/pyproject.toml.jinja").read_text(encoding="utf-8")
    found = re.search(r"^line-length = (\d+)$", project, re.M)
    assert found is not None
    limit = int(found.group(1))
    unsplittable = re.compile(r'\s*\w+="(?:[^"\\]|\\.)*",?')
    words = " ".join(["word"] * 40)
    spec = tmp_path / "long.json"
    spec.write_text(json.dumps(openapi({"/things/{thing_id}": {"get": {
        "operationId": "getThing", "summary": "Get a thing.", "description": words,
        "parameters": [{"name": "thing_id", "in": "path", "required": True,
                        "description": words, "schema": {"type": "string"}, "example": words}],
        "responses": {"200": {"description": "ok"}}}}})), encoding="utf-8")
    texts = {f"long/{name}": text for name, text in render(spec)[0].items()}
    for name in CASES:
        texts |= {f"{name}/{p.name}": p.read_text(encoding="utf-8")
                  for p in golden(name).glob("*.py")}
    over = [f"{name}:{number}: {line}" for name, text in texts.items() if name.endswith(".py")
            for number, line in enumerate(text.splitlines(), 1)
            if len(line) > limit and not unsplittable.fullmatch(line)
            and not line.startswith(("# Generated by contractgen ", "# Overlay applied: "))]
    assert over == [], "\n".join(over)
    client = texts["long/client.py"]
    doc = client[client.index("    def get_thing("):client.index("    def get_thing_detailed(")]
    assert max(map(len, doc.splitlines())) <= 88 and doc.count("word") > 110, doc
