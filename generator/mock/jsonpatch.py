"""RFC 6902 JSON Patch, applied to a stored item (`application/json-patch+json` on PATCH).

`apply(document, operations)` returns the patched copy, or raises `PatchError` (a failing
`test`, a path that is not there, an operation it does not know): the patch is applied whole or
not at all (RFC 6902 section 5), and the stored item is never changed in place.
"""

from __future__ import annotations

import copy
from typing import Any

from ..errors import ContractgenError

MEDIA = "application/json-patch+json"


class PatchError(ContractgenError, ValueError):
    """A patch that cannot be applied; `failed_test`: it was a `test` that did not hold."""

    def __init__(self, message: str, *, failed_test: bool = False) -> None:
        super().__init__(message)
        self.failed_test = failed_test


def _tokens(pointer: Any) -> list[str]:
    """RFC 6901: `/a/b~1c` -> ["a", "b/c"]."""
    if not isinstance(pointer, str) or (pointer and not pointer.startswith("/")):
        raise PatchError(f"{pointer!r} is not a JSON pointer")
    return [t.replace("~1", "/").replace("~0", "~") for t in pointer.split("/")[1:]]


def _index(container: list[Any], token: str, *, adding: bool) -> int:
    if adding and token == "-":
        return len(container)
    if not token.isdigit() or (len(token) > 1 and token.startswith("0")):
        raise PatchError(f"{token!r} is not an array index")
    index = int(token)
    if index > len(container) or (index == len(container) and not adding):
        raise PatchError(f"index {index} is past the array's end ({len(container)})")
    return index


def _parent(document: Any, tokens: list[str]) -> Any:
    """The container the last token names a member of."""
    node = document
    for token in tokens[:-1]:
        if isinstance(node, dict) and token in node:
            node = node[token]
        elif isinstance(node, list):
            node = node[_index(node, token, adding=False)]
        else:
            raise PatchError(f"/{'/'.join(tokens)}: {token!r} is not there")
    return node


def _get(document: Any, pointer: Any) -> Any:
    tokens = _tokens(pointer)
    if not tokens:
        return document
    parent, last = _parent(document, tokens), tokens[-1]
    if isinstance(parent, dict) and last in parent:
        return parent[last]
    if isinstance(parent, list):
        return parent[_index(parent, last, adding=False)]
    raise PatchError(f"{pointer}: not there")


def _add(document: Any, pointer: Any, value: Any) -> Any:
    tokens = _tokens(pointer)
    if not tokens:
        return value
    parent, last = _parent(document, tokens), tokens[-1]
    if isinstance(parent, dict):
        parent[last] = value
    elif isinstance(parent, list):
        parent.insert(_index(parent, last, adding=True), value)
    else:
        raise PatchError(f"{pointer}: its parent is not an object or an array")
    return document


def _remove(document: Any, pointer: Any) -> Any:
    tokens = _tokens(pointer)
    if not tokens:
        raise PatchError("removing the whole document")
    parent, last = _parent(document, tokens), tokens[-1]
    if isinstance(parent, dict) and last in parent:
        del parent[last]
    elif isinstance(parent, list):
        del parent[_index(parent, last, adding=False)]
    else:
        raise PatchError(f"{pointer}: not there")
    return document


def _step(document: Any, operation: Any) -> Any:
    """One operation applied to `document` (changed in place where it can be); the result."""
    if not isinstance(operation, dict) or "path" not in operation:
        raise PatchError(f"{operation!r} is not a patch operation (an object with op and path)")
    op, path = operation.get("op"), operation["path"]
    if op in ("add", "replace", "test") and "value" not in operation:
        raise PatchError(f"{op} {path}: no value")
    if op == "add":
        return _add(document, path, copy.deepcopy(operation["value"]))
    if op == "remove":
        return _remove(document, path)
    if op == "replace":
        _get(document, path)  # must be there
        return _add(_remove(document, path) if _tokens(path) else document, path,
                    copy.deepcopy(operation["value"]))
    if op in ("move", "copy"):
        source = operation.get("from")
        value = copy.deepcopy(_get(document, source))
        if op == "move":
            if isinstance(source, str) and path.startswith(source + "/"):
                raise PatchError(f"move {source} into its own child {path}")
            document = _remove(document, source)
        return _add(document, path, value)
    if op == "test":
        found = _get(document, path)
        if not _equal(found, operation["value"]):
            raise PatchError(f"test {path}: {found!r} is not {operation['value']!r}",
                             failed_test=True)
        return document
    raise PatchError(f"unknown patch operation {op!r}")


def _equal(a: Any, b: Any) -> bool:
    """RFC 6902 4.6's equality: JSON values, so `1 == true` does not hold."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_equal(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_equal(x, y) for x, y in zip(a, b, strict=True))
    numbers = (int, float)
    if type(a) in numbers and type(b) in numbers:
        return bool(a == b)
    return type(a) is type(b) and bool(a == b)


def apply(document: Any, operations: Any) -> Any:
    """`operations` (an RFC 6902 array) applied to a copy of `document`."""
    if not isinstance(operations, list):
        raise PatchError("a JSON Patch is an array of operations")
    result = copy.deepcopy(document)
    for operation in operations:
        result = _step(result, operation)
    return result
