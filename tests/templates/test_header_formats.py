"""Formats on declared response headers over real HTTP: the server writes typed values
(date-time as ISO 8601), the client's `*_detailed` variant parses them back into their types."""

from __future__ import annotations

import datetime
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from gen_support import Generated, generate_package, openapi, serve
from pydantic import ValidationError
from starlette.responses import Response

SPEC = openapi({"/clock": {"get": {
    "operationId": "getClock",
    "parameters": [{"name": "bad", "in": "query", "schema": {"type": "boolean"}}],
    "responses": {"204": {"description": "the time, in headers", "headers": {
        "X-Now": {"required": True, "schema": {"type": "string", "format": "date-time"}},
        "X-Request-Id": {"schema": {"type": "string", "format": "uuid"}},
        "X-Day": {"schema": {"type": "string", "format": "date"}},
        "X-Count": {"schema": {"type": "integer"}}}}}}}})
NOW = datetime.datetime(2026, 1, 2, 3, 4, 5, tzinfo=datetime.UTC)
ID = uuid.UUID("5b1c3e9a-8d4f-4a61-9a2e-3f7c1d2b4e6f")


@pytest.fixture(scope="module")
def pkg(tmp_path_factory: pytest.TempPathFactory) -> Generated:
    return generate_package(SPEC, tmp_path_factory.mktemp("header_formats"))


@pytest.fixture(scope="module")
def url(pkg: Generated) -> Iterator[str]:
    server = pkg.server

    class Service(server.ServiceBase):  # type: ignore[misc,name-defined]
        async def get_clock(self, *, bad: bool | None = None) -> Any:
            if bad:
                return Response(status_code=204, headers={"X-Now": "yesterday"})
            return server.Reply(None, server.GetClockHeaders(
                x_now=NOW, x_request_id=ID, x_day=NOW.date(), x_count=3))

    with serve(server.create_app(Service())) as base:
        yield base


def test_formatted_headers_travel_typed(pkg: Generated, url: str) -> None:
    with pkg.client.Client(url) as client:
        answer = client.get_clock_detailed()
    assert answer.raw_headers["x-now"] == "2026-01-02T03:04:05+00:00"
    assert answer.headers == pkg.client.GetClockHeaders(
        x_now=NOW, x_request_id=ID, x_day=NOW.date(), x_count=3)


def test_a_malformed_header_is_refused(pkg: Generated, url: str) -> None:
    with pkg.client.Client(url) as client, pytest.raises(ValidationError):
        client.get_clock_detailed(bad=True)
