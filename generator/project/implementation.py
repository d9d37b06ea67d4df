"""Which operations a service implementation leaves to the generated `ServiceBase` (501s).

The implementation (`module:Class`) is imported, from the project's `src/` or root when it is
not installed, and each operation's method is looked up along the class's MRO: defined by the
generated `ServiceBase` (or nowhere, when the generated code is older than the spec) means not
implemented. When the import fails, say in a pre-commit environment without the project's
dependencies, the module's source is read instead: methods written in the class or in base
classes of the same module count; ones inherited from other modules cannot be seen.

Overrides left behind: the package's manifest records every operation method it has had, so a
method the class defines under a name that no operation has any more was an override of an
operation since renamed or removed. Its likely new name is the operation now at the route the
manifest recorded for it (same path and method), and only that: a similar name elsewhere is
another operation (`delete_book` is not `update_book`), so otherwise the hint names none.
"""

from __future__ import annotations

import ast
import importlib
import sys
import warnings
from pathlib import Path
from typing import Any

from ..config import Target
from ..emit.package import recorded_operations, recorded_routes
from ..problems import SpecError

# A method left behind: (its likely new name or None, why, in words for the hint).
Leftover = tuple[str | None, str]


def implementation_report(target: Target, operations: list[Any] | None = None
                          ) -> tuple[list[str], dict[str, Leftover]]:
    """Unimplemented operation ids, and overrides left behind (method -> likely new name).
    `operations`: the IR's, when the caller built it (else it is built here)."""
    if not target.implementation:
        return [], {}
    operations = operations if operations is not None else _operations(target)
    methods = [(operation.id, operation.method_name) for operation in operations]
    routes = {f"{operation.http_method.upper()} {operation.path}": operation.method_name
              for operation in operations}
    missing = unimplemented_operations(target, methods)
    return missing, _leftover(target, methods, routes)


def _leftover(target: Target, methods: list[tuple[str, str]], routes: dict[str, str]
              ) -> dict[str, Leftover]:
    retired = set(recorded_operations(target.out_path)) - {name for _, name in methods}
    if not retired:
        return {}
    module_name, class_name = _split(target)
    try:
        defined = _overridden_in_source(target, _source_of(target, module_name), module_name,
                                        class_name)
    except (SpecError, OSError, SyntaxError):
        return {}  # unimplemented_operations has reported what is wrong with the module
    recorded = recorded_routes(target.out_path)
    return {name: _likely_new_name(recorded.get(name), routes)
            for name in sorted(defined & retired)}


def _likely_new_name(route: str | None, routes: dict[str, str]) -> Leftover:
    """The operation now at the method's route (same path and method), else none: a close
    name at another route is another operation (issue 38: `delete_book` was offered
    `update_book` once DELETE /books/{bookId} was gone)."""
    if route and route in routes:
        return routes[route], f"the operation of {route} now"
    if route:
        return None, f"no operation has its route ({route}) now"
    return None, "the package's manifest records no route for it"


def unimplemented_operations(target: Target,
                             methods: list[tuple[str, str]] | None = None) -> list[str]:
    """Operation ids whose ServiceBase method `target.implementation` does not override."""
    if not target.implementation:
        return []
    module_name, class_name = _split(target)
    methods = methods if methods is not None else _operation_methods(target)
    # Fast path: when the class's own source overrides every operation, importing the project
    # (its framework, its dependencies: most of a `check` run) cannot change the answer.
    try:
        written = _overridden_in_source(target, _source_of(target, module_name), module_name,
                                        class_name)
    except (SpecError, OSError, SyntaxError):
        written = set()
    if all(name in written for _, name in methods):
        return []
    try:
        module = _import(target, module_name)
    except Exception as exc:  # anything the user's module raises while importing
        source = _source_of(target, module_name)
        warnings.warn(f"cannot import {module_name} ({exc!r}); reading its source instead",
                      RuntimeWarning, stacklevel=2)
        overridden = _overridden_in_source(target, source, module_name, class_name)
    else:
        cls = getattr(module, class_name, None)
        if not isinstance(cls, type):
            raise _error(target, f"{module_name} has no class {class_name}")
        overridden = {name for _, name in methods if _overrides(cls, name, target)}
    return [operation for operation, name in methods if name not in overridden]


def _split(target: Target) -> tuple[str, str]:
    module_name, _, class_name = (target.implementation or "").partition(":")
    if not module_name or not class_name.isidentifier():
        raise _error(target, f"implementation {target.implementation!r} is not `module:Class`")
    return module_name, class_name


def _operation_methods(target: Target) -> list[tuple[str, str]]:
    """(operation id, ServiceBase method name) for each operation of the spec, in spec order."""
    return [(operation.id, operation.method_name) for operation in _operations(target)]


def _operations(target: Target) -> list[Any]:
    """The operations of the spec (the model's), in spec order."""
    from ..model.parse import build_api
    from ..spec import load

    document, _ = load(target.spec_path, overlay=target.options.overlay)
    api = build_api(document, spec_display=target.spec, parts=target.options.parts)
    return list(api.operations)


def _search_path(target: Target) -> list[Path]:
    return [folder for folder in (target.root / "src", target.root) if folder.is_dir()]


def _import(target: Target, module_name: str) -> object:
    added = [str(folder) for folder in _search_path(target) if str(folder) not in sys.path]
    sys.path[:0] = added
    try:
        return importlib.import_module(module_name)
    finally:
        for folder in added:
            sys.path.remove(folder)


def _overrides(cls: type, name: str, target: Target) -> bool:
    owner = next((klass for klass in cls.__mro__ if name in vars(klass)), None)
    return owner is not None and owner is not object and not _is_generated(owner, target)


def _is_generated(owner: type, target: Target) -> bool:
    module = sys.modules.get(owner.__module__)
    source = getattr(module, "__file__", None)
    if owner.__name__ != "ServiceBase" or source is None:
        return False
    return Path(source).resolve().is_relative_to(target.out_path.resolve())


def _source_of(target: Target, module_name: str) -> Path:
    relative = Path(*module_name.split("."))
    candidates = [folder / relative.with_suffix(".py") for folder in _search_path(target)]
    candidates += [folder / relative / "__init__.py" for folder in _search_path(target)]
    source = next((path for path in candidates if path.is_file()), None)
    if source is None:
        raise _error(target, f"cannot find module {module_name} under {target.root}")
    return source


def _overridden_in_source(target: Target, source: Path, module_name: str,
                          class_name: str) -> set[str]:
    tree = ast.parse(source.read_text(encoding="utf-8"), filename=str(source))
    classes = {node.name: node for node in tree.body if isinstance(node, ast.ClassDef)}
    if class_name not in classes:
        raise _error(target, f"{module_name} has no class {class_name}")
    names: set[str] = set()
    pending, seen = [class_name], set()
    while pending:
        node = classes[pending.pop()]
        seen.add(node.name)
        names |= _defined_names(node)
        pending += [base.id for base in node.bases
                    if isinstance(base, ast.Name) and base.id in classes and base.id not in seen]
    return names


def _defined_names(node: ast.ClassDef) -> set[str]:
    names: set[str] = set()
    for statement in node.body:
        if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef):
            names.add(statement.name)
        elif isinstance(statement, ast.Assign):
            names |= {t.id for t in statement.targets if isinstance(t, ast.Name)}
        elif isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name):
            names.add(statement.target.id)
    return names


def _error(target: Target, message: str) -> SpecError:
    return SpecError.at(message, str(target.root / "pyproject.toml"), "/tool/contractgen/targets",
                        'implementation = "pkg.module:Class"')
