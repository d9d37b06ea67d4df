"""`contractgen generate --parts client --package-name NAME`: an installable client package,
built and installed with pip (no index, no build isolation) and called against a live server."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from gen_support import GenerateFn, cli, serve
from test_template_overrides import SPEC


def contractgen(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "contractgen.cli", *args], cwd=cwd,
                          capture_output=True, text=True, check=False)


@pytest.mark.slow
def test_sdk_installs_and_calls_a_live_server(tmp_path: Path, generate: GenerateFn) -> None:
    (tmp_path / "notes.json").write_text(json.dumps(SPEC), encoding="utf-8")
    made = contractgen("generate", "notes.json", "--out", "sdk", "--parts", "client",
                       "--package-name", "notes-client", cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    sdk = tmp_path / "sdk"
    package = sdk / "src" / "notes_client"
    # the client's runtime, only the modules it imports: it pages and streams nothing
    assert sorted(p.name for p in package.iterdir()) == [
        ".contractgen-manifest.json", "__init__.py", "_client_retry.py", "_client_runtime.py",
        "_enums.py", "_json_types.py", "client.py", "errors.py", "models.py", "openapi.json",
        "py.typed"]
    assert 'name = "notes-client"' in (sdk / "pyproject.toml").read_text(encoding="utf-8")
    assert "from notes_client.client import Client" in (sdk / "README.md").read_text(
        encoding="utf-8")

    target = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--no-index",
                    "--no-build-isolation", "--target", str(target), str(sdk)], check=True)
    assert (target / "notes_client" / "openapi.json").is_file()
    assert (target / "notes_client-1.dist-info").is_dir()

    seen: list[Any] = []
    server = generate(SPEC).server

    class Service(server.ServiceBase):  # type: ignore[misc,name-defined]
        async def create_note(self, body: Any) -> Any:
            seen.append(body.text)
            return body

    script = ("import sys; from notes_client.client import Client; "
              "from notes_client.models import Note; "
              "print(Client(sys.argv[1]).create_note(Note(text='hello')).text)")
    with serve(server.create_app(Service())) as url:
        called = subprocess.run(
            [sys.executable, "-c", script, url], cwd=tmp_path, capture_output=True, text=True,
            env={**os.environ, "PYTHONPATH": str(target)}, check=False)
    assert called.returncode == 0, called.stderr
    assert called.stdout == "hello\n"
    assert seen == ["hello"]


def test_sdk_never_overwrites_files_it_did_not_write(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "notes.json").write_text(json.dumps(SPEC), encoding="utf-8")
    (tmp_path / "sdk").mkdir()
    mine = tmp_path / "sdk" / "pyproject.toml"
    mine.write_text("[project]\nname = 'mine'\n", encoding="utf-8")
    refused = cli(capsys, "generate", "notes.json", "--out", "sdk", "--sdk", cwd=tmp_path)
    assert refused.returncode == 2  # as for a package folder holding files it did not write
    assert "pyproject.toml exists and was not written by contractgen" in refused.stderr
    assert mine.read_text(encoding="utf-8") == "[project]\nname = 'mine'\n"
    server = cli(capsys, "generate", "notes.json", "--out", "other", "--sdk", "--parts",
                 "client,server", cwd=tmp_path)
    assert server.returncode == 2
    assert "an SDK is a client package" in server.stderr
    assert cli(capsys, "generate", "--sdk", cwd=tmp_path).returncode == 2  # needs a SPEC
    named = cli(capsys, "generate", "notes.json", "--out", "n", "--package-name", "not a name",
                cwd=tmp_path)
    assert named.returncode == 2 and "'not a name' is not a valid distribution name" in named.stderr
    assert not (tmp_path / "n").exists()
    # without --package-name the name comes from the contract's title
    assert cli(capsys, "generate", "notes.json", "--out", "t", "--sdk", cwd=tmp_path).returncode == 0
    assert (tmp_path / "t" / "src" / "test_client" / "client.py").is_file()
