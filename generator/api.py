"""The library functions behind the CLI: load, validate, render, generate, check."""

from __future__ import annotations

import contextlib
import hashlib
import os
import threading
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .config import PARTS, NoConfigError, Target, find_config, load_targets
from .emit.package import display_path, read_package, with_manifest, write_package
from .errors import ContractgenError, OptionError, OwnershipError
from .problems import Level, Problem, SpecError, has_errors, sorted_problems
from .project.drift import Drift, find_drift
from .spec import load, read, resolved
from .spec.loader import Document

__all__ = [
    "CheckResult", "ContractgenError", "Drift", "NoConfigError", "OwnershipError", "check",
    "generate", "generate_sdk", "load", "read_package", "render", "render_target", "targets_from",
    "validate", "write_package",
]


def validate(spec: str | Path, *, overlay: str | Path | None = None) -> list[Problem]:
    """Every problem of a spec (after the overlay): errors and warnings, located."""
    from .spec.validate import validate_document

    try:
        document, problems = read(spec, overlay)
    except SpecError as exc:
        return sorted_problems(exc.problems)
    try:
        document = resolved(document)
    except SpecError as exc:
        # The spec as written is validated instead; its lint reports the references of the
        # spec itself, the resolver's problems add those met inside the other files.
        return sorted_problems([*problems, *exc.problems, *validate_document(document)])
    return sorted_problems([*problems, *validate_document(document),
                            *_model_warnings(document, spec)])


def _model_warnings(document: Document, spec: str | Path) -> list[Problem]:
    """The warnings building the generator's model gives, as `generate` prints them (`oneOf`
    exclusivity, keywords not enforced...); none where an invalid contract trips the builder
    (`generate` then reports the validation errors alone, as `validate` does)."""
    from .model.parse import build_api

    try:
        api = build_api(document, spec_display=str(spec))
    except Exception:  # the contract's errors are reported instead
        return []
    return [p for p in api.problems if p.level is Level.WARNING]


