"""The library functions behind the CLI: load, validate, render, generate, check."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .config import NoConfigError, Target, find_config, load_targets
from .emit.package import HEADER, MANIFEST, display_path, read_package, write_package
from .errors import ContractgenError, OptionError, OwnershipError
from .options import Options
from .pipeline import generate as generated
from .pipeline import validate
from .problems import Level, Problem
from .project.drift import Drift, find_drift
from .spec import load
from .spec.inputs import Inputs

__all__ = [
    "CheckResult", "ContractgenError", "Drift", "NoConfigError", "Options", "OwnershipError", "check",
    "forced_write", "generate", "generate_sdk", "load", "read_package", "render", "render_target", "targets_from",
    "validate", "write_package",
]


def render(spec: str | Path, options: Options | None = None, *,
           previous: dict[str, str] | None = None, validate_spec: bool = True,
           bundled: set[Path] | None = None, **changes: Any) -> tuple[dict[str, str], list[Problem]]:
    """The generated package's files (name -> text) and the warnings met on the way.

    `options` (or its fields given as keywords: `render(spec, parts=("client",))`) says how
    (`Options`). Raises SpecError when the spec has errors; nothing is generated from an
    invalid contract (`lenient` generates from what can be understood instead). `previous` (the
    files as they are now) lets unchanged modules skip formatting, and a run whose inputs did not
    change since it made `previous` skip everything. `bundled` receives the files the spec's
    `$ref`s bundle in, also when it has errors: what `contractgen watch` watches besides.
    """
    made = generated(spec, (options or Options()).but(**changes), previous,
                             validate_spec, bundled)
    return made.files, made.warnings


def generate(spec: str | Path, out: str | Path, options: Options | None = None, *,
             package: str | None = None, force: bool = False, **changes: Any) -> list[Path]:
    """Write the generated package into `out`, a folder of the generator's own.

    `package` is the import name `out` will have; the generated modules import each other
    relatively, so it is only checked to be usable as one. Raises OwnershipError when `out`
    holds files the generator did not write, unless `force`.
    """
    if package is not None and not package.isidentifier():
        raise OptionError(f"package name {package!r} is not a Python identifier")
    files, _ = render(spec, options, previous=read_package(Path(out)), **changes)
    if force:
        return forced_write(Path(out), files)[0]
    return write_package(Path(out), files)


def forced_write(out: Path, files: dict[str, str], *, read: dict[str, str] | None = None,
                 overwrite: Collection[str] = ()) -> tuple[list[Path], list[str]]:
    """`write_package(force=True)` that replaces no file someone else wrote unless told to.

    Refuses (OwnershipError, nothing written) when a file of a name it writes does not carry
    contractgen's header (a hand-written `models.py`) and `overwrite` does not name it. Returns
    the paths written and the names of the files it overwrote that were not as contractgen left
    them (edited by hand, or named in `overwrite`): the caller says which."""
    unknown = sorted(set(overwrite) - set(files))
    if unknown:
        raise OptionError(f"--overwrite {unknown[0]}: contractgen writes no such file in "
                          f"{display_path(out)} (it writes {', '.join(sorted(files))})")
    replaced = _replaced(out, files, read_package(out) if read is None else read)
    refused = [name for name, ours in replaced if not ours and name not in overwrite]
    if refused:
        where = display_path(out)
        raise OwnershipError(
            f"{', '.join(f'{where}/{name}' for name in refused)}: not written by contractgen (no "
            f"`{HEADER}` header), and --force replaces only files it wrote: move "
            f"{'it' if len(refused) == 1 else 'them'} out of the way, or name each file to "
            f"replace (--overwrite {refused[0]})")
    return write_package(out, files, force=True, read=read), [name for name, _ in replaced]


def _replaced(out: Path, files: dict[str, str], current: dict[str, str]) -> list[tuple[str, bool]]:
    """The files in `out` that writing `files` changes and that are not as contractgen left
    them, each with whether it carries contractgen's header (edited by hand, or not ours)."""
    try:
        recorded = json.loads(current.get(MANIFEST, "{}")).get("files", {})
    except (ValueError, AttributeError):
        recorded = {}
    recorded = recorded if isinstance(recorded, dict) else {}
    found = []
    for name, text in sorted(files.items()):
        path = out / name
        if name == MANIFEST or not path.is_file():
            continue
        if name not in current:  # not contractgen's file: replaced whatever it holds
            try:
                ours = path.read_text(encoding="utf-8").startswith(HEADER)
            except (UnicodeDecodeError, OSError):
                ours = False
            found.append((name, ours))
        elif current[name] != text and name in recorded and recorded[name] != hashlib.sha256(
                current[name].encode("utf-8")).hexdigest():
            found.append((name, True))  # contractgen's, edited by hand since
    return found


