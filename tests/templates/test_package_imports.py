"""The generated package's `__init__` imports its parts on first use (PEP 562): a program that
only calls the service never imports FastAPI, one that only serves it never imports the client,
and the names it exports are the same objects, to Python and to mypy, as before."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from gen_support import OTARI_SPEC, ROOT, mypy_strict


@pytest.fixture(scope="module")
def package(tmp_path_factory: pytest.TempPathFactory) -> Path:
    import contractgen

    base = tmp_path_factory.mktemp("lazy")
    contractgen.generate(OTARI_SPEC, base / "lazy_otari")
    return base / "lazy_otari"


def loaded_after(package: Path, statement: str) -> dict[str, bool]:
    """Which heavy modules a fresh interpreter holds after `statement`."""
    probe = (f"{statement}\nimport json, sys\n"
             "print(json.dumps({name: name in sys.modules for name in "
             "('fastapi', 'starlette', 'httpx', 'lazy_otari.server', 'lazy_otari.client')}))")
    proc = subprocess.run([sys.executable, "-c", probe], cwd=package.parent, capture_output=True,
                          text=True, check=True)
    loaded: dict[str, bool] = json.loads(proc.stdout)
    return loaded


def test_the_client_alone_never_imports_the_server(package: Path) -> None:
    loaded = loaded_after(package, "from lazy_otari import Client, models")
    assert loaded["httpx"] and loaded["lazy_otari.client"]
    assert not (loaded["fastapi"] or loaded["starlette"] or loaded["lazy_otari.server"])


def test_the_server_alone_never_imports_the_client(package: Path) -> None:
    loaded = loaded_after(package, "from lazy_otari import ServiceBase, create_app")
    assert loaded["fastapi"] and loaded["lazy_otari.server"]
    assert not loaded["lazy_otari.client"]


def test_models_alone_import_neither(package: Path) -> None:
    loaded = loaded_after(package, "import lazy_otari.models")
    assert not any(loaded.values()), loaded


def test_exported_names_are_the_modules_objects(package: Path) -> None:
    probe = """
import lazy_otari
from lazy_otari import client, errors, models, server
assert lazy_otari.Client is client.Client and lazy_otari.AsyncClient is client.AsyncClient
assert lazy_otari.ServiceBase is server.ServiceBase and lazy_otari.create_app is server.create_app
assert lazy_otari.ApiError is errors.ApiError and lazy_otari.models is models
assert set(lazy_otari.__all__) <= set(dir(lazy_otari))
star = {}
exec("from lazy_otari import *", star)
assert {name for name in star if name != "__builtins__"} == set(lazy_otari.__all__)
try:
    lazy_otari.Nope
except AttributeError as exc:
    assert str(exc) == "module 'lazy_otari' has no attribute 'Nope'", exc
else:
    raise AssertionError("no AttributeError")
print("ok")
"""
    proc = subprocess.run([sys.executable, "-c", probe], cwd=package.parent, capture_output=True,
                          text=True, check=False)
    assert proc.stdout.strip() == "ok", proc.stderr



def test_what_a_caller_names_is_importable_from_the_root(package: Path, tmp_path: Path) -> None:
    # Retries, open enums and the webhook signer, from the package root (issue 38), and the
    # same objects as the private modules' that define them.
    import contractgen

    contractgen.generate(ROOT / "tests/corpus/webhooks_and_paths.yaml", tmp_path / "hooked")
    probe = """
import lazy_otari, hooked
from lazy_otari import NO_RETRY, Retry, UnknownMember, is_unknown
from lazy_otari._client_retry import Retry as retry
from lazy_otari._enums import UnknownMember as unknown
assert Retry is retry and UnknownMember is unknown and NO_RETRY == Retry(max_retries=0)
assert is_unknown(UnknownMember("x")) and not is_unknown("x")
from hooked import SignatureError, StandardWebhooks
from hooked._webhook_signing import StandardWebhooks as signer
assert StandardWebhooks is signer and issubclass(SignatureError, Exception)
assert {"Retry", "NO_RETRY", "UnknownMember", "is_unknown"} <= set(lazy_otari.__all__)
assert {"StandardWebhooks", "SignatureError"} <= set(hooked.__all__)
assert "StandardWebhooks" not in lazy_otari.__all__
print("ok")
"""
    (tmp_path / "lazy_otari").symlink_to(package, target_is_directory=True)
    proc = subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, capture_output=True,
                          text=True, check=False)
    assert proc.stdout.strip() == "ok", proc.stderr

@pytest.mark.slow
def test_mypy_sees_the_exported_names_and_nothing_else(package: Path) -> None:
    # The lazy `__getattr__` is hidden from type checkers: a typo is still an error.
    user = package.parent / "user_code.py"
    user.write_text(
        "import lazy_otari\n"
        "from lazy_otari import Client, ServiceBase, models\n\n"
        "client: Client = lazy_otari.Client('http://localhost')\n"
        "service: type[ServiceBase] = lazy_otari.ServiceBase\n"
        "kind: object = models\n"
        "lazy_otari.Clinet\n", encoding="utf-8")
    proc = mypy_strict(user)
    errors = [line for line in proc.stdout.splitlines() if ": error:" in line]
    assert len(errors) == 1 and 'has no attribute "Clinet"' in errors[0], proc.stdout
    assert errors[0].startswith("user_code.py:7:"), errors
