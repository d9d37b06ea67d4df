"""`Options`: how a contract is generated, one record passed from the CLI, the config and `watch`
down to every stage of the pipeline (and into the fingerprint that keys a run's replay)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

PARTS = ("models", "server", "client")


@dataclass(frozen=True)
class ContractSettings:
    """What a target says of a contract its user does not own (`model.settings` applies it):
    `pagination`, operationId -> what `x-pagination` takes (as JSON text); `closed_enums`,
    names under `components/schemas` (enums and unions) kept closed as `x-enum-closed` does."""

    pagination: tuple[tuple[str, str], ...] = ()
    closed_enums: tuple[str, ...] = ()
    source: str = ""  # the configuration file, and the table that says them
    pointer: str = ""

    def key(self) -> list[Any]:
        """What a run's cache key holds of them (JSON)."""
        return [list(map(list, self.pagination)), list(self.closed_enums)]


@dataclass(frozen=True)
class Options:
    """Every choice the generated files depend on besides the contents of the input files."""

    overlay: Path | None = None  # an OpenAPI Overlay applied to the spec first
    parts: tuple[str, ...] = PARTS
    templates: Path | None = None  # a folder of template overrides
    lenient: bool = False  # operations with errors left out, errors turned into warnings
    # vendor extension -> a sentence documenting the operations that set it, in order
    extension_notes: tuple[tuple[str, str], ...] = ()
    root: Path | None = None  # paths in headers and messages are shown from here (default: cwd)
    # `pagination` and `closed_enums` of a target: x-pagination / x-enum-closed for a contract
    # its user does not own (`model.settings` applies them)
    settings: ContractSettings | None = None

    def __post_init__(self) -> None:
        # Spelled as callers have them (str paths, a list of parts, a dict of notes): one form.
        for name in ("overlay", "templates", "root"):
            value = getattr(self, name)
            if value is not None and not isinstance(value, Path):
                object.__setattr__(self, name, Path(value))
        object.__setattr__(self, "parts", tuple(self.parts))
        notes: Mapping[str, str] | Iterable[tuple[str, str]] = self.extension_notes
        items = notes.items() if isinstance(notes, Mapping) else notes
        object.__setattr__(self, "extension_notes", tuple((str(k), str(v)) for k, v in items))

    def but(self, **changes: Any) -> Options:
        """These options with some changed (`Options().but(parts=("client",))`)."""
        return replace(self, **changes) if changes else self
