"""The `contractgen` command line's grammar: its commands, their arguments, help and exit codes
(`cli` runs the command named)."""

from __future__ import annotations

import argparse
from collections.abc import Callable

from .options import PARTS
from .version import __version__


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
SPEC_HELP = "the OpenAPI 3.0/3.1 document (.yaml, .yml or .json)"
OVERLAY_HELP = "an OpenAPI Overlay 1.0 document applied to the spec first"
CONFIG_HELP = "the pyproject.toml to read [tool.contractgen] from (default: the nearest)"
PARTS_HELP = "comma-separated: models,server,client (default: all three)"

# `command(name, help, *exit code lines)`: a new subcommand's parser.
Command = Callable[..., argparse.ArgumentParser]


def build_parser() -> argparse.ArgumentParser:
    """The parser of every command (each added by its own function below)."""
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

    for add in (_validate, _generate, _watch, _check, _diff, _changelog, _conformance, _mock,
                _new):
        add(command)
    return parser


def _validate(command: Command) -> None:
    p = command("validate", "validate a spec: every problem, located",
                "0  valid (warnings allowed)", "1  errors found, or the spec cannot be read",
                USAGE_EXIT)
    p.add_argument("spec", help=SPEC_HELP)
    p.add_argument("--overlay", help=OVERLAY_HELP)
    p.add_argument("--emit-overlay", metavar="FILE",
                   help="write an Overlay 1.0 document repairing the mechanical problems, for review")


def _generate(command: Command) -> None:
    p = command("generate", "generate a package from SPEC, or every target of [tool.contractgen]",
                "0  generated", "1  the spec has errors (nothing written)",
                "2  the command line is wrong, no [tool.contractgen] is found, a file or folder cannot "
                "be used as given, or --out "
                "holds files contractgen did not write (nothing written; see --force)")
    _target_arguments(
        p, "generate", "the package folder to write: a new folder or one contractgen wrote (it "
        "records its files in .contractgen-manifest.json there)",
        force="write even where there are files contractgen did not write, or changed since: it "
        "replaces the files it wrote (listing those changed by hand), refuses to replace one of "
        "the same name it did not write (see --overwrite), and leaves the others alone",
        lenient="generate despite errors: skip what cannot be understood and list it as located "
        "warnings",
        templates="a folder of template overrides (files named like built-in templates replace "
        "them); beats `templates` in the config")
    p.add_argument("--overwrite", action="append", metavar="FILE",
                   help="replace FILE of the package folder even though contractgen did not write "
                   "it (--force alone refuses that; implies --force; repeatable)")
    p.add_argument("--sdk", action="store_true", help="write the client as an installable "
                   "package: OUT/pyproject.toml, OUT/README.md, OUT/src/<package>/")
    p.add_argument("--package-name", metavar="NAME", type=_package_name, help="the SDK's distribution name, e.g. "
                   "acme-client (implies --sdk; default: the contract's title + -client)")


def _target_arguments(p: argparse.ArgumentParser, verb: str, out: str, *, force: str,
                      lenient: str, templates: str) -> None:
    """The arguments `generate` and `watch` share (their help differs): SPEC or the targets."""
    p.add_argument("spec", nargs="?", help=f"{SPEC_HELP}; without it, {verb} every target of "
                   "[tool.contractgen]")
    p.add_argument("--out", help=out)
    p.add_argument("--overlay", help=OVERLAY_HELP)
    p.add_argument("--parts", type=_parts, help=PARTS_HELP)
    p.add_argument("--config", help=CONFIG_HELP)
    p.add_argument("--force", action="store_true", help=force)
    p.add_argument("--lenient", action="store_true", help=lenient)
    p.add_argument("--templates", metavar="DIR", help=templates)


def _watch(command: Command) -> None:
    p = command("watch", "regenerate SPEC's package, or every target of [tool.contractgen], "
                "each time the contract changes", "0  stopped (Ctrl-C or SIGTERM); a contract "
                "with errors is reported and waited on, not an exit",
                "2  no [tool.contractgen] to watch, the command line is wrong, or a file or "
                "folder cannot be used as given")
    _target_arguments(
        p, "watch", "the package folder to keep up to date, as for `generate`",
        force="write even over files changed by hand, as `generate --force` does",
        lenient="generate despite errors, as `generate --lenient` does",
        templates="a folder of template overrides, as for `generate` (its files are watched too)")
    p.add_argument("--interval", type=float, default=0.1, metavar="SECONDS",
                   help="how often the files are looked at (default: 0.1)")


def _check(command: Command) -> None:
    p = command("check", "compare committed generated code with the specs; check the "
                "implementation", "0  generated code matches the specs",
                "1  drift (a summary, then a diff of the code, on stdout), an override left behind "
                "by a renamed or removed operation, or (--strict) an unimplemented operation",
                "2  the command line is wrong, no [tool.contractgen] is found, or a file or "
                "folder cannot be used as given")
    p.add_argument("--config", help=CONFIG_HELP)
    p.add_argument("--strict", action="store_true",
                   help="also fail when the implementation leaves operations unimplemented")
    p.add_argument("--full", action="store_true", help="show the whole diff of the generated "
                   "code (by default a drift shows its first 30 lines after the summary)")
    p.add_argument("--format", choices=("text", "json", "github"), default="text",
                   help="text for people (a summary first, then the code that changed), json "
                   "for tools, github for GitHub Actions annotations (::error file=...)")
    p.add_argument("--templates", metavar="DIR", help="a folder of template overrides, as "
                   "for `generate`; beats `templates` in the config")


