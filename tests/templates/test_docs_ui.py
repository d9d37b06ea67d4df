"""`/docs` of a generated server in a real browser: headless Chromium (the `chromium` system
package, installed by `make setup` and `.ci/run`), driven by playwright, with every request
that is not to loopback aborted. The page must load its assets from the server, list every
operation of the contract, and "Try it out" must reach the service."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from gen_support import GenerateFn, openapi, serve

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--no-first-run", "--disable-sync"]

NOTE = {"type": "object", "required": ["id", "text"],
        "properties": {"id": {"type": "string"}, "text": {"type": "string"}}}
SPEC = openapi(
    servers=[{"url": "https://notes.example.com/v1"}],  # not reachable: the page adds its own
    paths={
        "/notes": {
            "get": {"operationId": "ListNotes", "responses": {"200": {
                "description": "All notes.", "content": {"application/json": {
                    "schema": {"type": "array", "items": {"$ref": "#/components/schemas/Note"}}}}}}},
            "post": {"operationId": "CreateNote",
                     "requestBody": {"required": True, "content": {"application/json": {
                         "schema": {"$ref": "#/components/schemas/Note"}}}},
                     "responses": {"201": {"description": "Created.", "content": {
                         "application/json": {"schema": {"$ref": "#/components/schemas/Note"}}}}}},
        },
        "/notes/{note_id}": {
            "parameters": [{"name": "note_id", "in": "path", "required": True,
                            "schema": {"type": "string"}}],
            "get": {"operationId": "GetNote", "responses": {"200": {
                "description": "The note.", "content": {"application/json": {
                    "schema": {"$ref": "#/components/schemas/Note"}}}}}},
            "delete": {"operationId": "DeleteNote",
                       "responses": {"204": {"description": "Deleted."}}},
        },
    },
    schemas={"Note": NOTE},
)
OPERATIONS = {("GET", "/notes"), ("POST", "/notes"), ("GET", "/notes/{note_id}"),
              ("DELETE", "/notes/{note_id}")}


@pytest.mark.slow
def test_docs_page_in_a_browser_lists_operations_and_tries_one(
    generate: GenerateFn, tmp_path: Path
) -> None:
    if not Path(CHROMIUM).is_file():
        pytest.skip("chromium is not installed (make setup installs it with apt-get)")
    from playwright.sync_api import Route, sync_playwright

    server = generate(SPEC).server
    seen: list[str] = []

    class Service(server.ServiceBase):  # type: ignore[misc,name-defined]
        async def get_note(self, note_id: str) -> Any:
            seen.append(note_id)
            return {"id": note_id, "text": "from the service"}

    blocked: list[str] = []

    def only_loopback(route: Route) -> None:
        host = urlsplit(route.request.url).hostname or ""
        if host == "127.0.0.1":
            route.continue_()
        else:
            blocked.append(route.request.url)
            route.abort()

    with serve(server.create_app(Service())) as url, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            page = browser.new_page()
            page.route("**/*", only_loopback)
            page.goto(f"{url}/docs")
            blocks = page.locator(".opblock")
            blocks.first.wait_for(timeout=30_000)
            shown = {
                (block.locator(".opblock-summary-method").inner_text().strip(),
                 block.locator(".opblock-summary-path").inner_text().strip().replace("\u200b", ""))
                for block in blocks.all()
            }
            assert shown == OPERATIONS

            get_note = page.locator(".opblock-get", has_text="/notes/{note_id}")
            get_note.locator(".opblock-summary").click()
            get_note.locator(".try-out__btn").click()
            get_note.locator("input[placeholder='note_id']").fill("n-42")
            get_note.locator(".execute").click()
            status = get_note.locator(".live-responses-table tbody .response-col_status").first
            status.wait_for(timeout=30_000)
            assert status.inner_text().strip() == "200"
            assert "from the service" in get_note.locator(".live-responses-table").inner_text()
        finally:
            browser.close()
    assert seen == ["n-42"]
    assert blocked == []  # nothing on the page tried to leave the machine
