"""Agreement with oasdiff: `contractgen diff` on the spec pairs of oasdiff's checker tests,
against the verdicts those tests expect of oasdiff.

Not part of the test suite. oasdiff cannot be built here (its Go modules are out of reach), so
its verdicts are read from its own tests: each `checker/*_test.go` function that loads two specs
from `data/` (`open(...)`, `l(t, N)`, `loadFrom(...)`) and does not edit them in Go code gives a
pair, and the ids it expects (`Id: checker.XId`, at their level in `checker/rules.go` or at the
`Level:` the test names; none when it asserts `require.Empty`) give oasdiff's verdict. A pair is
*breaking* for oasdiff when a test expects an ERR change of it. Most of those tests run a single
check, so a pair oasdiff finds nothing wrong with in one test may hold changes another check
would report: "we over-call" is an upper bound.

Categories, per pair: agree; we miss (oasdiff ERR, we do not say breaking); we over-call (we say
breaking, no test expects an ERR); level differs (same breaking verdict, but oasdiff's highest
level is WARN and ours is not a warning, or the reverse); refused (we could not read a side);
crash (any other exception).

Run: `.venv/bin/python bench/oasdiff_compare.py --oasdiff DIR [--details] [--compat]`, DIR a checkout of
github.com/oasdiff/oasdiff (a `git clone` of it; the bench prints its commit).
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import traceback
from collections import Counter
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from contractgen.diff import diff_documents
from contractgen.diff.policy import apply_policy, parse_policy
from contractgen.diff.sides import read_side
from contractgen.problems import SpecError

_LEVEL_RANK = {"": 0, "INFO": 1, "WARN": 2, "ERR": 3}
_OURS = {"info": "INFO", "warning": "WARN", "breaking": "ERR"}
_TEST = re.compile(r"^func (Test\w+)\(t \*testing\.T\) \{\n(.*?)^\}", re.M | re.S)
_LOAD = re.compile(r'(\w+)(?:, \w+)? :?= (?:open\("([^"]+)"|l\(t, (\d+)|loadFrom\(t, "([^"]+)", '
                   r'(\d+)|open\((\w+)File\("([^"]+)"\))')
# the data folders of oasdiff's `dataFileFn` helpers (checker/helpers_test.go)
_FOLDERS = {"deprecation": "deprecation", "paramDeprecation": "param-deprecation",
            "requiredProperty": "required-properties", "stability": "stability"}
_NEGATIVE = re.compile(r"^.*\b(?:require|assert)\.(?:Not\w*|False)\(.*$", re.M)
CATEGORIES = ("agree", "we miss", "we over-call", "level differs", "refused", "crash")


@dataclass
class Pair:
    """Two specs of oasdiff's tests, the ids its tests expect, and our verdict."""

    base: str
    revision: str
    tests: list[str] = field(default_factory=list)
    expected: dict[str, str] = field(default_factory=dict)  # rule id -> level
    ours: dict[str, str] = field(default_factory=dict)  # our rule ids -> level
    deprecation_days: tuple[int, int] = (0, 0)  # the test's WithDeprecation(beta, stable)
    category: str = ""
    error: str = ""

    @property
    def oasdiff_level(self) -> str:
        return max(self.expected.values(), key=_LEVEL_RANK.__getitem__, default="")

    @property
    def our_level(self) -> str:
        return max(self.ours.values(), key=_LEVEL_RANK.__getitem__, default="")


def _rules(root: Path) -> tuple[dict[str, str], dict[str, str]]:
    """oasdiff's id constants (Go name -> id) and each id's default level."""
    names: dict[str, str] = {}
    for path in sorted((root / "checker").glob("*.go")):
        if not path.name.endswith("_test.go"):
            names.update(re.findall(r'(\w+Id)\s*=\s*"([a-z0-9-]+)"', path.read_text()))
    levels = {names.get(name, name): level for name, level in re.findall(
        r"newBackwardCompatibilityRule\((\w+),\s*(ERR|WARN|INFO)", (root / "checker" / "rules.go")
        .read_text())}
    return names, levels


def _spec_path(match: re.Match[str]) -> str:
    file, number, prefix, version, helper, name = match.group(2, 3, 4, 5, 6, 7)
    if file:
        return file
    if helper:
        return f"../data/{_FOLDERS.get(helper, helper)}/{name}"
    if number:
        return f"../data/openapi-test{number}.yaml"
    return f"{prefix}spec{version}.yaml"


def _segments(body: str) -> list[tuple[re.Match[str], re.Match[str], str]]:
    """A test's pairs: each two specs it loads, and its text up to the next pair's loading."""
    loads = list(_LOAD.finditer(body))
    found = []
    for index in range(0, len(loads) - 1, 2):
        stop = loads[index + 2].start() if index + 2 < len(loads) else len(body)
        found.append((loads[index], loads[index + 1], body[loads[index].start():stop]))
    return found


