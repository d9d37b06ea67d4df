"""Rewrite each invalid spec's expected problems: `python -m tests.invalid_specs.regen`.

Every `<name>.yaml` / `<name>.json` here (with `<name>.overlay.yaml` applied when there is one)
is validated from the repository root by `contractgen validate`, and what it prints on stderr
(the formatted problems, one per line) is written to `<name>.expected.txt`.
tests/spec/test_validate.py compares them.
"""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

from contractgen.cli import main as cli

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent


def cases() -> list[Path]:
    """The invalid specs, by name."""
    return sorted(
        p for p in HERE.iterdir()
        if p.suffix in (".yaml", ".json") and not p.name.endswith(".overlay.yaml")
    )


def expected_file(spec: Path) -> Path:
    """Where a spec's expected problems are kept."""
    return spec.with_name(spec.stem + ".expected.txt")


def render(spec: Path) -> str:
    """The formatted problems of one invalid spec, paths relative to the repository root."""
    overlay = spec.with_name(spec.stem + ".overlay.yaml")
    args = ["validate", str(spec.relative_to(REPO))]
    if overlay.exists():
        args += ["--overlay", str(overlay.relative_to(REPO))]
    stderr = io.StringIO()
    with contextlib.chdir(REPO), contextlib.redirect_stderr(stderr), \
            contextlib.redirect_stdout(io.StringIO()):
        cli(args)
    return stderr.getvalue()


def main() -> None:
    """Rewrite every expected file."""
    for spec in cases():
        expected_file(spec).write_text(render(spec), encoding="utf-8")
        print(f"wrote {expected_file(spec).relative_to(REPO)}")


if __name__ == "__main__":
    main()
