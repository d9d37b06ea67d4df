"""The README's table of statuses agrees with the contract: the statuses it marks as declared
(bold) are exactly those each operation declares."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

ROOT = Path(__file__).parents[1]


def _declared() -> dict[str, set[str]]:
    spec = yaml.safe_load(next((ROOT / "specs").glob("*.yaml")).read_text())
    return {
        op["operationId"]: set(op["responses"])
        for path in spec["paths"].values()
        for op in path.values()
        if isinstance(op, dict) and "operationId" in op
    }


def test_the_readme_lists_each_operations_declared_statuses() -> None:
    rows = re.findall(r"^\| (\w+) \| (\*\*.*) \|$", (ROOT / "README.md").read_text(), re.M)
    documented = {op: set(re.findall(r"\*\*(\d{3})\*\*", cell)) for op, cell in rows}
    assert documented == _declared()
