"""A project made from a contract with security (bearer, API key in a header, basic, OAuth2 with
scopes) is green from its first commit: its own `make test` (the contract tests and a test of the
hand-written service, both sending the development credentials), `make lint`, and `make run`
answering an authenticated request over loopback through the front door of the generated
`serve()`; its command refuses to start without the
credential's variable, saying which one and where the code goes.

Real copier (`contractgen new`), the project's Makefile and uvicorn; this venv's python
(`make ... PYTHON=`) stands for the project's own venv.
"""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
import yaml
from test_scaffold import BIN, PYTHON, run

SCHEMES: dict[str, dict[str, Any]] = {
    "bearer": {"type": "http", "scheme": "bearer"},
    "api_key": {"type": "apiKey", "in": "header", "name": "X-API-Key"},
    "basic": {"type": "http", "scheme": "basic"},
    "oauth2": {"type": "oauth2", "flows": {"clientCredentials": {
        "tokenUrl": "https://auth.example.com/token",
        "scopes": {"books:read": "read books", "books:write": "add books"}}}},
}


def contract(kind: str) -> dict[str, Any]:
    """Books behind one scheme of `kind` (OAuth2: a scope per operation); /health is open."""
    name = f"{kind}Auth"
    book = {"type": "object", "required": ["id", "title"],
            "properties": {"id": {"type": "integer"}, "title": {"type": "string"}}}
    new_book = {"type": "object", "required": ["title"], "properties": {"title": {"type": "string"}}}

    def answer(schema: dict[str, Any]) -> dict[str, Any]:
        return {"description": "ok", "content": {"application/json": {"schema": schema}}}

    def scoped(scope: str) -> list[dict[str, list[str]]]:
        return [{name: [scope] if kind == "oauth2" else []}]

    return {
        "openapi": "3.1.0", "info": {"title": "Books", "version": "1"},
        "security": [{name: []}],
        "paths": {
            "/books": {
                "get": {"operationId": "listBooks", "security": scoped("books:read"),
                        "responses": {"200": answer({"type": "array", "items": {
                            "$ref": "#/components/schemas/Book"}})}},
                "post": {"operationId": "createBook", "security": scoped("books:write"),
                         "requestBody": {"required": True, "content": {"application/json": {
                             "schema": {"$ref": "#/components/schemas/NewBook"}}}},
                         "responses": {"201": answer({"$ref": "#/components/schemas/Book"})}},
            },
            "/health": {"get": {"operationId": "health", "security": [],
                                "responses": {"200": answer({"type": "object"})}}},
        },
        "components": {"securitySchemes": {name: SCHEMES[kind]},
                       "schemas": {"Book": book, "NewBook": new_book}},
    }


SERVICE = '''class Service(ServiceBase):
    """books' operations."""

    def __init__(self) -> None:
        self.books: list[Book] = []

    async def list_books(self) -> list[Book]:
        return self.books

    async def create_book(self, body: NewBook) -> Book:
        book = Book(id=len(self.books) + 1, title=body.title)
        self.books.append(book)
        return book
'''

USER_TEST = '''from books.api.client import Client
from books.api.models import NewBook


def test_a_created_book_is_listed(client: Client) -> None:
    created = client.create_book(NewBook(title="Dune"))
    assert created.title == "Dune"
    assert created in client.list_books()
'''


def new_books_project(where: Path, kind: str) -> Path:
    """`contractgen new books` from the contract of `kind`, with a service and a test of it."""
    (where / "books.yaml").write_text(yaml.safe_dump(contract(kind), sort_keys=False), "utf-8")
    run(BIN / "contractgen", "new", "books", "--spec", "books.yaml", cwd=where)
    project = where / "books"
    service = project / "src/books/service.py"
    text = service.read_text("utf-8")
    text = text.replace("from .api.server import ServiceBase",
                        "from .api.models import Book, NewBook\nfrom .api.server import ServiceBase")
    text = re.sub(r'class Service\(ServiceBase\):\n    """.*"""\n', SERVICE, text)
    service.write_text(text, "utf-8")
    (project / "tests/test_books.py").write_text(USER_TEST, "utf-8")
    return project


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def credential(line: str) -> dict[str, Any]:
    """httpx's arguments for a credential as `make run` prints it
    ("books: development credential SCHEME: <as a caller sends it>")."""
    sent = line.strip().split(": ", 2)[2]
    if sent.startswith("curl -u "):
        user, _, password = sent.removeprefix("curl -u ").partition(":")
        return {"auth": (user, password)}
    header, _, value = sent.partition(": ")
    return {"headers": {header: value}}


