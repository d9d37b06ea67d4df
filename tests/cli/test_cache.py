"""The content-addressed cache (contractgen/cache.py) under concurrent writers and readers."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from contractgen.cache import TextCache, cache_root

# Each writer is a fresh interpreter that imports only the cache (not pytest, not this module):
# it writes and reads the same 200 keys as the others, and prints how many values it read back
# and how many of those were not a value some writer wrote.
WRITER = """
import json, sys
from contractgen.cache import TextCache
cache = TextCache("race")
valid = {f"value {n}\\n" * (n + 1) for n in range(200)}
seen = bad = 0
for _ in range(3):
    values = {cache.key(str(n)): f"value {n}\\n" * (n + 1) for n in range(200)}
    cache.put_many(values)
    for key in values:
        found = cache.get(key)
        if found is not None:
            seen += 1
            bad += found not in valid
print(json.dumps([seen, bad]))
"""


def test_concurrent_runs_never_read_a_torn_value(tmp_path: Path) -> None:
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path)}
    writers = [subprocess.Popen([sys.executable, "-c", WRITER], env=env, stdout=subprocess.PIPE,
                                text=True) for _ in range(4)]
    results = [json.loads(writer.communicate(timeout=120)[0]) for writer in writers]
    assert all(writer.returncode == 0 for writer in writers)
    assert all(bad == 0 for _, bad in results)  # never a torn or foreign value
    assert all(seen == 600 for seen, _ in results)  # every entry readable once written


def test_unwritable_cache_degrades_to_no_cache(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    cache = TextCache("x")
    cache.put_many({cache.key("a"): "b"})
    assert cache.get(cache.key("a")) is None
    assert not cache_root().exists()


FINGERPRINT = "from contractgen.cache import code_fingerprint; print(code_fingerprint())"


@pytest.mark.slow
def test_the_code_fingerprint_changes_when_a_source_or_template_is_touched(tmp_path: Path) -> None:
    """A copy of contractgen (its package and the templates beside it, as in a checkout): the
    fingerprint is the same in each fresh process, and changes when a source or a template is
    edited (it counts each file's size and mtime, as Python's bytecode cache does)."""
    import shutil

    root = Path(__file__).resolve().parents[2]
    shutil.copytree(root / "generator", tmp_path / "contractgen",
                    ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(root / "templates", tmp_path / "templates",
                    ignore=shutil.ignore_patterns("__pycache__"))

    def fingerprint() -> str:
        return subprocess.run([sys.executable, "-c", FINGERPRINT], capture_output=True, text=True,
                              check=True, cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(tmp_path)}
                              ).stdout.strip()

    first = fingerprint()
    assert fingerprint() == first
    template = tmp_path / "templates" / "models.py.jinja"
    template.write_text(template.read_text() + "\n")
    edited = fingerprint()
    assert edited != first
    source = tmp_path / "contractgen" / "version.py"
    stat = source.stat()
    os.utime(source, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))
    assert fingerprint() not in (first, edited)
