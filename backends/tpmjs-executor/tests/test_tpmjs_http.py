"""The HTTP service end to end: the real CLI under uvicorn, real npm from the loopback
registry, real Node; every response is checked against the contract (after the overlay)."""

from __future__ import annotations

import http.client
import json
import os
import shutil
import socket
import threading
import time
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import jsonschema
import pytest
from tpmjs_executor.api import Client, errors, models
from tpmjs_executor.api.server import contract
from tpmjs_support import (
    ExecutorProcess,
    NpmRegistry,
    accepted_socket_option,
    build_tarball,
    processes_with,
)

API_KEY = "test-key-0123456789"
SECRET = f"service-secret-{uuid.uuid4().hex}"
TIMEOUT_MS = 2000
BODY_LIMIT = 65536
SPEC = json.loads(contract())
CORS = {
    "access-control-allow-origin": "*",
    "access-control-allow-methods": "GET, POST, OPTIONS",
    "access-control-allow-headers": "Content-Type, Authorization, X-TPMJS-Protocol-Version",
}
AUTH = {"Authorization": f"Bearer {API_KEY}"}


def _jsonschema(node: Any) -> Any:
    """OpenAPI 3.0 schema -> JSON Schema: `nullable` becomes a union with null."""
    if isinstance(node, list):
        return [_jsonschema(n) for n in node]
    if not isinstance(node, dict):
        return node
    out = {k: _jsonschema(v) for k, v in node.items() if k not in ("nullable", "example")}
    if node.get("nullable"):
        return {"anyOf": [out, {"type": "null"}]}
    return out


ROOT_SCHEMA = {"components": _jsonschema(SPEC["components"])}


def check_contract(response: httpx.Response, path: str, method: str) -> None:
    """Assert the response is declared for the operation and its body matches the schema."""
    operation = SPEC["paths"][path][method.lower()]
    declared = operation["responses"].get(str(response.status_code))
    assert declared is not None, f"{method} {path} answered undeclared {response.status_code}"
    content = declared.get("content", {}).get("application/json")
    if content is None:
        return
    schema = {**ROOT_SCHEMA, **_jsonschema(content["schema"])}
    jsonschema.validate(response.json(), schema)
    for name, value in CORS.items():
        assert response.headers.get(name) == value


class Server(ExecutorProcess):
    """A running `tpmjs-executor` with helpers that check every answer against the contract."""

    def post(
        self, body: Any, *, headers: dict[str, str] | None = None, path: str = "/execute-tool"
    ) -> httpx.Response:
        """POST a JSON body (auth added unless headers are given) and check the contract."""
        response = httpx.post(
            self.url + path, json=body, headers=AUTH if headers is None else headers, timeout=30
        )
        check_contract(response, "/execute-tool", "POST")
        return response

    def execute(self, package: str, name: str, **fields: Any) -> dict[str, Any]:
        """One execute-tool call that must answer 200; its JSON."""
        response = self.post({"packageName": package, "name": name, **fields})
        assert response.status_code == 200, response.text
        return response.json()  # type: ignore[no-any-return]


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("EXECUTOR_", "npm_config"))}
    env.update(SERVICE_DB_PASSWORD=SECRET, **extra)
    return env


@pytest.fixture(scope="module")
def server(
    registry: NpmRegistry, store_dir: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Server]:
    """The executor with an API key, a 2 s time limit and a 64 KiB body limit."""
    args = ["--registry", registry.url, "--store-dir", str(store_dir), "--pool-size", "2",
            "--execution-timeout-s", str(TIMEOUT_MS / 1000), "--max-body-bytes", str(BODY_LIMIT)]  # fmt: skip
    srv = Server(args, _env(EXECUTOR_API_KEY=API_KEY), tmp_path_factory.mktemp("srv") / "log")
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def open_server(
    registry: NpmRegistry, store_dir: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Server]:
    """No API key, legacy string errors, one execution at a time and no queue."""
    args = ["--registry", registry.url, "--store-dir", str(store_dir), "--legacy-errors",
            "--max-concurrency", "1", "--max-queue", "0", "--pool-size", "0"]  # fmt: skip
    srv = Server(args, _env(), tmp_path_factory.mktemp("open") / "log")
    yield srv
    srv.stop()


