"""Property-based conformance: schemathesis against the live service (its own contract,
served at /openapi.json), no server errors and every response matching its schema."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from otari_support import Service


@pytest.mark.slow
def test_schemathesis_finds_nothing() -> None:
    env = {"SANDBOX_SESSION_GC_INTERVAL": "1"}
    # Fuzzed CreateSession calls are never released: a short idle timeout recycles them.
    service = Service("--pool-size", "2", "--max-sessions", "64", "--idle-timeout", "3", env=env)
    try:
        cli = shutil.which("schemathesis", path=str(Path(sys.executable).parent)) or "schemathesis"
        run = subprocess.run(
            [
                cli, "run", f"{service.url}/openapi.json",
                "--checks", "not_a_server_error,response_schema_conformance",
                "--max-examples", "10", "--max-time", "25", "--request-timeout", "20",
                "--seed", "20261130", "--generation-database", "none", "--no-color",
            ],
            capture_output=True, text=True, timeout=120, check=False,
        )
        assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-2000:]
        assert "Traceback" not in service.output()
    finally:
        service.stop()
