"""The generator's layout: stage subpackages, no import circles, no module over 500 lines, and
lower stages never importing higher ones (docs/architecture.md draws the stages); and the
tests' layout, which mirrors it (tests/README.md)."""

from __future__ import annotations

import ast
import functools
import re
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "generator"
MAX_LINES = 400  # issue 29: no module of generator/ over 400 lines, no function over 60
MAX_FUNCTION_LINES = 60

# Lower rank first; a module may import modules of its own rank or lower. `errors`, `problems`,
# `version` and `config` are leaves every stage may read; `api` (and `watch`, its loop), `cli`
# and `scaffold` (the template task's old name) are the top.
RANKS = {
    "errors": 0, "problems": 0, "version": 0, "config": 0, "cache": 0, "options": 0,
    "spec": 1, "model": 2, "emit": 3, "diff": 3, "project": 4, "verdict": 4, "pipeline": 4,
    "api": 5, "watch": 5, "mock": 5, "cli": 6, "arguments": 6, "scaffold": 6, "__init__": 7, "__main__": 7,
}


@functools.cache
def _modules() -> dict[str, Path]:
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE).with_suffix("").parts
        if parts[-1] == "__init__" and len(parts) > 1:
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


def _imports(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """Modules of the package that `name` imports (at any depth: lazy imports count too)."""
    is_package = path.name == "__init__.py"
    base = name.split(".") if is_package else name.split(".")[:-1]
    if name == "__init__":
        base = []
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level:
            anchor = base[: len(base) - (node.level - 1)]
            target = [*anchor, *(node.module.split(".") if node.module else [])]
            candidates = [".".join([*target, alias.name]) for alias in node.names]
            candidates.append(".".join(target))
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("contractgen."):
            target = node.module.split(".")[1:]  # type: ignore[union-attr]
            candidates = [".".join([*target, a.name]) for a in node.names] + [".".join(target)]
        elif isinstance(node, ast.Import):
            candidates = [a.name.removeprefix("contractgen.") for a in node.names
                          if a.name.startswith("contractgen.")]
        else:
            continue
        found |= {c for c in candidates if c in modules and c != name}
        if any(c == "" for c in candidates):
            found.add("__init__")
    return found


@functools.cache
def _graph() -> dict[str, set[str]]:
    modules = _modules()
    return {name: _imports(name, path, modules) for name, path in modules.items()}


def _rank(module: str) -> int:
    return RANKS[module.split(".", maxsplit=1)[0]]


def test_docs_architecture_lists_every_module() -> None:
    """docs/architecture.md gives every module of generator/ a line, and lists none that is gone."""
    text = (PACKAGE.parent / "docs/architecture.md").read_text(encoding="utf-8")
    section = text.split("## Every module", 1)[1].split("\n## ", 1)[0]
    names = [line.split(": ", 1)[0] for line in section.splitlines() if line.startswith("- ")]
    listed = {name for line in names for name in re.findall(r"`([\w/]+\.py)`", line)}
    on_disk = {path.relative_to(PACKAGE).as_posix() for path in PACKAGE.rglob("*.py")}
    assert sorted(on_disk - listed) == []
    assert sorted(listed - on_disk) == []


def test_every_module_has_a_stage() -> None:
    assert all(name.split(".")[0] in RANKS for name in _modules())


def test_no_module_is_over_400_lines() -> None:
    long = {name: n for name, path in _modules().items()
            if (n := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert long == {}


def test_no_function_is_over_60_lines() -> None:
    long = {f"{name}.{node.name}": node.end_lineno - node.lineno + 1
            for name, path in _modules().items()
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.end_lineno
            and node.end_lineno - node.lineno + 1 > MAX_FUNCTION_LINES}
    assert long == {}


def test_lower_stages_never_import_higher_ones() -> None:
    upward = sorted((name, imported) for name, imports in _graph().items()
                    for imported in imports if _rank(imported) > _rank(name))
    assert upward == []


def test_no_import_circles() -> None:
    graph = _graph()
    state: dict[str, int] = {}
    circles: list[list[str]] = []

    def visit(node: str, trail: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                circles.append([*trail[trail.index(nxt):], nxt] if nxt in trail else [node, nxt])
            elif nxt not in state:
                visit(nxt, [*trail, nxt])
        state[node] = 2

    for start in sorted(graph):
        if start not in state:
            visit(start, [start])
    assert circles == []


@pytest.mark.parametrize("stage", ["spec", "model", "emit", "diff", "project"])
def test_each_stage_is_a_subpackage(stage: str) -> None:
    assert (PACKAGE / stage / "__init__.py").is_file()


def test_the_graph_sees_imports() -> None:
    """The checks above are only as good as the graph: it must find known edges."""
    graph = _graph()
    assert "spec.loader" in graph["spec.lint"]
    assert "spec" in graph["api"]
    assert "project.implementation" in graph["api"]
    assert "model.parse" in graph["project.implementation"]


# Tests mirror the source tree (tests/README.md): each folder of tests/ names what it tests, and
# tests/ itself holds only the helpers every folder imports (pyproject: pythonpath = ["tests"]).
TESTS = PACKAGE.parent / "tests"
TEST_FOLDERS = {
    "spec": "generator/spec", "model": "generator/model", "emit": "generator/emit",
    "diff": "generator/diff", "project": "generator/project", "mock": "generator/mock",
    "cli": "generator/cli.py",  # and the other top-level modules: api, config, watch, errors
    "templates": "templates",  # the generated code's behaviour (server, client, runtime)
    "backends": "backends",  # the reference backends and deploy/, driven from outside
    "e2e": None,  # whole journeys and contract corpora: no one stage owns them
    "repo": None,  # the repository's own rules: layout, contracts, wheel, bench
}
HELPERS = {"conftest.py", "gen_support.py", "shared_corpus.py", "differential.py",
           "failing_server.py", "serving_child.py", "deploy_support.py", "corpus_gen.py",
           "black_layout.py", "image_support.py"}


def test_tests_mirror_the_source_tree() -> None:
    """No test module at tests/ root, none in a folder not in TEST_FOLDERS, and each folder's
    source still there."""
    at_root = sorted(p.name for p in TESTS.glob("*.py") if p.name not in HELPERS)
    assert at_root == [], "move it to the folder of what it tests (tests/README.md)"
    misplaced = sorted(p.relative_to(TESTS).as_posix() for p in TESTS.rglob("test_*.py")
                       if p.parent.parent != TESTS or p.parent.name not in TEST_FOLDERS)
    assert misplaced == [], "tests/<folder>/test_*.py, with <folder> in TEST_FOLDERS"
    gone = sorted(source for source in TEST_FOLDERS.values()
                  if source and not (PACKAGE.parent / source).exists())
    assert gone == []


def test_test_module_names_are_unique() -> None:
    """pytest imports a test module by its file name (no __init__.py: the "prepend" import
    mode), so two of the same name in different folders fail to collect."""
    backends = PACKAGE.parent.glob("backends/*/tests/test_*.py")
    names = [p.name for p in [*TESTS.rglob("test_*.py"), *backends]]
    assert sorted({n for n in names if names.count(n) > 1}) == []


def test_the_tests_readme_names_every_folder() -> None:
    readme = (TESTS / "README.md").read_text(encoding="utf-8")
    assert sorted(f for f in TEST_FOLDERS if f"`{f}/`" not in readme) == []
