"""The content-addressed cache (contractgen/cache.py) under concurrent writers and readers."""

from __future__ import annotations

import multiprocessing
import os
from pathlib import Path

import pytest
from contractgen.cache import TextCache, cache_root


def _writer(folder: str, _worker: int) -> list[str]:
    """Write and read the same 200 keys as the other workers; the values it read back."""
    os.environ["XDG_CACHE_HOME"] = folder
    cache = TextCache("race")
    seen = []
    for _ in range(3):
        values = {cache.key(str(n)): f"value {n}\n" * (n + 1) for n in range(200)}
        cache.put_many(values)
        for key in values:
            found = cache.get(key)
            if found is not None:
                seen.append(found)
    return seen


def test_concurrent_runs_never_read_a_torn_value(tmp_path: Path) -> None:
    context = multiprocessing.get_context("spawn")
    with context.Pool(4) as pool:
        results = pool.starmap(_writer, [(str(tmp_path), worker) for worker in range(4)])
    valid = {f"value {n}\n" * (n + 1) for n in range(200)}
    assert all(set(seen) <= valid for seen in results)
    assert all(len(seen) == 600 for seen in results)  # every entry readable once written


def test_unwritable_cache_degrades_to_no_cache(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    cache = TextCache("x")
    cache.put_many({cache.key("a"): "b"})
    assert cache.get(cache.key("a")) is None
    assert not cache_root().exists()
