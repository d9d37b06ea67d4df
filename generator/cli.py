"""The `contractgen` command: a thin layer over the library functions."""

from __future__ import annotations

import argparse
import os
import shlex
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NoReturn

from .arguments import build_parser
from .errors import EXIT_FAIL, EXIT_USAGE, ContractgenError, OptionError
from .options import PARTS, Options
from .problems import Level, Problem, SpecError

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
            _write(target.out_path, render_target(target), args)
            print(f"generated {target.out} from {target.spec}")
        return EXIT_OK
    if args.out is None:
        print("contractgen generate: SPEC needs --out DIR", file=sys.stderr)
        return EXIT_USAGE
    out = Path(args.out)
    if args.sdk or args.package_name:
        return _generate_sdk(args)
    previous = read_package(out) if out.is_dir() else None
    files, warnings = render(args.spec, _options(args), previous=previous)
    _print_problems(warnings)
    _write(out, files, args, previous)
    print(f"generated {args.out} from {args.spec}")
    return EXIT_OK


def _write(out: Path, files: dict[str, str], args: argparse.Namespace,
           read: dict[str, str] | None = None) -> None:
    """`write_package` (`read`: the package as read before); with `--force`, saying which files
    it overwrote and which foreign files it accepted for good."""
    from .api import forced_write, write_package
    from .emit.package import accepted_files

    if not (args.force or args.overwrite):
        write_package(out, files, read=read)
        return
    before = accepted_files(out)
    _, replaced = forced_write(out, files, read=read, overwrite=args.overwrite or ())
    if replaced:
        print(f"{out}: overwrote {', '.join(replaced)} (changed since contractgen "
              "wrote them, or not its own)", file=sys.stderr)
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

    return _diffing(lambda: run_diff(
        args.old, args.new, fmt=args.format, fail_on=args.fail_on,
        overlay_old=args.overlay_old or args.overlay, overlay_new=args.overlay_new or args.overlay,
        policy=args.policy))


def cmd_changelog(args: argparse.Namespace) -> int:
    from .diff import run_changelog

    return _diffing(lambda: run_changelog(
        args.old, args.new, title=args.title, overlay_old=args.overlay_old or args.overlay,
        overlay_new=args.overlay_new or args.overlay, policy=args.policy))


def _diffing(run: Callable[[], int]) -> int:
    """`diff` or `changelog`: exit 2 for a contract, policy or revision they cannot use."""
    try:
        return run()
    except SpecError as exc:
        # exit 1 means "a change fails the run"; a contract we cannot compare is a usage error
        _print_problems(exc.problems)
        print("contractgen diff: compares OpenAPI 3 documents it can read; fix the errors above "
              "(`contractgen validate SPEC` lists them)", file=sys.stderr)
        return EXIT_USAGE
    except OptionError as exc:  # a policy or a git revision it cannot use; 1 is "fails"
        print(f"contractgen diff: {exc}", file=sys.stderr)
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


def cmd_mock(args: argparse.Namespace) -> int:
    from .mock import run
    from .mock.settings import settings

    spec, options, host, port = settings(args)
    run(spec, options, host=host, port=port)
    return EXIT_OK


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


COMMANDS = {"validate": cmd_validate, "generate": cmd_generate, "watch": cmd_watch,
            "check": cmd_check, "diff": cmd_diff, "changelog": cmd_changelog,
            "conformance": cmd_conformance, "mock": cmd_mock, "new": cmd_new}


def main(argv: Sequence[str] | None = None) -> int:
    """The command line: parse `argv` (default: the process's), run the command, return its
    exit code."""
    global _COMMAND  # noqa: PLW0603  (read by `entry`)
    args = build_parser().parse_args(argv)
    _COMMAND = args.command
    try:
        code: int = COMMANDS[args.command](args)
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
# they write is written and closed, and the validation's forked child (`verdict`) has ended.
_QUICK_EXIT = frozenset({"generate", "check", "validate", "diff", "changelog"})
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
