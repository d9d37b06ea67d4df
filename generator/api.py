"""The library functions behind the CLI: load, validate, render, generate, check."""

from __future__ import annotations

import difflib
import hashlib
import os
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from .config import PARTS, Target, find_config, load_targets
from .loader import Document, load_document
from .problems import Level, Problem, SpecError, has_errors, sorted_problems


def _display(path: Path, root: Path | None = None) -> str:
    """A stable, relative spelling of a path for headers and messages."""
    base = (root or Path.cwd()).resolve()
    resolved = path.resolve()
    try:
        return resolved.relative_to(base).as_posix()
    except ValueError:
        return os.path.relpath(resolved, base).replace(os.sep, "/")


def load(spec: str | Path, *, overlay: str | Path | None = None) -> tuple[Document, list[Problem]]:
    """Load a spec, apply an overlay and resolve external refs; problems so far (no validation)."""
    document = load_document(spec)
    problems: list[Problem] = []
    if overlay is not None:
        from .overlay import apply_overlay

        document, overlay_problems = apply_overlay(document, overlay)
        problems.extend(overlay_problems)
        if has_errors(problems):
            raise SpecError(problems)
    from .resolve import resolve_external_refs

    resolved = resolve_external_refs(document)
    if resolved is not document.data:
        document = replace(document, data=resolved)
    return document, problems


def validate(spec: str | Path, *, overlay: str | Path | None = None) -> list[Problem]:
    """Every problem of a spec (after the overlay): errors and warnings, located."""
    from .validate import validate_document

    try:
        document, problems = load(spec, overlay=overlay)
    except SpecError as exc:
        return sorted_problems(exc.problems)
    return sorted_problems(problems + validate_document(document))


