"""Apply an OpenAPI Overlay 1.0 document (https://spec.openapis.org/overlay/v1.0.0) to a spec.

Each action's `target` (JSONPath, see `jsonpath`) selects nodes; `update` deep-merges into each
selected object (objects merge recursively, arrays append, anything else is replaced) or is
appended to each selected array; `remove: true` deletes each selected node from its parent.
Actions run in order, each on the result of the previous ones. Nodes that came from the spec keep
their positions, so later problems still point at the spec's own lines.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from ..problems import Level, Problem, sorted_problems
from .jsonpath import JSONPathError, find
from .loader import Document, document_from_data, load_document
from .positions import Pos
from .tree import Part, copy_data, make_pointer

_VERSION = re.compile(r"^1\.0\.\d+$")
_TOP_FIELDS = frozenset({"overlay", "info", "extends", "actions"})
_ACTION_FIELDS = frozenset({"target", "description", "update", "remove"})


def apply_overlay(doc: Document, overlay_path: str | Path, read: tuple[bytes, str] | None = None
                  ) -> tuple[Document, list[Problem]]:
    """The spec with the overlay's actions applied, and the problems found in the overlay
    (`read`: the overlay's bytes and sha256, when read already)."""
    overlay = load_document(overlay_path, read=read)
    problems = _check_document(overlay)
    data = copy_data(doc.data)
    positions = _copy_pos(doc.positions) if doc.positions else None
    actions = overlay.data.get("actions")
    for i, action in enumerate(actions if isinstance(actions, list) else []):
        problems.extend(_apply(overlay, i, action, data, positions))
    result = document_from_data(data, doc.path, text=doc.text + overlay.text,
                                positions=positions, overlay_path=overlay.path)
    return result, sorted_problems(problems)


def apply_actions(doc: Document, actions: list[dict[str, Any]]
                  ) -> tuple[dict[str, Any], list[Problem]]:
    """A copy of `doc`'s data with overlay `actions` made in memory applied (`--lenient`'s
    repairs), and the problems they met."""
    overlay = document_from_data({"overlay": "1.0.0", "actions": actions}, doc.path, text="")
    data = copy_data(doc.data)
    problems: list[Problem] = []
    for i, action in enumerate(actions):
        problems.extend(_apply(overlay, i, action, data, None))
    return data, problems


def _check_document(overlay: Document) -> list[Problem]:
    data = overlay.data
    problems = []
    version = data.get("overlay")
    if version is None:
        problems.append(overlay.problem(Level.ERROR, "", "not an overlay: `overlay` is missing",
                                        "start the file with `overlay: 1.0.0`"))
    elif not isinstance(version, str) or not _VERSION.match(version):
        problems.append(overlay.problem(Level.ERROR, "/overlay",
                                        f"unsupported overlay version {version!r}",
                                        "contractgen applies Overlay 1.0.x; write `overlay: 1.0.0`"))
    info = data.get("info")
    if not isinstance(info, dict) or not all(isinstance(info.get(k), str) for k in ("title", "version")):
        problems.append(overlay.problem(Level.WARNING, "/info" if info is not None else "",
                                        "`info` needs a `title` and a `version` (strings)"))
    for key in data:
        if key not in _TOP_FIELDS and not key.startswith("x-"):
            problems.append(overlay.problem(Level.WARNING, make_pointer([key]),
                                            f"unknown field {key!r} is ignored"))
    actions = data.get("actions")
    if not isinstance(actions, list) or not actions:
        where = "/actions" if "actions" in data else ""
        problems.append(overlay.problem(Level.ERROR, where, "`actions` must be a non-empty list",
                                        "each action is `- target: $.json.path` with `update:` or `remove: true`"))
    return problems


def _apply(overlay: Document, i: int, action: Any, data: dict[str, Any], positions: Pos | None
           ) -> list[Problem]:
    here = make_pointer(["actions", i])
    if not isinstance(action, dict):
        return [overlay.problem(Level.ERROR, here, "an action must be a mapping with a `target`")]
    problems = []
    for key in action:
        if key == "copy":
            problems.append(overlay.problem(Level.ERROR, f"{here}/copy",
                                            "`copy` is Overlay 1.1 and not supported",
                                            "write the copied value out in `update`"))
        elif key not in _ACTION_FIELDS and not key.startswith("x-"):
            problems.append(overlay.problem(Level.WARNING, make_pointer(["actions", i, key]),
                                            f"unknown action field {key!r} is ignored"))
    target = action.get("target")
    if not isinstance(target, str):
        return [*problems, overlay.problem(
            Level.ERROR, here if target is None else f"{here}/target",
            "the action has no `target` (a JSONPath string)",
            "for example `target: $.paths['/users'].get`")]
    remove = action.get("remove", False)
    if not isinstance(remove, bool):
        return [*problems, overlay.problem(Level.ERROR, f"{here}/remove",
                                           f"`remove` must be true or false, not {remove!r}")]
    if not remove and "update" not in action:
        return [*problems, overlay.problem(
            Level.WARNING, here,
            "the action has neither `update` nor `remove: true`; it does nothing")]
    try:
        matches = find(data, target)
    except JSONPathError as exc:
        return [*problems, overlay.problem(
            Level.ERROR, f"{here}/target", f"unsupported JSONPath {target!r}: {exc}",
            "contractgen supports $, .name, ['name'], [n], [*], ..name and [?@.key == 'value'] "
            "filters")]
    if not matches:
        return [*problems, overlay.problem(
            Level.WARNING, f"{here}/target",
            f"target {target!r} matches nothing; the action does nothing")]
    if remove:
        for path in reversed(matches):
            problems.extend(_remove(overlay, here, data, positions, path))
    else:
        for path in matches:
            problems.extend(_update(overlay, here, _locate(data, positions, path), path,
                                    action["update"]))
    return problems


def _locate(data: Any, positions: Pos | None, path: tuple[Part, ...]) -> tuple[Any, Pos | None]:
    """The node at `path` (which `find` just produced) and its position node, if any."""
    node, pos = data, positions
    for part in path:
        node = node[part]
        pos = _child_pos(pos, part)
    return node, pos


def _child_pos(pos: Pos | None, part: Part) -> Pos | None:
    children = pos.children if pos else None
    if isinstance(children, dict) and isinstance(part, str):
        return children.get(part)
    if isinstance(children, list) and isinstance(part, int) and part < len(children):
        return children[part]
    return None


def _remove(overlay: Document, here: str, data: dict[str, Any], positions: Pos | None,
            path: tuple[Part, ...]) -> list[Problem]:
    if not path:
        return [overlay.problem(Level.ERROR, f"{here}/target", "cannot remove the whole document")]
    try:
        parent, parent_pos = _locate(data, positions, path[:-1])
    except (KeyError, IndexError):
        return []  # inside a node an earlier match of this action removed
    last = path[-1]
    children = parent_pos.children if parent_pos else None
    if isinstance(parent, dict) and isinstance(last, str) and last in parent:
        del parent[last]
        if isinstance(children, dict):
            children.pop(last, None)
    elif isinstance(parent, list) and isinstance(last, int) and last < len(parent):
        del parent[last]
        # Positions of a list are kept for its first items only (appended items have none),
        # so deleting by index keeps the two aligned.
        if isinstance(children, list) and last < len(children):
            del children[last]
    return []


def _update(overlay: Document, here: str, located: tuple[Any, Pos | None],
            path: tuple[Part, ...], update: Any) -> list[Problem]:
    node, pos = located
    where = make_pointer(path)
    if isinstance(node, dict):
        if not isinstance(update, dict):
            return [overlay.problem(Level.ERROR, f"{here}/update",
                                    f"the target {where} is an object, so `update` must be an object")]
        _merge(node, pos, update)
    elif isinstance(node, list):
        node.append(copy_data(update))
    else:
        return [overlay.problem(Level.ERROR, f"{here}/target",
                                f"the target {where} is a {type(node).__name__} value; only objects "
                                "and arrays can be updated", "target its parent object instead")]
    return []


def _merge(target: dict[str, Any], pos: Pos | None, update: dict[str, Any]) -> None:
    for key, value in update.items():
        current = target.get(key)
        child = _child_pos(pos, key)
        if isinstance(current, dict) and isinstance(value, dict):
            _merge(current, child, value)
        elif isinstance(current, list) and isinstance(value, list):
            current.extend(copy_data(item) for item in value)
        else:
            target[key] = copy_data(value)
            if child is not None:
                child.children = None  # the key is the spec's, the value the overlay's


def _copy_pos(pos: Pos) -> Pos:
    children = pos.children
    if isinstance(children, dict):
        return Pos(pos.line, pos.col, {k: _copy_pos(v) for k, v in children.items()})
    if isinstance(children, list):
        return Pos(pos.line, pos.col, [_copy_pos(v) for v in children])
    return Pos(pos.line, pos.col)
