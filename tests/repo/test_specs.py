"""The contracts: upstream copies untouched, and every copy in the repository the same bytes."""

import hashlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
UPSTREAM = {
    "otari-code-execution.openapi.yaml":
        "5fa8c921f4431f99cbb2519d2f6522f2d6320b045c305f14eba020e747f3ba6d",
    "tpmjs-executor.openapi.yaml":
        "64ea3ce5a7ec567d730ef20cc2d3d2e42db5ab0c73ea39dccf2af7569faa31a2",
}
COPIES = [
    ("otari-code-execution.openapi.yaml", "backends/otari-sandbox/specs"),
    ("otari-code-execution.overlay.yaml", "backends/otari-sandbox/specs"),
    ("tpmjs-executor.openapi.yaml", "backends/tpmjs-executor/specs"),
    ("tpmjs-executor.overlay.yaml", "backends/tpmjs-executor/specs"),
]


@pytest.mark.parametrize("name", sorted(UPSTREAM))
def test_upstream_specs_are_byte_identical(name: str) -> None:
    digest = hashlib.sha256((ROOT / "specs" / name).read_bytes()).hexdigest()
    assert digest == UPSTREAM[name]


@pytest.mark.parametrize(("name", "folder"), COPIES)
def test_backend_copies_match_the_root_specs(name: str, folder: str) -> None:
    assert (ROOT / folder / name).read_bytes() == (ROOT / "specs" / name).read_bytes()