def _file_sha256(path: str | Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def _start_validation(document: Document) -> Callable[[], list[Problem]]:
    """Validate while the caller renders: in a forked child when that is safe, else inline.

    Importing and running openapi-spec-validator is a third of a generator run; on a machine with
    a spare core it overlaps with rendering instead of preceding it.
    """
    from .validate import validate_document

    if (os.cpu_count() or 1) < 2 or threading.active_count() > 1 or not hasattr(os, "fork"):
        problems = validate_document(document)
        return lambda: problems
    import multiprocessing

    context = multiprocessing.get_context("fork")
    receiver, sender = context.Pipe(duplex=False)
    child = context.Process(target=_validate_into, args=(document, sender), daemon=True)
    child.start()
    sender.close()

    def result() -> list[Problem]:
        try:
            problems: list[Problem] = receiver.recv()
        except EOFError:  # the child died: validate here instead
            problems = validate_document(document)
        child.join()
        return problems

    return result


def _validate_into(document: Document, sender: Any) -> None:
    from .validate import validate_document

    sender.send(validate_document(document))
    sender.close()


def render(
    spec: str | Path,
    *,
    overlay: str | Path | None = None,
    parts: Iterable[str] = PARTS,
    root: Path | None = None,
    validate_spec: bool = True,
    previous: dict[str, str] | None = None,
) -> tuple[dict[str, str], list[Problem]]:
    """The generated package's files (name -> text) and the warnings met on the way.

    Raises SpecError when the spec has errors; nothing is generated from an invalid contract.
    `previous` (the files as they are now) lets unchanged modules skip formatting.
    """
    from .formatting import format_package
    from .parse import build_api
    from .render import VERBATIM, render_package

    document, problems = load(spec, overlay=overlay)
    validation = _start_validation(document) if validate_spec else None
    try:
        api = build_api(
            document,
            spec_display=_display(Path(spec), root),
            spec_sha256=_file_sha256(spec),
            overlay_display=_display(Path(overlay), root) if overlay is not None else None,
            overlay_sha256=_file_sha256(overlay) if overlay is not None else None,
            parts=tuple(parts),
        )
        sources = render_package(api)
        # Formatting overlaps the validation child too; its result is dropped on an invalid spec.
        files = format_package(sources, previous or {}, VERBATIM)
    except Exception:
        # An invalid spec can trip the model builder before validation has answered:
        # the located validation errors are the real report.
        if validation is not None:
            problems += validation()
            if has_errors(problems):
                raise SpecError(problems) from None
        raise
    if validation is not None:
        problems += validation()
        if has_errors(problems):
            raise SpecError(problems)
    return files, [p for p in problems if p.level is Level.WARNING]


def generate(
    spec: str | Path,
    out: str | Path,
    *,
    overlay: str | Path | None = None,
    parts: Iterable[str] = PARTS,
    root: Path | None = None,
    package: str | None = None,
) -> list[Path]:
    """Write the generated package into `out`, which the generator owns whole.

    `package` is the import name `out` will have; the generated modules import each other
    relatively, so it is only checked to be usable as one.
    """
    if package is not None and not package.isidentifier():
        raise ValueError(f"package name {package!r} is not a Python identifier")
    files, _ = render(spec, overlay=overlay, parts=parts, root=root,
                      previous=read_package(Path(out)))
    return write_package(Path(out), files)


def read_package(out: Path) -> dict[str, str]:
    """The generator-owned files of a package directory as they are now."""
    return {p.name: p.read_text(encoding="utf-8") for p in _owned_files(out)}


def write_package(out: Path, files: dict[str, str]) -> list[Path]:
    """Write files, remove stale ones the generator no longer produces, touch nothing else."""
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    for name, text in sorted(files.items()):
        path = out / name
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
        written.append(path)
    for stale in _owned_files(out):
        if stale.name not in files:
            stale.unlink()
    return written


def _owned_files(out: Path) -> list[Path]:
    if not out.is_dir():
        return []
    return sorted(p for p in out.iterdir() if p.is_file() and p.suffix in (".py", ".json", ".pyi"))


@dataclass
class Drift:
    """Where committed generated code differs from what the spec produces."""

    target: Target
    diff: str


@dataclass
class CheckResult:
    """The outcome of `check`: drift per target, unimplemented operations, warnings."""

    drift: list[Drift] = field(default_factory=list)
    unimplemented: dict[str, list[str]] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.drift


def targets_from(config: Path | None = None) -> list[Target]:
    """Targets of the nearest `[tool.contractgen]` (or of `config`)."""
    found = config or find_config()
    if found is None:
        raise SpecError([Problem(
            Level.ERROR, "no [tool.contractgen] table found in any pyproject.toml here or above",
            str(Path.cwd()), None, None, "",
            'add [[tool.contractgen.targets]] with spec = "..." and out = "..."')])
    return load_targets(found)


def render_target(target: Target, *, validate_spec: bool = True) -> dict[str, str]:
    """What `target` generates now (reusing its formatted modules where they are current)."""
    files, _ = render(target.spec_path, overlay=target.overlay_path, parts=target.parts,
                      root=target.root, validate_spec=validate_spec,
                      previous=read_package(target.out_path))
    return files


def check(targets: list[Target] | None = None) -> CheckResult:
    """Compare committed generated code with what the specs produce now."""
    result = CheckResult()
    for target in targets if targets is not None else targets_from():
        # Validation is `generate`'s job; the drift check only compares final text.
        expected = render_target(target, validate_spec=False)
        diff = _diff_tree(target, expected)
        if diff:
            result.drift.append(Drift(target, diff))
        if target.implementation:
            from .implementation import unimplemented_operations

            missing = unimplemented_operations(target)
            if missing:
                result.unimplemented[target.implementation] = missing
    return result


def _diff_tree(target: Target, expected: dict[str, str]) -> str:
    out = target.out_path
    chunks: list[str] = []
    names = sorted(set(expected) | {p.name for p in _owned_files(out)})
    for name in names:
        path = out / name
        label = _display(path)
        actual = path.read_text(encoding="utf-8") if path.is_file() else None
        wanted = expected.get(name)
        if actual == wanted:
            continue
        chunks.append("".join(difflib.unified_diff(
            (actual or "").splitlines(keepends=True),
            (wanted or "").splitlines(keepends=True),
            fromfile=f"{label} (committed)" if actual is not None else "/dev/null",
            tofile=f"{label} (from {target.spec})" if wanted is not None else "/dev/null",
        )))
    return "".join(chunks)
