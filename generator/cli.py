"""The `contractgen` command: a thin layer over the library functions."""

from __future__ import annotations

import argparse
import os
import shlex
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

from .errors import EXIT_FAIL, EXIT_USAGE, ContractgenError
from .options import PARTS, Options
from .problems import Level, Problem, SpecError
from .version import __version__

EXIT_OK = 0
EXIT_INTERRUPTED = 130


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
    if args.emit_overlay:
        from .spec import read
        from .spec.repair import repair_overlay

        document, _ = read(args.spec, args.overlay)
        text = repair_overlay(document.data, f"Repairs of {args.spec}")
        if text is None:
            print(f"{args.spec}: nothing mechanical to repair; {args.emit_overlay} not written")
        else:
            Path(args.emit_overlay).write_text(text, encoding="utf-8")
            print(f"wrote {args.emit_overlay}: review it, then pass it with --overlay")
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
    templates = Path(args.templates).resolve()
    return [replace(t, options=t.options.but(templates=templates)) for t in targets]


def cmd_generate(args: argparse.Namespace) -> int:
    from .api import read_package, render, render_target

    if args.spec is None:
        if (args.out is not None or args.overlay is not None or args.parts is not None
                or args.sdk or args.package_name):
            print("contractgen generate: --out, --overlay, --parts and --sdk need a SPEC (without "
                  "one, the targets of [tool.contractgen] are generated)", file=sys.stderr)
            return EXIT_USAGE
        for target in _targets(args):
            _write(target.out_path, render_target(target), args.force)
            print(f"generated {target.out} from {target.spec}")
        return EXIT_OK
    if args.out is None:
        print("contractgen generate: SPEC needs --out DIR", file=sys.stderr)
        return EXIT_USAGE
    out = Path(args.out)
    if args.sdk or args.package_name:
        return _generate_sdk(args)
    files, warnings = render(args.spec, _options(args),
                             previous=read_package(out) if out.is_dir() else None)
    _print_problems(warnings)
    _write(out, files, args.force)
    print(f"generated {args.out} from {args.spec}")
    return EXIT_OK


def _write(out: Path, files: dict[str, str], force: bool) -> None:
    """`write_package`, saying which foreign files a `--force` run accepted for good."""
    from .api import write_package
    from .emit.package import accepted_files

    before = accepted_files(out)
    write_package(out, files, force=force)
    new = [name for name in accepted_files(out) if name not in before]
    if new:
        print(f"{out}: kept {', '.join(new)} (not contractgen's) and recorded them as accepted "
              "in its manifest: later runs, and `watch`, need no --force for them",
              file=sys.stderr)


def _options(args: argparse.Namespace) -> Options:
    """The options `generate` and `watch` of one SPEC were given."""
    return Options(overlay=args.overlay, parts=args.parts or PARTS, templates=args.templates,
                   lenient=args.lenient)


def _generate_sdk(args: argparse.Namespace) -> int:
    from .api import generate_sdk

    if args.parts and set(args.parts) - {"models", "client"}:
        print("contractgen generate: an SDK is a client package; use `--parts client`",
              file=sys.stderr)
        return EXIT_USAGE
    _, warnings = generate_sdk(args.spec, args.out, _options(args),
                               package_name=args.package_name)
    _print_problems(warnings)
    print(f"generated the SDK {args.out} from {args.spec} (`pip install {args.out}`)")
    return EXIT_OK


def cmd_watch(args: argparse.Namespace) -> int:
    from .watch import Job, watch

    if args.interval <= 0:
        print("contractgen watch: --interval must be a positive number of seconds", file=sys.stderr)
        return EXIT_USAGE
    if args.spec is None:
        if args.out is not None or args.overlay is not None or args.parts is not None:
            print("contractgen watch: --out, --overlay and --parts need a SPEC (without one, the "
                  "targets of [tool.contractgen] are watched)", file=sys.stderr)
            return EXIT_USAGE
        from .config import find_config

        config = Path(args.config) if args.config else find_config()

        def configured() -> list[Job]:
            return [Job.of_target(target, force=args.force) for target in _targets(args)]

        return watch(configured, config=config, interval=args.interval, describe=describe_os_error)
    if args.out is None:
        print("contractgen watch: SPEC needs --out DIR", file=sys.stderr)
        return EXIT_USAGE
    job = Job(Path(args.spec), Path(args.out), _options(args), force=args.force)
    return watch(lambda: [job], interval=args.interval, describe=describe_os_error)


