"""`contractgen check`'s drift report: a summary a person reads in five seconds, then the code.

The summary names the contract, what changed in it (operations and schemas added, removed,
changed, read from the package's committed `openapi.json` against the contract now), the stale
files and the command that fixes it. Then a unified diff of each stale module's code: the
comment lines a module starts with (the header naming the contract and its overlay) and
the manifest are never shown, as they change with any code change and say nothing of it
(issue 31: one field and one operation added printed 335 lines, the command to run last).
`report` prints it as text (the diff cut at 30 lines unless `--full`), JSON, or GitHub Actions
annotations (`::error file=...` per stale file).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..emit.package import MANIFEST, display_path, owned_files
from ..spec.paths import iter_operations


@dataclass
class Drift:
    """Where committed generated code differs from what the spec produces."""

    target: Any  # config.Target
    stale: list[str] = field(default_factory=list)  # file names, the manifest last
    diff: str = ""  # of the stale modules' code, headers left out
    contract: str = ""  # "1 operation added, 1 schema changed" (empty: not known)

    def summary(self) -> list[str]:
        """The lines a person reads first."""
        out = self.target.out
        what = f": {self.contract}" if self.contract else ""
        files = ", ".join(self.stale[:8]) + (f" and {len(self.stale) - 8} more"
                                            if len(self.stale) > 8 else "")
        return [f"drift: {self.target.spec} changed{what}",
                f"  stale in {out}: {files}",
                f"  fix: {self.target.regen_command}"]

    def shown_diff(self, limit: int | None) -> str:
        """The diff, cut after `limit` lines (None: whole) with a line saying how to see all."""
        lines = self.diff.splitlines(keepends=True)
        if limit is None or len(lines) <= limit:
            return self.diff
        return "".join(lines[:limit]) + (
            f"... {len(lines) - limit} more lines of diff (`contractgen check --full` shows "
            "them; `contractgen diff` compares the contracts)\n")

    def as_json(self) -> dict[str, Any]:
        """The drift as data, for `check --format json`."""
        return {"spec": self.target.spec, "out": self.target.out, "contract": self.contract,
                "stale": self.stale, "fix": self.target.regen_command, "diff": self.diff}


def find_drift(target: Any, expected: Mapping[str, str]) -> Drift | None:
    """The drift of `target`'s package from `expected` (None when its code matches)."""
    out: Path = target.out_path
    names = sorted(set(expected) | {p.name for p in owned_files(out)})
    stale: list[str] = []
    chunks: list[str] = []
    for name in names:
        if name == MANIFEST:
            continue
        path = out / name
        actual = path.read_text(encoding="utf-8") if path.is_file() else None
        wanted = expected.get(name)
        if actual == wanted:
            continue
        stale.append(name)
        if name.endswith((".py", ".pyi")):  # openapi.json: the summary says what changed
            chunks.append(_code_diff(display_path(path), target.spec, actual, wanted))
    if MANIFEST in expected and _manifest_stale(out / MANIFEST, expected[MANIFEST]):
        stale.append(MANIFEST)
    if not stale:
        return None
    contract = _contract_changes(out / "openapi.json", expected.get("openapi.json"))
    return Drift(target, stale, "".join(chunks), contract)


def _manifest_stale(path: Path, wanted: str) -> bool:
    """Missing, unreadable, or naming other files: its hashes follow the files it lists."""
    try:
        files = json.loads(path.read_text(encoding="utf-8")).get("files", {})
    except (OSError, ValueError, AttributeError):
        return True
    return sorted(files) != sorted(json.loads(wanted)["files"])


def _body(text: str | None) -> list[str]:
    """A module's lines after the comment lines it starts with."""
    lines = (text or "").splitlines(keepends=True)
    at = 0
    while at < len(lines) and lines[at].startswith("#"):
        at += 1
    return lines[at:]


def _code_diff(label: str, spec: str, actual: str | None, wanted: str | None) -> str:
    if actual is None or wanted is None:
        verb = "new" if actual is None else "no longer generated"
        return f"--- {label}: {verb}\n"
    import difflib

    body = "".join(difflib.unified_diff(
        _body(actual), _body(wanted), fromfile=f"{label} (committed)",
        tofile=f"{label} (from {spec})"))
    return body or f"--- {label}: only its header changed\n"


