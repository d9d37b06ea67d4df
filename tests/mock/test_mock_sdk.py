"""The `generate --sdk` client of a contract, driven against its mock as an SDK's own tests
would be before the service exists: create, read, page through, patch, delete, then its typed
404; every call over loopback HTTP."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import pytest
from contractgen.api import generate_sdk
from contractgen.mock import serving

BOOKS = Path(__file__).resolve().parent / "books.yaml"


@pytest.mark.slow
def test_the_sdk_runs_its_crud_against_the_mock(tmp_path: Path) -> None:
    generate_sdk(BOOKS, tmp_path / "sdk", package_name="books-mock-client")
    sys.path.insert(0, str(tmp_path / "sdk" / "src"))
    try:
        client_module = importlib.import_module("books_mock_client.client")
        models = importlib.import_module("books_mock_client.models")
        errors = importlib.import_module("books_mock_client.errors")
    finally:
        sys.path.remove(str(tmp_path / "sdk" / "src"))
    with serving(BOOKS) as url, client_module.Client(url, token="t") as client:
        made = [client.create_book(models.BookRequest(title=f"b{i}", genre="sf"))
                for i in range(5)]
        assert client.get_book(made[0].id).title == "b0"
        assert [b.title for b in client.list_books_iter(limit=2)] == [b.title for b in made]
        patched = client.update_book(made[1].id, models.BookPatch(genre=None, title="B1"))
        assert (patched.title, patched.genre) == ("B1", None)
        client.delete_book(made[0].id)
        with pytest.raises(errors.NotFound) as missing:
            client.get_book(made[0].id)
        assert missing.value.status_code == 404
