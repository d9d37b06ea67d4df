"""The judge's list and table, regenerated: `make judge-table`, or
`python tests/e2e/judge_table.py [--write] [NAME ...]`.

Judges every contract (the seeds, tests/corpus, ../shared/corpus, and the fetched ones when
$CONTRACTGEN_JUDGE_FETCHED is set), each in a process of its own, prints docs/judge.md's table
rows, and with `--write` writes tests/e2e/judge_known.json: every disagreeing operation under
the construct it was listed under before, else under a construct a rule below recognises, else
under UNCLASSIFIED, which test_judge.py fails on until a person names its construct. Contracts
not judged (not here, or not named) keep their lines. NAMEs: contracts (`stripe`,
`odds_and_ends`) or groups (`seeds`, `small`, `shared`, `fetched`).
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent)]

from judge_corpus import FETCHED, SEEDS, SHARED, SMALL  # noqa: E402
from judge_known import EVERY, KNOWN, UNCLASSIFIED  # noqa: E402

GROUPS = {"seeds": list(SEEDS), "small": [p.stem for p in SMALL], "shared": list(SHARED),
          "fetched": list(FETCHED)}
# what a new disagreement's detail says -> its construct (judge_known.py explains each)
RULES = (
    ("ServerNotFound", "PATH_SERVERS"),
    ("bracket notation differs from stripe-python's", "FORM_ENCODING"),
    ("Valid mimetypes: ['multipart/form-data']", "MULTIPART_AS_FORM"),
    ("Valid mimetypes: ['application/json-patch+json']", "JSON_PATCH"),
    ("KeyError: 'responses'", "NO_RESPONSES"),
    # the server answers 200 where the contract declares only a 3xx
    ("ResponseNotFound: Unknown response http status: 200", "REDIRECT_ONLY"),
)
HEAD = ("| contract | operations | agreed | warned | disagreed | unjudged | time "
        "| disagreements by construct |\n|---|---|---|---|---|---|---|---|")


def judged(name: str) -> dict[str, Any] | None:
    """One contract judged in this process: its verdicts and time (None: not here)."""
    import pytest
    from judge import judge_contract
    from judge_corpus import Contract, fetched_contract, shared_contract

    with tempfile.TemporaryDirectory() as tmp:
        try:
            if name in SEEDS:
                contract = Contract(name, *SEEDS[name])
            elif name in SHARED:
                contract = shared_contract(name, Path(tmp))
            elif name in FETCHED:
                contract = fetched_contract(name)
            else:
                contract = Contract(name, next(p for p in SMALL if p.stem == name))
        except pytest.skip.Exception as skipped:
            print(f"{name}: not judged: {skipped}", file=sys.stderr)
            return None
        report = judge_contract(name, contract.spec, Path(tmp) / "generated",
                                overlay=contract.overlay, lenient=contract.lenient)
    return {"seconds": report.seconds,
            "verdicts": [[v.operation, v.outcome, v.detail] for v in report.verdicts]}


def construct(contract: str, operation: str, detail: str) -> str:
    """The construct a disagreement is listed under: as before by name (not by EVERY, which
    said nothing of this one), else by RULES, else UNCLASSIFIED."""
    for name, operations in KNOWN.get(contract, {}).items():
        if operation in operations:
            return name
    return next((name for words, name in RULES if words in detail), UNCLASSIFIED)


def listed(contract: str, verdicts: list[list[str]]) -> dict[str, list[str]]:
    """The disagreeing operations of a contract by construct (EVERY: all of them, by one)."""
    found: dict[str, list[str]] = {}
    for operation, outcome, detail in verdicts:
        if outcome == "disagreed":
            found.setdefault(construct(contract, operation, detail), []).append(operation)
    if len(found) == 1 and len(next(iter(found.values()))) == len(verdicts) > 1:
        return {next(iter(found)): list(EVERY)}
    return {name: sorted(ops) for name, ops in sorted(found.items())}


def row(contract: str, result: dict[str, Any], constructs: dict[str, list[str]]) -> str:
    verdicts = result["verdicts"]
    counts = Counter(outcome for _, outcome, _ in verdicts)
    why = "; ".join(f"{len(verdicts) if ops == list(EVERY) else len(ops)} {name}"
                    for name, ops in constructs.items()) or "-"
    cells = [contract, len(verdicts), *(counts[o] for o in ("agreed", "warned", "disagreed",
                                                             "unjudged")),
             f"{result['seconds']:.0f} s", why]
    return "| " + " | ".join(map(str, cells)) + " |"


def total(label: str, results: list[dict[str, Any]],
          constructs: list[dict[str, list[str]]]) -> str:
    """One row summing a group's contracts."""
    counts: Counter[str] = Counter()
    for each, result in zip(constructs, results, strict=True):
        for name, ops in each.items():
            counts[name] += len(result["verdicts"]) if ops == list(EVERY) else len(ops)
    return row(label, {"verdicts": [v for r in results for v in r["verdicts"]],
                       "seconds": sum(r["seconds"] for r in results)},
               {name: [""] * n for name, n in counts.items()})


def main(argv: list[str]) -> int:
    if argv[:1] == ["--child"]:  # a child: these contracts, one JSON line each on stdout
        for name in argv[1:]:
            print("judged: " + json.dumps([name, judged(name)]), flush=True)
        return 0
    write = "--write" in argv
    names = [n for a in argv if a != "--write" for n in GROUPS.get(a, [a])] or [
        n for group in GROUPS.values() for n in group]
    small = [n for n in names if n in SEEDS or n in GROUPS["small"]]  # one child for them all
    batches = [small] * bool(small) + [[n] for n in names if n not in small]
    known = {k: dict(v) for k, v in KNOWN.items()}
    results: dict[str, dict[str, Any]] = {}
    print(HEAD)
    for batch in batches:
        child = subprocess.run([sys.executable, __file__, "--child", *batch], text=True,
                               stdout=subprocess.PIPE, check=True)
        for line in child.stdout.splitlines():
            if not line.startswith("judged: "):
                continue
            name, result = json.loads(line.removeprefix("judged: "))
            if result is not None:
                known[name] = listed(name, result["verdicts"])
                results[name] = result
                print(row(name, result, known[name]), flush=True)
    for label, group in (("tests/corpus ({} contracts)", GROUPS["small"]),
                         ("**all large** ({} contracts)", GROUPS["shared"] + GROUPS["fetched"])):
        judged_here = [n for n in group if n in results]
        if len(judged_here) > 1:
            print(total(label.format(len(judged_here)), [results[n] for n in judged_here],
                        [known.get(n, {}) for n in judged_here]))
    if write:
        kept = {k: v for k, v in known.items() if v}
        (HERE / "judge_known.json").write_text(json.dumps(kept, indent=1) + "\n",
                                               encoding="utf-8")
    unclassified = sum(len(v.get(UNCLASSIFIED, [])) for v in known.values())
    if unclassified:
        print(f"{unclassified} disagreements are {UNCLASSIFIED}: name their construct in "
              "judge_known.py and judge_known.json", file=sys.stderr)
    return 1 if unclassified else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
