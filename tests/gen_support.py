"""Shared helpers and fixtures of the generator tests (fixtures re-exported by conftest.py)."""

from __future__ import annotations

import fcntl
import importlib
import json
import os
import socket
import subprocess
import sys
import threading
import types
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
OTARI_SPEC = ROOT / "specs" / "otari-code-execution.openapi.yaml"
OTARI_OVERLAY = ROOT / "specs" / "otari-code-execution.overlay.yaml"
TPMJS_SPEC = ROOT / "specs" / "tpmjs-executor.openapi.yaml"
TPMJS_OVERLAY = ROOT / "specs" / "tpmjs-executor.overlay.yaml"

Generated = types.SimpleNamespace
GenerateFn = Callable[..., Generated]


def generate_package(
    spec: dict[str, Any] | Path, base: Path, *, overlay: Path | None = None,
    name: str | None = None,
) -> Generated:
    """Generate `spec` (a dict or a file) into `base/<unique name>` and import its modules."""
    import contractgen

    package = name or f"gen_{uuid.uuid4().hex[:10]}"
    if isinstance(spec, dict):
        path = base / f"{package}.json"
        path.write_text(json.dumps(spec), encoding="utf-8")
        spec = path
    contractgen.generate(spec, base / package, overlay=overlay)
    if str(base) not in sys.path:
        sys.path.insert(0, str(base))
    importlib.invalidate_caches()
    modules = {
        part: importlib.import_module(f"{package}.{part}")
        for part in ("models", "errors", "server", "client")
    }
    return types.SimpleNamespace(name=package, dir=base / package, **modules)


@dataclass
class CliResult:
    """What one in-process `contractgen` command gave: like a CompletedProcess's fields."""

    returncode: int
    stdout: str
    stderr: str


def cli(capsys: pytest.CaptureFixture[str], *args: str, cwd: Path | None = None) -> CliResult:
    """`contractgen ARGS` through `contractgen.cli.main` in this process (no interpreter start,
    no imports again; the console script and `python -m contractgen` are run by other tests)."""
    from contractgen.cli import main

    capsys.readouterr()
    previous = Path.cwd()
    if cwd is not None:
        os.chdir(cwd)
    try:
        code = main(list(args))
    except SystemExit as exc:  # argparse's usage errors
        code = exc.code if isinstance(exc.code, int) else 2
    finally:
        os.chdir(previous)
    out, err = capsys.readouterr()
    return CliResult(code, out, err)


def openapi(paths: dict[str, Any] | None = None, schemas: dict[str, Any] | None = None,
            version: str = "3.1.0", **extra: Any) -> dict[str, Any]:
    """A minimal valid OpenAPI document around `paths` and `schemas`."""
    doc: dict[str, Any] = {
        "openapi": version,
        "info": {"title": "Test", "version": "1"},
        "paths": paths or {},
        "components": {"schemas": schemas or {}, **extra.pop("components", {})},
    }
    doc.update(extra)
    return doc


def pets(*operation_ids: str) -> dict[str, Any]:
    """A small contract: one GET operation per id, each returning a Pet."""
    paths = {
        f"/{op.lower()}/{{pet_id}}": {"get": {
            "operationId": op,
            "parameters": [{"name": "pet_id", "in": "path", "required": True,
                            "schema": {"type": "string"}}],
            "responses": {"200": {"description": "the pet", "content": {"application/json": {
                "schema": {"$ref": "#/components/schemas/Pet"}}}}},
        }} for op in operation_ids
    }
    return openapi(paths, {"Pet": {"type": "object", "properties": {"name": {"type": "string"}}}})


# RUF001-003 (ambiguous unicode) flag the contract's own prose (Box writes typographic quotes in
# descriptions), which the generated docstrings and descriptions keep as written.
RUFF_RULES = ["--select", "E,F,I,UP,B,RUF", "--ignore", "E501,RUF001,RUF002,RUF003"]


def mypy_strict(package: Path) -> subprocess.CompletedProcess[str]:
    """`mypy --strict` (with the pydantic plugin) over a generated package."""
    config = package.parent / f"{package.name}_mypy.ini"
    config.write_text("[mypy]\nstrict = True\nplugins = pydantic.mypy\n", encoding="utf-8")
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", str(config), "--no-error-summary",
         "--cache-dir", str(package.parent / f"{package.name}_mypy_cache"), str(package)],
        capture_output=True, text=True, check=False, cwd=package.parent)


