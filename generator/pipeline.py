"""The generator, stage by stage: read -> load -> validate -> IR -> render -> format -> manifest.

`run` is a whole generation: each stage a plain function of the previous stage's value and the
run's `Options`. What makes a run cheap wraps the stages from outside, never inside one:
`generate` replays a run whose fingerprint (inputs, code, options: `emit.runs.fingerprint`)
and package did not change; `verdict.start_validation` validates in a forked child while the
IR is built and rendered; `fewer_collections` keeps the garbage collector from walking the
run's long-lived objects again and again.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from .emit.package import display_path, with_manifest
from .options import Options
from .problems import Level, Problem, SpecError, has_errors, sorted_problems
from .spec import load as load_contract
from .spec import read as read_contract
from .spec import resolved
from .spec.inputs import Inputs
from .spec.loader import Document
from .verdict import Verdict, start_validation

if TYPE_CHECKING:  # a replayed run does without the IR's modules
    from .model.ir import Api


@dataclass(frozen=True)
class Generated:
    """A run's package (file name -> text, manifest included), its warnings, the other files it
    read (path -> sha256) and its IR (None when the run was replayed)."""

    files: dict[str, str]
    warnings: list[Problem]
    bundled: dict[str, str] = field(default_factory=dict)
    api: Api | None = None


def generate(spec: str | Path | Inputs, options: Options,
             previous: dict[str, str] | None = None, validate: bool = True,
             bundled: set[Path] | None = None) -> Generated:
    """`run`, or the same run's package as `previous` holds it when nothing it read changed
    since. `bundled` receives the files the spec bundles in, also when it has errors."""
    from .emit.runs import Run

    inputs = spec if isinstance(spec, Inputs) else Inputs.read(spec, options.overlay,
                                                                 options.templates)
    record = Run(inputs, options)
    validated = validate and not options.lenient
    replayed = record.replay(previous, validated) if previous else None
    if replayed is not None:
        if bundled is not None:
            bundled.update(Path(path) for path in record.bundled)
        return Generated(*replayed)
    with fewer_collections():
        result = run(inputs, options, previous, validate, bundled)
    record.record(result.bundled, result.files, result.warnings, validated)
    return result


def run(inputs: Inputs, options: Options, previous: dict[str, str] | None = None,
        validate: bool = True, bundled: set[Path] | None = None) -> Generated:
    """Every stage, in order. SpecError when the contract has errors: nothing is formatted."""
    document, problems = load(inputs, options)
    read = {str(other.path.resolve()): other.sha256 for _, other, _ in document.origins}
    if bundled is not None:
        bundled.update(Path(path) for path in read)
    verdict = start_validation(document) if validate and not options.lenient else None
    with reported(verdict, problems):
        api = build(document, options, verdict)
        sources = render(api, options)
    problems += api.problems

    def ready() -> None:  # awaited only now: nothing is formatted from an invalid contract
        valid(problems, verdict)

    files = format_modules(sources, options, ready)
    files = manifest(files, api, inputs, options, previous)
    warnings = [p for p in valid(problems, verdict) if p.level is Level.WARNING]
    return Generated(files, warnings, dict(sorted(read.items())), api)


def load(inputs: Inputs, options: Options) -> tuple[Document, list[Problem]]:
    """The contract as data (overlay applied, other files bundled in); `--lenient` drops the
    operations with errors here. The problems so far."""
    try:
        document, problems = load_contract(inputs)
    except SpecError as exc:
        # A reference that does not resolve stops the load: `validate` reports it and every
        # other problem of the spec, in one pass.
        raise SpecError(validate(inputs.spec, options.overlay) or exc.problems) from None
    if options.lenient:
        from .spec.lenient import leniently

        document, relaxed = leniently(document)
        problems += relaxed
    return document, problems


def build(document: Document, options: Options, verdict: Verdict | None = None) -> Api:
    """The IR; `verdict`'s child may have written the `openapi.json` text already."""
    from .model.parse import build_api

    spec, overlay, templates = shown(document.path, options)
    return build_api(document, spec_json=verdict.spec_json if verdict is not None else None,
                     spec_display=spec, overlay_display=overlay, parts=options.parts,
                     extension_notes=dict(options.extension_notes), templates=templates,
                     settings=options.settings)


def render(api: Api, options: Options) -> dict[str, str]:
    """Each module's unformatted source (template overrides checked first)."""
    from .emit.render import check_overrides, render_package

    if options.templates is not None:
        check_overrides(options.templates)
    return render_package(api, options.templates)


