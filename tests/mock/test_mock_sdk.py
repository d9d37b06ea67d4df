"""The `generate --sdk` client of a contract, driven against its mock as an SDK's own tests
would be before the service exists: create, read, page through, patch, delete, then its typed
404; every call over loopback HTTP. Then the tests `generate --sdk` writes beside the client
(`tests/test_mock.py`), run by pytest in a subprocess as an SDK user runs them: green against
the mock of the contract the SDK ships, red when that mock answers otherwise than the client
was generated for; readable, ruff- and mypy-clean, the same bytes on every run."""

from __future__ import annotations

import importlib
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from contractgen.api import generate_sdk
from contractgen.errors import OwnershipError
from contractgen.mock import serving

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
BOOKS = HERE / "books.yaml"
OTARI = (ROOT / "specs" / "otari-code-execution.openapi.yaml",
         ROOT / "specs" / "otari-code-execution.overlay.yaml")


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


def _sdk(spec: Path, out: Path, name: str, overlay: Path | None = None) -> Path:
    from contractgen.options import Options

    generate_sdk(spec, out, Options(overlay=overlay), package_name=name)
    return out


def _pytest(sdk: Path) -> subprocess.CompletedProcess[str]:
    """The SDK's own tests, run from its folder as its user runs them (`pytest`)."""
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist",
         "-p", "no:randomly"], cwd=sdk, capture_output=True, text=True, timeout=600,
        check=False, env={k: v for k, v in os.environ.items() if k != "PYTEST_ADDOPTS"})


def _tests(sdk: Path) -> list[str]:
    return re.findall(r"^def (test_\w+)", (sdk / "tests" / "test_mock.py").read_text(), re.M)


@pytest.mark.slow
@pytest.mark.parametrize(("spec", "overlay", "crud"), [
    (BOOKS, None, ["test_crud_books", "test_crud_authors_authorid_notes"]),
    (*OTARI, []),  # a seed: no collection the mock keeps (a session has no GET by id)
    (ROOT / "tests" / "corpus" / "petstore_expanded.yaml", None, ["test_crud_pets"]),
], ids=["books", "otari", "petstore_expanded"])
def test_the_generated_sdk_tests_pass_against_the_mock(
        tmp_path: Path, spec: Path, overlay: Path | None, crud: list[str]) -> None:
    sdk = _sdk(spec, tmp_path / "sdk", "under-test-client", overlay)
    names = _tests(sdk)
    assert [n for n in names if n.startswith("test_crud_")] == crud
    assert len(names) > len(crud)  # and one per operation answering JSON
    ran = _pytest(sdk)
    assert ran.returncode == 0, ran.stdout[-3000:] + ran.stderr[-2000:]
    assert f"{len(names)} passed" in ran.stdout


def _retype(contract: Path, schema: str, field: str, kind: str) -> None:
    spec = json.loads(contract.read_text(encoding="utf-8"))
    spec["components"]["schemas"][schema]["properties"][field] = {"type": kind}
    contract.write_text(json.dumps(spec, indent=2), encoding="utf-8")


@pytest.mark.slow
def test_the_generated_sdk_tests_fail_when_the_mock_answers_otherwise(tmp_path: Path) -> None:
    """The mock serves the contract the SDK ships: changed after generation (Book's title an
    integer, what a service drifting from the contract would answer), the mock answers
    integers and the client generated for strings refuses them; the tests go red."""
    sdk = _sdk(BOOKS, tmp_path / "sdk", "drifted-client")
    _retype(sdk / "src" / "drifted_client" / "openapi.json", "Book", "title", "integer")
    ran = _pytest(sdk)
    assert ran.returncode == 1, ran.stdout[-3000:]
    failed = set(re.findall(r"^FAILED tests/test_mock\.py::(\w+)", ran.stdout, re.M))
    assert {"test_get_book", "test_create_book", "test_crud_books"} <= failed
    assert "test_get_profile" not in failed  # what still matches still passes
    assert "ResponseValidationError" in ran.stdout


@pytest.mark.slow
def test_the_generated_sdk_tests_are_lint_clean_and_the_same_on_every_run(
        tmp_path: Path) -> None:
    first = _sdk(BOOKS, tmp_path / "one", "books-client")
    second = _sdk(BOOKS, tmp_path / "two", "books-client")
    text = (first / "tests" / "test_mock.py").read_bytes()
    assert text == (second / "tests" / "test_mock.py").read_bytes()
    assert text.startswith(b"# Generated by contractgen ")
    bin_dir = Path(sys.executable).parent
    ruff = subprocess.run([bin_dir / "ruff", "check", "--config", ROOT / "pyproject.toml",
                           "tests"], cwd=first, capture_output=True, text=True, check=False)
    assert ruff.returncode == 0, ruff.stdout
    # contractgen as an installed package (the repo's is an editable install mypy cannot follow)
    (tmp_path / "path").mkdir()
    (tmp_path / "path" / "contractgen").symlink_to(ROOT / "generator")
    (tmp_path / "mypy.ini").write_text("[mypy]\nstrict = True\nplugins = pydantic.mypy\n"
                                       "[mypy-contractgen.*]\nfollow_imports = silent\n")
    mypy = subprocess.run(
        [bin_dir / "mypy", "--config-file", tmp_path / "mypy.ini", "--cache-dir",
         tmp_path / "mypy-cache", "tests"], cwd=first, capture_output=True, text=True,
        check=False, env={**os.environ, "MYPYPATH": f"{tmp_path / 'path'}:{first / 'src'}"})
    assert mypy.returncode == 0, mypy.stdout


def test_the_sdk_never_overwrites_tests_it_did_not_write(tmp_path: Path) -> None:
    mine = tmp_path / "sdk" / "tests" / "test_mock.py"
    mine.parent.mkdir(parents=True)
    mine.write_text("def test_mine() -> None:\n    pass\n", encoding="utf-8")
    with pytest.raises(OwnershipError):
        generate_sdk(BOOKS, tmp_path / "sdk", package_name="books-client")
    assert mine.read_text(encoding="utf-8") == "def test_mine() -> None:\n    pass\n"
