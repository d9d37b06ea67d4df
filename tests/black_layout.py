"""The contracts whose raw render must be black's layout, and a report of where it is not.

`python -m tests.black_layout [SPEC ...]` prints, per contract, the top-level blocks of the raw
render (templates, no black) that black would change, with black's version beside them; with no
argument it walks the fast set (`fast_cases`). tests/test_black_layout.py asserts there are none.
"""

from __future__ import annotations

import difflib
import sys
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SPECS = ROOT / "specs"
sys.path.insert(0, str(ROOT / "tests"))  # run as `python -m tests.black_layout` too
from shared_corpus import CORPUS  # noqa: E402, F401 (the tests read it from here)


@dataclass
class Case:
    """A contract as some test or target generates it."""

    spec: Path
    overlay: Path | None = None
    lenient: bool = False
    notes: dict[str, str] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return self.spec.name + (" + overlay" if self.overlay else "") + (
            " (lenient)" if self.lenient else "")


def fast_cases() -> list[Case]:
    """The seeds (with and without their overlays) and the contracts under tests/."""
    cases = [Case(spec) for spec in sorted(SPECS.glob("*.openapi.yaml"))]
    for project in sorted((ROOT / "backends").glob("*/pyproject.toml")):  # as `make regen`
        for target in tomllib.loads(project.read_text())["tool"]["contractgen"]["targets"]:
            overlay = target.get("overlay")
            cases.append(Case(project.parent / target["spec"],
                              project.parent / overlay if overlay else None,
                              notes=target.get("extension_notes", {})))
    tests = ROOT / "tests"
    for spec in sorted([*(tests / "corpus").glob("*.*"), *(tests / "scenarios").glob("*.*")]):
        if spec.suffix in (".yaml", ".yml", ".json") and spec.name != "large_synthetic.json":
            cases.append(Case(spec))
    for spec in sorted((tests / "invalid_specs").glob("*.*")):
        if spec.suffix in (".yaml", ".json") and ".overlay." not in spec.name:
            cases.append(Case(spec, lenient=True))
    return cases


def raw_sources(case: Case) -> dict[str, str] | None:
    """The modules as the templates write them (None: the contract does not generate)."""
    from contractgen.api import load
    from contractgen.emit.render import render_package
    from contractgen.model.parse import build_api
    from contractgen.spec.lenient import leniently

    try:
        document, _ = load(case.spec, overlay=case.overlay)
        if case.lenient:
            document, _ = leniently(document)
        api = build_api(document, spec_display=case.spec.name,
                        overlay_display=case.overlay.name if case.overlay else None,
                        extension_notes=case.notes or None)
    except Exception:
        return None
    return {name: text for name, text in render_package(api).items()
            if name.endswith(".py") and name not in static_modules()}


def static_modules() -> frozenset[str]:
    """The modules copied from templates/ as they are (written in black's layout by hand)."""
    from contractgen.emit import render

    return (render.VERBATIM | render.CLIENT_VERBATIM | render.MODELS_VERBATIM
            | render.HOOKS_VERBATIM)


def black(text: str) -> str:
    import black as _black
    from contractgen.emit.formatting import black_mode

    return _black.format_str(text, mode=black_mode())


def marked_blocks(text: str) -> set[int]:
    """The indexes of the top-level blocks of `text` that the formatter leaves to black."""
    import bisect

    from contractgen.emit import blocks
    from contractgen.emit.vouch import unsure_lines

    found = blocks.split_spans(text)
    assert found is not None
    bounds = found[1]
    starts = [0, *(at + 1 for at, char in enumerate(text) if char == "\n")]
    return {bisect.bisect_right(bounds, starts[n]) - 1 for n in unsure_lines(text)}


def differing_blocks(sources: dict[str, str]) -> tuple[list[tuple[str, str, str]], int]:
    """(module, block, black's block) for each top-level block black would change that the
    formatter does not leave to black (each one a bug), and how many blocks it leaves to black."""
    from contractgen.emit import blocks

    found: list[tuple[str, str, str]] = []
    marked_count = 0
    for name, text in sorted(sources.items()):
        split = blocks.split(text)
        assert split is not None, name
        marked = marked_blocks(text)
        marked_count += len(marked)
        before = len(found)
        for index, block in enumerate(split):
            if index not in marked and (out := black(block.text)) != block.text:
                found.append((name, block.text, out))
        if len(found) == before and blocks.join(split, [b.text for b in split]) != text:
            found.append((name, text, black(text)))  # blank lines between blocks
    return found, marked_count


def report(case: Case, out: Any = sys.stdout) -> int:
    sources = raw_sources(case)
    if sources is None:
        print(f"{case.name}: does not generate", file=out)
        return 0
    found, marked = differing_blocks(sources)
    print(f"{case.name}: {len(found)} blocks differ, {marked} left to black", file=out)
    for name, text, formatted in found:
        diff = difflib.unified_diff(text.splitlines(), formatted.splitlines(), name, "black",
                                    lineterm="", n=1)
        print("\n".join(diff), file=out)
    return len(found)


def main() -> None:
    args = sys.argv[1:]
    lenient = "--lenient" in args
    cases = [Case(Path(a), lenient=lenient) for a in args if a != "--lenient"] or fast_cases()
    total = sum(report(case) for case in cases)
    sys.exit(1 if total else 0)


if __name__ == "__main__":
    main()