def test_verify_connection_flow(server: Server) -> None:
    health = httpx.get(server.url + "/health", timeout=10)
    check_contract(health, "/health", "GET")
    assert health.json()["status"] == "ok" and health.json()["protocolVersion"] == "1.0"
    body = server.execute(
        "@tpmjs/hello", "helloWorldTool", version="0.0.2", params={"includeTimestamp": True}
    )
    assert body["success"] is True
    assert body["output"]["message"] == "Hello, World!" and "timestamp" in body["output"]


def test_info_advertises_enforced_limits(server: Server) -> None:
    response = httpx.get(server.url + "/info")
    check_contract(response, "/info", "GET")
    capabilities = response.json()["capabilities"]
    assert capabilities["maxExecutionTimeMs"] == TIMEOUT_MS
    assert capabilities["maxRequestBodyBytes"] == BODY_LIMIT
    assert capabilities["isolation"] == ("container" if _has_bwrap() else "process")
    assert capabilities["executionModes"] == ["sync"]
    assert response.json()["runtime"]["nodeVersion"].split(".")[0].isdigit()


def _has_bwrap() -> bool:
    return shutil.which("bwrap") is not None


@pytest.mark.parametrize(
    ("package", "name", "fields", "code"),
    [
        ("@fixture/nope", "x", {}, "PACKAGE_NOT_FOUND"),
        ("@fixture/multi", "versionTool", {"version": "7.7.7"}, "PACKAGE_NOT_FOUND"),
        ("@fixture/esm-tools", "nopeTool", {}, "TOOL_NOT_FOUND"),
        ("@fixture/esm-tools", "notATool", {}, "TOOL_INVALID"),
        (
            "@fixture/esm-tools",
            "throwTool",
            {"params": {"message": "Invalid input"}},
            "TOOL_EXECUTION_ERROR",
        ),
        ("@fixture/esm-tools", "hangTool", {}, "EXECUTION_TIMEOUT"),
    ],
)
def test_tool_outcomes_are_200_with_error_codes(
    server: Server, package: str, name: str, fields: dict[str, Any], code: str
) -> None:
    body = server.execute(package, name, **fields)
    assert body["success"] is False and body["error"]["code"] == code
    assert body["executionTimeMs"] >= 0
    if code == "EXECUTION_TIMEOUT":
        assert body["error"]["message"] == f"Execution exceeded {TIMEOUT_MS}ms time limit"
    if code == "TOOL_EXECUTION_ERROR":
        assert body["error"]["message"] == "Invalid input"


@pytest.mark.parametrize(
    ("raw", "fragment"),
    [
        (b'{"packageName": "@tpmjs/hello"', "not valid JSON"),
        (b"[1, 2]", "valid dictionary"),
        (b'{"name": "helloWorldTool"}', "packageName"),
        (b'{"packageName": "@tpmjs/hello"}', "name"),
        (b'{"packageName": 5, "name": "x"}', "packageName"),
        (b'{"packageName": "Not Valid", "name": "x"}', "must be lowercase"),
        (b'{"packageName": "@tpmjs/hello", "name": "x", "version": "file:/etc"}', "dist-tag"),
        (b'{"packageName": "@tpmjs/hello", "name": "x", "params": [1]}', "params"),
        (b'{"packageName": "@tpmjs/hello", "name": "x", "env": {"A": 1}}', "env"),
    ],
)
def test_malformed_requests_are_400(server: Server, raw: bytes, fragment: str) -> None:
    response = httpx.post(
        server.url + "/execute-tool",
        content=raw,
        headers={**AUTH, "Content-Type": "application/json"},
    )
    check_contract(response, "/execute-tool", "POST")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "INVALID_REQUEST"
    assert fragment in response.json()["error"]["message"]


def test_platform_quirks_are_tolerated(server: Server) -> None:
    hello = {"packageName": "@tpmjs/hello", "name": "helloWorldTool"}
    for extra in (
        {"env": ["OPENAI_API_KEY"]},
        {"env": None, "params": None, "version": None},
        {"env": "x"},
    ):
        response = server.post({**hello, **extra})
        assert response.status_code == 200 and response.json()["success"] is True, response.text
    # Without a JSON Content-Type the body is still read as JSON.
    response = httpx.post(server.url + "/execute-tool", content=json.dumps(hello), headers=AUTH)
    assert response.json()["success"] is True


