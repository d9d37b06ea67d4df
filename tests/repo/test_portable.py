"""Any clone passes: no tracked file names an absolute path of the machine it was written on.

A leak is a path that exists on one machine only: this checkout's own absolute path or a folder
above it (a fallback to `/work/wt/shared/corpus` once passed on the one machine that had it and
failed on every other), a home folder (`/root/...`, `/home/<user>/...`, `/Users/<user>/...`,
`C:\\Users\\...`), or the workplace's `/work/...`. System paths that every machine has
(`/usr/bin`, `/tmp`, `/proc`, `/opt/otari` inside a sandbox) are fine: tests and code may name
them on purpose."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# A folder of some machine, followed by at least one more path segment: `/work/` alone (say in
# an assertion that a sandbox does not see it) names no machine's file.
_SEGMENT = r"[A-Za-z0-9_.@+-]+"
_GENERIC = [
    rf"(?<![\w.~$-])/work/{_SEGMENT}",
    rf"(?<![\w.~$-])/root/{_SEGMENT}",
    rf"(?<![\w.~$-])/home/{_SEGMENT}/{_SEGMENT}",
    rf"(?<![\w.~$-])/Users/{_SEGMENT}/{_SEGMENT}",
    r"\b[A-Za-z]:\\\\?Users\\\\?" + _SEGMENT,
]

# What each of those begins with, to skip the files that hold none.
_ANCHORS = ("/work/", "/root/", "/home/", "/Users/", "Users\\")


def _machine_folders() -> list[str]:
    """This checkout, the folders above it and the user's home, two levels deep at least: a
    top-level folder alone (`/work`, `/tmp`) names no one machine's file."""
    folders = [ROOT, *ROOT.parents, Path.home()]
    return sorted({str(f) for f in folders if len(f.parts) > 2},
                  key=len, reverse=True)


def leaks(text: str, folders: list[str]) -> list[str]:
    """The absolute paths of some machine that `text` names (each once, in order)."""
    if not any(anchor in text for anchor in (*folders, *_ANCHORS)):
        return []  # the regular expression is slow on a large file: most have none of these
    mine = [rf"(?<![\w.-]){re.escape(f)}(?![\w.-])" for f in folders]
    found = re.finditer("|".join(mine + _GENERIC), text)
    return list(dict.fromkeys(match.group(0) for match in found))


def _tracked() -> list[Path]:
    try:
        done = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-z"], capture_output=True,
                              check=False, timeout=60)
    except OSError:
        pytest.skip("git is not installed: no list of tracked files")
    if done.returncode != 0:
        pytest.skip(f"{ROOT} is not a git checkout: no list of tracked files")
    return [ROOT / name for name in done.stdout.decode().split("\0") if name]


def test_no_tracked_file_names_a_path_of_this_machine() -> None:
    folders = _machine_folders()
    found = []
    for path in _tracked():
        if path == Path(__file__).resolve():
            continue  # its examples of leaks, on purpose
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue  # binary, or deleted in the work tree
        if not leaks(text, folders):
            continue  # one search per file; lines only where there is something to show
        for number, line in enumerate(text.splitlines(), 1):
            found += [f"{path.relative_to(ROOT)}:{number}: {leak}"
                      for leak in leaks(line, folders)]
    assert not found, ("tracked files name absolute paths of one machine (derive them from the "
                       "repository root instead):\n" + "\n".join(found))


@pytest.mark.parametrize("line", [
    'CORPUS = Path("/work/wt/shared/corpus")',
    "cd /root/project && make",
    "see /home/alice/src/contractgen/README.md",
    "open /Users/bob/code/x.yaml",
    r"C:\Users\carol\spec.yaml",
    "_src_path: /srv/checkouts/contractgen",
])
def test_a_leak_is_found(line: str) -> None:
    assert leaks(line, ["/srv/checkouts/contractgen", "/srv/checkouts"])


@pytest.mark.parametrize("line", [
    'assert "/work/" not in text', "os.path.exists('/work')", "/usr/bin/env python3",
    "/tmp/api.old.yaml", "/proc/self/status", "--dir /var/tmp", "/opt/otari",
    "https://example.com/home/user/x", "~/work/x", "$HOME/x", "specs/api.yaml",
])
def test_a_system_or_relative_path_is_not_a_leak(line: str) -> None:
    assert not leaks(line, ["/srv/checkouts/contractgen"])


def test_this_checkouts_own_path_is_a_leak() -> None:
    assert leaks(f"spec = '{ROOT / 'specs' / 'x.yaml'}'", _machine_folders())
