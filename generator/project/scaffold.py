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

from ..emit.render import templates_dir

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
        raise ValueError(f"cannot derive a project name from {dest}; pass --name")
    return name


def new_project(
    dest: str | Path,
    *,
    spec: str | Path,
    overlay: str | Path | None = None,
    name: str | None = None,
    parts: str = "both",
    template: str | Path | None = None,
    vcs_ref: str | None = None,
) -> Path:
    """Create a project at `dest`: the contract copied into specs/, its code generated.

    `template` defaults to the one shipped with contractgen; pass a git repository (and
    `vcs_ref`, a tag) to record a version that `copier update` can later move from.
    """
    from copier import run_copy
    from copier.errors import CopierError

    dest = Path(dest)
    if parts not in PART_CHOICES:
        raise ValueError(f"parts must be one of {', '.join(PART_CHOICES)}, not {parts!r}")
    sources = [Path(spec)] + ([Path(overlay)] if overlay else [])
    for source in sources:
        if not source.is_file():
            raise FileNotFoundError(f"{source}: no such file")
    if len({source.name for source in sources}) < len(sources):
        raise ValueError("the spec and the overlay need different file names (both go to specs/)")
    if dest.exists() and any(dest.iterdir()):
        raise FileExistsError(f"{dest} exists and is not empty")
    created = not dest.exists()
    data = {
        "project_name": name or project_name_for(dest),
        # The answers file records the project's own copy, so `copier update` finds it.
        "spec_path": f"specs/{sources[0].name}",
        "overlay_path": f"specs/{sources[1].name}" if overlay else "",
        "parts": parts,
    }
    (dest / "specs").mkdir(parents=True, exist_ok=True)
    for source in sources:
        shutil.copyfile(source, dest / "specs" / source.name)
    try:
        run_copy(str(template or template_path()), dest, data=data, defaults=True, unsafe=True,
                 quiet=True, vcs_ref=vcs_ref)
    except (CopierError, ValueError) as exc:
        if created:
            shutil.rmtree(dest, ignore_errors=True)
        raise ValueError(f"copier could not create {dest}: {exc}") from exc
    return dest


def run_task(operation: str, *, spec: str, overlay: str = "", dst: str = "",
             root: Path | None = None) -> int:
    """The template's task: bring the contract into specs/ (unless there), then generate
    (after a copy; after an update the generated code is left as it is)."""
    root = root or Path.cwd()
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
    args = parser.parse_args(argv)
    try:
        return run_task(args.operation, spec=args.spec, overlay=args.overlay, dst=args.dst)
    except OSError as exc:
        print(f"contractgen: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
