"""`generate --lenient`: published contracts often carry small schema errors. The operations
an error sits in are left out; every error becomes a located warning saying what was skipped,
or that the part was generated as written.

An error inside a component (`/components/schemas/X/...`) leaves out every operation that uses
X, directly or through other components (a `$ref`, or a security requirement naming a scheme),
whether the validator reports it in X, where an operation's `$ref` first reached X, or in the
file of a multi-file contract X was copied from; an error in a path item's shared parameters,
every operation of that path.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from ..problems import Level, Problem
from .loader import Document
from .paths import HTTP_METHODS, OperationSite, iter_operations
from .tree import Part, copy_data, escape, make_pointer, resolve_pointer, split_pointer

# An operation by (path, method), and a component by its pointer (`/components/schemas/X`).
Site = tuple[str, str]


def leniently(document: Document) -> tuple[Document, list[Problem]]:
    """`document` without the operations its errors reach, and the errors as warnings."""
    from .validate import validate_document

    document, repaired = _repaired(document)
    problems = [*repaired, *validate_document(document)]
    errors = [p for p in problems if p.level is Level.ERROR]
    if not errors:
        return document, problems
    sites = list(iter_operations(document.data))
    users = _component_users(document.data, sites)
    skipped: set[Site] = set()
    out: list[Problem] = [p for p in problems if p.level is not Level.ERROR]
    for error in errors:
        reached: list[OperationSite] = []
        component: str | None = None
        for pointer in _bundled(document, error):
            found, within = _reached(document.data, pointer, sites, users)
            reached += [site for site in found if site not in reached]
            component = component or within
        skipped |= {(site.path, site.method) for site in reached}
        out.append(replace(error, level=Level.WARNING,
                           message=f"{error.message} ({_what(reached, component)})"))
    data = copy_data(document.data)
    for path, method in skipped:
        item = data.get("paths", {}).get(path)
        if isinstance(item, dict):
            item.pop(method, None)
    return replace(document, data=data), out


def _repaired(document: Document) -> tuple[Document, list[Problem]]:
    """`document` with the repairs `validate --emit-overlay` would write applied first, and a
    warning at each schema repaired, saying what was done there."""
    from .jsonpath import find
    from .overlay import apply_actions
    from .repair import repair_actions

    actions = repair_actions(document.data)
    if not actions:
        return document, []
    sites: dict[tuple[Part, ...], list[str]] = {}
    for action in actions:
        for path in find(document.data, action["target"]):
            removed = bool(action.get("remove"))
            said = sites.setdefault(path[:-1] if removed else path, [])
            if removed or not said:  # a value written back after its removal: said already
                said.append(action["description"])
    warnings = [document.problem(Level.WARNING, make_pointer(site), "repaired: " + " ".join(said))
                for site, said in sites.items()]
    data, problems = apply_actions(document, actions)
    return replace(document, data=data), [*warnings, *problems]


def _bundled(document: Document, error: Problem) -> list[str]:
    """Where an error is in the bundled contract: an error in another file of a multi-file
    contract is located in that file, at each place its part was copied to."""
    if not error.file or Path(error.file).resolve() == document.path.resolve():
        return [error.pointer]
    return [here + error.pointer[len(there):] for here, other, there in document.origins
            if Path(other.path).resolve() == Path(error.file).resolve()
            and (error.pointer == there or error.pointer.startswith(there + "/"))]


def _reached(data: Mapping[str, Any], pointer: str, sites: list[OperationSite],
             users: Mapping[str, set[Site]]) -> tuple[list[OperationSite], str | None]:
    """The operations an error at `pointer` leaves out, and the component it sits in."""
    tokens = split_pointer(pointer)
    component = _entered(data, tokens)
    if component is not None:
        return [s for s in sites if (s.path, s.method) in users.get(component, set())], component
    if len(tokens) >= 3 and tokens[0] == "paths" and tokens[2] in HTTP_METHODS:
        return [s for s in sites if (s.path, s.method) == (tokens[1], tokens[2])], None
    if len(tokens) >= 3 and tokens[0] == "paths" and tokens[2] == "parameters":
        return [s for s in sites if s.path == tokens[1]], None
    return [], None


def _what(reached: list[OperationSite], component: str | None) -> str:
    named = ", ".join(f"{s.method.upper()} {s.path}" for s in reached)
    if component is None:
        return f"skipped {named}" if reached else "generated as written"
    where = component.lstrip("/")
    if not reached:
        return f"{where} generated as written: no operation uses it"
    return f"skipped {named}, which use{'s' if len(reached) == 1 else ''} {where}"


def _entered(data: Mapping[str, Any], tokens: list[str]) -> str | None:
    """The component a pointer ends in: the last one its walk enters through a `$ref` (the
    validator reports a shared component's error once, where it first reached it), else the
    one it starts in."""
    found = _component(tokens) if len(tokens) >= 3 and tokens[0] == "components" else None
    node: Any = data
    for token in tokens:
        ref = node.get("$ref") if isinstance(node, Mapping) else None
        if isinstance(ref, str) and ref.startswith("#/components/") and token not in node:
            try:
                node = resolve_pointer(data, ref)
            except (LookupError, ValueError):
                return found
            found = _component(split_pointer(ref))
        if isinstance(node, Mapping) and token in node:
            node = node[token]
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            break
    return found


def _component(tokens: list[str]) -> str:
    return "/" + "/".join(escape(token) for token in tokens[:3])


def _refs(node: Any) -> Iterator[str]:
    """The components a part of the contract names: its local `$ref`s' targets."""
    if isinstance(node, Mapping):
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/components/"):
            tokens = split_pointer(ref)
            if len(tokens) >= 3:
                yield _component(tokens)
        for value in node.values():
            yield from _refs(value)
    elif isinstance(node, list):
        for value in node:
            yield from _refs(value)


def _schemes(security: Any) -> Iterator[str]:
    for requirement in security if isinstance(security, list) else ():
        for name in requirement if isinstance(requirement, Mapping) else ():
            yield _component(["components", "securitySchemes", str(name)])


def _component_users(data: Mapping[str, Any], sites: list[OperationSite]) -> dict[str, set[Site]]:
    """Each component -> the operations that use it, directly or through other components."""
    named: dict[str, set[str]] = {}  # component -> the components it names
    components = data.get("components")
    for kind, group in components.items() if isinstance(components, Mapping) else ():
        for name, node in group.items() if isinstance(group, Mapping) else ():
            named[_component(["components", str(kind), str(name)])] = set(_refs(node))
    users: dict[str, set[Site]] = {}
    for site in sites:
        used = {*_refs(site.operation), *_refs(site.item.get("parameters")),
                *_schemes(site.operation.get("security", data.get("security")))}
        seen: set[str] = set()
        while used:
            component = used.pop()
            if component not in seen:
                seen.add(component)
                used |= named.get(component, set()) - seen
        for component in seen:
            users.setdefault(component, set()).add((site.path, site.method))
    return users