def _file_sha256(path: str | Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


class _Validation:
    """The verdict on a contract, and its `openapi.json` text: from a forked child when one was
    started (`_start_validation`), else the verdict given and the text computed when asked."""

    def __init__(self, document: Document, receiver: Any = None, child: Any = None,
                 problems: list[Problem] | None = None) -> None:
        self.document, self.receiver, self.child, self.problems = (
            document, receiver, child, problems)
        self._text: str | None = None
        self._text_received = False  # the child's first message is read

    def _receive(self) -> Any:
        try:
            return self.receiver.recv()
        except EOFError:  # the child died: the caller does its part here
            self.receiver = None
            return None

    def _take_text(self) -> None:
        """Read the child's first message (the text, None when it could not), once."""
        if not self._text_received and self.receiver is not None:
            self._text = self._receive()
        self._text_received = True

    def spec_json(self) -> str:
        """The bundled document as `openapi.json` serves it (`dumps_indented`)."""
        self._take_text()
        if self._text is None:
            from .model.jsontext import dumps_indented

            self._text = dumps_indented(self.document.data) + "\n"
        return self._text

    def __call__(self) -> list[Problem]:
        if self.problems is None:
            self._take_text()
            problems = self._receive() if self.receiver is not None else None
            if problems is None:
                from .spec.validate import validate_document

                problems = validate_document(self.document)
            self.problems = problems
            if self.child is not None:
                self.child.join()
        return self.problems


def _start_validation(document: Document) -> _Validation:
    """Validate while the caller renders: in a forked child when that is safe, else inline.

    Importing and running openapi-spec-validator is a third of a generator run; on a machine with
    a spare core it overlaps with building the model and rendering (cheap, and stopped by the
    errors it may raise) but never with formatting, which waits for its verdict. The child first
    writes the contract's `openapi.json` text (~40 ms of pure Python on a large contract, off
    the caller's critical path), which the model takes (`build_api(spec_json=...)`).
    """
    if (os.cpu_count() or 1) < 2 or threading.active_count() > 1 or not hasattr(os, "fork"):
        from .spec.validate import validate_document

        return _Validation(document, problems=validate_document(document))
    import multiprocessing

    context = multiprocessing.get_context("fork")
    receiver, sender = context.Pipe(duplex=False)
    child = context.Process(target=_validate_into, args=(document, sender), daemon=True)
    child.start()
    sender.close()
    return _Validation(document, receiver, child)


def _validate_into(document: Document, sender: Any) -> None:
    from .model.jsontext import dumps_indented
    from .spec.validate import validate_document

    try:
        text: str | None = dumps_indented(document.data) + "\n"
    except Exception:  # the caller's own call raises it, as it always did
        text = None
    # Sent aside: the pipe holds 64 KiB, and the caller reads the text only when its model is
    # built; meanwhile this process validates.
    sending = threading.Thread(target=sender.send, args=(text,))
    sending.start()
    problems = validate_document(document)
    sending.join()
    sender.send(problems)
    sender.close()


@contextlib.contextmanager
def _fewer_collections() -> Iterator[None]:
    """Raise the collector's young-generation threshold for a run, then restore the caller's.

    A run allocates millions of objects that live until its end (the AST of every module it
    splits, the model, black's trees in the formatting processes, which fork inside this and
    inherit the setting), and at the default threshold (700 allocations) the collector walks the
    growing heap again and again: on the 1,000-operation synthetic contract splitting took 3.2 s
    with the defaults and 1.4 s with 10,000. black's workers gain most from a threshold they
    rarely reach: formatting Twilio 2010's server and models block by block took 2.8 s at 700,
    2.7 s at 50,000, 2.7-3.0 s at 250,000-500,000 and 2.0 s at 1,000,000 (as with the collector
    off), and a cold run of it 2.69 s instead of 2.32 s, Conversations 1.44 s instead of 1.18 s
    (medians of 3, interleaved). The price is bounded memory: at most a million objects of
    cyclic garbage per process before a collection frees them (peak RSS of a process +14-24 MB
    on those two, the whole process tree of the synthetic contract 588 -> 788 MB).
    """
    import gc

    previous = gc.get_threshold()
    gc.set_threshold(max(previous[0], _YOUNG_THRESHOLD), *previous[1:])
    try:
        yield
    finally:
        gc.set_threshold(*previous)


_YOUNG_THRESHOLD = 1_000_000


@_fewer_collections()
def render(
    spec: str | Path,
    *,
    overlay: str | Path | None = None,
    parts: Iterable[str] = PARTS,
    root: Path | None = None,
    validate_spec: bool = True,
    previous: dict[str, str] | None = None,
    extension_notes: Mapping[str, str] | None = None,
    lenient: bool = False,
    templates: str | Path | None = None,
    bundled: set[Path] | None = None,
) -> tuple[dict[str, str], list[Problem]]:
    """The generated package's files (name -> text) and the warnings met on the way.

    `bundled`, when given, receives the files the contract's `$ref`s bundle in (once the
    contract is read, so also when it has errors): what `contractgen watch` watches besides the
    spec and overlay.

    `extension_notes` (vendor extension -> sentence) documents the operations that set one.
    `templates` is a folder whose files replace the built-in templates of the same name; its
    digest goes into every module's header, so editing an override is drift.

    Raises SpecError when the spec has errors; nothing is generated from an invalid contract.
    `lenient` generates from what can be understood instead: an operation with an error is
    skipped, and every error becomes a warning saying what was skipped or kept.
    `previous` (the files as they are now) lets unchanged modules skip formatting, and a run
    whose inputs did not change since it made `previous` skip everything (`emit.runs`).
    """
    from .emit.runs import Run

    parts = tuple(parts)
    validated = validate_spec and not lenient
    shown = [display_path(Path(path), root) if path is not None else None
             for path in (spec, overlay, templates)]
    run = Run.of(spec, overlay, templates, {
        "parts": parts, "shown": shown, "notes": sorted((extension_notes or {}).items()),
        "lenient": lenient})
    if run is not None and previous:
        replayed = run.replay(previous, validated)
        if replayed is not None:
            if bundled is not None:
                bundled.update(Path(path) for path in run.bundled)
            return replayed
    from .emit.formatting import format_package
    from .emit.render import VERBATIM, check_overrides, render_package
    from .model.parse import build_api

    overrides = None
    if templates is not None:
        overrides = (shown[2] or "", check_overrides(Path(templates)))
    try:
        document, problems = load(spec, overlay=overlay)
    except SpecError as exc:
        # A reference that does not resolve stops the load: `validate` reports it and
        # every other problem of the spec, in one pass.
        raise SpecError(validate(spec, overlay=overlay) or exc.problems) from None
    loaded = document
    if bundled is not None:
        bundled.update(other.path.resolve() for _, other, _ in document.origins)
    if lenient:
        from .spec.lenient import leniently

        document, relaxed = leniently(document)
        problems += relaxed
        validate_spec = False
    validation = _start_validation(document) if validate_spec else None
    try:
        api = build_api(
            document,
            spec_json=validation.spec_json if validation is not None else None,
            spec_display=shown[0] or "",
            overlay_display=shown[1],
            parts=parts,
            extension_notes=extension_notes,
            templates=overrides,
        )
        sources = render_package(api, Path(templates) if templates is not None else None)
        problems += api.problems
    except Exception:
        # An invalid spec can trip the model builder before validation has answered:
        # the located validation errors are the real report.
        if validation is not None:
            problems += validation()
            if has_errors(problems):
                raise SpecError(problems) from None
        raise
    pending = [validation] if validation is not None else []

    def ready() -> None:
        # Nothing is formatted before the contract is known valid: the located validation
        # errors are the report.
        if pending:
            problems.extend(pending.pop()())
            if has_errors(problems):
                raise SpecError(problems)

    try:
        files = format_package(sources, VERBATIM, ready, overridden=templates is not None)
    except Exception:
        ready()  # the validation errors, if any, are the real report
        raise
    sources_hashed = {shown[0] or "": _file_sha256(spec)}
    if overlay is not None:
        sources_hashed[shown[1] or ""] = _file_sha256(overlay)
    if overrides is not None:
        sources_hashed[overrides[0]] = overrides[1]
    files = with_manifest(files, {op.method_name: f"{op.http_method.upper()} {op.path}"
                                  for op in api.operations}, previous, sources_hashed)
    warnings = [p for p in problems if p.level is Level.WARNING]
    if run is not None:
        run.record(loaded, files, warnings, validated)
    return files, warnings


def generate(
    spec: str | Path,
    out: str | Path,
    *,
    overlay: str | Path | None = None,
    parts: Iterable[str] = PARTS,
    root: Path | None = None,
    package: str | None = None,
    force: bool = False,
    lenient: bool = False,
    templates: str | Path | None = None,
) -> list[Path]:
    """Write the generated package into `out`, a folder of the generator's own.

    `package` is the import name `out` will have; the generated modules import each other
    relatively, so it is only checked to be usable as one. Raises OwnershipError when `out`
    holds files the generator did not write, unless `force`.
    """
    if package is not None and not package.isidentifier():
        raise OptionError(f"package name {package!r} is not a Python identifier")
    files, _ = render(spec, overlay=overlay, parts=parts, root=root,
                      previous=read_package(Path(out)), lenient=lenient, templates=templates)
    return write_package(Path(out), files, force=force)


def generate_sdk(
    spec: str | Path,
    out: str | Path,
    *,
    package_name: str | None = None,
    overlay: str | Path | None = None,
    root: Path | None = None,
    templates: str | Path | None = None,
) -> tuple[list[Path], list[Problem]]:
    """Write the client as an installable package into `out`: pyproject.toml, README.md and
    `src/<import name>/` (see `emit.sdk`); the paths written and the warnings met."""
    from .emit.sdk import sdk_for, sdk_metadata, write_sdk
    from .spec.media import declares_events

    out = Path(out)
    data = load(spec, overlay=overlay)[0].data
    info = data.get("info")
    sdk = sdk_for(info if isinstance(info, Mapping) else {}, package_name)
    package = out / "src" / sdk.import_name
    files, warnings = render(spec, overlay=overlay, parts=("client",), root=root,
                             previous=read_package(package), templates=templates)
    spec_display = display_path(Path(spec), root)
    if sdk.version == "0.0.0" and sdk.api_version:
        warnings.append(Problem(
            Level.WARNING, f"the contract's version {sdk.api_version!r} is not a PEP 440 "
            "version; the SDK is versioned 0.0.0", str(spec), None, None, "/info/version"))
    metadata = sdk_metadata(sdk, spec_display, Path(templates) if templates else None,
                            events=declares_events(data))
    return write_sdk(out, sdk, files, metadata), warnings


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
        raise NoConfigError([Problem(
            Level.ERROR, "no [tool.contractgen] table found in any pyproject.toml here or above",
            str(Path.cwd()), None, None, "",
            'add [[tool.contractgen.targets]] with spec = "..." and out = "..."')])
    return load_targets(found)


def render_target(target: Target, *, validate_spec: bool = True) -> dict[str, str]:
    """What `target` generates now (reusing its formatted modules where they are current)."""
    files, _ = render(target.spec_path, overlay=target.overlay_path, parts=target.parts,
                      root=target.root, validate_spec=validate_spec,
                      previous=read_package(target.out_path),
                      extension_notes=dict(target.extension_notes),
                      templates=target.templates_path)
    return files


def check(targets: list[Target] | None = None) -> CheckResult:
    """Compare committed generated code with what the specs produce now."""
    result = CheckResult()
    for target in targets if targets is not None else targets_from():
        # Validation is `generate`'s job; the drift check only compares final text.
        expected = render_target(target, validate_spec=False)
        drift = find_drift(target, expected)
        if drift is not None:
            result.drift.append(drift)
        if target.implementation:
            from .project.implementation import implementation_report

            missing, leftover = implementation_report(target)
            if missing:
                result.unimplemented[target.implementation] = missing
            if leftover:
                result.leftover[target.implementation] = leftover
    return result