def cmd_check(args: argparse.Namespace) -> int:
    from .api import check
    from .project.drift import report

    failed = report(check(_targets(args)), args.format, strict=args.strict, full=args.full)
    return EXIT_FAIL if failed else EXIT_OK


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
    from .project.conformance import EXAMPLE, run_conformance

    if args.example:
        sys.stdout.write(EXAMPLE)
        return EXIT_OK
    if args.spec is None or args.scenario is None or args.base_url is None:
        print("contractgen conformance: needs SPEC, --scenario and --base-url (or --example)",
              file=sys.stderr)
        return EXIT_USAGE
    return run_conformance(args.spec, args.scenario, args.base_url, overlay=args.overlay,
                           token=args.token)


def cmd_new(args: argparse.Namespace) -> int:
    from .project.scaffold import new_project

    dest = Path(args.dest)
    new_project(dest, spec=Path(args.spec), overlay=args.overlay, name=args.name,
                parts=args.parts, template=args.template, vcs_ref=args.vcs_ref, git=args.git)
    print(f"created {args.dest}{' (a git repository, first commit made)' if args.git else ''}")
    print(f"its setup and CI install {_installs(dest)}")
    print(f"next:\n  cd {shlex.quote(args.dest)}\n  make setup && make test && make check")
    return EXIT_OK


def _installs(project: Path) -> str:
    """What the new project's `make setup` (and so its CI) installs contractgen from."""
    import re

    makefile = (project / "Makefile").read_text(encoding="utf-8")
    found = re.search(r"^CONTRACTGEN \?= (.+)$", makefile, re.M)
    requirement = found.group(1).strip() if found else "contractgen"
    if requirement.startswith("vendor/"):
        return (f"contractgen from {requirement}, a wheel of this contractgen committed with the "
                "project (it was made from a checkout, whose path exists on this machine only)")
    return f"{requirement} (the requirement of this contractgen; CONTRACTGEN=... picks another)"


def _parts(value: str) -> tuple[str, ...]:
    """`--parts models,server`: known parts only, in the order given."""
    parts = tuple(part.strip() for part in value.split(",") if part.strip())
    for part in parts:
        if part not in PARTS:
            raise argparse.ArgumentTypeError(
                f"unknown part {part!r} (choose from {', '.join(PARTS)})")
    if not parts:
        raise argparse.ArgumentTypeError(f"name at least one part of {', '.join(PARTS)}")
    return parts


def _package_name(value: str) -> str:
    """`--package-name acme-client`: a distribution name whose import name is an identifier."""
    from .emit.sdk import import_name_of

    try:
        import_name_of(value)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from exc
    return value


def _exits(*lines: str) -> str:
    return "exit codes:\n" + "\n".join(f"  {line}" for line in lines)


