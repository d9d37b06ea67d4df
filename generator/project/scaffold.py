"""New projects from the copier template (`contractgen new`), and the task the template runs.

The template is `templates/copier.yml` + `templates/project/`, shipped inside the package as
`contractgen/templates/`; the repository root's `copier.yml` serves the same template to
`copier copy <repository>` (both include `templates/project-questions.yml`).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

from ..emit.templates import templates_dir
from ..errors import OptionError, ScaffoldError

PART_CHOICES = ("both", "server", "client")


def template_path() -> Path:
    """The copier template that ships with this contractgen (its `copier.yml` is here)."""
    root = templates_dir()
    if not (root / "copier.yml").is_file():
        raise FileNotFoundError(f"{root}: no copier.yml; the project template is missing")
    return root


def project_name_for(dest: Path) -> str:
    """A distribution name from a directory name: `My Backend` -> `my-backend`."""
    name = re.sub(r"[^a-z0-9._-]+", "-", dest.resolve().name.lower()).strip("-._")
    name = name.lstrip("0123456789-._")
    if not name:
        raise OptionError(f"cannot derive a project name from {dest}; pass --name")
    return name


def _usable_sources(dest: Path, spec: str | Path, overlay: str | Path | None, parts: str
                    ) -> list[Path]:
    """The contract (and overlay) to copy into `dest`/specs, once the options are known good."""
    if parts not in PART_CHOICES:
        raise OptionError(f"parts must be one of {', '.join(PART_CHOICES)}, not {parts!r}")
    sources = [Path(spec)] + ([Path(overlay)] if overlay else [])
    for source in sources:
        if not source.is_file():
            raise FileNotFoundError(f"{source}: no such file")
    if len({source.name for source in sources}) < len(sources):
        raise OptionError("the spec and the overlay need different file names (both go to specs/)")
    if dest.exists() and any(dest.iterdir()):
        raise FileExistsError(f"{dest} exists and is not empty")
    return sources


def _refuse_an_invalid_contract(spec: Path, overlay: Path | None = None) -> None:
    """SpecError, located in the user's own files, when the contract (after its overlay) has
    errors: the template's task would meet them in the project's copy, then deleted with it."""
    from ..pipeline import validate
    from ..problems import Level, SpecError

    problems = validate(spec, overlay)
    if any(problem.level is Level.ERROR for problem in problems):
        raise SpecError(problems)


def new_project(dest: str | Path, *, spec: str | Path, overlay: str | Path | None = None,
                name: str | None = None, parts: str = "both", template: str | Path | None = None,
                vcs_ref: str | None = None, git: bool = True) -> Path:
    """Create a project at `dest`: the contract copied into specs/, its code generated, and
    (unless `git` is false) a git repository with a first commit.

    `template` defaults to the one shipped with contractgen, recorded as the repository and
    revision this contractgen came from, so that `copier update` can move from it; or pass a
    git repository (and `vcs_ref`, a tag).
    """
    from copier import run_copy
    from copier.errors import CopierError

    dest = Path(dest)
    sources = _usable_sources(dest, spec, overlay, parts)
    _refuse_an_invalid_contract(*sources)
    created = not dest.exists()
    # The answers file records the project's own copy, so `copier update` finds it.
    data = {"project_name": name or project_name_for(dest),
            "spec_path": f"specs/{sources[0].name}",
            "overlay_path": f"specs/{sources[1].name}" if overlay else "", "parts": parts}
    (dest / "specs").mkdir(parents=True, exist_ok=True)
    for source in sources:
        shutil.copyfile(source, dest / "specs" / source.name)
    if template is None:
        from .provenance import vendor_wheel

        try:
            data["contractgen_wheel"] = vendor_wheel(dest) or ""
        except OSError:
            if created:
                shutil.rmtree(dest, ignore_errors=True)
            raise
    try:
        run_copy(str(template or template_path()), dest, data=data, defaults=True, unsafe=True,
                 quiet=True, vcs_ref=vcs_ref)
    except (CopierError, ValueError) as exc:
        if created:
            shutil.rmtree(dest, ignore_errors=True)
        raise ScaffoldError(f"copier could not create {dest}: {exc}") from exc
    if template is None:
        from .provenance import provenance

        # Rendered from the packaged copy of the template, which is the template of the
        # repository and revision this contractgen was built from: copier updates from there.
        found = provenance()
        update_answers(dest, {"_commit": found.describe, "_src_path": found.repository})
    if git:
        _first_commit(dest)
    return dest


ANSWERS = ".copier-answers.yml"


def update_answers(root: Path, changes: dict[str, str]) -> None:
    """Set answers in the project's answers file, keeping copier's layout of it."""
    import yaml

    path = root / ANSWERS
    if not path.is_file():
        return
    text = path.read_text(encoding="utf-8")
    for key, value in changes.items():
        line = yaml.safe_dump({key: value}, default_flow_style=False, allow_unicode=True).strip()
        found = re.search(rf"^{re.escape(key)}:.*$", text, re.M)
        if found is None:  # copier writes `_commit` and `_src_path` first, after its comment
            found = re.search(r"^(?!#)", text, re.M)
            line += "\n"
        if found is not None:
            text = text[:found.start()] + line + text[found.end():]
    path.write_text(text, encoding="utf-8")


def _first_commit(dest: Path) -> None:
    """`git init` and a first commit of everything made (the user's identity, if git has one)."""
    from ..version import __version__

    def git(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(["git", *args], cwd=dest, capture_output=True, text=True,
                              check=False, timeout=120)

    try:
        git("init", "-q")
    except OSError:
        print("contractgen new: git is not installed, so the project is no git repository; "
              "`git init` it yourself", file=sys.stderr)
        return
    identity = [] if git("config", "user.email").stdout.strip() else [
        "-c", "user.name=contractgen", "-c", "user.email=contractgen@localhost"]
    git("add", "-A")
    done = git(*identity, "commit", "-q", "-m", f"New project from contractgen {__version__}")
    if done.returncode != 0:
        print(f"contractgen new: the first commit failed ({done.stderr.strip()}); commit the "
              "project yourself", file=sys.stderr)


def run_task(operation: str, *, spec: str, overlay: str = "", dst: str = "",
             root: Path | None = None, wheel: str = "") -> int:
    """The template's task: vendor contractgen's wheel where the answers name one that is not
    there yet (`copier copy` from a checkout), bring the contract into specs/ (unless there),
    then generate (after a copy; after an update the generated code is left as it is)."""
    root = root or Path.cwd()
    if wheel and operation == "copy" and not (root / wheel).is_file():
        from .provenance import vendor_wheel

        built = vendor_wheel(root)
        if built != wheel:
            raise FileNotFoundError(f"{wheel}: not built (the running contractgen gives "
                                    f"{built or 'no wheel'}); copy it there, or answer "
                                    "contractgen_wheel with the wheel you have")
        print(f"vendored contractgen as {wheel}: the project's setup and CI install it from "
              "there (commit it)", file=sys.stderr)
    for source in filter(None, (spec, overlay)):
        target = root / "specs" / Path(source).name
        if target.is_file():
            continue  # the project's copy is the contract from now on
        found = _locate(source, root, _origins(root, dst) if operation == "copy" else [])
        if found is None:
            if operation == "update":
                # copier update renders the old and new template versions into empty folders
                # to diff them; a project-relative contract is not there, and need not be.
                return 0
            raise FileNotFoundError(
                f"{source}: no such file (relative paths start where copier runs)")
        target.parent.mkdir(exist_ok=True)
        shutil.copyfile(found, target)
    # The answers record the project's own copy, not where it came from (an absolute path or
    # one relative to where copier ran): `copier update` finds it there.
    update_answers(root, {key: f"specs/{Path(value).name}"
                          for key, value in (("spec_path", spec), ("overlay_path", overlay))
                          if value and value != f"specs/{Path(value).name}"})
    if operation == "update":
        # copier runs update tasks with the new template's files in place and the project's
        # own edits (its target configuration among them) not yet re-applied: generating now
        # would use a configuration the project does not have. The generated code stays as it
        # is; `contractgen check` says when it needs regenerating.
        return 0
    # The CLI in a child process: the CLI calls into this module, not the other way round.
    command = [sys.executable, "-m", "contractgen", "generate", "--config",
               str(root / "pyproject.toml")]
    return subprocess.run(command, check=False).returncode


def _origins(root: Path, dst: str) -> list[Path]:
    """Where copier was started: tasks run inside the new project, not there."""
    origins: list[Path] = []
    parts = Path(dst).parts
    if dst and not Path(dst).is_absolute() and ".." not in parts:
        origins.append(root.parents[len(parts) - 1] if parts else root)
    if os.environ.get("PWD"):  # set by the shell that started copier
        origins.append(Path(os.environ["PWD"]))
    return origins


def _locate(source: str, root: Path, origins: list[Path]) -> Path | None:
    path = Path(source).expanduser()
    candidates = [path] if path.is_absolute() else [base / path for base in [*origins, root]]
    return next((candidate for candidate in candidates if candidate.is_file()), None)


def main(argv: Sequence[str] | None = None) -> int:
    """`python -m contractgen.project.scaffold copy|update --spec= [--overlay=] [--dst=]`."""
    parser = argparse.ArgumentParser(
        prog="python -m contractgen.project.scaffold",
        description="The project template's task: contract into specs/, then generate.")
    parser.add_argument("operation", choices=("copy", "update"))
    parser.add_argument("--spec", required=True)
    parser.add_argument("--overlay", default="")
    parser.add_argument("--dst", default="", help="the destination as given to copier")
    parser.add_argument("--wheel", default="", help="the project's vendored contractgen wheel")
    args = parser.parse_args(argv)
    try:
        return run_task(args.operation, spec=args.spec, overlay=args.overlay, dst=args.dst,
                        wheel=args.wheel)
    except OSError as exc:
        print(f"contractgen: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