@pytest.mark.parametrize(
    "headers",
    [{}, {"Authorization": "Bearer wrong"}, {"Authorization": f"Basic {API_KEY}"}, {"Authorization": API_KEY},
     {"Authorization": "Bearer"}],
)  # fmt: skip
def test_unauthorized(server: Server, headers: dict[str, str]) -> None:
    response = server.post(
        {"packageName": "@tpmjs/hello", "name": "helloWorldTool"}, headers=headers
    )
    assert response.status_code == 401
    assert response.json()["error"]["code"] == "UNAUTHORIZED"


def test_bearer_scheme_is_case_insensitive(server: Server) -> None:
    response = server.post(
        {"packageName": "@tpmjs/hello", "name": "helloWorldTool"},
        headers={"Authorization": f"bEaReR {API_KEY}"},
    )
    assert response.status_code == 200 and response.json()["success"] is True


def test_cors_and_options_everywhere(server: Server) -> None:
    for path in (
        "/health",
        "/info",
        "/execute-tool",
        "/api/health",
        "/api/info",
        "/api/execute-tool",
    ):
        response = httpx.options(
            server.url + path,
            headers={"Origin": "https://tpmjs.com", "Access-Control-Request-Method": "POST"},
        )
        assert response.status_code == 200, path
        for name, value in CORS.items():
            assert response.headers[name] == value
    for response in (
        httpx.get(server.url + "/health"),
        httpx.post(server.url + "/execute-tool", json={}, headers=AUTH),  # 400
        httpx.post(server.url + "/execute-tool", json={"packageName": "a", "name": "b"}),  # 401
        httpx.get(server.url + "/nowhere"),
    ):
        for name, value in CORS.items():
            assert response.headers[name] == value, response.status_code
        assert response.headers["x-tpmjs-protocol-version"] == "1.0"


def test_api_prefix_aliases(server: Server) -> None:
    assert httpx.get(server.url + "/api/health").json()["status"] == "ok"
    check_contract(httpx.get(server.url + "/api/info"), "/info", "GET")
    response = server.post(
        {"packageName": "@tpmjs/hello", "name": "helloWorldTool"}, path="/api/execute-tool"
    )
    assert response.json()["success"] is True


def test_body_limit_is_enforced(server: Server) -> None:
    big = {
        "packageName": "@fixture/esm-tools",
        "name": "echoTool",
        "params": {"blob": "x" * BODY_LIMIT},
    }
    response = server.post(big)
    assert response.status_code == 400
    assert (
        response.json()["error"]["message"] == f"Request body exceeds the {BODY_LIMIT}-byte limit"
    )

    def chunks() -> Iterator[bytes]:
        # Streamed without Content-Length: counted while it arrives.
        yield b'{"packageName": "@fixture/esm-tools", "name": "echoTool", "params": {"blob": "'
        for _ in range(100):
            yield b"y" * 1024
        yield b'"}}'

    response = httpx.post(server.url + "/execute-tool", content=chunks(), headers=AUTH)
    check_contract(response, "/execute-tool", "POST")
    assert response.status_code == 400
    fits = {
        "packageName": "@fixture/esm-tools",
        "name": "echoTool",
        "params": {"blob": "z" * 60000},
    }
    assert server.post(fits).json()["output"]["params"]["blob"] == "z" * 60000


def test_env_reaches_only_its_call_and_secrets_never(server: Server) -> None:
    names = {"names": ["OPENAI_API_KEY", "EXECUTOR_API_KEY", "SERVICE_DB_PASSWORD"]}
    first = server.execute(
        "@fixture/esm-tools", "envTool", params=names, env={"OPENAI_API_KEY": "sk-1"}
    )
    second = server.execute("@fixture/esm-tools", "envTool", params=names)
    assert first["output"]["values"] == {
        "OPENAI_API_KEY": "sk-1",
        "EXECUTOR_API_KEY": None,
        "SERVICE_DB_PASSWORD": None,
    }
    assert second["output"]["values"] == {
        "OPENAI_API_KEY": None,
        "EXECUTOR_API_KEY": None,
        "SERVICE_DB_PASSWORD": None,
    }
    for needle in (API_KEY, SECRET):
        probe = server.execute("@fixture/esm-tools", "procEnvTool", params={"needle": needle})
        assert probe["output"]["inOwnEnv"] is False
        if _has_bwrap():
            assert probe["output"]["hits"] == []