def _expect(pair: Pair, text: str, names: dict[str, str], levels: dict[str, str]) -> None:
    """Record the ids a test's text expects of oasdiff, at their levels."""
    # ids the test asserts absent (`require.NotEqual`, `NotContains`, `False`) are not expected
    said = _NEGATIVE.sub("", text)
    explicit = re.findall(r"Level:\s*checker\.(ERR|WARN|INFO)", said)
    ids = list(dict.fromkeys(re.findall(r"\bchecker\.(\w+Id)\b", said)
                             + [i for i in re.findall(r'"([a-z]+(?:-[a-z]+)+)"', said) if i in levels]))
    for index, name in enumerate(ids):
        rule = names.get(name, name)
        level = explicit[index] if len(explicit) == len(ids) else levels.get(rule, "INFO")
        if _LEVEL_RANK[level] > _LEVEL_RANK[pair.expected.get(rule, "")]:
            pair.expected[rule] = level


def collect(root: Path) -> tuple[dict[tuple[object, ...], Pair], Counter[str]]:
    """The pairs of oasdiff's checker tests, with the ids each expects; why others were left."""
    names, levels = _rules(root)
    pairs: dict[tuple[object, ...], Pair] = {}
    skipped: Counter[str] = Counter()
    for path in sorted((root / "checker").glob("*_test.go")):
        for test, body in _TEST.findall(path.read_text()):
            segments = _segments(body)
            if not segments:
                skipped["no two specs loaded from files"] += 1
            for first, second, text in segments:
                if any(re.search(rf"\b{m.group(1)}\.Spec\b", text) for m in (first, second)):
                    skipped["specs edited in Go code"] += 1
                    continue
                if re.search(r"diff\.NewConfig\(\)\.With|ExcludeElements", text):
                    skipped["diff configured otherwise"] += 1
                    continue
                key = (_spec_path(first), _spec_path(second))
                if key[0] == key[1] or key[0].endswith("/"):
                    skipped["one spec on both sides, edited elsewhere, or a path built in code"] += 1
                    continue
                days = re.search(r"WithDeprecation\((\d+), (\d+)\)", text)
                pair = pairs.setdefault((*key, days.groups() if days else ()), Pair(*key))
                if days:
                    pair.deprecation_days = (int(days.group(1)), int(days.group(2)))
                pair.tests.append(f"{path.name}:{test}")
                _expect(pair, text, names, levels)
    return pairs, skipped


def judge(root: Path, pair: Pair, compat: bool = False) -> None:
    """Run our diff on the pair and put it in its category."""
    checker = root / "checker"
    try:
        old, _ = read_side((checker / pair.base).resolve(), None)
        new, _ = read_side((checker / pair.revision).resolve(), None)
    except (SpecError, OSError) as exc:
        pair.category, pair.error = "refused", str(exc).splitlines()[0][:160]
        return
    try:
        beta, stable = pair.deprecation_days
        policy = parse_policy({"deprecation-days-beta": beta, "deprecation-days-stable": stable,
                               "compat": "oasdiff" if compat else []}, "bench", date.today())
        changes = apply_policy(policy, diff_documents(old.data, new.data, policy.lifecycle),
                               (None, None)).changes
    except Exception:  # a crash is what this bench counts
        pair.category, pair.error = "crash", traceback.format_exc().splitlines()[-1]
        return
    for change in changes:
        if _LEVEL_RANK[_OURS[change.level]] > _LEVEL_RANK[pair.ours.get(change.id, "")]:
            pair.ours[change.id] = _OURS[change.level]
    theirs, ours = pair.oasdiff_level, pair.our_level
    if (theirs == "ERR") != (ours == "ERR"):
        pair.category = "we miss" if theirs == "ERR" else "we over-call"
    elif theirs and theirs != "ERR" and (theirs == "WARN") != (ours == "WARN"):
        pair.category = "level differs"
    else:
        pair.category = "agree"


def table(pairs: list[Pair]) -> str:
    counts = Counter(p.category for p in pairs)
    return ("| " + " | ".join(CATEGORIES) + " |\n|" + "---|" * len(CATEGORIES) + "\n| "
            + " | ".join(str(counts[c]) for c in CATEGORIES) + " |")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--oasdiff", required=True, type=Path, help="a checkout of oasdiff")
    parser.add_argument("--details", action="store_true", help="list every pair not agreed on")
    parser.add_argument("--compat", action="store_true",
                        help="with the policy's `compat = \"oasdiff\"`: oasdiff's readings")
    args = parser.parse_args()
    root = args.oasdiff
    if not (root / "checker" / "rules.go").is_file():
        parser.error(f"{root} is not a checkout of oasdiff (no checker/rules.go)")
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=root, text=True,
                            capture_output=True, check=False).stdout.strip() or "unknown"
    found, skipped = collect(root)
    pairs = sorted(found.values(), key=lambda p: (p.base, p.revision))
    for pair in pairs:
        judge(root, pair, args.compat)
    print(f"oasdiff {commit}: {len(pairs)} pairs from its checker tests "
          f"({', '.join(f'{n} tests left: {why}' for why, n in sorted(skipped.items()))})\n")
    print(table(pairs))
    if args.details:
        for category in CATEGORIES[1:]:
            for p in (p for p in pairs if p.category == category):
                print(f"\n{category}: {p.base} -> {p.revision} ({p.tests[0]})")
                print(f"  oasdiff: {p.expected or 'nothing'}")
                print(f"  ours:    {p.ours or 'nothing'}{'  ' + p.error if p.error else ''}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
