"""Tests use contractgen's public names: a test reaching into a private module attribute
(`formatting._cache`, `from contractgen.x import _name`, `monkeypatch.setattr(mod, "_name", ...)`)
breaks on every rename. The ones left are listed here, to be removed, never added to (issue 29)."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]

# (test file's name, private name): the port test_verdicts counts (spec/validate.py).
LEFT = {
    ("test_verdicts.py", "_valid_by_port"),
}


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _root(node: ast.expr) -> str | None:
    while isinstance(node, ast.Attribute):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def private_uses(tree: ast.Module) -> set[str]:
    """The private names of contractgen that a test module's code reaches."""
    ours: set[str] = set()  # names bound to contractgen's modules or objects
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            ours |= {a.asname or a.name.split(".")[0] for a in node.names
                     if a.name.startswith("contractgen")}
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("contractgen"):
            found |= {a.name for a in node.names if _private(a.name)}
            ours |= {a.asname or a.name for a in node.names}
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and _private(node.attr) and _root(node) in ours:
            found.add(node.attr)
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute | ast.Name)
              and (node.func.attr if isinstance(node.func, ast.Attribute) else node.func.id)
              in ("setattr", "getattr", "delattr") and len(node.args) >= 2
              and _root(node.args[0]) in ours and isinstance(node.args[1], ast.Constant)
              and isinstance(node.args[1].value, str) and _private(node.args[1].value)):
            found.add(node.args[1].value)
    return found


def test_no_test_reaches_a_new_private_attribute() -> None:
    uses = {(path.name, name) for path in sorted(TESTS.rglob("*.py"))
            for name in private_uses(ast.parse(path.read_text(encoding="utf-8")))}
    assert sorted(uses - LEFT) == [], "use a public name (or make one)"
    assert sorted(LEFT - uses) == [], "gone: take it off LEFT"


def test_the_scan_finds_each_kind_of_reach() -> None:
    code = ("import contractgen.api as api\nfrom contractgen.emit import formatting\n"
            "from contractgen.watch import _settled\nimport os\n"
            "formatting._cache()\nsetattr(api, '_X', 1)\nos._exit\nformatting.block_cache()\n")
    assert private_uses(ast.parse(code)) == {"_settled", "_cache", "_X"}