@pytest.mark.slow
def test_version_pinning(server: Server) -> None:
    got = [
        server.execute("@fixture/multi", "versionTool", version=v)["output"]["version"]
        for v in ("1.0.0", "2.0.0", "1.1.0", "next", "^1.0.0", "latest")
    ]
    assert got == ["1.0.0", "2.0.0", "1.1.0", "2.1.0-beta.1", "1.1.0", "2.0.0"]


@pytest.mark.skipif(not _has_bwrap(), reason="bubblewrap not installed")
@pytest.mark.slow
def test_timeout_leaves_no_process(server: Server) -> None:
    marker = f"{time.time_ns() % 10**6}.5"
    body = server.execute(
        "@fixture/esm-tools", "spawnTool", params={"seconds": marker, "hang": True}
    )
    assert body["error"]["code"] == "EXECUTION_TIMEOUT"
    deadline = time.monotonic() + 2
    while processes_with(marker) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert processes_with(marker) == []


@pytest.mark.slow  # a 1.5 s install beside three 2 s timeouts
def test_health_answers_while_installing_and_running(
    server: Server, registry: NpmRegistry, tmp_path: Path
) -> None:
    folder = tmp_path / "slow"
    folder.mkdir()
    name = f"@fixture/slow-{uuid.uuid4().hex[:8]}"
    (folder / "package.json").write_text(
        json.dumps({"name": name, "version": "1.0.0", "main": "index.js"})
    )
    (folder / "index.js").write_text("exports.t = { execute: async () => 'slow ok' };")
    registry.publish(json.loads((folder / "package.json").read_text()), build_tarball(folder))
    registry.set_tarball_delay(1.5)
    try:
        with ThreadPoolExecutor(6) as pool:
            install = pool.submit(server.execute, name, "t")
            busy = [pool.submit(server.execute, "@fixture/esm-tools", "busyTool") for _ in range(3)]
            answered = 0
            while not install.done():
                assert httpx.get(server.url + "/health", timeout=30).status_code == 200
                answered += 1
            assert install.result().get("output") == "slow ok", install.result()
            assert all(b.result()["error"]["code"] == "EXECUTION_TIMEOUT" for b in busy)
    finally:
        registry.set_tarball_delay(0)
    # Answered again and again while the (1.5 s delayed) install and the runs were going on;
    # how fast belongs in the bench.
    assert answered >= 3


@pytest.mark.slow
def test_ten_executions_in_parallel(server: Server) -> None:
    with ThreadPoolExecutor(10) as pool:
        futures = [
            pool.submit(server.execute, "@fixture/esm-tools", "slowTool", params={"ms": 300 + i})
            for i in range(10)
        ]
        results = [f.result() for f in futures]
    assert [r["output"]["slept"] for r in results] == [300 + i for i in range(10)]


def test_outputs_logs_and_integers(server: Server) -> None:
    printed = server.execute("@fixture/esm-tools", "printTool")
    assert printed["output"] == {"printed": True}
    assert printed["logs"][:2] == ["log line", "error line"]
    raw = server.post(
        {"packageName": "@fixture/esm-tools", "name": "oddTool", "params": {"kind": "int"}}
    )
    assert b'"output":42,' in raw.content
    odd = server.execute("@fixture/esm-tools", "oddTool", params={"kind": "circular"})
    assert odd["output"]["self"] == "[Circular]"
    assert (
        server.execute("@fixture/esm-tools", "oddTool", params={"kind": "undefined"})["output"]
        is None
    )


def test_generated_client_against_the_service(server: Server) -> None:
    with Client(server.url, token=API_KEY) as client:
        health = client.get_health()
        assert health.status == "ok"
        info = client.get_info()
        assert info.capabilities.maxExecutionTimeMs == TIMEOUT_MS
        result = client.execute_tool(
            models.ExecuteToolRequest(
                packageName="@tpmjs/hello", name="helloNameTool", params={"name": "Ada"}
            )
        )
        assert isinstance(result, models.ExecuteToolSuccessResponse)
        assert isinstance(result.output, dict) and result.output["message"] == "Hello, Ada!"
    with Client(server.url, token="wrong") as client, pytest.raises(errors.ExecuteToolUnauthorized):
        client.execute_tool(
            models.ExecuteToolRequest(packageName="@tpmjs/hello", name="helloWorldTool")
        )


