"""Settings from the environment and the command line (pydantic-settings), and refusals to
start: invalid values, an empty API key, no key beyond loopback."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
from pydantic import ValidationError
from tpmjs_executor.app import parse_args
from tpmjs_executor.config import ENV_VARS, RETIRED_VARS, Settings
from tpmjs_support.process import ExecutorProcess


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """No EXECUTOR_* or npm registry variable from the outside leaks into these tests."""
    for var in list(os.environ):
        if var.upper().startswith(("EXECUTOR_", "NPM_CONFIG_REGISTRY")):
            monkeypatch.delenv(var)


def test_environment_overrides_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    for var, value in {
        "npm_config_registry": "http://127.0.0.1:1/",
        "EXECUTOR_EXECUTION_TIMEOUT_S": "60",
        "EXECUTOR_NETWORK": "off",
        "EXECUTOR_LEGACY_ERRORS": "1",
        "EXECUTOR_STORE_DIR": "/tmp/somewhere",
        "EXECUTOR_RESOLVE_TTL_S": "2.5",
        "EXECUTOR_API_KEY": "sekrit-7f3a",
        "EXECUTOR_ISOLATION": "process",
        "EXECUTOR_INSTALL_SLOT_HOLD_S": "0.7",
    }.items():
        monkeypatch.setenv(var, value)
    settings = Settings()
    assert settings.registry == "http://127.0.0.1:1/"
    assert settings.execution_timeout_s == 60
    assert settings.network is False and settings.legacy_errors is True
    assert settings.store_dir == Path("/tmp/somewhere") and settings.resolve_ttl_s == 2.5
    assert settings.api_key == "sekrit-7f3a" and "sekrit" not in repr(settings)
    assert settings.isolation == "process" and settings.install_slot_hold_s == 0.7
    monkeypatch.setenv("EXECUTOR_REGISTRY", "http://127.0.0.1:2/")
    assert Settings().registry == "http://127.0.0.1:2/"  # ours wins over npm's


@pytest.mark.parametrize("old", sorted(RETIRED_VARS))
def test_a_retired_milliseconds_variable_refuses_to_start(
    monkeypatch: pytest.MonkeyPatch, old: str
) -> None:
    monkeypatch.setenv(old, "60000")
    with pytest.raises(ValueError, match=f"{old} is no longer read: set {RETIRED_VARS[old]}"):
        Settings()


def test_defaults_and_names_are_kept() -> None:
    settings = Settings()
    assert settings.execution_timeout_s == 120 and settings.registry.startswith("https://")
    assert settings.api_key is None and settings.allow_unauthenticated is False
    # Every field is EXECUTOR_<FIELD>, as before.
    assert ENV_VARS["EXECUTOR_MAX_BODY_BYTES"] == "max_body_bytes"
    assert ENV_VARS["EXECUTOR_API_KEY"] == "api_key"
    assert ENV_VARS["npm_config_registry"] == "registry"


def test_flags_override_the_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    key_file = tmp_path / "key"
    key_file.write_text("from-file\n")
    monkeypatch.setenv("EXECUTOR_EXECUTION_TIMEOUT_S", "60")
    monkeypatch.setenv("EXECUTOR_API_KEY", "from-env")
    args, settings = parse_args(
        ["--port", "0", "--registry", "http://r/", "--execution-timeout-s", "5",
         "--no-network", "--isolation", "bwrap", "--api-key-file", str(key_file), "--pool-size", "0",
         "--install-max-files", "10", "--allow-unauthenticated"]
    )  # fmt: skip
    assert args.port == 0
    assert settings.registry == "http://r/" and settings.execution_timeout_s == 5
    assert settings.network is False and settings.isolation == "bwrap" and settings.pool_size == 0
    assert settings.api_key == "from-file" and settings.install_max_files == 10
    assert settings.allow_unauthenticated is True
    _, plain = parse_args([])
    assert plain.api_key == "from-env" and plain.execution_timeout_s == 60


@pytest.mark.parametrize(
    "changes",
    [
        {"isolation": "vm"},
        {"execution_timeout_s": 0.999},
        {"max_body_bytes": 100},
        {"memory_mb": 0},
        {"registry": "file:///etc/"},
        {"api_key": " \n"},
        {"install_max_bytes": -1},
    ],
)
def test_invalid_settings_are_refused(changes: dict[str, object]) -> None:
    with pytest.raises(ValidationError):
        Settings(**changes)  # type: ignore[arg-type]
    with pytest.raises(ValidationError):
        Settings().with_overrides(**changes)


def _start(args: list[str], **env: str) -> subprocess.CompletedProcess[str]:
    """Run the real command; every case here must refuse to start, so it returns at once."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith("EXECUTOR_")}
    return subprocess.run(
        [sys.executable, "-m", "tpmjs_executor.app", *args],
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


@pytest.mark.slow  # each case starts the real command (imports FastAPI, uvicorn...)
@pytest.mark.parametrize(
    ("args", "env", "fragment"),
    [
        (
            ["--host", "0.0.0.0", "--port", "0"],
            {},
            "refusing to listen on 0.0.0.0 without an API key",
        ),
        (["--port", "0"], {"EXECUTOR_API_KEY": "   "}, "set but empty"),
        (["--port", "0"], {"EXECUTOR_MAX_QUEUE": "lots"}, "max_queue"),
        (["--port", "0"], {"EXECUTOR_FETCH_TIMEOUT_MS": "1000"}, "set EXECUTOR_FETCH_TIMEOUT_S"),
    ],
)
def test_the_command_refuses_to_start(
    args: list[str], env: dict[str, str], fragment: str, tmp_path: Path
) -> None:
    done = _start([*args, "--store-dir", str(tmp_path)], **env)
    assert done.returncode == 2  # as otari-sandbox's refusals
    assert fragment in done.stderr, done.stderr
    assert "Traceback" not in done.stderr


# Candidate values a bare variable could carry; each field gets the first valid one that differs.
CANDIDATES = ("process", "0", "1", "1500", "http://127.0.0.1:9/", "/tmp/elsewhere", "10.0.0.0/8", "x")


def _changing_value(field: str) -> str:
    default = Settings().model_dump()[field]
    for value in CANDIDATES:
        try:
            if getattr(Settings(**{field: value}), field) != default:
                return value
        except ValidationError:
            continue
    raise AssertionError(f"no candidate changes {field}")


def _bare_names() -> list[tuple[str, str]]:
    return [(spelling, field) for field in Settings.model_fields for spelling in (field.upper(), field)]


@pytest.mark.parametrize(("name", "field"), _bare_names())
def test_a_bare_name_in_the_environment_changes_nothing(
    monkeypatch: pytest.MonkeyPatch, name: str, field: str
) -> None:
    baseline = Settings().model_dump()
    monkeypatch.setenv(name, _changing_value(field))
    assert Settings().model_dump() == baseline
    assert parse_args([])[1].model_dump() == baseline


def test_only_declared_names_configure_it(monkeypatch: pytest.MonkeyPatch) -> None:
    baseline = Settings().model_dump()
    for name, field in _bare_names():
        monkeypatch.setenv(name, _changing_value(field))
    monkeypatch.setenv("API_KEY", "")
    monkeypatch.setenv("executor_isolation", "process")  # not the declared spelling
    assert Settings().model_dump() == baseline
    monkeypatch.setenv("NPM_CONFIG_REGISTRY", "http://127.0.0.1:3/")  # npm reads either case
    assert Settings().registry == "http://127.0.0.1:3/"
    assert all(var.startswith("EXECUTOR_") or var.lower() == "npm_config_registry" for var in ENV_VARS)


@pytest.mark.slow  # starts the real command
def test_the_started_service_ignores_bare_names_and_reports_what_it_was_told(tmp_path: Path) -> None:
    # Any of these, read, would refuse to start (invalid) or change what /info reports.
    hostile = {"ISOLATION": "vm", "API_KEY": " ", "MAX_QUEUE": "lots", "REGISTRY": "file:///etc/",
               "NAME": "hijacked", "NETWORK": "0", "store_dir": "/proc/nope"}
    told = {"EXECUTOR_API_KEY": "s3cret-xyz", "npm_config_registry": "http://127.0.0.1:9/"}
    env = {k: v for k, v in os.environ.items() if not k.upper().startswith(("EXECUTOR_", "NPM_CONFIG"))}
    store = tmp_path / "store"
    service = ExecutorProcess(["--store-dir", str(store), "--pool-size", "0"],
                              env={**env, **hostile, **told}, log=tmp_path / "log")
    try:
        info = httpx.get(service.url + "/info", headers={"Authorization": "Bearer s3cret-xyz"})
        assert info.status_code == 200 and "hijacked" not in json.dumps(info.json())
        reported = {line for line in service.log_text().splitlines() if " setting " in line}
    finally:
        service.stop()
    assert reported == {
        "tpmjs-executor: setting registry=http://127.0.0.1:9/ (from npm_config_registry)",
        f"tpmjs-executor: setting store_dir={store} (from --store-dir)",
        "tpmjs-executor: setting pool_size=0 (from --pool-size)",
        "tpmjs-executor: setting api_key=*** (from EXECUTOR_API_KEY)",
    }