HTTP_METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")


def contract_operations(data: dict[str, Any]) -> list[types.SimpleNamespace]:
    """The operations of a contract as `model.paths` and `emit.matching` read them: `id` (its
    operationId), `path`, `http_method` (upper case), in the contract's order."""
    return [types.SimpleNamespace(id=item[method].get("operationId"), path=path,
                                  http_method=method.upper())
            for path, item in data["paths"].items() for method in item if method in HTTP_METHODS]


@pytest.fixture
def generate(tmp_path: Path) -> GenerateFn:
    """`generate(spec_dict)` -> namespace with models, errors, server, client modules."""
    def make(spec: dict[str, Any], **kwargs: Any) -> Generated:
        return generate_package(spec, tmp_path, **kwargs)

    return make


@contextmanager
def _run_lock(tmp_path_factory: pytest.TempPathFactory, name: str) -> Iterator[None]:
    """A lock shared by the xdist workers of this run (none without xdist)."""
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        yield
        return
    with open(tmp_path_factory.getbasetemp().parent / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


@pytest.fixture(scope="session")
def contracts(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Generated]:
    """Both real contracts, generated once per worker under unique package names.

    The workers share the run's formatting cache: each contract is generated by one worker at a
    time, the first one in a different order on each worker, so the second generation of a
    contract finds every block formatted (a second or so, instead of many).
    """
    base = tmp_path_factory.mktemp("contracts")
    jobs = {
        "otari": lambda: generate_package(OTARI_SPEC, base, overlay=OTARI_OVERLAY,
                                          name=f"otari_{uuid.uuid4().hex[:8]}"),
        "tpmjs": lambda: generate_package(TPMJS_SPEC, base, overlay=TPMJS_OVERLAY,
                                          name=f"tpmjs_{uuid.uuid4().hex[:8]}"),
    }
    order = sorted(jobs, reverse=os.environ.get("PYTEST_XDIST_WORKER", "gw0")[-1] in "13579")
    done = {}
    for key in order:
        with _run_lock(tmp_path_factory, f"contract-{key}"):
            done[key] = jobs[key]()
    return {key: done[key] for key in jobs}


_ERROR = {
    "type": "object",
    "required": ["code", "message"],
    "properties": {"code": {"type": "string"}, "message": {"type": "string"}},
}
_ITEM = {
    "type": "object",
    "required": ["name"],
    "description": "A thing in the store.",
    "properties": {
        "name": {"type": "string", "minLength": 1},
        "count": {"type": "integer", "minimum": 0},
    },
}


def _json(schema: dict[str, Any]) -> dict[str, Any]:
    return {"content": {"application/json": {"schema": schema}}}


def _error(description: str, **extra: Any) -> dict[str, Any]:
    return {"description": description, **_json({"$ref": "#/components/schemas/Error"}), **extra}


# One spec exercising every server and client feature; generated once per worker.
FEATURES: dict[str, Any] = openapi(
    {
        "/items": {
            "post": {
                "operationId": "createItem",
                "security": [{"bearer": []}],
                "requestBody": {"required": True, **_json({"$ref": "#/components/schemas/Item"})},
                "responses": {
                    "201": {"description": "created", **_json({"$ref": "#/components/schemas/Item"})},
                    "400": _error("invalid"),
                    "401": _error("no credential"),
                },
            },
            "options": {
                "operationId": "optionsItems",
                "responses": {"204": {"description": "preflight"}},
            },
        },
        "/items/{item_id}": {
            "parameters": [{"name": "item_id", "in": "path", "required": True,
                            "schema": {"type": "string", "minLength": 2}}],
            "get": {
                "operationId": "getItem",
                "security": [{}, {"bearer": []}],
                "parameters": [
                    {"name": "X-Trace-Id", "in": "header", "schema": {"type": "string"}},
                    {"name": "verbose", "in": "query", "schema": {"type": "boolean"}},
                ],
                "responses": {
                    "200": {"description": "found", **_json({"$ref": "#/components/schemas/Item"})},
                    "404": _error("missing"),
                    "503": _error("busy", headers={"Retry-After": {"schema": {"type": "integer"}}}),
                },
            },
            "put": {
                "operationId": "updateItem",
                "requestBody": {"required": True, **_json({"$ref": "#/components/schemas/Item"})},
                "responses": {
                    "200": {"description": "updated", **_json({"$ref": "#/components/schemas/Item"})},
                    "422": {"description": "invalid",
                            **_json({"$ref": "#/components/schemas/Problem"})},
                },
            },
            "delete": {
                "operationId": "deleteItem",
                "responses": {"204": {"description": "gone"}, "404": _error("missing")},
            },
        },
        "/upload": {
            "post": {
                "operationId": "upload",
                "requestBody": {"required": True, "content": {"multipart/form-data": {"schema": {
                    "type": "object",
                    "required": ["file"],
                    "properties": {
                        "file": {"type": "string", "format": "binary"},
                        "path": {"type": "string"},
                        "count": {"type": "integer"},
                    },
                }}}},
                "responses": {"201": {"description": "stored", **_json({
                    "type": "object",
                    "required": ["name", "size"],
                    "properties": {"name": {"type": "string"}, "size": {"type": "integer"},
                                   "path": {"type": "string"}, "count": {"type": "integer"}},
                })}},
            },
        },
        "/blob": {
            "get": {
                "operationId": "getBlob",
                "parameters": [{"name": "size", "in": "query", "required": True,
                                "schema": {"type": "integer", "maximum": 1000000}}],
                "responses": {
                    "200": {"description": "bytes",
                            "content": {"image/png": {"schema": {"type": "string",
                                                                 "format": "binary"}}}},
                },
            },
        },
        "/boom": {
            "get": {
                "operationId": "boom",
                "responses": {"200": {"description": "never"}, "500": _error("broken")},
            },
        },
        "/search": {
            "get": {
                "operationId": "search",
                "parameters": [
                    {"name": "tags", "in": "query",
                     "schema": {"type": "array", "items": {"type": "string"}}},
                    {"name": "ids", "in": "query", "style": "pipeDelimited", "explode": False,
                     "schema": {"type": "array", "items": {"type": "integer"}}},
                    {"name": "words", "in": "query", "style": "spaceDelimited", "explode": False,
                     "schema": {"type": "array", "items": {"type": "string"}}},
                    {"name": "range", "in": "query", "style": "deepObject", "explode": True,
                     "schema": {"type": "object", "properties": {
                         "min": {"type": "integer"}, "max": {"type": "integer"}}}},
                    {"name": "q", "in": "query", "content": {"application/json": {"schema": {
                        "type": "object", "additionalProperties": True}}}},
                    {"name": "sort", "in": "query",
                     "schema": {"type": "string", "enum": ["asc", "desc"], "default": "asc"}},
                    {"name": "limit", "in": "query",
                     "schema": {"type": "integer", "default": 10, "maximum": 100}},
                ],
                "responses": {"200": {"description": "what the server received",
                                      **_json({"type": "object", "additionalProperties": True})}},
            },
        },
        "/hal": {
            "get": {
                "operationId": "getHal",
                "responses": {"200": {"description": "a vendor JSON media type", "content": {
                    "application/hal+json": {"schema": {"$ref": "#/components/schemas/Item"}}}}},
            },
        },
        "/slow": {
            "get": {
                "operationId": "slow",
                "responses": {"200": {"description": "eventually",
                                      **_json({"type": "string"})}},
            },
        },
    },
    {
        "Error": _ERROR,
        "Item": _ITEM,
        "Problem": {
            "type": "object",
            "properties": {"detail": {"type": "array", "items": {"type": "object"}}},
        },
    },
    components={"securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}}},
)


@pytest.fixture(scope="session")
def features(tmp_path_factory: pytest.TempPathFactory) -> Generated:
    """The FEATURES spec, generated once per worker."""
    return generate_package(FEATURES, tmp_path_factory.mktemp("features"))


@contextmanager
def serve(app: Any) -> Iterator[str]:
    """Run `app` under uvicorn on a free loopback port in a thread; yield its base URL.

    The socket is bound and listening before uvicorn starts, so a request sent at once waits in
    the backlog until the server accepts it: nothing needs to wait for the server to be up.
    """
    import uvicorn

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    sock.listen(128)
    config = uvicorn.Config(app, log_level="critical", lifespan="off")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    finally:
        server.should_exit = True
        thread.join()
        sock.close()
