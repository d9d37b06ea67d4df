"""`$ref`s to http(s) URLs: fetched (prance), read as our YAML 1.2, bundled, and located.

The referenced documents are served by http.server on 127.0.0.1 in a thread of the test.
"""

from __future__ import annotations

import functools
import http.server
import json
import socket
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import ClassVar

import pytest
from gen_support import cli, openapi

COMMON = """\
components:
  schemas:
    Pet:
      type: object
      required: [name]
      properties:
        name: {type: string, description: "Café name"}
        owner: {$ref: "people/owner.yaml#/Owner"}
        tag: {$ref: "#/components/schemas/Tag"}
    Tag:
      type: string
      enum: [a, b]
"""
# YAML 1.2: `on` stays a key (1.1 reads True), `2020-01-01` and `no` stay strings.
OWNER = """\
Owner:
  type: object
  properties:
    on: {type: boolean}
    since: {type: string, example: 2020-01-01, default: no}
"""


class _Handler(http.server.SimpleHTTPRequestHandler):
    # `text/yaml` without a charset: requests decodes it as ISO-8859-1 unless we undo it
    extensions_map: ClassVar[dict[str, str]] = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".yaml": "text/yaml"}

    def log_message(self, format: str, *args: object) -> None:  # quiet tests
        pass


@pytest.fixture
def serve(tmp_path: Path) -> Iterator[tuple[Path, str]]:
    """A folder served over HTTP on 127.0.0.1, and its base URL."""
    root = tmp_path / "served"
    (root / "people").mkdir(parents=True)
    (root / "common.yaml").write_text(COMMON, "utf-8")
    (root / "people" / "owner.yaml").write_text(OWNER, "utf-8")
    with _server(root) as base:
        yield root, base


class _server:
    def __init__(self, root: Path) -> None:
        handler = functools.partial(_Handler, directory=str(root))
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)

    def __enter__(self) -> str:
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/"

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def _spec(tmp_path: Path, ref: str) -> Path:
    """A contract (JSON, which YAML reads) whose one operation answers a list of `ref`."""
    answer = {"description": "ok", "content": {"application/json": {
        "schema": {"type": "array", "items": {"$ref": ref}}}}}
    paths = {"/pets": {"get": {"operationId": "listPets", "responses": {"200": answer}}}}
    spec = tmp_path / "api.yaml"
    spec.write_text(json.dumps(openapi(paths), indent=1) + "\n", "utf-8")
    return spec


def _files(folder: Path) -> dict[str, bytes]:
    """The package's files; the manifest without the hash of the spec (which names the port)."""
    files = {p.relative_to(folder).as_posix(): p.read_bytes()
             for p in sorted(folder.rglob("*")) if p.is_file() and "__pycache__" not in p.parts}
    manifest = json.loads(files[".contractgen-manifest.json"])
    assert len(manifest.pop("sources")) == 1
    files[".contractgen-manifest.json"] = json.dumps(manifest).encode()
    return files


