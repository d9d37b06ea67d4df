"""`contractgen mock`'s settings: the command line over `[tool.contractgen.mock]` over the first
target of `[tool.contractgen]` (its spec and overlay).

    [tool.contractgen.mock]
    spec = "specs/api.yaml"        # default: the first target's spec (and its overlay)
    port = 4010
    seed = 7
    data = "mock/data.json"        # concrete collection paths -> items
    collections = { "/books" = "/books/{bookId}" }   # instead of the recognised ones
"""

from __future__ import annotations

import argparse
import tomllib
from pathlib import Path
from typing import Any

from ..config import NoConfigError, find_config
from .app import MockOptions

DEFAULT_PORT = 4010  # Prism's


def _table(config: Path) -> tuple[dict[str, Any], dict[str, Any]]:
    """The `mock` table of `[tool.contractgen]`, and the first target."""
    with config.open("rb") as handle:
        tool = (tomllib.load(handle).get("tool") or {}).get("contractgen") or {}
    targets = tool.get("targets") or [{}]
    return dict(tool.get("mock") or {}), dict(targets[0])


def settings(args: argparse.Namespace) -> tuple[Path, MockOptions, str, int]:
    """(spec, options, host, port) from the command line, the config filling what it omits."""
    table: dict[str, Any] = {}
    target: dict[str, Any] = {}
    root = Path.cwd()
    config = Path(args.config) if getattr(args, "config", None) else find_config()
    if config is not None and (args.spec is None or getattr(args, "config", None)):
        table, target = _table(config)
        root = config.parent

    def pick(name: str, fallback: Any = None) -> Any:
        given = getattr(args, name, None)
        return given if given not in (None, False) else table.get(name, fallback)

    def path(name: str, fallback: Any = None) -> Path | None:
        given = getattr(args, name, None)
        if given:
            return Path(given)
        value = table.get(name, fallback)
        return root / value if value else None

    spec = path("spec", target.get("spec"))
    if spec is None:
        raise NoConfigError.at(
            "no contract to mock: name SPEC, or set spec in [tool.contractgen.mock] (or a "
            "target in [tool.contractgen])", str(config or Path.cwd()),
            hint='contractgen mock specs/api.yaml, or [tool.contractgen.mock] spec = "..."')
    overlay = path("overlay", target.get("overlay") if "spec" not in table else None)
    collections = table.get("collections")
    options = MockOptions(
        overlay=overlay, seed=int(pick("seed", 0)), data=path("data"),
        scenario=path("scenario"), stateless=bool(pick("stateless", False)),
        collections=tuple(sorted(collections.items())) if isinstance(collections, dict) else None)
    return spec, options, str(pick("host", "127.0.0.1")), int(pick("port", DEFAULT_PORT))