@pytest.mark.slow
def test_legacy_errors_open_access_and_refusal(open_server: Server) -> None:
    response = httpx.post(
        open_server.url + "/execute-tool",
        json={"packageName": "@fixture/esm-tools", "name": "nopeTool"},
    )
    body = response.json()
    assert response.status_code == 200
    assert body["success"] is False and body["errorCode"] == "TOOL_NOT_FOUND"
    assert isinstance(body["error"], str) and "nopeTool" in body["error"]
    ok = httpx.post(
        open_server.url + "/execute-tool",
        json={"packageName": "@tpmjs/hello", "name": "helloWorldTool"},
    )
    check_contract(ok, "/execute-tool", "POST")

    # One execution at a time and no queue: of two calls sent together (each 1.5 s long), one
    # runs and the other is refused at once, whichever arrives first.
    slow = {"packageName": "@fixture/esm-tools", "name": "slowTool", "params": {"ms": 1500}}
    together = threading.Barrier(2)

    def call(_: int) -> httpx.Response:
        together.wait()
        return httpx.post(open_server.url + "/execute-tool", json=slow, timeout=30)

    with ThreadPoolExecutor(2) as pool:
        answers = list(pool.map(call, range(2)))
    refused = [r for r in answers if r.status_code != 200]
    served = [r for r in answers if r.status_code == 200]
    assert len(refused) == 1 and len(served) == 1, [r.text for r in answers]
    check_contract(refused[0], "/execute-tool", "POST")
    assert refused[0].status_code == 500
    assert (
        refused[0].json()["error"]["code"] == "INTERNAL_ERROR"
        and "capacity" in refused[0].json()["error"]["message"]
    )
    assert refused[0].headers["retry-after"] == "1"
    assert served[0].json()["success"] is True


def test_answers_on_kept_alive_connections_are_not_held_by_nagle(server: Server) -> None:
    # Without TCP_NODELAY on accepted connections, each answer on a kept-alive connection
    # waits ~40 ms for the client's delayed ACK (the latency itself is in bench/).
    host, port = server.url.removeprefix("http://").split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=20)
    try:
        for _ in range(2):  # the connection is kept alive and reused
            connection.request("GET", "/health")
            answer = connection.getresponse()
            assert answer.status == 200 and answer.read()
        assert connection.sock is not None
        nodelay = accepted_socket_option(
            server.proc.pid, connection.sock.getsockname(), socket.IPPROTO_TCP, socket.TCP_NODELAY
        )
    finally:
        connection.close()
    assert nodelay != 0


HOSTILE = "@fixture/hostile"


@pytest.mark.parametrize(
    ("raw", "fragment"),
    [
        (b'{"packageName": "@fixture/hostile", "name": "deepTool", "params": {"x": NaN}}', "NaN"),
        (b'{"packageName": "@fixture/hostile", "name": "deepTool", "params": [-Infinity]}',
         "-Infinity"),
        (b'{"packageName": "@fixture/hostile", "name": "x\\ud800"}', "lone UTF-16 surrogate"),
        (b'{"packageName": "@fixture/hostile", "name": "deepTool", "params": {"\\udc00": 1}}',
         "lone UTF-16 surrogate"),
        (b'{"packageName": "@fixture/hostile", "name": "deepTool", "params": {"x": '
         + b"[" * 100_000 + b"]" * 100_000 + b"}}", "nested deeper than"),
        (b"[" * 100_000, "nested deeper than"),
        (b'{"packageName": "@fixture/hostile", "name": "deepTool", "params": {"x": '
         + b"[" * 250 + b"]" * 250 + b"}}", "nested deeper than 201 levels"),
    ],
)  # fmt: skip
def test_values_that_cannot_be_answered_are_400(
    open_server: Server, raw: bytes, fragment: str
) -> None:
    response = httpx.post(
        open_server.url + "/execute-tool", content=raw, headers={"Content-Type": "application/json"}
    )
    check_contract(response, "/execute-tool", "POST")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "INVALID_REQUEST"
    assert fragment in response.json()["error"]["message"]


