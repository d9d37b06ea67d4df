"""otari-sandbox's command behind the front door (api/_serving.py): a real service on loopback."""

from __future__ import annotations

import socket
from collections.abc import Iterator

import httpx
import pytest
from otari_support import Service


@pytest.fixture(scope="module")
def anonymous() -> Iterator[Service]:
    svc = Service("--pool-size", "1", "--max-sessions", "1")
    yield svc
    svc.stop()


def test_without_a_token_only_loopback_names_and_pages_get_in(anonymous: Service) -> None:
    assert httpx.get(f"{anonymous.url}/health").status_code == 200
    rebound = httpx.get(f"{anonymous.url}/health", headers={"Host": "evil.example"})
    assert rebound.status_code == 403
    page = {"Origin": "http://evil.example", "Content-Type": "text/plain"}
    assert httpx.post(f"{anonymous.url}/sessions", headers=page, content="{}").status_code == 403
    assert "NO AUTHENTICATION" in anonymous.output()


def test_an_oversized_head_is_431_before_anything_else(anonymous: Service) -> None:
    with socket.create_connection(("127.0.0.1", anonymous.port), timeout=60) as sock:
        sock.sendall(b"POST /sessions HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + b"a" * (1 << 20))
        assert sock.recv(100).startswith(b"HTTP/1.1 431")