def generate_sdk(spec: str | Path, out: str | Path, options: Options | None = None, *,
                 package_name: str | None = None, **changes: Any
                 ) -> tuple[list[Path], list[Problem]]:
    """Write the client as an installable package into `out`: pyproject.toml, README.md and
    `src/<import name>/` (see `emit.sdk`); the paths written and the warnings met."""
    from .emit.sdk import SDK_TESTS, sdk_for, sdk_metadata, write_sdk
    from .spec.media import declares_events

    options = (options or Options()).but(parts=("client",), **changes)
    out = Path(out)
    inputs = Inputs.read(spec, options.overlay, options.templates)  # read once, for both
    document = load(inputs)[0]
    data = document.data
    info = data.get("info")
    sdk = sdk_for(info if isinstance(info, Mapping) else {}, package_name)
    made = generated(inputs, options, read_package(out / "src" / sdk.import_name))
    files, warnings = made.files, made.warnings
    if sdk.version == "0.0.0" and sdk.api_version:
        warnings.append(Problem(
            Level.WARNING, f"the contract's version {sdk.api_version!r} is not a PEP 440 "
            "version; the SDK is versioned 0.0.0", str(spec), None, None, "/info/version"))
    metadata = sdk_metadata(sdk, display_path(Path(spec), options.root), options.templates,
                            events=declares_events(data))
    metadata[SDK_TESTS] = _sdk_tests(document, options, made.api, sdk.import_name)
    return write_sdk(out, sdk, files, metadata), warnings


def _sdk_tests(document: Any, options: Options, built: Any, import_name: str) -> str:
    """The SDK's tests against the mock of its contract (`emit.sdk_tests`), in black's layout."""
    from .emit.formatting import black_mode
    from .emit.media import client_api
    from .emit.sdk_tests import sdk_tests
    from .mock.requests import collections_kept
    from .pipeline import build
    from .version import generated_header

    api = client_api(built if built is not None else build(document, options))
    header = generated_header(api.spec, api.overlay)
    import black

    text = sdk_tests(api, import_name, collections_kept(document.data), header)
    return black.format_str(text, mode=black_mode())


@dataclass
class CheckResult:
    """The outcome of `check`: drift per target, unimplemented operations, overrides left behind
    by operations that were renamed or removed (method -> its likely new name), warnings."""

    drift: list[Drift] = field(default_factory=list)
    unimplemented: dict[str, list[str]] = field(default_factory=dict)
    leftover: dict[str, dict[str, tuple[str | None, str]]] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.drift and not self.leftover


def targets_from(config: Path | None = None) -> list[Target]:
    """Targets of the nearest `[tool.contractgen]` (or of `config`)."""
    found = config or find_config()
    if found is None:
        raise NoConfigError.at(
            "no [tool.contractgen] table found in any pyproject.toml here or above", str(Path.cwd()),
            hint='add [[tool.contractgen.targets]] with spec = "..." and out = "..."')
    return load_targets(found)


def render_target(target: Target, *, validate_spec: bool = True) -> dict[str, str]:
    """What `target` generates now (reusing its formatted modules where they are current)."""
    return generated(target.spec_path, target.options, read_package(target.out_path),
                             validate_spec).files


def check(targets: list[Target] | None = None) -> CheckResult:
    """Compare committed generated code with what the specs produce now."""
    result = CheckResult()
    for target in targets if targets is not None else targets_from():
        # Validation is `generate`'s job; the drift check only compares final text.
        made = generated(target.spec_path, target.options,
                                 read_package(target.out_path), validate=False)
        drift = find_drift(target, made.files)
        if drift is not None:
            result.drift.append(drift)
        if target.implementation:
            from .project.implementation import implementation_report

            # The IR the run built, if it was not replayed (then the report builds it).
            operations = list(made.api.operations) if made.api is not None else None
            missing, leftover = implementation_report(target, operations)
            if missing:
                result.unimplemented[target.implementation] = missing
            if leftover:
                result.leftover[target.implementation] = leftover
    return result