def format_modules(sources: dict[str, str], options: Options, ready: Callable[[], None]
                   ) -> dict[str, str]:
    """The format stage: each module in black's layout, as the templates wrote it (black runs
    only on what they cannot vouch for, and on modules of user template overrides); `ready` is
    called before anything is formatted."""
    from .emit.formatting import format_package
    from .emit.render import VERBATIM

    try:
        return format_package(sources, VERBATIM, ready, overridden=options.templates is not None)
    except Exception:
        ready()  # the validation errors, if any, are the real report
        raise


def manifest(files: dict[str, str], api: Api, inputs: Inputs, options: Options,
             previous: dict[str, str] | None) -> dict[str, str]:
    """The files plus the manifest: the operations' routes, and the inputs' hashes as read."""
    spec, overlay, templates = shown(inputs.spec, options)
    sources = {spec: inputs.spec_sha256}
    if overlay is not None and inputs.overlay_sha256 is not None:
        sources[overlay] = inputs.overlay_sha256
    if templates is not None and inputs.templates_sha256 is not None:
        sources[templates] = inputs.templates_sha256
    routes = {op.method_name: f"{op.http_method.upper()} {op.path}" for op in api.operations}
    return with_manifest(files, routes, previous, sources)


def shown(spec: Path, options: Options) -> tuple[str, str | None, str | None]:
    """The spec, overlay and templates paths as headers and the manifest show them."""
    overlay, templates = options.overlay, options.templates
    return (display_path(spec, options.root),
            display_path(overlay, options.root) if overlay is not None else None,
            display_path(templates, options.root) if templates is not None else None)


@contextlib.contextmanager
def reported(verdict: Verdict | None, problems: list[Problem]) -> Iterator[None]:
    """An invalid spec can trip the model builder before validation has answered: then the
    located validation errors are the real report."""
    try:
        yield
    except Exception:
        if verdict is not None:
            valid(problems, verdict)
        raise


def valid(problems: list[Problem], verdict: Verdict | None) -> list[Problem]:
    """`problems` and the validation's (awaited); SpecError when one is an error."""
    found = problems + (verdict() if verdict is not None else [])
    if has_errors(found):
        raise SpecError(found)
    return found


def validate(spec: str | Path, overlay: str | Path | None = None) -> list[Problem]:
    """Every problem of a spec (after the overlay): errors and warnings, located (the
    `validate` command: a spec whose references do not resolve is validated as written)."""
    from .spec.validate import validate_document

    try:
        document, problems = read_contract(spec, overlay)
    except SpecError as exc:
        return sorted_problems(exc.problems)
    try:
        document = resolved(document)
    except SpecError as exc:
        # Its lint reports the references of the spec itself, the resolver's problems add
        # those met inside the other files.
        return sorted_problems([*problems, *exc.problems, *validate_document(document)])
    return sorted_problems([*problems, *validate_document(document),
                            *_model_warnings(document, spec)])


def account(spec: str | Path, overlay: str | Path | None = None) -> list[str]:
    """The account of the contract's wire and type keywords, as `validate --account` prints
    it: counts by construct, then each one approximated or ignored, with what the code does."""
    from .model import account as accounting
    from .model.parse import build_api

    document, _ = read_contract(spec, overlay)
    document = resolved(document)
    try:
        notes = [(p.pointer, p.message)
                 for p in build_api(document, spec_display=str(spec)).problems]
    except Exception:  # the builder trips on it: the account of the keywords alone
        notes = []
    return accounting.summary(accounting.account(document.data, notes))


def _model_warnings(document: Document, spec: str | Path) -> list[Problem]:
    """The warnings building the IR gives, as `generate` prints them (`oneOf` exclusivity,
    keywords not enforced...); none where an invalid contract trips the builder (`generate`
    then reports the validation errors alone, as `validate` does)."""
    from .model.parse import build_api

    try:
        api = build_api(document, spec_display=str(spec))
    except Exception:  # the contract's errors are reported instead
        return []
    return [p for p in api.problems if p.level is Level.WARNING]


@contextlib.contextmanager
def fewer_collections() -> Iterator[None]:
    """Raise the collector's young-generation threshold for a run, then restore the caller's.

    A run allocates many objects that live until its end (the model, the rendered text), and at
    the default threshold (700 allocations) the collector walks the growing heap again and
    again. It still pays where black runs (`bench/layers.py --off gc`, CPU seconds, medians of
    7, 2026-12-04): cold synthetic-1000 6.4 s with it, 8.8 s without; cold Box 2.2 against 2.4;
    cold Twilio 2010, which black hardly touches, 0.86 against 0.87. The price is bounded
    memory: at most a million objects of cyclic garbage before a collection frees them.
    """
    import gc

    previous = gc.get_threshold()
    gc.set_threshold(max(previous[0], YOUNG_THRESHOLD), *previous[1:])
    try:
        yield
    finally:
        gc.set_threshold(*previous)


YOUNG_THRESHOLD = 1_000_000
