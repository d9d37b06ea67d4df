"""The operations of a contract: every (path, method) pair, walked in one place."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from .tree import escape

HTTP_METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")

_WORD = re.compile(r"[A-Z]+(?=[A-Z][a-z0-9])|[A-Z]?[a-z0-9]+|[A-Z]+|[0-9]+")

# Given a node and its pointer, the node a `$ref` there names and that node's pointer.
Resolver = Callable[[Any, str], tuple[Any, str]]


def words(name: str) -> list[str]:
    """Split any spelling (camelCase, snake_case, kebab-case, spaces) into words.

    Accented letters lose their accents (`ünïcode` -> `unicode`): names stay ASCII (PLC2401).
    """
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    return _WORD.findall(ascii_name.replace("'", ""))


def derived_operation_id(method: str, path: str) -> str:
    """`GET /pets/{petId}` -> `get_pets_pet_id`: the name used when operationId is missing."""
    parts = [w.lower() for w in words(path)]
    return "_".join([method.lower(), *parts]) if parts else f"{method.lower()}_root"


@dataclass(frozen=True)
class OperationSite:
    """One operation object of the contract, where it is, and the path item holding it."""

    path: str
    method: str
    operation: Mapping[str, Any]
    item: Mapping[str, Any]
    item_pointer: str

    @property
    def pointer(self) -> str:
        return f"{self.item_pointer}/{self.method}"

    @property
    def declared_id(self) -> str | None:
        """The operationId as written, when it is a non-blank string."""
        op_id = self.operation.get("operationId")
        return op_id if isinstance(op_id, str) and op_id.strip() else None

    @property
    def operation_id(self) -> str:
        """The operationId, or the one derived from method and path when there is none."""
        return self.declared_id or derived_operation_id(self.method, self.path)


def iter_operations(data: Mapping[str, Any], resolve: Resolver | None = None
                    ) -> Iterator[OperationSite]:
    """Every operation in document order; `resolve` follows a path item's `$ref` first."""
    paths = data.get("paths")
    if not isinstance(paths, Mapping):
        return
    for path, item in paths.items():
        pointer = f"/paths/{escape(path)}"
        if resolve is not None:
            item, pointer = resolve(item, pointer)
        if not isinstance(item, Mapping):
            continue
        for method, operation in item.items():
            if method in HTTP_METHODS and isinstance(operation, Mapping):
                yield OperationSite(str(path), method, operation, item, pointer)
