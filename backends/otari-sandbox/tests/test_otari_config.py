"""Only the operator configures the service: its ``SANDBOX_*`` variables and its flags (flags win),
never a field's bare name (ISOLATION, NETWORK, PYTHON, AUTH_TOKEN... are common in a host's or a CI
job's environment and were not meant for us)."""

from __future__ import annotations

import os
from typing import Any

import httpx
import pytest
from otari_sandbox.app import parse_args
from otari_sandbox.config import Settings, env_names
from otari_support import Service
from pydantic import ValidationError

# Candidate values a bare variable could carry; each field gets the first valid one that differs.
CANDIDATES = ("none", "1", "0", "7", "100", "/tmp/elsewhere", "x")


def _changing_value(field: str) -> str:
    default = Settings().model_dump()[field]
    for value in CANDIDATES:
        try:
            if getattr(Settings(**{field: value}), field) != default:
                return value
        except ValidationError:
            continue
    raise AssertionError(f"no candidate changes {field}")


def bare_names() -> list[tuple[str, str]]:
    """Every field's bare name, upper and lower case, with a value that would change it."""
    return [(spelling, field) for field in Settings.model_fields for spelling in (field.upper(), field)]


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for var in list(os.environ):
        if var.upper().startswith("SANDBOX_") or var.lower() in Settings.model_fields:
            monkeypatch.delenv(var)


@pytest.mark.parametrize(("name", "field"), bare_names())
def test_a_bare_name_in_the_environment_changes_nothing(
    monkeypatch: pytest.MonkeyPatch, name: str, field: str
) -> None:
    baseline = Settings().model_dump()
    monkeypatch.setenv(name, _changing_value(field))
    assert Settings().model_dump() == baseline
    assert parse_args([])[1].model_dump() == baseline


def test_all_bare_names_at_once_and_a_blank_auth_token_change_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    baseline = Settings().model_dump()
    for name, field in bare_names():
        monkeypatch.setenv(name, _changing_value(field))
    monkeypatch.setenv("AUTH_TOKEN", "")
    monkeypatch.setenv("auth_token", " ")
    assert Settings().model_dump() == baseline
    settings = parse_args(["--pool-size", "2"])[1]
    assert settings.model_dump() == {**baseline, "pool_size": 2}
    assert settings.isolation == "bwrap" and settings.network is False and settings.auth_token is None


def test_the_declared_variables_configure_it_and_flags_win(monkeypatch: pytest.MonkeyPatch) -> None:
    declared: dict[str, Any] = {"SANDBOX_POOL_SIZE": "3", "SANDBOX_MAX_SESSIONS": "9",
                                "SANDBOX_NETWORK": "1", "SANDBOX_AUTH_TOKEN": "t0k3n"}
    for var, value in declared.items():
        monkeypatch.setenv(var, value)
    settings = Settings()
    assert (settings.pool_size, settings.capacity, settings.network) == (3, 9, True)
    assert settings.auth_token == "t0k3n" and "t0k3n" not in repr(settings)
    _, flagged = parse_args(["--pool-size", "1", "--max-sessions", "2", "--no-network"])
    assert (flagged.pool_size, flagged.capacity, flagged.network) == (1, 2, False)
    assert all(var.startswith("SANDBOX_") for var in env_names())
    # Exact names only: a lower-case spelling of a declared variable is not ours either.
    monkeypatch.setenv("sandbox_isolation", "none")
    assert Settings().isolation == "bwrap"


@pytest.mark.slow  # starts the real command and runs code in a sandbox
def test_the_started_service_ignores_bare_names_and_reports_what_it_was_told() -> None:
    hostile = {"ISOLATION": "none", "NETWORK": "1", "PYTHON": "/bin/false", "AUTH_TOKEN": "",
               "POOL_SIZE": "0", "MAX_SESSIONS": "1", "CAPACITY": "1"}
    told = {"SANDBOX_AUTH_TOKEN": "s3cret-xyz", "SANDBOX_SESSION_IDLE_TIMEOUT": "60"}
    service = Service("--pool-size", "1", "--max-sessions", "3", env={**hostile, **told})
    auth = {"Authorization": "Bearer s3cret-xyz"}
    try:
        health = httpx.get(f"{service.url}/health").json()
        assert health["isolation"] == "bwrap" and health["max_sessions"] == 3
        assert health["limits"] == "cgroups"
        sid = httpx.post(f"{service.url}/sessions", headers=auth).json()["session_id"]
        ran = httpx.post(f"{service.url}/sessions/{sid}/exec", headers=auth, timeout=60, json={
            "tool": "code_execution", "input": {"code": "import sys; print(sys.executable)"}})
        assert ran.status_code == 200 and "/usr/bin/python3" in ran.text, ran.text
        reported = {line for line in service.output().splitlines() if " setting " in line}
    finally:
        service.stop()
    assert reported == {
        "otari-sandbox: setting pool_size=1 (from --pool-size)",
        "otari-sandbox: setting capacity=3 (from --max-sessions)",
        "otari-sandbox: setting idle_timeout_seconds=60 (from SANDBOX_SESSION_IDLE_TIMEOUT)",
        f"otari-sandbox: setting uid_base={service.uid_base} (from --uid-base)",
        "otari-sandbox: setting auth_token=*** (from SANDBOX_AUTH_TOKEN)",
    }
