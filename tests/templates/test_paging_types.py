"""`<method>_iter` is written out: mypy --strict sees the operation's parameters,
`page_size` / `max_items` and the items' type on the sync and async clients, and rejects a
wrong type."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from gen_support import generate_package
from test_pagination import cut

GOOD = """
    from typing import Any

    from {pkg}.client import AsyncClient, Client


    def pages(client: Client) -> list[Any]:
        return list(client.get_users_iter(usemarker=True, page_size=2, max_items=3))


    def ids(client: Client) -> list[str | None]:
        return [user.id for user in client.get_users_iter()]


    async def apages(client: AsyncClient) -> int:
        seen = 0
        async for _ in client.get_users_iter(limit=5, page_size=None, max_items=10):
            seen += 1
        return seen
"""

BAD = """
    from {pkg}.client import AsyncClient, Client


    def pages(client: Client) -> None:
        client.get_users_iter(page_size="2")


    def apages(client: AsyncClient) -> None:
        client.get_users_iter(max_items=1.5)
        client.get_users_iter(page_sise=2)


    async def fields(client: AsyncClient) -> None:
        async for user in client.get_users_iter():
            print(user.no_such_field)
"""


def _mypy(base: Path, name: str, program: str) -> subprocess.CompletedProcess[str]:
    path = base / f"{name}.py"
    path.write_text(textwrap.dedent(program), encoding="utf-8")
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--cache-dir", str(base / ".mypy_cache"),
         path.name], cwd=base, capture_output=True, text=True, timeout=300, check=False)


@pytest.mark.slow
def test_iter_keywords_are_typed(tmp_path: Path) -> None:
    api = generate_package(cut("box.openapi.json.gz", ["/users"]), tmp_path)
    good = _mypy(tmp_path, "good", GOOD.format(pkg=api.name))
    assert good.returncode == 0, good.stdout + good.stderr
    bad = _mypy(tmp_path, "bad", BAD.format(pkg=api.name))
    assert bad.returncode == 1, bad.stdout + bad.stderr
    assert 'Argument "page_size" to "get_users_iter" of "Client" has incompatible type "str"' \
        in bad.stdout, bad.stdout
    assert 'Argument "max_items" to "get_users_iter" of "AsyncClient" has incompatible type ' \
        '"float"' in bad.stdout, bad.stdout
    assert 'Unexpected keyword argument "page_sise"' in bad.stdout, bad.stdout
    assert '"UserFull" has no attribute "no_such_field"' in bad.stdout, bad.stdout