@pytest.mark.parametrize(
    ("name", "params", "expected"),
    [
        ("surrogateTool", {}, {"text": "a\ufffdb", "key\ufffd": ["\ufffd"], "pair": "\U0001f600"}),
        ("surrogateThrowTool", {}, "bad \ufffd message"),
        ("deepTool", {"depth": 100_000}, "Tool output is nested deeper than 200 levels"),
        ("deepTool", {"depth": 199}, None),
        ("messageGetterTool", {}, "unprintable object thrown"),
        ("revokedProxyTool", {}, "unprintable object thrown"),
        ("returnRevokedTool", {}, None),
        ("revokedExportTool", {}, None),
        ("forgeTool", {"code": "PACKAGE_NOT_FOUND"}, {"real": True, "wrote": True}),
        ("forgeAndDieTool", {"code": "PACKAGE_NOT_FOUND"}, None),
        ("patchGlobalsTool", {"code": "UNKNOWN_CODE"}, "after patching"),
    ],
)  # fmt: skip
def test_hostile_tools_get_declared_answers(
    server: Server, name: str, params: dict[str, Any], expected: Any
) -> None:
    body = server.execute(HOSTILE, name, params=params)
    if body["success"]:
        assert expected is None or body["output"] == expected
        if name == "surrogateTool":
            assert body["logs"] == ["log \ufffd line"]
    else:
        assert body["error"]["code"] == "TOOL_EXECUTION_ERROR", body
        assert expected is None or body["error"]["message"] == expected
    assert name != "forgeTool" or body["success"]


def _raw_exchange(url: str, head: bytes) -> bytes:
    """Send `head` (request line and headers, no body) and read what comes back."""
    host, port = url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=20) as sock:
        sock.sendall(head)
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = sock.recv(65536)
            if not chunk:
                break
            data += chunk
        return data


def test_authentication_is_decided_before_the_body_is_read(server: Server) -> None:
    # The body announced is never sent: only an answer that does not wait for it arrives.
    head = (
        b"POST /execute-tool HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b"Content-Length: 60000\r\n\r\n"
    )
    answer = _raw_exchange(server.url, head)
    assert answer.startswith(b"HTTP/1.1 401 "), answer[:200]
    assert b"www-authenticate: bearer" in answer.lower()
    # Authenticated, an announced size over the limit is refused before reading, too.
    authorized = head.replace(b"Host: x", b"Host: x\r\nAuthorization: Bearer " + API_KEY.encode())
    answer = _raw_exchange(server.url, authorized.replace(b"60000", b"600000"))
    assert answer.startswith(b"HTTP/1.1 400 "), answer[:200]


@pytest.mark.parametrize(
    "headers",
    [
        {"Origin": "https://evil.example", "Content-Type": "text/plain"},
        {"Origin": "null", "Content-Type": "text/plain"},
        {"Sec-Fetch-Site": "cross-site", "Content-Type": "application/x-www-form-urlencoded"},
    ],
)
def test_cross_origin_requests_are_refused_without_a_key(
    open_server: Server, server: Server, headers: dict[str, str]
) -> None:
    body = json.dumps({"packageName": "@fixture/esm-tools", "name": "echoTool"})
    refused = httpx.post(open_server.url + "/execute-tool", content=body, headers=headers)
    check_contract(refused, "/execute-tool", "POST")
    assert refused.status_code == 400
    message = refused.json()["error"]["message"]
    assert refused.json()["error"]["code"] == "INVALID_REQUEST" and "requests are refused" in message
    # With a key, the key decides; same-origin and non-browser callers are served without one.
    keyed = httpx.post(server.url + "/execute-tool", content=body, headers={**headers, **AUTH})
    assert keyed.json()["success"] is True
    same = {"Origin": open_server.url, "Content-Type": "text/plain"}
    ok = httpx.post(open_server.url + "/execute-tool", content=body, headers=same)
    assert ok.json()["success"] is True


@pytest.mark.parametrize("how", ["env", "file"])
def test_an_empty_api_key_refuses_to_start(
    tmp_path: Path, how: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # The command's main() in this process: it exits before binding. The address is not
    # loopback, so that a regression cannot serve either: read as no key, it would be refused
    # for listening beyond loopback (without "empty"); read as a key, it could not bind.
    from tpmjs_executor.app import main

    for name in [n for n in os.environ if n.startswith("EXECUTOR_")]:
        monkeypatch.delenv(name)
    args = ["--registry", "http://127.0.0.1:9", "--store-dir", str(tmp_path / "store"),
            "--host", "192.0.2.1"]  # fmt: skip
    if how == "env":
        monkeypatch.setenv("EXECUTOR_API_KEY", " \n")
    else:
        (tmp_path / "key").write_text("  \n")
        args += ["--api-key-file", str(tmp_path / "key")]
    assert main(args) == 2
    assert "empty" in capsys.readouterr().err
