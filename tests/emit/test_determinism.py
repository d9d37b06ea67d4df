"""Generation is deterministic: two interpreters with different hash seeds write the same bytes."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from gen_support import OTARI_SPEC, ROOT, TPMJS_OVERLAY, TPMJS_SPEC

# Validation is skipped: it is not what could vary, and it costs a forked validator each.
SCRIPT = """
import sys
from pathlib import Path
from contractgen.api import render, write_package
out, otari, tpmjs, overlay, root = sys.argv[1:]
for name, spec, extra in (("otari", otari, None), ("tpmjs", tpmjs, overlay)):
    files, _ = render(spec, overlay=extra, root=Path(root), validate_spec=False)
    write_package(Path(out) / name, files)
"""


def _tree(base: Path) -> dict[str, bytes]:
    return {str(p.relative_to(base)): p.read_bytes() for p in sorted(base.rglob("*"))
            if p.is_file()}


@pytest.mark.slow
def test_two_hash_seeds_give_byte_identical_trees(tmp_path: Path) -> None:
    procs = []
    for seed in ("1", "2"):
        out = tmp_path / f"seed{seed}"
        env = {**os.environ, "PYTHONHASHSEED": seed}
        procs.append((out, subprocess.Popen(
            [sys.executable, "-c", SCRIPT, str(out), str(OTARI_SPEC), str(TPMJS_SPEC),
             str(TPMJS_OVERLAY), str(ROOT)],
            cwd=tmp_path, env=env, stderr=subprocess.PIPE, text=True)))
    for _, proc in procs:
        _, stderr = proc.communicate(timeout=120)
        assert proc.returncode == 0, stderr
    first, second = (_tree(out) for out, _ in procs)
    # Each package as many files as the backend generated from the same contract commits.
    committed = [ROOT / "backends/otari-sandbox/src/otari_sandbox/api",
                 ROOT / "backends/tpmjs-executor/src/tpmjs_executor/api"]
    assert len(first) == sum(1 for api in committed for p in api.iterdir() if p.is_file())
    assert first.keys() == second.keys()
    differing = [name for name in first if first[name] != second[name]]
    assert not differing