def _contract_changes(committed: Path, now: str | None) -> str:
    """Operations and schemas added, removed and changed, in `contractgen diff`'s words."""
    try:
        old = json.loads(committed.read_text(encoding="utf-8"))
        new = json.loads(now) if now is not None else None
    except (OSError, ValueError):
        return ""
    if not isinstance(old, dict) or not isinstance(new, dict):
        return ""
    parts = [*_counted("operation", _operations(old), _operations(new)),
             *_counted("schema", _schemas(old), _schemas(new))]
    if not parts:
        return "no operation or schema changed"
    try:
        from ..diff.report import diff_documents

        changes = diff_documents(old, new)
    except Exception:  # the summary must not fail the check; the diff command says more
        return ", ".join(parts)
    breaking = sum(c.breaking for c in changes)
    return ", ".join(parts) + (f" ({breaking} breaking; `contractgen diff` tells more)"
                               if breaking else "")


def _counted(noun: str, old: Mapping[str, Any], new: Mapping[str, Any]) -> list[str]:
    counts = {"added": len(set(new) - set(old)), "removed": len(set(old) - set(new)),
              "changed": sum(old[k] != new[k] for k in set(old) & set(new))}
    return [f"{n} {noun}{'s' * (n != 1)} {verb}" for verb, n in counts.items() if n]


def _operations(document: Mapping[str, Any]) -> dict[str, Any]:
    return {f"{s.method.upper()} {s.path}": s.operation for s in iter_operations(document)}


def _schemas(document: Mapping[str, Any]) -> dict[str, Any]:
    schemas = (document.get("components") or {}).get("schemas") or {}
    return dict(schemas) if isinstance(schemas, dict) else {}


Finding = tuple[str, str]  # level ("error" or "warning"), message


def report(result: Any, fmt: str, *, strict: bool, full: bool) -> bool:
    """Print `check`'s result as `fmt` (text, json or github); whether the check failed."""
    findings = _check_findings(result, strict)
    failed = bool(result.drift) or any(level == "error" for level, _ in findings)
    if fmt == "json":
        print(json.dumps({"ok": not failed, "drift": [d.as_json() for d in result.drift],
                          "findings": [{"level": level, "message": text}
                                       for level, text in findings]}, indent=2))
    elif fmt == "github":
        _check_annotations(result, findings)
    else:
        _check_text(result, findings, None if full else DIFF_LINES)
    return failed


def _check_findings(result: Any, strict: bool) -> list[Finding]:
    """(level, message) of each override left behind and unimplemented operation."""
    found: list[Finding] = []
    for implementation, leftover in result.leftover.items():
        for method, (renamed, why) in leftover.items():
            hint = f"was it renamed to {renamed}? {why}" if renamed else f"{why}: removed?"
            found.append(("error", f"{implementation}.{method} overrides no operation any more "
                          f"({hint}); rename it to the operation's method, or delete it"))
    for implementation, missing in result.unimplemented.items():
        found.append(("error" if strict else "warning", f"{implementation} does not implement "
                      f"{', '.join(missing)} (they answer 501)"))
    return found


DIFF_LINES = 30  # of a drift's diff shown without --full: the summary stays on one screen


def _check_text(result: Any, findings: list[Finding], limit: int | None) -> None:
    """The summary of each drift first (stdout), then the code that changed, then findings."""
    for drift in result.drift:
        print("\n".join(drift.summary()))
    for drift in result.drift:
        sys.stdout.write(drift.shown_diff(limit))
    for level, text in findings:
        print(f"{level}: {text}", file=sys.stderr)
    if result.drift:
        fixes = sorted({d.target.regen_command for d in result.drift})
        print(f"contractgen check: generated code is stale; run `{'` and `'.join(fixes)}`",
              file=sys.stderr)
    elif not any(level == "error" for level, _ in findings):
        print("contractgen check: generated code matches the specs")


def _check_annotations(result: Any, findings: list[Finding]) -> None:
    """GitHub Actions workflow commands: one `::error file=...` per stale file."""

    def escape(text: str) -> str:
        return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")

    for drift in result.drift:
        for name in drift.stale:
            path = display_path(drift.target.out_path / name)
            print(f"::error file={path},title=contractgen drift::{escape(name)} is stale: "
                  f"{escape(drift.target.spec)} changed ({escape(drift.contract or 'see the diff')})"
                  f"; run `{escape(drift.target.regen_command)}`")
    for level, text in findings:
        print(f"::{level} title=contractgen check::{escape(text)}")
