"""Service configuration: one frozen pydantic-settings class, filled from ``SANDBOX_*``
variables; the command's flags are passed over them as init arguments (flags win).

Only the declared ``SANDBOX_*`` names are read (``DeclaredEnv``), never a field's bare name:
``ISOLATION=none`` or ``PYTHON=...`` in a host's environment was not meant for this service.
tpmjs-executor's config.py reads ``EXECUTOR_*`` the same way.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

from pydantic import Field, field_validator
from pydantic.fields import FieldInfo
from pydantic_settings import BaseSettings, PydanticBaseSettingsSource, SettingsConfigDict

Isolation = Literal["bwrap", "none"]

MIB = 1024 * 1024


def _env(name: str, default: Any = None, **extra: Any) -> Any:
    return Field(default, validation_alias=f"SANDBOX_{name}", **extra)


class Settings(BaseSettings):
    """Everything the runtime and the HTTP layer need to know; defaults match the reference.

    Each field is read from its ``SANDBOX_*`` variable (see ``env_names``); a field given by
    name when constructing wins over the environment.
    """

    model_config = SettingsConfigDict(frozen=True, populate_by_name=True, extra="forbid")

    workspace_root: Path | None = _env("WORKSPACE_ROOT")
    isolation: Isolation = _env("ISOLATION", "bwrap")
    network: bool = _env("NETWORK", False)
    python: str = _env("PYTHON", "/usr/bin/python3")
    bwrap: str = Field(
        default_factory=lambda: shutil.which("bwrap") or "/usr/bin/bwrap", validation_alias="SANDBOX_BWRAP"
    )
    pool_size: int = _env("POOL_SIZE", 4, ge=0)
    refill_delay_seconds: float = _env("POOL_REFILL_DELAY", 0.1)
    capacity: int = _env("MAX_SESSIONS", 256, ge=1)
    idle_timeout_seconds: int = _env("SESSION_IDLE_TIMEOUT", 900)
    max_lifetime_seconds: int = _env("SESSION_MAX_LIFETIME", 7200)
    reap_interval_seconds: float = _env("SESSION_GC_INTERVAL", 10.0)
    default_timeout_seconds: int = 30
    max_timeout_seconds: int = _env("MAX_TIMEOUT", 120)
    # How long past its deadline an unresponsive interpreter gets before it is killed.
    kill_grace_seconds: float = 1.0
    output_cap_bytes: int = _env("RUNNER_MAX_OUTPUT_BYTES", MIB)
    max_upload_bytes: int = _env("MAX_UPLOAD_BYTES", 100 * 1000 * 1000)
    # Every other request body (JSON): refused past this before it is parsed.
    max_body_bytes: int = _env("MAX_BODY_BYTES", 4 * MIB)
    memory_mb: int = _env("RUNNER_MEMORY_MB", 1536)
    nproc: int = _env("RUNNER_NPROC", 256)
    fsize_mb: int = _env("RUNNER_FSIZE_MB", 256)
    open_files: int = _env("RUNNER_NOFILE", 1024)
    cpu_seconds: int = _env("RUNNER_CPU_SECONDS", 120)
    # With cgroups: a sandbox's CPU rate (1 CPU over a call of at most 120 s is at most 120
    # CPU-seconds for all its processes together) and all sandboxes' memory together (0: 3/4
    # of the memory the service may use).
    cpus: float = _env("RUNNER_CPUS", 1.0, ge=0)
    total_memory_mb: int = _env("TOTAL_MEMORY_MB", 0, ge=0)
    tmp_mb: int = _env("TMP_MB", 512)
    # Disk quotas (when the service may mount, i.e. root): each workspace and each sandbox's
    # /tmp + /dev/shm is a tmpfs of this many MiB and inodes (0 MiB: workspaces on the host's
    # disk, unbounded). tmpfs pages count toward the session's memory cap.
    workspace_mb: int = _env("WORKSPACE_MB", 1024, ge=0)
    workspace_inodes: int = _env("WORKSPACE_INODES", 65536, ge=16)
    tmp_inodes: int = _env("TMP_INODES", 16384, ge=16)
    # Each sandbox runs under a host uid of its own, uid_base + slot, when the service is root.
    uid_base: int = _env("UID_BASE", 200_000)
    # Cap memory and processes per sandbox with cgroups when the machine allows it.
    cgroups: bool = _env("CGROUPS", True)
    auth_token: str | None = _env("AUTH_TOKEN", repr=False)
    # Without a token: Host names served besides loopback ones (comma-separated; * = any).
    allowed_hosts: str = _env("ALLOWED_HOSTS", "")
    # Without a token, a non-loopback --host is refused unless this is set.
    public_without_auth: bool = _env("PUBLIC_WITHOUT_AUTH", False)

    @field_validator("auth_token")
    @classmethod
    def _no_blank_token(cls, value: str | None) -> str | None:
        # An empty token must not silently mean "no authentication".
        if value is not None and not value.strip():
            raise ValueError("SANDBOX_AUTH_TOKEN is set but blank; unset it to run without auth")
        return value

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        # Init arguments (the flags) first, so they win; pydantic-settings' own env source is
        # not used: with populate_by_name it also reads each field's bare name.
        return init_settings, DeclaredEnv(settings_cls)

    def with_overrides(self, **changes: object) -> Settings:
        """A copy with some fields replaced."""
        return self.model_copy(update=changes)

    # -- past one host (deploy/README.md) --------------------------------------------------
    # This instance's stable name (a StatefulSet pod's name): its session ids carry it, so a
    # proxy routes each session to the instance holding it without a lookup (instance.py).
    instance: str | None = _env("INSTANCE")
    # On SIGTERM: no new sessions, calls in flight get up to this long to finish (drain.py).
    drain_seconds: float = _env("DRAIN_SECONDS", 30.0, ge=0)

    @field_validator("instance")
    @classmethod
    def _instance_name(cls, value: str | None) -> str | None:
        from .instance import check_instance_name

        return check_instance_name(value)


def env_names() -> dict[str, str]:
    """Environment variable -> Settings field."""
    return {
        str(info.validation_alias): name
        for name, info in Settings.model_fields.items()
        if isinstance(info.validation_alias, str)
    }


def changed_settings(settings: Settings, flags: Mapping[str, str]) -> list[str]:
    """One line per setting that differs from its default, with where it came from (the flag
    in ``flags``, field -> flag, else its variable); a secret (``repr=False``) is masked.

    tpmjs-executor's config.py has the same function over its own Settings: the two backends
    are installed apart and share no package.
    """
    lines = []
    for name, info in Settings.model_fields.items():
        value = getattr(settings, name)
        if value == info.get_default(call_default_factory=True):
            continue
        var = str(info.validation_alias)
        origin = flags.get(name) or (var if var in os.environ else "default")
        lines.append(f"{name}={'***' if not info.repr else value} (from {origin})")
    return lines


class DeclaredEnv(PydanticBaseSettingsSource):
    """The environment under the declared variable names only (exact case), keyed by them."""

    def get_field_value(self, field: FieldInfo, field_name: str) -> tuple[Any, str, bool]:
        """Unused: ``__call__`` reads every variable at once."""
        return None, field_name, False

    def __call__(self) -> dict[str, Any]:
        return {var: os.environ[var] for var in env_names() if var in os.environ}
