"""Settings of the executor: defaults, then the environment (`EXECUTOR_*`), then the command line.

`Settings` is a pydantic-settings model: constructing it reads `EXECUTOR_<FIELD>` variables
(and npm's own `npm_config_registry` for the registry), keyword arguments win over them, and
every value is validated. Only the names in ENV_VARS are read (`DeclaredEnv`), in exact case,
never a field's bare name; otari-sandbox's config.py reads its `SANDBOX_*` names the same way. The command line (app.parse_args) passes its flags as keyword
arguments. An API key that is set but empty is an error, never "no authentication".
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

from pydantic import Field, ValidationError, field_validator, model_validator
from pydantic.fields import FieldInfo
from pydantic_settings import BaseSettings, PydanticBaseSettingsSource, SettingsConfigDict

from .network import parse_networks

__all__ = [
    "ENV_VARS", "Isolation", "Settings", "changed_settings", "default_store_dir", "settings_error"
]

Isolation = Literal["auto", "bwrap", "process"]

MIB = 1024 * 1024


def default_store_dir() -> Path:
    """`$XDG_CACHE_HOME/tpmjs-executor`, else `~/.cache/tpmjs-executor`."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "tpmjs-executor"


class Settings(BaseSettings):
    """Everything the runtime and the HTTP layer can be told; defaults suit one small host."""

    model_config = SettingsConfigDict(
        env_prefix="EXECUTOR_", frozen=True, extra="forbid", validate_default=True
    )

    registry: str = "https://registry.npmjs.org/"
    store_dir: Path = Field(default_factory=default_store_dir)
    store_max_bytes: int = Field(2048 * MIB, gt=0)
    seed_dir: Path | None = None
    install_timeout_s: float = Field(60.0, gt=0)
    install_concurrency: int = Field(2, gt=0)
    # An install gives its slot back after this long (it is then waiting on the network).
    install_slot_hold_s: float = Field(5.0, gt=0)
    install_max_bytes: int = Field(512 * MIB, gt=0)
    install_max_files: int = Field(100_000, gt=0)
    fetch_timeout_s: float = Field(30.0, gt=0)
    resolve_ttl_s: float = Field(60.0, ge=0)
    execution_timeout_s: float = Field(120.0, ge=1.0)  # the protocol's minimum (1000 ms)
    max_concurrency: int = Field(4, gt=0)
    max_queue: int = Field(32, ge=0)
    memory_mb: int = Field(512, gt=0)
    max_tasks: int = Field(256, gt=0)
    isolation: Isolation = "auto"
    # A cgroup per run caps its memory and tasks together; without usable cgroups the service
    # refuses to start unless this is off (EXECUTOR_CGROUPS=0, --no-cgroups): rlimits per
    # process only, an operator's explicit choice.
    cgroups: bool = True
    network: bool = True
    # IPv4 ranges (comma-separated CIDRs) a tool may reach despite the deny-list, and more to
    # deny (network.py).
    network_allow: str = ""
    network_deny: str = ""
    pool_size: int = Field(2, ge=0)
    tmp_size_bytes: int = Field(256 * MIB, gt=0)
    max_output_bytes: int = Field(5 * MIB, gt=0)
    max_log_bytes: int = Field(64 * 1024, gt=0)
    max_body_bytes: int = Field(10 * MIB, ge=1024)  # the protocol's minimum
    api_key: str | None = Field(None, repr=False)
    # Without an API key the service listens on loopback only, unless this is set.
    allow_unauthenticated: bool = False
    legacy_errors: bool = False
    name: str = "contractgen TPMJS executor"
    region: str | None = None
    node: str = "node"
    npm: str = "npm"
    bwrap: str = "bwrap"

    @field_validator("api_key", mode="before")
    @classmethod
    def _no_empty_key(cls, value: Any) -> Any:
        if isinstance(value, str):
            if not value.strip():
                raise ValueError(
                    "the API key is set but empty (unset EXECUTOR_API_KEY to run without one)"
                )
            return value.strip()
        return value

    @field_validator("seed_dir", "region", mode="before")
    @classmethod
    def _empty_is_none(cls, value: Any) -> Any:
        return None if value == "" else value

    @field_validator("network_allow", "network_deny")
    @classmethod
    def _networks(cls, value: str) -> str:
        return ",".join(str(net) for net in parse_networks(value))

    @model_validator(mode="after")
    def _registry_url(self) -> Settings:
        if not self.registry.startswith(("http://", "https://")):
            raise ValueError(f"registry must be an http(s) URL, not {self.registry!r}")
        return self

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        # Keyword arguments (the flags) first, so they win over the environment.
        return init_settings, DeclaredEnv(settings_cls)

    def with_overrides(self, **changes: Any) -> Settings:
        """A validated copy with the given fields changed (None values are ignored); the
        environment is not read again."""
        values = {**self.model_dump(), **{k: v for k, v in changes.items() if v is not None}}
        return type(self).model_validate(values)


def settings_error(exc: ValidationError) -> str:
    """One line per problem, naming the setting, for a refusal to start."""
    return "; ".join(
        f"{'.'.join(str(p) for p in err['loc']) or 'settings'}: {err['msg']}"
        for err in exc.errors()
    )


# Environment variable -> Settings field, the first of two naming one field winning: every
# field reads EXECUTOR_<FIELD>; npm's own variable names the registry too, as npm reads it.
ENV_VARS: dict[str, str] = {
    **{f"EXECUTOR_{name.upper()}": name for name in Settings.model_fields},
    "npm_config_registry": "registry",
    "NPM_CONFIG_REGISTRY": "registry",
}


def changed_settings(settings: Settings, flags: Mapping[str, str]) -> list[str]:
    """One line per setting that differs from its default, with where it came from (the flag
    in `flags`, field -> flag, else the variable that set it); a secret (`repr=False`) is masked.

    otari-sandbox's config.py has the same function over its own Settings: the two backends
    are installed apart and share no package.
    """
    variables: dict[str, str] = {}
    for var, field in ENV_VARS.items():
        if var in os.environ:
            variables.setdefault(field, var)
    lines = []
    for name, info in Settings.model_fields.items():
        value = getattr(settings, name)
        if value == info.get_default(call_default_factory=True):
            continue
        origin = flags.get(name) or variables.get(name, "default")
        lines.append(f"{name}={'***' if not info.repr else value} (from {origin})")
    return lines

# Durations were milliseconds here and seconds in otari-sandbox; both say seconds now. A
# variable of the old names refuses to start rather than being ignored.
RETIRED_VARS = {
    f"EXECUTOR_{name}_MS": f"EXECUTOR_{name}_S"
    for name in ("INSTALL_TIMEOUT", "INSTALL_SLOT_HOLD", "FETCH_TIMEOUT", "EXECUTION_TIMEOUT")
}


class DeclaredEnv(PydanticBaseSettingsSource):
    """The environment under the names of ENV_VARS only (exact case), keyed by field."""

    def get_field_value(self, field: FieldInfo, field_name: str) -> tuple[Any, str, bool]:
        """Unused: ``__call__`` reads every variable at once."""
        return None, field_name, False

    def __call__(self) -> dict[str, Any]:
        for old, new in sorted(RETIRED_VARS.items()):
            if old in os.environ:
                raise ValueError(f"{old} is no longer read: set {new}, in seconds")
        values: dict[str, Any] = {}
        for var, field in ENV_VARS.items():
            if var in os.environ:
                values.setdefault(field, os.environ[var])
        return values
