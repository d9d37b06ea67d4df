"""Settings from the environment and the command line."""

from __future__ import annotations

from pathlib import Path

import pytest
from tpmjs_executor.app import parse_args
from tpmjs_executor.config import Settings


def test_environment_overrides_defaults() -> None:
    settings = Settings.from_env(
        {
            "npm_config_registry": "http://127.0.0.1:1/",
            "EXECUTOR_EXECUTION_TIMEOUT_MS": "60000",
            "EXECUTOR_NETWORK": "off",
            "EXECUTOR_LEGACY_ERRORS": "1",
            "EXECUTOR_STORE_DIR": "/tmp/somewhere",
            "EXECUTOR_RESOLVE_TTL_S": "2.5",
            "EXECUTOR_API_KEY": "sekrit-7f3a",
            "EXECUTOR_ISOLATION": "process",
        }
    )
    assert settings.registry == "http://127.0.0.1:1/"
    assert settings.execution_timeout_ms == 60000
    assert settings.network is False and settings.legacy_errors is True
    assert settings.store_dir == Path("/tmp/somewhere") and settings.resolve_ttl_s == 2.5
    assert settings.api_key == "sekrit-7f3a" and "sekrit" not in repr(settings)
    assert Settings.from_env({}).execution_timeout_ms == 120_000


def test_flags_override_the_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    key_file = tmp_path / "key"
    key_file.write_text("from-file\n")
    monkeypatch.setenv("EXECUTOR_EXECUTION_TIMEOUT_MS", "60000")
    monkeypatch.setenv("EXECUTOR_API_KEY", "from-env")
    args, settings = parse_args(
        ["--port", "0", "--registry", "http://r/", "--execution-timeout-ms", "5000",
         "--no-network", "--isolation", "bwrap", "--api-key-file", str(key_file), "--pool-size", "0"]
    )  # fmt: skip
    assert args.port == 0
    assert settings.registry == "http://r/" and settings.execution_timeout_ms == 5000
    assert settings.network is False and settings.isolation == "bwrap" and settings.pool_size == 0
    assert settings.api_key == "from-file"
    _, plain = parse_args([])
    assert plain.api_key == "from-env" and plain.execution_timeout_ms == 60000


@pytest.mark.parametrize(
    "changes",
    [{"isolation": "vm"}, {"execution_timeout_ms": 999}, {"max_body_bytes": 100}, {"memory_mb": 0}],
)
def test_invalid_settings_are_refused(changes: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        Settings(**changes)  # type: ignore[arg-type]
