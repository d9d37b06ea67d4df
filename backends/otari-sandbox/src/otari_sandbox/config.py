"""Service configuration: one frozen dataclass, filled from flags and ``SANDBOX_*`` variables."""

from __future__ import annotations

import os
import shutil
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Literal

Isolation = Literal["bwrap", "none"]

MIB = 1024 * 1024


@dataclass(frozen=True)
class Config:
    """Everything the runtime and the HTTP layer need to know; defaults match the reference."""

    workspace_root: Path | None = None
    isolation: Isolation = "bwrap"
    network: bool = False
    python: str = "/usr/bin/python3"
    bwrap: str = field(default_factory=lambda: shutil.which("bwrap") or "/usr/bin/bwrap")
    pool_size: int = 4
    refill_delay_seconds: float = 0.1
    capacity: int = 256
    idle_timeout_seconds: int = 900
    max_lifetime_seconds: int = 7200
    reap_interval_seconds: float = 10.0
    default_timeout_seconds: int = 30
    max_timeout_seconds: int = 120
    # How long past its deadline an unresponsive interpreter gets before it is killed.
    kill_grace_seconds: float = 1.0
    output_cap_bytes: int = MIB
    max_upload_bytes: int = 100 * 1000 * 1000
    memory_mb: int = 1536
    nproc: int = 256
    fsize_mb: int = 256
    open_files: int = 1024
    cpu_seconds: int = 120
    tmp_mb: int = 512
    # Each sandbox runs under a host uid of its own, uid_base + slot, when the service is root.
    uid_base: int = 200_000
    # Cap memory and processes per sandbox with cgroups when the machine allows it.
    cgroups: bool = True
    auth_token: str | None = None

    def with_overrides(self, **changes: object) -> Config:
        """A copy with some fields replaced."""
        return replace(self, **changes)  # type: ignore[arg-type]


_ENV_NAMES: dict[str, str] = {
    "SANDBOX_WORKSPACE_ROOT": "workspace_root",
    "SANDBOX_ISOLATION": "isolation",
    "SANDBOX_NETWORK": "network",
    "SANDBOX_PYTHON": "python",
    "SANDBOX_BWRAP": "bwrap",
    "SANDBOX_POOL_SIZE": "pool_size",
    "SANDBOX_POOL_REFILL_DELAY": "refill_delay_seconds",
    "SANDBOX_MAX_SESSIONS": "capacity",
    "SANDBOX_SESSION_IDLE_TIMEOUT": "idle_timeout_seconds",
    "SANDBOX_SESSION_MAX_LIFETIME": "max_lifetime_seconds",
    "SANDBOX_SESSION_GC_INTERVAL": "reap_interval_seconds",
    "SANDBOX_MAX_TIMEOUT": "max_timeout_seconds",
    "SANDBOX_RUNNER_MAX_OUTPUT_BYTES": "output_cap_bytes",
    "SANDBOX_MAX_UPLOAD_BYTES": "max_upload_bytes",
    "SANDBOX_RUNNER_MEMORY_MB": "memory_mb",
    "SANDBOX_RUNNER_NPROC": "nproc",
    "SANDBOX_RUNNER_FSIZE_MB": "fsize_mb",
    "SANDBOX_RUNNER_NOFILE": "open_files",
    "SANDBOX_RUNNER_CPU_SECONDS": "cpu_seconds",
    "SANDBOX_TMP_MB": "tmp_mb",
    "SANDBOX_UID_BASE": "uid_base",
    "SANDBOX_CGROUPS": "cgroups",
    "SANDBOX_AUTH_TOKEN": "auth_token",
}


def env_names() -> dict[str, str]:
    """Environment variable -> Config field."""
    return dict(_ENV_NAMES)


def convert(name: str, raw: str) -> object:
    """Parse a string for the Config field ``name``."""
    kinds = {f.name: f.type for f in fields(Config)}
    kind = str(kinds[name])
    if name == "workspace_root":
        return Path(raw)
    if name == "isolation":
        if raw not in ("bwrap", "none"):
            raise ValueError(f"isolation must be 'bwrap' or 'none', not {raw!r}")
        return raw
    if kind == "bool":
        return raw.strip().lower() in ("1", "true", "yes", "on")
    if kind == "int":
        return int(raw)
    if kind == "float":
        return float(raw)
    return raw or None if name == "auth_token" else raw


def from_env(environ: Mapping[str, str] | None = None, base: Config | None = None) -> Config:
    """A Config with every ``SANDBOX_*`` variable that is set applied over ``base``."""
    environ = os.environ if environ is None else environ
    changes = {
        field_name: convert(field_name, environ[var])
        for var, field_name in sorted(_ENV_NAMES.items())
        if var in environ
    }
    return (base or Config()).with_overrides(**changes)