USAGE_EXIT = "2  the command line is wrong, or a file or folder cannot be used as given"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="contractgen",
        description="OpenAPI contracts to pydantic models, FastAPI servers and httpx clients.",
        epilog="`contractgen COMMAND --help` says what each command does and its exit codes.",
    )
    parser.add_argument("--version", action="version", version=f"contractgen {__version__}",
                        help="print the version and exit")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def command(name: str, help: str, *exits: str) -> argparse.ArgumentParser:
        return sub.add_parser(name, help=help, description=help, epilog=_exits(*exits),
                              formatter_class=argparse.RawDescriptionHelpFormatter)

    spec_help = "the OpenAPI 3.0/3.1 document (.yaml, .yml or .json)"
    overlay_help = "an OpenAPI Overlay 1.0 document applied to the spec first"
    config_help = "the pyproject.toml to read [tool.contractgen] from (default: the nearest)"
    parts_help = "comma-separated: models,server,client (default: all three)"

    p = command("validate", "validate a spec: every problem, located",
                "0  valid (warnings allowed)", "1  errors found, or the spec cannot be read",
                USAGE_EXIT)
    p.add_argument("spec", help=spec_help)
    p.add_argument("--overlay", help=overlay_help)
    p.add_argument("--emit-overlay", metavar="FILE",
                   help="write an Overlay 1.0 document repairing the mechanical problems, for review")
    p.set_defaults(func=cmd_validate)

    p = command("generate", "generate a package from SPEC, or every target of [tool.contractgen]",
                "0  generated", "1  the spec has errors (nothing written)",
                "2  the command line is wrong, no [tool.contractgen] is found, a file or folder cannot "
                "be used as given, or --out "
                "holds files contractgen did not write (nothing written; see --force)")
    p.add_argument("spec", nargs="?", help=f"{spec_help}; without it, generate every target of "
                   "[tool.contractgen]")
    p.add_argument("--out", help="the package folder to write: a new folder or one contractgen "
                   "wrote (it records its files in .contractgen-manifest.json there)")
    p.add_argument("--overlay", help=overlay_help)
    p.add_argument("--parts", type=_parts, help=parts_help)
    p.add_argument("--config", help=config_help)
    p.add_argument("--force", action="store_true", help="write even where there are files "
                   "contractgen did not write, or changed since (it replaces files of the names it writes, and "
                   "leaves the others alone)")
    p.add_argument("--lenient", action="store_true",
                   help="generate despite errors: skip what cannot be understood and list it as "
                   "located warnings")
    p.add_argument("--templates", metavar="DIR", help="a folder of template overrides (files "
                   "named like built-in templates replace them); beats `templates` in the config")
    p.add_argument("--sdk", action="store_true", help="write the client as an installable "
                   "package: OUT/pyproject.toml, OUT/README.md, OUT/src/<package>/")
    p.add_argument("--package-name", metavar="NAME", type=_package_name, help="the SDK's distribution name, e.g. "
                   "acme-client (implies --sdk; default: the contract's title + -client)")
    p.set_defaults(func=cmd_generate)

    p = command("watch", "regenerate SPEC's package, or every target of [tool.contractgen], "
                "each time the contract changes", "0  stopped (Ctrl-C or SIGTERM); a contract "
                "with errors is reported and waited on, not an exit",
                "2  no [tool.contractgen] to watch, the command line is wrong, or a file or "
                "folder cannot be used as given")
    p.add_argument("spec", nargs="?", help=f"{spec_help}; without it, watch every target of "
                   "[tool.contractgen]")
    p.add_argument("--out", help="the package folder to keep up to date, as for `generate`")
    p.add_argument("--overlay", help=overlay_help)
    p.add_argument("--parts", type=_parts, help=parts_help)
    p.add_argument("--config", help=config_help)
    p.add_argument("--force", action="store_true", help="write even over files changed by "
                   "hand, as `generate --force` does")
    p.add_argument("--lenient", action="store_true",
                   help="generate despite errors, as `generate --lenient` does")
    p.add_argument("--templates", metavar="DIR", help="a folder of template overrides, as for "
                   "`generate` (its files are watched too)")
    p.add_argument("--interval", type=float, default=0.2, metavar="SECONDS",
                   help="how often the files are looked at (default: 0.2)")
    p.set_defaults(func=cmd_watch)

    p = command("check", "compare committed generated code with the specs; check the "
                "implementation", "0  generated code matches the specs",
                "1  drift (a summary, then a diff of the code, on stdout), an override left behind "
                "by a renamed or removed operation, or (--strict) an unimplemented operation",
                "2  the command line is wrong, no [tool.contractgen] is found, or a file or "
                "folder cannot be used as given")
    p.add_argument("--config", help=config_help)
    p.add_argument("--strict", action="store_true",
                   help="also fail when the implementation leaves operations unimplemented")
    p.add_argument("--full", action="store_true", help="show the whole diff of the generated "
                   "code (by default a drift shows its first 30 lines after the summary)")
    p.add_argument("--format", choices=("text", "json", "github"), default="text",
                   help="text for people (a summary first, then the code that changed), json "
                   "for tools, github for GitHub Actions annotations (::error file=...)")
    p.add_argument("--templates", metavar="DIR", help="a folder of template overrides, as "
                   "for `generate`; beats `templates` in the config")
    p.set_defaults(func=cmd_check)

    p = command("diff", "classify changes between two specs: breaking, warning or info",
                "0  no change at or above --fail-on",
                "1  a change at or above --fail-on (by default: a breaking change)",
                "2  a spec is invalid (the errors `validate` reports) or unreadable, or the "
                "command line is wrong")
    p.add_argument("old", help="the spec as it was (e.g. from the main branch)")
    p.add_argument("new", help="the spec as it is now")
    p.add_argument("--format", choices=("text", "json", "markdown"), default="text",
                   help="text for people, json for tools, markdown for a pull-request comment")
    p.add_argument("--fail-on", choices=("breaking", "warning", "info", "any"),
                   default="breaking",
                   help="the lowest level that makes the exit code 1 (any = info)")
    p.add_argument("--overlay", help="an overlay to apply to both specs")
    p.add_argument("--overlay-old", help="an overlay for OLD only (instead of --overlay)")
    p.add_argument("--overlay-new", help="an overlay for NEW only (instead of --overlay)")
    p.set_defaults(func=cmd_diff)

    p = command("conformance", "replay a scenario against a running service; check every answer",
                "0  every step conforms",
                "1  a step does not conform, or the scenario has no steps", USAGE_EXIT)
    p.add_argument("spec", nargs="?", help=spec_help)
    p.add_argument("--scenario", help="YAML steps (`--example` prints an example to start from)")
    p.add_argument("--base-url", help="where the service runs, e.g. http://127.0.0.1:8000")
    p.add_argument("--example", action="store_true",
                   help="print an example scenario (save it, edit it, pass it with --scenario)")
    p.add_argument("--overlay", help=overlay_help)
    p.add_argument("--token", help="bearer token sent with every request")
    p.set_defaults(func=cmd_conformance)

    p = command("new", "start a new project from the copier template",
                "0  created", "1  the spec is invalid or copier failed (nothing left behind)",
                USAGE_EXIT)
    p.add_argument("dest", help="the folder to create (must not exist, or be empty)")
    p.add_argument("--spec", required=True, help=f"{spec_help}; copied into the project's specs/")
    p.add_argument("--overlay", help=f"{overlay_help}; copied into specs/")
    p.add_argument("--name", help="the distribution name (default: from DEST)")
    p.add_argument("--parts", choices=("both", "server", "client"), default="both",
                   help="generate a server, a client or both (default: both)")
    p.add_argument("--template", help="a git repository of the template (default: the one "
                   "shipped with contractgen, recorded as the repository it came from)")
    p.add_argument("--vcs-ref", help="the template version (a tag) to use with --template")
    p.add_argument("--no-git", dest="git", action="store_false",
                   help="do not make the project a git repository with a first commit")
    p.set_defaults(func=cmd_new)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """The command line: parse `argv` (default: the process's), run the command, return its
    exit code."""
    global _COMMAND  # noqa: PLW0603  (read by `entry`)
    args = build_parser().parse_args(argv)
    _COMMAND = args.command
    try:
        code: int = args.func(args)
    except (ContractgenError, OSError, ValueError) as exc:
        return _failed(args.command, exc)
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    return code