def _diff(command: Command) -> None:
    p = command("diff", "classify changes between two specs: breaking, warning or info",
                "0  no change at or above --fail-on",
                "1  a change at or above --fail-on (by default: a breaking change), or an expired "
                "ignore in the policy",
                "2  a spec cannot be read as OpenAPI 3 (errors `validate` finds in one it can "
                "read are warnings), the policy is wrong, or the command line is")
    _diff_inputs(p)
    p.add_argument("--format", choices=("text", "json", "yaml", "markdown", "github", "junit"),
                   default="text", help="text for people, json or yaml for tools, markdown for "
                   "a pull-request comment, github for GitHub Actions annotations on the lines, "
                   "junit for CI test reports (a failing change is a failed test)")
    p.add_argument("--fail-on", choices=("breaking", "warning", "info", "any"),
                   help="the lowest level that makes the exit code 1 (any = info); by default "
                   "the policy's `fail-on`, else breaking")


def _diff_inputs(p: argparse.ArgumentParser) -> None:
    """The arguments `diff` and `changelog` share: the two sides, overlays, the policy."""
    p.add_argument("old", help="the spec as it was: a file, or REV:PATH at a git revision "
                   "(e.g. origin/main:specs/api.yaml)")
    p.add_argument("new", help="the spec as it is now (a file, or REV:PATH)")
    p.add_argument("--overlay", help="an overlay to apply to both specs")
    p.add_argument("--overlay-old", help="an overlay for OLD only (instead of --overlay)")
    p.add_argument("--overlay-new", help="an overlay for NEW only (instead of --overlay)")
    p.add_argument("--policy", metavar="FILE", help="a TOML diff policy (rule levels, ignores "
                   "with reasons and expiry, deprecation days, major-bump); by default "
                   "`[tool.contractgen.diff]` of the nearest pyproject.toml")


def _changelog(command: Command) -> None:
    p = command("changelog", "the changes of a release in Markdown, grouped by operation",
                "0  written", "2  a spec cannot be read, or the command line is wrong")
    _diff_inputs(p)
    p.add_argument("--title", default="API changes", help="the changelog's heading")


def _conformance(command: Command) -> None:
    p = command("conformance", "replay a scenario against a running service; check every answer",
                "0  every step conforms",
                "1  a step does not conform, or the scenario has no steps", USAGE_EXIT)
    p.add_argument("spec", nargs="?", help=SPEC_HELP)
    p.add_argument("--scenario", help="YAML steps (`--example` prints an example to start from)")
    p.add_argument("--base-url", help="where the service runs, e.g. http://127.0.0.1:8000")
    p.add_argument("--example", action="store_true",
                   help="print an example scenario (save it, edit it, pass it with --scenario)")
    p.add_argument("--overlay", help=OVERLAY_HELP)
    p.add_argument("--token", help="bearer token sent with every request")


def _mock(command: Command) -> None:
    p = command("mock", "serve a stateful mock of SPEC (or of [tool.contractgen.mock])",
                "0  stopped", "1  the spec has errors", USAGE_EXIT)
    p.add_argument("spec", nargs="?", help=SPEC_HELP)
    p.add_argument("--overlay", help=OVERLAY_HELP)
    p.add_argument("--host", help="the address to listen on (default: 127.0.0.1)")
    p.add_argument("--port", type=int, help="the port (default: 4010)")
    p.add_argument("--seed", type=int, help="made-up answers depend on it and the request alone")
    p.add_argument("--data", help="JSON or YAML: concrete collection paths -> their first items")
    p.add_argument("--scenario", help="a `contractgen conformance` steps file: answers in order")
    p.add_argument("--stateless", action="store_true", help="store nothing (as Prism does)")
    p.add_argument("--config", help=CONFIG_HELP)


def _new(command: Command) -> None:
    p = command("new", "start a new project from the copier template",
                "0  created", "1  the spec is invalid or copier failed (nothing left behind)",
                USAGE_EXIT)
    p.add_argument("dest", help="the folder to create (must not exist, or be empty)")
    p.add_argument("--spec", required=True, help=f"{SPEC_HELP}; copied into the project's specs/")
    p.add_argument("--overlay", help=f"{OVERLAY_HELP}; copied into specs/")
    p.add_argument("--name", help="the distribution name (default: from DEST)")
    p.add_argument("--parts", choices=("both", "server", "client"), default="both",
                   help="generate a server, a client or both (default: both)")
    p.add_argument("--template", help="a git repository of the template (default: the one "
                   "shipped with contractgen, recorded as the repository it came from)")
    p.add_argument("--vcs-ref", help="the template version (a tag) to use with --template")
    p.add_argument("--no-git", dest="git", action="store_false",
                   help="do not make the project a git repository with a first commit")
