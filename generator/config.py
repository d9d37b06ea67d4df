"""`[tool.contractgen]` in pyproject.toml: the targets `generate` and `check` walk."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from .errors import EXIT_USAGE
from .options import PARTS, ContractSettings, Options
from .problems import SpecError

REGEN_COMMAND = "contractgen generate"


class NoConfigError(SpecError):
    """No `[tool.contractgen]` to read: a usage error (exit 2), not a problem of a contract."""

    exit_code: ClassVar[int] = EXIT_USAGE


@dataclass(frozen=True)
class Target:
    """One spec generated into one package directory, with its options."""

    root: Path  # the directory of the pyproject.toml that declared it
    spec: str  # relative to root, as written
    out: str
    options: Options = field(default_factory=Options)  # its paths resolved from root, which is also its display root
    implementation: str | None = None  # "module:Class" overriding ServiceBase, for `check`
    # What regenerates it, as the drift message names it (`regen_command`, say `make regen`).
    regen_command: str = REGEN_COMMAND

    @property
    def spec_path(self) -> Path:
        return self.root / self.spec

    @property
    def out_path(self) -> Path:
        return self.root / self.out


def find_config(start: Path | None = None) -> Path | None:
    """The nearest pyproject.toml at or above `start` that has a [tool.contractgen] table."""
    here = (start or Path.cwd()).resolve()
    for folder in (here, *here.parents):
        candidate = folder / "pyproject.toml"
        if candidate.is_file() and "contractgen" in _tool_table(candidate):
            return candidate
    return None


def _tool_table(path: Path) -> dict[str, Any]:
    import tomllib  # here: a run without a config file never needs it

    try:
        with path.open("rb") as handle:
            data = tomllib.load(handle)
    except (OSError, tomllib.TOMLDecodeError) as exc:
        # An OSError's own text is `[Errno 2] No such file or directory: '...'`: its reason only.
        reason = (exc.strerror or str(exc)) if isinstance(exc, OSError) else str(exc)
        hint = "check the path" if isinstance(exc, FileNotFoundError) else None
        raise SpecError.at(f"cannot read {path.name}: {reason}", str(path), hint=hint) from exc
    tool = data.get("tool")
    return tool if isinstance(tool, dict) else {}


def load_targets(config: Path, _seen: frozenset[Path] = frozenset(),
                 _regen: str | None = None) -> list[Target]:
    """Targets declared in `config`, then those of the projects it includes, in order.

    `regen_command` is the outermost project's: the one where `check` was run from.
    """
    config = config.resolve()
    if config in _seen:
        return []
    table = _tool_table(config).get("contractgen") or {}
    regen = _regen or str(table.get("regen_command") or REGEN_COMMAND)
    root = config.parent
    targets: list[Target] = []
    for index, raw in enumerate(table.get("targets") or []):
        if not isinstance(raw, dict) or "spec" not in raw or "out" not in raw:
            raise SpecError.at(
                f"[[tool.contractgen.targets]] entry {index + 1} needs `spec` and `out`",
                str(config), f"/tool/contractgen/targets/{index}",
                'e.g. spec = "specs/api.yaml", out = "src/pkg/api"')
        parts = tuple(raw.get("parts") or PARTS)
        unknown = sorted(set(parts) - set(PARTS))
        if unknown:
            raise SpecError.at(f"unknown parts {unknown}", str(config),
                               f"/tool/contractgen/targets/{index}/parts", f"choose from {list(PARTS)}")
        notes = raw.get("extension_notes") or {}
        if not isinstance(notes, dict) or not all(
            isinstance(k, str) and k.startswith("x-") and isinstance(v, str)
            for k, v in notes.items()
        ):
            raise SpecError.at(
                "extension_notes maps vendor extensions to sentences", str(config),
                f"/tool/contractgen/targets/{index}/extension_notes",
                'e.g. extension_notes = { "x-optional" = "Answering 501 is conforming." }')
        templates = raw.get("templates", table.get("templates"))  # per target, else global
        options = Options(overlay=root / raw["overlay"] if raw.get("overlay") else None,
                          parts=parts, templates=root / templates if templates else None,
                          extension_notes=tuple(notes.items()), root=root,
                          settings=_settings(raw, config, f"/tool/contractgen/targets/{index}"))
        targets.append(Target(root, str(raw["spec"]), str(raw["out"]), options,
                              raw.get("implementation"), regen))
    for include in table.get("include") or []:
        nested = root / include / "pyproject.toml"
        if not nested.is_file():
            raise SpecError.at(f"included project {include} has no pyproject.toml", str(config),
                               "/tool/contractgen/include")
        targets.extend(load_targets(nested, _seen | {config}, _regen or table.get("regen_command")))
    return targets


def _settings(raw: dict[str, Any], config: Path, pointer: str) -> ContractSettings | None:
    """A target's `pagination` (operationId -> what `x-pagination` takes: a table, or false)
    and `closed_enums` (schema names kept closed, as `x-enum-closed: true` does)."""
    pagination = raw.get("pagination") or {}
    if not isinstance(pagination, dict) or not all(
            isinstance(v, dict) or v is False for v in pagination.values()):
        raise SpecError.at(
            "pagination maps operationIds to what `x-pagination` takes (a table, or false)",
            str(config), f"{pointer}/pagination",
            'e.g. pagination = { listThings = { items = "data", cursor = "after" } }')
    closed = raw.get("closed_enums") or []
    if not isinstance(closed, list) or not all(isinstance(n, str) for n in closed):
        raise SpecError.at("closed_enums lists schema names (components/schemas)", str(config),
                           f"{pointer}/closed_enums", 'e.g. closed_enums = ["Status"]')
    if not (pagination or closed):
        return None
    texts = tuple((str(k), json.dumps(v, sort_keys=True)) for k, v in sorted(pagination.items()))
    return ContractSettings(texts, tuple(closed), str(config), pointer)