def exit_code_of(exc: Exception) -> int:
    """The exit code an error ends the CLI with: a ContractgenError's own (`errors` lists
    them); 2 for an OSError (a file or folder that cannot be used as given); 1 otherwise."""
    if isinstance(exc, ContractgenError):
        return exc.exit_code
    return EXIT_USAGE if isinstance(exc, OSError) else EXIT_FAIL


def _failed(command: str, exc: Exception) -> int:
    """Say what went wrong on stderr (a spec's located problems, else one sentence)."""
    if isinstance(exc, SpecError):
        _print_problems(exc.problems)
    else:
        text = describe_os_error(exc) if isinstance(exc, OSError) else str(exc)
        print(f"contractgen {command}: {text}", file=sys.stderr)
    return exit_code_of(exc)


# The commands that hold a whole contract in memory and leave nothing for exit to do: what
# they write is written and closed, their child processes end on their own (`emit.formatting`).
_QUICK_EXIT = frozenset({"generate", "check", "validate", "diff"})
_COMMAND: str | None = None


def entry() -> NoReturn:
    """The console script (and `python -m contractgen`): `main`, then the process's exit.

    After the commands of `_QUICK_EXIT` the interpreter is not torn down: freeing a large
    contract's document, model and rendered modules object by object, and the collection that
    finalization runs over them, took 20-30 ms of a 0.5 s regeneration of Twilio 2010, with
    nothing to show for it (mypy ends the same way). Output is flushed first."""
    code = main()
    if _COMMAND not in _QUICK_EXIT:
        sys.exit(code)
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):  # a closed pipe: report it as a failure, as exit would
        code = code or EXIT_FAIL
    os._exit(code)


def describe_os_error(exc: OSError) -> str:
    """An OSError as a sentence that says what to do, not `[Errno 17] File exists: 'afile'`."""
    if exc.filename is None:  # raised with a message of our own
        return str(exc)
    name = exc.filename
    if exc.filename2 is not None:
        name = f"{name} -> {exc.filename2}"
    if isinstance(exc, FileNotFoundError):
        return (f"{name}: no such file or folder; check the path (relative paths start in "
                f"{os.getcwd()})")
    if isinstance(exc, NotADirectoryError) and exc.filename2 is None:
        name = _file_on_the_way(Path(os.fsdecode(exc.filename)))
    if isinstance(exc, FileExistsError | NotADirectoryError):
        return f"{name} is a file where a folder is needed; choose another path or move the file"
    if isinstance(exc, IsADirectoryError):
        return f"{name} is a folder where a file is needed; give the path of a file"
    if isinstance(exc, PermissionError):
        return f"{name}: permission denied; use a path you may read and write, or fix its permissions"
    reason = exc.strerror or str(exc)
    return f"{name}: {reason[0].lower() + reason[1:] if reason else 'failed'}"


def _file_on_the_way(path: Path) -> str:
    """The first part of `path` that is a file (what made the folder impossible), else `path`."""
    for part in reversed(path.parents):
        if part.is_file():
            return str(part)
    return str(path)


if __name__ == "__main__":
    entry()
