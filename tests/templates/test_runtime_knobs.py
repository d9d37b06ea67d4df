"""The generated runtime's knobs, over HTTP under uvicorn: credentials checked before the body
is read, `bearer_token` compared in constant time, `max_body_bytes` counted as the body streams
in, and the declared 4xx for requests refused before the service sees them."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from urllib.parse import urlsplit

import httpx
import pytest
from gen_support import Generated, serve

TOKEN = "s3cret-token"


def _app(features: Generated, **knobs: object) -> object:
    class Service(features.server.ServiceBase):  # type: ignore[name-defined,misc]
        async def upload(self, form: object) -> dict[str, object]:
            return {"name": "f", "size": 1}

    if "bearer_token" not in knobs and "verify_bearer" not in knobs:
        knobs["insecure_no_auth"] = True  # these tests are about the other knobs
    return features.server.create_app(Service(), **knobs)


def _head(url: str, request: bytes) -> bytes:
    """Send `request` (headers and part of a body) and read the answer's status line and
    headers; the connection stays open, so a server waiting for the rest of the body never
    answers (and the socket's timeout fails the test)."""
    where = urlsplit(url)
    with socket.create_connection((where.hostname, where.port), timeout=30) as sock:
        sock.sendall(request)
        reply = b""
        while b"\r\n\r\n" not in reply:
            chunk = sock.recv(4096)
            if not chunk:
                break
            reply += chunk
    return reply


def test_credentials_are_checked_before_the_body_is_read(features: Generated) -> None:
    with serve(_app(features, bearer_token=TOKEN)) as url:
        reply = _head(url, b"POST /items HTTP/1.1\r\nHost: test\r\n"
                           b"Content-Type: application/json\r\nContent-Length: 1000000\r\n\r\n{")
    assert reply.startswith(b"HTTP/1.1 401 ")
    assert b"www-authenticate: bearer" in reply.lower()


def test_bearer_token_accepts_exactly_that_credential(features: Generated) -> None:
    item = {"name": "x"}
    with serve(_app(features, bearer_token=TOKEN)) as url:
        assert httpx.post(url + "/items", json=item).status_code == 401
        wrong = httpx.post(url + "/items", json=item, headers={"Authorization": "Bearer s3cret"})
        assert wrong.status_code == 401
        right = httpx.post(url + "/items", json=item,
                           headers={"Authorization": f"Bearer {TOKEN}"})
        assert right.status_code == 501  # authenticated; the service does not implement it


def test_an_empty_bearer_token_refuses_to_start(features: Generated) -> None:
    with pytest.raises(ValueError, match="empty bearer token"):
        _app(features, bearer_token="")
    with pytest.raises(ValueError, match="not both"):
        _app(features, bearer_token=TOKEN, verify_bearer=lambda credential: True)


def test_a_declared_length_over_the_cap_is_refused_at_once(features: Generated) -> None:
    with serve(_app(features, max_body_bytes=100)) as url:
        reply = _head(url, b"POST /upload HTTP/1.1\r\nHost: test\r\n"
                           b"Content-Type: multipart/form-data; boundary=x\r\n"
                           b"Content-Length: 5000\r\n\r\n--x")
    assert reply.startswith(b"HTTP/1.1 413 ")


def test_a_streamed_body_is_cut_off_at_the_cap(features: Generated) -> None:
    def chunks() -> Iterator[bytes]:
        yield b"--x\r\nContent-Disposition: form-data; name=\"file\"; filename=\"f\"\r\n\r\n"
        for _ in range(100):
            yield b"y" * 1000

    with serve(_app(features, max_body_bytes=10_000)) as url:
        response = httpx.post(url + "/upload", content=chunks(),
                              headers={"Content-Type": "multipart/form-data; boundary=x"})
        assert response.status_code == 413  # /upload declares no 413 and no 400
        assert response.json() == {"detail": "Request body exceeds the 10000-byte limit"}
        small = httpx.post(url + "/upload", files={"file": ("f", b"small")})
        assert small.status_code == 201


def test_over_the_cap_an_operation_answers_its_declared_400(features: Generated) -> None:
    with serve(_app(features, max_body_bytes=100, bearer_token=TOKEN)) as url:
        response = httpx.post(url + "/items", json={"name": "x" * 1000},
                              headers={"Authorization": f"Bearer {TOKEN}"})
    assert response.status_code == 400
    assert features.models.Error.model_validate(response.json()).message == (
        "Request body exceeds the 100-byte limit")


def test_an_unknown_discriminator_value_is_the_declared_400(
    contracts: dict[str, Generated],
) -> None:
    otari = contracts["otari"]
    app = otari.server.create_app(otari.server.ServiceBase())
    with serve(app) as url:
        unknown = httpx.post(url + "/sessions/abc/exec", json={"tool": "web_search", "input": {}})
        invalid = httpx.post(url + "/sessions/abc/exec", json={"tool": "code_execution",
                                                               "input": {}})
    assert unknown.status_code == 400
    assert unknown.json() == {"detail": "unknown tool: web_search"}
    assert invalid.status_code == 422  # any other validation failure: the declared 422
