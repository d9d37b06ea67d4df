"""The HTTP service end to end: uvicorn on loopback in a subprocess, driven by the generated
client, every response checked against the contract's JSON Schemas."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import jsonschema
import pytest
import yaml
from otari_sandbox.api import AsyncClient, Client, errors, models
from otari_sandbox.api.client import NO_RETRY, Retry
from otari_support import Service, processes

TOKEN = "test-token-" + uuid.uuid4().hex
SECRET = "hunter2-" + uuid.uuid4().hex
SPEC = yaml.safe_load(
    (Path(__file__).resolve().parents[1] / "specs" / "otari-code-execution.openapi.yaml").read_text()
)
UPLOAD_CAP = 1_000_000


def conforms(schema_name: str, body: Any) -> None:
    """Validate a JSON body against a component schema of the contract."""
    schema = {"$ref": f"#/components/schemas/{schema_name}", "components": SPEC["components"]}
    jsonschema.Draft202012Validator(schema).validate(body)


@pytest.fixture(scope="module")
def service() -> Iterator[Service]:
    env = {"SANDBOX_AUTH_TOKEN": TOKEN, "OTARI_HTTP_SECRET": SECRET}
    svc = Service(
        "--pool-size", "4", "--max-sessions", "24", "--max-upload-bytes", str(UPLOAD_CAP), env=env
    )
    yield svc
    svc.stop()


@pytest.fixture(scope="module")
def client(service: Service) -> Iterator[Client]:
    with Client(service.url, token=TOKEN, timeout=60) as c:
        yield c


@pytest.fixture
def sid(client: Client) -> Iterator[str]:
    handle = client.create_session()
    yield handle.session_id
    client.destroy_session(handle.session_id)


def _timeout(timeout: int | None) -> dict[str, int]:
    # Optional but not nullable: absent rather than null.
    return {} if timeout is None else {"timeout_seconds": timeout}


def py(code: str, timeout: int | None = None) -> models.CodeExecutionRequest:
    return models.CodeExecutionRequest(
        tool="code_execution", input=models.CodeExecutionInput(code=code), **_timeout(timeout)
    )


def sh(command: str, timeout: int | None = None) -> models.BashExecutionRequest:
    return models.BashExecutionRequest(
        tool="bash_code_execution", input=models.BashExecutionInput(command=command), **_timeout(timeout)
    )


def edit(**fields: Any) -> models.TextEditorRequest:
    return models.TextEditorRequest(tool="text_editor_code_execution", input=models.TextEditorInput(**fields))


def raw(service: Service, method: str, path: str, **kwargs: Any) -> httpx.Response:
    headers = {"Authorization": f"Bearer {TOKEN}", **kwargs.pop("headers", {})}
    return httpx.request(method, service.url + path, headers=headers, timeout=60, **kwargs)


# -- operations -------------------------------------------------------------------------


def test_session_handle_reports_clamped_lifetimes(service: Service) -> None:
    response = raw(service, "POST", "/sessions", json={"idle_timeout_seconds": 99_999, "image": "x"})
    assert response.status_code == 201
    body = response.json()
    conforms("SessionHandle", body)
    assert (body["idle_timeout_seconds"], body["max_lifetime_seconds"]) == (900, 7200)
    assert raw(service, "DELETE", f"/sessions/{body['session_id']}").status_code == 204
    assert raw(service, "DELETE", f"/sessions/{body['session_id']}").status_code == 204


def test_execute_every_tool_kind(service: Service, client: Client, sid: str) -> None:
    response = raw(
        service, "POST", f"/sessions/{sid}/exec",
        json={"tool": "code_execution", "input": {"code": "x = 6 * 7\nprint(x)"}, "tool_use_id": "t1"},
    )
    body = response.json()
    conforms("ExecResponse", body)
    assert body["tool_use_id"] == "t1" and body["result_block"]["tool_use_id"] == "t1"
    assert body["result_block"]["content"]["stdout"] == "42"
    bash = client.execute(sid, sh("echo $((x+1)); ls -d /workspace"))
    assert bash.result_block.type == "bash_code_execution_tool_result"
    assert bash.result_block.content.stdout == "1\n/workspace\n"
    assert bash.tool_use_id.startswith("srvtoolu_")
    failed = client.execute(sid, py("raise ValueError('boom')"))
    assert failed.result_block.content.return_code == 1
    assert "ValueError: boom" in (failed.result_block.content.stderr or "")
    assert client.execute(sid, py("print(x)")).result_block.content.stdout == "42"


def test_editor_commands(client: Client, sid: str) -> None:
    def run(**fields: Any) -> models.CodeExecutionResult:
        result = client.execute(sid, edit(**fields))
        assert result.result_block.type == "text_editor_code_execution_tool_result"
        return result.result_block.content

    assert run(command="create", path="notes.md", file_text="a\nc\n").stdout == "File created: notes.md\n"
    assert run(command="insert", path="notes.md", insert_line=1, new_str="b").return_code == 0
    assert run(command="str_replace", path="notes.md", old_str="c", new_str="C").stdout == "Edited notes.md\n"
    assert run(command="view", path="notes.md").stdout == "a\nb\nC\n"
    assert run(command="view", path="notes.md", view_range=[2, -1]).stdout == "b\nC"
    assert run(command="undo_edit", path="notes.md").return_code == 0
    assert run(command="view", path="/workspace/notes.md").stdout == "a\nb\nc\n"
    assert run(command="view", path=".").stdout == "notes.md\n"
    bad = run(command="str_replace", path="notes.md", old_str="nope", new_str="x")
    assert (bad.return_code, bad.stderr) == (1, "text_editor: old_str not found in notes.md\n")
    directory = run(command="insert", path=".", insert_line=0, new_str="x")
    assert directory.return_code == 1 and directory.stderr == "text_editor: path is a directory: .\n"


def test_files_put_list_get_and_produced_files(service: Service, client: Client, sid: str) -> None:
    stored = client.put_file(sid, file=("data.csv", b"a,b\n1,2\n"), path="in/data.csv")
    assert (stored.path, stored.size_bytes) == ("in/data.csv", 8)
    assert client.put_file(sid, file=("report.txt", b"r")).path == "report.txt"
    result = client.execute(sid, py(
        "import csv, os\nrows = list(csv.reader(open('in/data.csv')))\n"
        "os.makedirs('out', exist_ok=True)\nopen('out/sum.txt', 'w').write(str(len(rows)))\n"
        "open('in/data.csv', 'a').write('3,4\\n')"
    ))
    produced = result.result_block.content.content or []
    assert [(f.file_id, f.filename) for f in produced] == [("in/data.csv", "data.csv"), ("out/sum.txt", "sum.txt")]
    assert client.get_file(sid, path=produced[1].file_id) == b"2"
    listing = raw(service, "GET", f"/sessions/{sid}/files/list").json()
    conforms("FileList", listing)
    kinds = {f["path"]: f["type"] for f in listing["files"]}
    assert kinds == {"in": "directory", "in/data.csv": "file", "out": "directory", "out/sum.txt": "file", "report.txt": "file"}
    assert [f.path for f in client.list_files(sid, path="out").files] == ["out/sum.txt"]
    big = os.urandom(3_000_00)
    client.put_file(sid, file=("big.bin", big), path="big.bin")
    response = raw(service, "GET", f"/sessions/{sid}/files", params={"path": "big.bin"})
    assert response.content == big and response.headers["content-type"] == "application/octet-stream"


def test_large_download_streams(client: Client, sid: str) -> None:
    client.execute(sid, sh("head -c 5000000 /dev/urandom > blob.bin; sha256sum blob.bin > blob.sum"))
    data = client.get_file(sid, path="blob.bin")
    import hashlib

    expected = client.get_file(sid, path="blob.sum").split()[0].decode()
    assert len(data) == 5_000_000 and hashlib.sha256(data).hexdigest() == expected


# -- declared errors --------------------------------------------------------------------


@pytest.mark.slow
def test_auth_is_required_everywhere(service: Service) -> None:
    cases = [
        ("POST", "/sessions"), ("DELETE", "/sessions/x"), ("POST", "/sessions/x/exec"),
        ("GET", "/sessions/x/files/list"), ("GET", "/sessions/x/files?path=a"), ("POST", "/sessions/x/files"),
    ]
    for method, path in cases:
        for headers in ({}, {"Authorization": "Bearer wrong"}, {"Authorization": f"Basic {TOKEN}"}):
            response = httpx.request(method, service.url + path, headers=headers)
            assert response.status_code == 401, (method, path, headers)
            conforms("Error", response.json())
    with Client(service.url, token="wrong") as bad, pytest.raises(errors.CreateSessionUnauthorized):
        bad.create_session()
    assert raw(service, "POST", "/sessions", headers={"Authorization": f"bearer {TOKEN}"}).status_code == 201


def test_unknown_sessions_are_404(client: Client) -> None:
    with pytest.raises(errors.ExecuteNotFound):
        client.execute("sbx_nope", py("1"))
    with pytest.raises(errors.ListFilesNotFound):
        client.list_files("sbx_nope")
    with pytest.raises(errors.GetFileNotFound):
        client.get_file("sbx_nope", path="a")
    client.destroy_session("sbx_nope")  # already gone: 204


def test_malformed_calls_are_422(service: Service, sid: str) -> None:
    bodies = [
        {"tool": "code_execution", "input": {}},
        {"tool": "code_execution", "input": {"code": ""}},
        {"tool": "code_execution", "input": {"code": "1"}, "timeout_seconds": 121},
        {"tool": "code_execution", "input": {"code": "1"}, "timeout_seconds": 0},
        {"tool": "bash_code_execution", "input": {"code": "ls"}},
        {"tool": "text_editor_code_execution", "input": {"command": "create", "path": "a"}},
        {"tool": "text_editor_code_execution", "input": {"command": "str_replace", "path": "a", "old_str": "x"}},
        {"tool": "text_editor_code_execution", "input": {"command": "insert", "path": "a", "new_str": "x"}},
        {"tool": "text_editor_code_execution", "input": {"command": "delete", "path": "a"}},
        {"tool": "text_editor_code_execution", "input": {"command": "view", "path": "a", "view_range": [1]}},
        {"input": {"code": "1"}},
        "not json",
    ]
    for body in bodies:
        kwargs: dict[str, Any] = {"content": body} if isinstance(body, str) else {"json": body}
        response = raw(service, "POST", f"/sessions/{sid}/exec", **kwargs)
        assert response.status_code == 422, (body, response.text)
        conforms("Error", response.json())


def test_unknown_tool_kind_is_400(service: Service, sid: str) -> None:
    response = raw(service, "POST", f"/sessions/{sid}/exec", json={"tool": "web_search", "input": {}})
    assert response.status_code == 400 and response.json() == {"detail": "unknown tool: web_search"}


def test_file_errors(service: Service, client: Client, sid: str) -> None:
    client.execute(sid, sh("mkdir d; ln -s /etc/passwd pw; ln -s .. up; ln -s / root"))
    for path in ("../x", "pw", "up/x", "root/etc/passwd", "/etc/passwd"):
        with pytest.raises(errors.GetFileForbidden):
            client.get_file(sid, path=path)
        with pytest.raises(errors.ListFilesForbidden):
            client.list_files(sid, path=path)
        with pytest.raises(errors.PutFileForbidden):
            client.put_file(sid, file=b"x", path=path + "/f" if path != "../x" else path)
    with pytest.raises(errors.GetFileBadRequest):
        client.get_file(sid, path="d")
    with pytest.raises(errors.GetFileNotFound):
        client.get_file(sid, path="missing.txt")
    with pytest.raises(errors.ListFilesNotFound):
        client.list_files(sid, path="missing")
    with pytest.raises(errors.PutFileContentTooLarge):
        client.put_file(sid, file=b"x" * (UPLOAD_CAP + 1), path="big.bin")
    streamed = raw(service, "POST", f"/sessions/{sid}/files", files={"file": ("b", b"y" * (3 * UPLOAD_CAP))})
    assert streamed.status_code == 413
    conforms("Error", streamed.json())
    names = [f.path for f in client.list_files(sid).files]
    assert "big.bin" not in names and not any(".upload-" in n for n in names)


# -- isolation --------------------------------------------------------------------------


def test_sessions_cannot_see_each_other(client: Client) -> None:
    a, b = client.create_session().session_id, client.create_session().session_id
    try:
        client.put_file(b, file=b"private", path="secret.txt")
        probe = client.execute(a, sh("ls /workspace; ls / | tr '\\n' ' '; cat ../*/secret.txt 2>&1 | head -1"))
        assert "private" not in (probe.result_block.content.stdout or "")
        with pytest.raises(errors.GetFileNotFound):
            client.get_file(a, path="secret.txt")
    finally:
        client.destroy_session(a)
        client.destroy_session(b)


def test_code_cannot_reach_the_service_or_the_network(service: Service, client: Client, sid: str) -> None:
    code = (
        "import socket\n"
        f"for host, port in (('127.0.0.1', {service.port}), ('10.0.0.1', 80), ('1.1.1.1', 53)):\n"
        "    s = socket.socket(); s.settimeout(2)\n"
        "    try:\n        s.connect((host, port)); print('open')\n"
        "    except OSError as e:\n        print(type(e).__name__)\n"
    )
    out = client.execute(sid, py(code)).result_block.content.stdout
    assert "open" not in (out or "") and out == "ConnectionRefusedError\nOSError\nOSError"


def test_service_secrets_are_invisible(client: Client, sid: str) -> None:
    code = (
        "import os, glob\nblobs = [repr(dict(os.environ))]\n"
        "for p in glob.glob('/proc/*/environ') + glob.glob('/proc/*/cmdline'):\n"
        "    try:\n        blobs.append(open(p, 'rb').read().decode('utf-8', 'replace'))\n"
        "    except OSError:\n        pass\n"
        f"print(len(blobs) > 4, any({SECRET!r} in b or {TOKEN!r} in b for b in blobs))\n"
    )
    assert client.execute(sid, py(code)).result_block.content.stdout == "True False"


def test_nothing_survives_destroy(client: Client) -> None:
    sid = client.create_session().session_id
    marker = f"otari-marker-{uuid.uuid4().hex}"
    results: list[models.ExecResponse] = []
    command = f"(exec -a {marker} sleep 300) & (exec -a {marker} sleep 300) & sleep 300"
    worker = threading.Thread(target=lambda: results.append(client.execute(sid, sh(command, timeout=60))))
    worker.start()
    deadline = time.monotonic() + 5
    while not _pids_with(marker) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _pids_with(marker), "the background processes never started"
    client.destroy_session(sid)
    worker.join(10)
    content = results[0].result_block.content
    assert content.return_code == -1 and "destroyed during the call" in (content.stderr or "")
    assert _pids_with(marker) == []


def _pids_with(marker: str) -> list[int]:
    return processes(lambda pid: marker.encode() in Path(f"/proc/{pid}/cmdline").read_bytes())


# -- timeouts and output ----------------------------------------------------------------


@pytest.mark.slow
def test_timeouts_kill_background_work_and_return_partial_output(client: Client, sid: str) -> None:
    result = client.execute(sid, sh("echo partial; (sleep 100; echo late) & sleep 100", timeout=2))
    content = result.result_block.content
    assert (content.return_code, content.stdout) == (-1, "partial\n")
    assert "timed out after 2s" in (content.stderr or "")
    python = client.execute(sid, py("import time\nprint('so far')\ntime.sleep(100)", timeout=1)).result_block.content
    assert python.return_code == -1 and python.stdout == "so far" and "state kept" in (python.stderr or "")
    left = client.execute(sid, py("import os; print(len([p for p in os.listdir('/proc') if p.isdigit()]))"))
    assert left.result_block.content.stdout == "2"


def test_huge_outputs_are_capped(client: Client, sid: str) -> None:
    result = client.execute(sid, py("print('z' * 50_000_000)"))
    content = result.result_block.content
    assert content.return_code == 0 and len(content.stdout or "") < (1 << 20) + 200
    assert (content.stdout or "").endswith("bytes elided]")
    bash = client.execute(sid, sh("yes | head -c 3000000 >&2; echo done")).result_block.content
    assert bash.stdout == "done\n" and "bytes elided" in (bash.stderr or "")


@pytest.mark.slow
def test_twenty_sessions_in_parallel(service: Service) -> None:
    async def one(c: AsyncClient, i: int) -> str:
        handle = await c.create_session()
        try:
            result = await c.execute(handle.session_id, py(f"import time; time.sleep(0.5); print({i} * 2)"))
            return result.result_block.content.stdout or ""
        finally:
            await c.destroy_session(handle.session_id)

    async def many() -> list[str]:
        async with AsyncClient(service.url, token=TOKEN, timeout=60) as c:
            return await asyncio.gather(*(one(c, i) for i in range(20)))

    assert asyncio.run(many()) == [str(i * 2) for i in range(20)]


# -- capacity ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def small() -> Iterator[Service]:
    svc = Service("--pool-size", "1", "--max-sessions", "2")
    yield svc
    svc.stop()


def test_capacity_answers_503_with_retry_after(small: Service) -> None:
    with Client(small.url, retry=NO_RETRY) as c:
        first, second = c.create_session(), c.create_session()
        response = httpx.post(f"{small.url}/sessions")
        assert response.status_code == 503 and response.headers["retry-after"] == "1"
        conforms("Error", response.json())
        with pytest.raises(errors.CreateSessionServiceUnavailable) as refused:
            c.create_session()
        assert isinstance(refused.value, errors.ServerError) and refused.value.attempts == 1
        assert str(refused.value).startswith("CreateSession: HTTP 503 Service Unavailable: ")
        c.destroy_session(first.session_id)
        third = c.create_session()
        for handle in (second, third):
            c.destroy_session(handle.session_id)


def test_capacity_refusal_is_retried_after_retry_after(small: Service) -> None:
    # The contract marks CreateSession's 503 `x-contractgen-retryable` (no session leased), so
    # the client, though the call is a POST, waits the Retry-After (1 s) and asks again.
    waits: list[float] = []

    def sleep(seconds: float) -> None:
        waits.append(seconds)
        time.sleep(seconds)

    with Client(small.url, retry=Retry(sleep=sleep)) as c, Client(small.url) as other:
        first, second = c.create_session(), c.create_session()
        threading.Timer(0.3, lambda: other.destroy_session(first.session_id)).start()
        third = c.create_session()
        assert waits == [1.0]
        for handle in (second, third):
            c.destroy_session(handle.session_id)


def test_execute_during_destroy_race_never_500s(small: Service) -> None:
    with Client(small.url) as c:
        for _ in range(5):
            sid = c.create_session().session_id
            worker = threading.Thread(target=lambda s=sid: _ignore_errors(lambda: c.execute(s, py("import time; time.sleep(0.05)"))))
            worker.start()
            c.destroy_session(sid)
            worker.join(10)
    assert "Traceback" not in small.output()


def _ignore_errors(call: Any) -> None:
    try:
        call()
    except errors.ExecuteNotFound:
        pass


@pytest.mark.slow
def test_the_command_refuses_to_run_without_bubblewrap() -> None:
    run = subprocess.run(
        [sys.executable, "-c", "from otari_sandbox.app import main; raise SystemExit(main())"],
        env={**os.environ, "SANDBOX_BWRAP": "/nonexistent/bwrap"},
        capture_output=True, text=True, timeout=30, check=False,
    )
    assert run.returncode == 2 and "--isolation none" in run.stderr