def serve_with_make_run(project: Path) -> tuple[list[str], Any]:
    """`make run` on a free port until it answers: the credentials it printed, and the process
    (its own process group) with the URL."""
    port = free_port()
    environ = {k: v for k, v in os.environ.items() if not k.startswith("BOOKS_")}
    process = subprocess.Popen(["make", "run", f"PYTHON={PYTHON}", f"PORT={port}"], cwd=project,
                               env=environ, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               text=True, start_new_session=True)
    assert process.stdout is not None
    try:
        printed = [process.stdout.readline() for _ in range(3)]  # the command, credential, URL
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                httpx.get(f"http://127.0.0.1:{port}/health", timeout=2)
                return printed, (process, f"http://127.0.0.1:{port}")
            except httpx.TransportError:
                assert process.poll() is None, process.stdout.read()
                time.sleep(0.2)
        raise AssertionError(f"make run did not answer within 60 s: {printed}")
    except BaseException:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(30)
        raise


def first_line(project: Path, environ: dict[str, str]) -> str:
    """What `python -m books.app --development` prints first, with `environ` set."""
    process = subprocess.Popen([PYTHON, "-m", "books.app", "--development", "--port", "0"],
                               cwd=project, env={**os.environ, **environ, "PYTHONPATH": "src"},
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        assert process.stdout is not None
        return process.stdout.readline()
    finally:
        process.terminate()
        process.wait(30)


@pytest.fixture(scope="module")
def mypy_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One mypy cache for the projects of this module: pydantic and FastAPI are checked once."""
    return tmp_path_factory.mktemp("mypy-cache")


@pytest.mark.slow
@pytest.mark.parametrize("kind", sorted(SCHEMES))
def test_a_secured_project_is_green_from_its_first_commit(
    tmp_path: Path, mypy_cache: Path, kind: str
) -> None:
    project = new_books_project(tmp_path, kind)
    tests = run("make", "test", f"PYTHON={PYTHON}", "PYTEST_ADDOPTS=-v", cwd=project)
    passed = re.findall(r"::(\w+\[?\w*\]?) PASSED", tests.stdout)
    assert "test_a_created_book_is_listed" in passed, tests.stdout
    assert {f"test_operation_answers_a_declared_status[{o}]" for o in
            ("listBooks", "createBook", "health")} <= set(passed), tests.stdout
    assert " failed" not in tests.stdout and " error" not in tests.stdout
    run("make", "lint", f"PYTHON={PYTHON}", cwd=project, MYPY_CACHE_DIR=str(mypy_cache))

    printed, (process, url) = serve_with_make_run(project)
    try:
        line = next(line for line in printed if "development credential" in line)
        expected = {"bearer": "Authorization: Bearer dev-books-token",
                    "oauth2": "Authorization: Bearer dev-books-token",
                    "api_key": "X-API-Key: dev-books-key",
                    "basic": "curl -u dev:dev-books-password"}[kind]
        assert line.rstrip().endswith(expected), printed
        assert printed[2].startswith(f"books: running on {url} "), printed
        answered = httpx.post(f"{url}/books", json={"title": "Dune"}, timeout=10,
                              **credential(line))
        assert answered.status_code == 201 and answered.json()["title"] == "Dune"
        assert httpx.get(f"{url}/books", timeout=10).status_code == 401
        # Served through the generated serve(): its front door caps a request's header fields.
        crowded = {f"x-field-{n}": "1" for n in range(150)}
        assert httpx.get(f"{url}/health", headers=crowded, timeout=10).status_code == 431
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(30)

    variable = {"api_key": "BOOKS_API_KEY", "basic": "BOOKS_USER"}.get(kind, "BOOKS_TOKEN")
    refused = run(PYTHON, "-m", "books.app", "--port", str(free_port()), cwd=project,
                  check=False, PYTHONPATH="src")
    assert refused.returncode == 1, refused.stdout + refused.stderr
    assert f"{variable} is not set" in refused.stderr
    assert "src/books/service.py app_options()" in refused.stderr
    own = {"api_key": ["BOOKS_API_KEY"], "basic": ["BOOKS_USER", "BOOKS_PASSWORD"]}.get(
        kind, ["BOOKS_TOKEN"])
    shown = first_line(project, {name: "s3cret-of-the-deployment" for name in own})
    assert "s3cret" not in shown and f"${own[-1]}" in shown, shown  # named, never printed
    public = run(PYTHON, "-m", "books.app", "--development", "--host", "0.0.0.0", cwd=project,
                 check=False, PYTHONPATH="src")
    assert public.returncode == 1 and "refusing to serve 0.0.0.0 with development" in public.stderr
