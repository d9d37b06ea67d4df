"""Settings of the executor, from defaults, the environment (`EXECUTOR_*`) and the command line."""

from __future__ import annotations

import os
import shutil
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any, Literal

__all__ = ["ENV_VARS", "Isolation", "Settings", "default_store_dir"]

Isolation = Literal["auto", "bwrap", "process"]

MIB = 1024 * 1024


def default_store_dir() -> Path:
    """`$XDG_CACHE_HOME/tpmjs-executor`, else `~/.cache/tpmjs-executor`."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "tpmjs-executor"


@dataclass(frozen=True)
class Settings:
    """Everything the runtime and the HTTP layer can be told; defaults suit one small host."""

    registry: str = "https://registry.npmjs.org/"
    store_dir: Path = field(default_factory=default_store_dir)
    store_max_bytes: int = 2048 * MIB
    seed_dir: Path | None = None
    install_timeout_ms: int = 60_000
    install_concurrency: int = 2
    # An install gives its slot back after this long (it is then waiting on the network).
    install_slot_hold_ms: int = 5_000
    install_max_bytes: int = 512 * MIB
    install_max_files: int = 100_000
    fetch_timeout_ms: int = 30_000
    resolve_ttl_s: float = 60.0
    execution_timeout_ms: int = 120_000
    max_concurrency: int = 4
    max_queue: int = 32
    memory_mb: int = 512
    max_tasks: int = 256
    isolation: Isolation = "auto"
    network: bool = True
    pool_size: int = 2
    tmp_size_bytes: int = 256 * MIB
    max_output_bytes: int = 5 * MIB
    max_log_bytes: int = 64 * 1024
    max_body_bytes: int = 10 * MIB
    api_key: str | None = field(default=None, repr=False)
    legacy_errors: bool = False
    name: str = "contractgen TPMJS executor"
    region: str | None = None
    node: str = "node"
    npm: str = "npm"
    bwrap: str = "bwrap"

    def __post_init__(self) -> None:
        if self.isolation not in ("auto", "bwrap", "process"):
            raise ValueError(f"isolation must be auto, bwrap or process, not {self.isolation!r}")
        for name in ("execution_timeout_ms", "install_timeout_ms", "max_concurrency", "memory_mb"):
            if getattr(self, name) <= 0:
                raise ValueError(f"{name} must be positive")
        if self.max_body_bytes < 1024 or self.execution_timeout_ms < 1000:
            raise ValueError(
                "the protocol needs maxRequestBodyBytes >= 1024, maxExecutionTimeMs >= 1000"
            )

    def with_overrides(self, **changes: Any) -> Settings:
        """A copy with the given fields changed (None values are ignored)."""
        return replace(self, **{k: v for k, v in changes.items() if v is not None})

    def use_bwrap(self) -> bool:
        """Whether tools run under bubblewrap: `auto` means when bwrap is installed."""
        if self.isolation == "auto":
            return shutil.which(self.bwrap) is not None
        return self.isolation == "bwrap"

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Settings:
        """Settings from `EXECUTOR_*` variables (and npm_config_registry) over the defaults."""
        env = os.environ if environ is None else environ
        kinds = {f.name: f.type for f in fields(cls)}
        values: dict[str, Any] = {}
        for var, attr in ENV_VARS.items():
            raw = env.get(var)
            if raw is None or raw == "":
                continue
            kind = str(kinds[attr])
            if kind == "bool":
                values[attr] = raw.strip().lower() in ("1", "true", "yes", "on")
            elif kind == "int":
                values[attr] = int(raw)
            elif kind == "float":
                values[attr] = float(raw)
            elif "Path" in kind:
                values[attr] = Path(raw)
            else:
                values[attr] = raw
        return cls(**values)


# Environment variable -> Settings field. npm's own variable names the registry, as npm does.
ENV_VARS: dict[str, str] = {
    "npm_config_registry": "registry",
    "NPM_CONFIG_REGISTRY": "registry",
    "EXECUTOR_REGISTRY": "registry",
    "EXECUTOR_STORE_DIR": "store_dir",
    "EXECUTOR_STORE_MAX_BYTES": "store_max_bytes",
    "EXECUTOR_SEED_DIR": "seed_dir",
    "EXECUTOR_INSTALL_TIMEOUT_MS": "install_timeout_ms",
    "EXECUTOR_INSTALL_CONCURRENCY": "install_concurrency",
    "EXECUTOR_INSTALL_SLOT_HOLD_MS": "install_slot_hold_ms",
    "EXECUTOR_INSTALL_MAX_BYTES": "install_max_bytes",
    "EXECUTOR_INSTALL_MAX_FILES": "install_max_files",
    "EXECUTOR_FETCH_TIMEOUT_MS": "fetch_timeout_ms",
    "EXECUTOR_RESOLVE_TTL_S": "resolve_ttl_s",
    "EXECUTOR_EXECUTION_TIMEOUT_MS": "execution_timeout_ms",
    "EXECUTOR_MAX_CONCURRENCY": "max_concurrency",
    "EXECUTOR_MAX_QUEUE": "max_queue",
    "EXECUTOR_MEMORY_MB": "memory_mb",
    "EXECUTOR_MAX_TASKS": "max_tasks",
    "EXECUTOR_ISOLATION": "isolation",
    "EXECUTOR_NETWORK": "network",
    "EXECUTOR_POOL_SIZE": "pool_size",
    "EXECUTOR_TMP_SIZE_BYTES": "tmp_size_bytes",
    "EXECUTOR_MAX_OUTPUT_BYTES": "max_output_bytes",
    "EXECUTOR_MAX_LOG_BYTES": "max_log_bytes",
    "EXECUTOR_MAX_BODY_BYTES": "max_body_bytes",
    "EXECUTOR_API_KEY": "api_key",
    "EXECUTOR_LEGACY_ERRORS": "legacy_errors",
    "EXECUTOR_NAME": "name",
    "EXECUTOR_REGION": "region",
    "EXECUTOR_NODE": "node",
    "EXECUTOR_NPM": "npm",
    "EXECUTOR_BWRAP": "bwrap",
}
