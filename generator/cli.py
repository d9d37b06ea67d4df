"""The `contractgen` command: a thin layer over the library functions."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .problems import Level, Problem, SpecError
from .version import __version__

EXIT_OK, EXIT_FAIL, EXIT_USAGE = 0, 1, 2


def _print_problems(problems: Sequence[Problem]) -> None:
    for problem in problems:
        print(problem.format(), file=sys.stderr)


def _counts(problems: Sequence[Problem]) -> str:
    errors = sum(1 for p in problems if p.level is Level.ERROR)
    warnings = len(problems) - errors
    return f"{errors} error{'s' * (errors != 1)}, {warnings} warning{'s' * (warnings != 1)}"


def cmd_validate(args: argparse.Namespace) -> int:
    from .api import validate

    problems = validate(args.spec, overlay=args.overlay)
    _print_problems(problems)
    failed = any(p.level is Level.ERROR for p in problems)
    verdict = "invalid" if failed else "valid"
    print(f"{args.spec}: {verdict} ({_counts(problems)})")
    return EXIT_FAIL if failed else EXIT_OK


def _targets(args: argparse.Namespace) -> list[Any]:
    """The configured targets, with `--templates` (if given) replacing their overrides."""
    from dataclasses import replace

    from .api import targets_from

    targets = targets_from(Path(args.config) if args.config else None)
    if args.templates is None:
        return targets
    return [replace(t, templates=str(Path(args.templates).resolve())) for t in targets]


def cmd_generate(args: argparse.Namespace) -> int:
    from .api import read_package, render, render_target, write_package

    if args.spec is None:
        if args.out is not None or args.overlay is not None or args.sdk or args.package_name:
            print("contractgen generate: --out/--overlay/--sdk need a SPEC", file=sys.stderr)
            return EXIT_USAGE
        for target in _targets(args):
            write_package(target.out_path, render_target(target))
            print(f"generated {target.out} from {target.spec}")
        return EXIT_OK
    if args.out is None:
        print("contractgen generate: SPEC needs --out DIR", file=sys.stderr)
        return EXIT_USAGE
    parts = tuple(args.parts.split(",")) if args.parts else ("models", "server", "client")
    if args.sdk or args.package_name:
        return _generate_sdk(args, parts)
    files, warnings = render(args.spec, overlay=args.overlay, parts=parts,
                             previous=read_package(Path(args.out)), templates=args.templates)
    _print_problems(warnings)
    write_package(Path(args.out), files)
    print(f"generated {args.out} from {args.spec}")
    return EXIT_OK


def _generate_sdk(args: argparse.Namespace, parts: tuple[str, ...]) -> int:
    from .api import generate_sdk

    if args.parts and set(parts) - {"models", "client"}:
        print("contractgen generate: an SDK is a client package; use `--parts client`",
              file=sys.stderr)
        return EXIT_USAGE
    _, warnings = generate_sdk(args.spec, args.out, package_name=args.package_name,
                               overlay=args.overlay, templates=args.templates)
    _print_problems(warnings)
    print(f"generated the SDK {args.out} from {args.spec} (`pip install {args.out}`)")
    return EXIT_OK


def cmd_check(args: argparse.Namespace) -> int:
    from .api import check

    result = check(_targets(args))
    for drift in result.drift:
        sys.stdout.write(drift.diff)
        print(f"drift: {drift.target.out} no longer matches {drift.target.spec}; "
              "run `contractgen generate`", file=sys.stderr)
    for implementation, missing in result.unimplemented.items():
        level = "error" if args.strict else "warning"
        print(f"{level}: {implementation} does not implement {', '.join(missing)} "
              "(they answer 501)", file=sys.stderr)
    if result.drift or (args.strict and result.unimplemented):
        return EXIT_FAIL
    print("contractgen check: generated code matches the specs")
    return EXIT_OK


def cmd_diff(args: argparse.Namespace) -> int:
    from .diff import run_diff

    try:
        return run_diff(args.old, args.new, fmt=args.format, fail_on=args.fail_on,
                        overlay_old=args.overlay_old or args.overlay,
                        overlay_new=args.overlay_new or args.overlay)
    except SpecError as exc:
        # exit 1 means "a change fails the run"; a contract we cannot compare is a usage error
        _print_problems(exc.problems)
        print("contractgen diff: compares valid contracts only; fix the errors above "
              "(`contractgen validate SPEC` lists them)", file=sys.stderr)
        return EXIT_USAGE


def cmd_conformance(args: argparse.Namespace) -> int:
    from .project.conformance import run_conformance

    return run_conformance(args.spec, args.scenario, args.base_url, overlay=args.overlay,
                           token=args.token)


def cmd_new(args: argparse.Namespace) -> int:
    from .project.scaffold import new_project

    new_project(Path(args.dest), spec=Path(args.spec), overlay=args.overlay, name=args.name,
                parts=args.parts, template=args.template, vcs_ref=args.vcs_ref)
    print(f"created {args.dest}")
    return EXIT_OK


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="contractgen",
        description="OpenAPI contracts to pydantic models, FastAPI servers and httpx clients.",
    )
    parser.add_argument("--version", action="version", version=f"contractgen {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("validate", help="validate a spec; exit 1 on errors")
    p.add_argument("spec")
    p.add_argument("--overlay", help="an OpenAPI Overlay 1.0 document to apply first")
    p.set_defaults(func=cmd_validate)

    p = sub.add_parser("generate", help="generate a package (or every configured target)")
    p.add_argument("spec", nargs="?")
    p.add_argument("--out", help="the package directory to write (owned by the generator)")
    p.add_argument("--overlay")
    p.add_argument("--parts", help="comma-separated: models,server,client (default: all)")
    p.add_argument("--config", help="pyproject.toml to read targets from")
    p.add_argument("--templates", metavar="DIR", help="a folder of template overrides (files "
                   "named like built-in templates replace them); beats `templates` in the config")
    p.add_argument("--sdk", action="store_true", help="write the client as an installable "
                   "package: OUT/pyproject.toml, OUT/README.md, OUT/src/<package>/")
    p.add_argument("--package-name", metavar="NAME", help="the SDK's distribution name, e.g. "
                   "acme-client (implies --sdk; default: the contract's title + -client)")
    p.set_defaults(func=cmd_generate)

    p = sub.add_parser("check", help="exit 1 with a diff when generated code drifted")
    p.add_argument("--config", help="pyproject.toml to read targets from")
    p.add_argument("--strict", action="store_true",
                   help="also fail when the implementation leaves operations unimplemented")
    p.add_argument("--templates", metavar="DIR", help="a folder of template overrides, as "
                   "for `generate`; beats `templates` in the config")
    p.set_defaults(func=cmd_check)

    p = sub.add_parser(
        "diff", help="classify changes between two specs: breaking, warning or info",
        description="Exit codes: 0 no change at or above --fail-on, 1 some change is, "
        "2 a spec is invalid (the errors `validate` reports) or unreadable.")
    p.add_argument("old")
    p.add_argument("new")
    p.add_argument("--format", choices=("text", "json", "markdown"), default="text",
                   help="text for people, json for tools, markdown for a pull-request comment")
    p.add_argument("--fail-on", choices=("breaking", "warning", "info", "any"),
                   default="breaking",
                   help="the lowest level that makes the exit code 1 (any = info)")
    p.add_argument("--overlay", help="an overlay to apply to both specs")
    p.add_argument("--overlay-old", help="an overlay for OLD only (instead of --overlay)")
    p.add_argument("--overlay-new", help="an overlay for NEW only (instead of --overlay)")
    p.set_defaults(func=cmd_diff)

    p = sub.add_parser("conformance",
                       help="replay a scenario against a running service; check every answer")
    p.add_argument("spec")
    p.add_argument("--scenario", required=True, help="YAML steps (see contractgen.project.conformance)")
    p.add_argument("--base-url", required=True)
    p.add_argument("--overlay")
    p.add_argument("--token", help="bearer token sent with every request")
    p.set_defaults(func=cmd_conformance)

    p = sub.add_parser("new", help="start a new project from the copier template")
    p.add_argument("dest")
    p.add_argument("--spec", required=True)
    p.add_argument("--overlay")
    p.add_argument("--name")
    p.add_argument("--parts", choices=("both", "server", "client"), default="both")
    p.add_argument("--template", help="a git repository of the template (default: the one "
                   "shipped with contractgen); needed for `copier update` later")
    p.add_argument("--vcs-ref", help="the template version (a tag) to use with --template")
    p.set_defaults(func=cmd_new)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the console script."""
    args = build_parser().parse_args(argv)
    try:
        code: int = args.func(args)
    except SpecError as exc:
        _print_problems(exc.problems)
        return EXIT_FAIL
    except (OSError, ValueError) as exc:
        print(f"contractgen {args.command}: {exc}", file=sys.stderr)
        return EXIT_FAIL
    except KeyboardInterrupt:
        return 130
    return code


if __name__ == "__main__":
    sys.exit(main())