def test_a_remote_schema_its_sibling_and_fragments_validate_and_generate(
        serve: tuple[Path, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, base = serve
    spec = _spec(tmp_path, base + "common.yaml#/components/schemas/Pet")
    checked = cli(capsys, "validate", str(spec))
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "valid (0 errors, 0 warnings)" in checked.stdout
    made = cli(capsys, "generate", str(spec), "--out", str(tmp_path / "out"))
    assert made.returncode == 0, made.stderr
    models = (tmp_path / "out" / "models.py").read_text("utf-8")
    for line in ("class Pet(", "class Owner(", "class Tag(", 'description="Café name"',
                 "    on: bool | None = None", '    since: str = "no"'):
        assert line in models
    assert "127.0.0.1" not in "".join(_files(tmp_path / "out").keys())


def test_the_package_is_the_same_whatever_the_server_and_port(
        serve: tuple[Path, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root, _ = serve
    packages, bases = [], set()
    for n in range(2):
        with _server(root) as base:  # another server, on another port
            bases.add(base)
            _spec(tmp_path, base + "common.yaml#/components/schemas/Pet")
            made = cli(capsys, "generate", "api.yaml", "--out", str(n), cwd=tmp_path)
            assert made.returncode == 0, made.stderr
            packages.append(_files(tmp_path / str(n)))
    assert len(bases) == 2 and packages[0] == packages[1]


def test_a_missing_remote_document_is_a_located_error_with_the_status(
        serve: tuple[Path, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root, base = serve
    (root / "people" / "owner.yaml").unlink()  # the nested reference is now a 404
    spec = _spec(tmp_path, base + "common.yaml#/components/schemas/Pet")
    for command in ("validate", "generate"):
        result = cli(capsys, command, str(spec), "--out", str(tmp_path / "out")) \
            if command == "generate" else cli(capsys, command, str(spec))
        assert result.returncode == 1
        text = result.stdout + result.stderr
        assert (f"{base}common.yaml:8:17: error: /components/schemas/Pet/properties/owner/$ref: "
                f"cannot resolve $ref 'people/owner.yaml#/Owner': GET {base}people/owner.yaml: "
                "HTTP 404") in text
        assert "(hint: check the URL)" in text and "Traceback" not in text
        # openapi-spec-validator is not let to follow the URL by itself
        assert "could not finish" not in text
        assert command == "generate" or "(1 error, 0 warnings)" in text


def test_a_refused_connection_is_a_located_error(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    spec = _spec(tmp_path, f"http://127.0.0.1:{port}/common.yaml#/X")
    result = cli(capsys, "validate", str(spec))
    assert result.returncode == 1
    assert (f"api.yaml:19:11: error: /paths/~1pets/get/responses/200/content/application~1json/"
            f"schema/items/$ref: cannot resolve $ref 'http://127.0.0.1:{port}/common.yaml#/X': "
            f"GET http://127.0.0.1:{port}/common.yaml: cannot connect") in result.stdout + result.stderr
    assert "Traceback" not in result.stdout + result.stderr + result.stderr


def _hold(listening: socket.socket, held: list[socket.socket]) -> None:
    """Accept every connection and never answer, until the socket is closed."""
    try:
        while True:
            held.append(listening.accept()[0])
    except OSError:
        return


def test_a_server_that_never_answers_is_given_up_after_the_timeout_once(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CONTRACTGEN_FETCH_TIMEOUT", "0.5")
    held: list[socket.socket] = []
    with socket.socket() as silent:  # accepts connections, never answers
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)
        threading.Thread(target=_hold, args=(silent, held), daemon=True).start()
        url = f"http://127.0.0.1:{silent.getsockname()[1]}/common.yaml"
        spec = str(_spec(tmp_path, url + "#/X"))
        results = [cli(capsys, "validate", spec),
                   cli(capsys, "generate", spec, "--out", str(tmp_path / "out"))]
    for result in results:
        assert result.returncode == 1
        assert f"GET {url}: no answer within 0.5 s" in result.stdout + result.stderr
        assert "CONTRACTGEN_FETCH_TIMEOUT" in result.stdout + result.stderr
    # Both commands read the contract five times in all: the silent server was asked once.
    assert len(held) == 1
    for connection in held:
        connection.close()


def test_invalid_yaml_and_a_wrong_schema_in_a_remote_document_are_located_there(
        serve: tuple[Path, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root, base = serve
    (root / "bad.yaml").write_text("x: [1, 2\ny: 3\n", "utf-8")
    result = cli(capsys, "validate", str(_spec(tmp_path, base + "bad.yaml#/x")))
    assert result.returncode == 1
    assert f"{base}bad.yaml:2:2: error: /: YAML syntax error: did not find expected" \
        in result.stdout + result.stderr
    (root / "common.yaml").write_text(COMMON + "      minLength: x\n", "utf-8")
    result = cli(capsys, "validate",
                 str(_spec(tmp_path, base + "common.yaml#/components/schemas/Pet")))
    assert result.returncode == 1
    assert (f"{base}common.yaml:13:7: error: /components/schemas/Tag/minLength: must be an "
            "integer") in result.stdout + result.stderr


def test_a_fetched_document_reaches_only_its_server(
        serve: tuple[Path, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root, base = serve
    (tmp_path / "secret.yaml").write_text("X: {type: string}\n", "utf-8")
    for ref, expected in (("../../secret.yaml#/X", f"GET {base}secret.yaml: HTTP 404"),
                          ("file:///etc/passwd", "unsupported $ref 'file:///etc/passwd'")):
        (root / "common.yaml").write_text(COMMON.replace("people/owner.yaml#/Owner", ref),
                                          "utf-8")
        result = cli(capsys, "validate",
                     str(_spec(tmp_path, base + "common.yaml#/components/schemas/Pet")))
        assert result.returncode == 1 and expected in result.stdout + result.stderr, result.stdout + result.stderr


def test_check_notices_a_change_of_a_remote_document(
        serve: tuple[Path, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root, base = serve
    project = tmp_path / "project"
    project.mkdir()
    _spec(project, base + "common.yaml#/components/schemas/Pet")
    (project / "pyproject.toml").write_text(
        '[tool.contractgen]\n\n[[tool.contractgen.targets]]\nspec = "api.yaml"\nout = "api"\n',
        "utf-8")
    assert cli(capsys, "generate", cwd=project).returncode == 0
    assert cli(capsys, "check", cwd=project).returncode == 0
    (root / "common.yaml").write_text(COMMON.replace("enum: [a, b]", "enum: [a, b, c]"), "utf-8")
    drifted = cli(capsys, "check", cwd=project)
    assert drifted.returncode != 0 and "models.py" in drifted.stdout + drifted.stderr
    assert cli(capsys, "generate", cwd=project).returncode == 0
    assert 'C = "c"' in (project / "api" / "models.py").read_text("utf-8")
