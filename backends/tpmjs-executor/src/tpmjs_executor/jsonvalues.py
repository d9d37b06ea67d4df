"""JSON values that can always be answered: bounded nesting, no lone UTF-16 surrogates.

JSON text may escape a lone surrogate (`"\\ud800"`) and nest without limit; Python parses both,
but neither can be serialized back (UTF-8 has no surrogates, the serializer stops at 255
levels). Requests holding them are refused; a tool's output is repaired (U+FFFD) or refused.
Both walks are iterative, so no depth can exhaust Python's stack.
"""

from __future__ import annotations

import re
from typing import Any

from .exceptions import JsonProblem

__all__ = ["MAX_DEPTH", "JsonProblem", "check_json", "clean_json", "clean_text"]

# Under pydantic-core's serialization limit (255) with room for the response envelope.
MAX_DEPTH = 200
_SURROGATE = re.compile("[\ud800-\udfff]")


def clean_text(text: str) -> str:
    """`text` with each lone surrogate replaced by U+FFFD (json.loads pairs the valid ones)."""
    return text if text.isascii() else _SURROGATE.sub("\ufffd", text)


def _has_surrogate(text: str) -> bool:
    return not text.isascii() and _SURROGATE.search(text) is not None


def check_json(value: Any, what: str, max_depth: int = MAX_DEPTH) -> None:
    """Raise JsonProblem if `value` nests deeper than `max_depth` or holds a lone surrogate."""
    _walk(value, what, max_depth, repair=False)


def clean_json(value: Any, what: str, max_depth: int = MAX_DEPTH) -> Any:
    """`value` (parsed JSON, changed in place) with lone surrogates replaced; JsonProblem if
    it nests deeper than `max_depth`."""
    if isinstance(value, str):
        return clean_text(value)
    _walk(value, what, max_depth, repair=True)
    return value


def _walk(value: Any, what: str, max_depth: int, *, repair: bool) -> None:
    def text(item: str) -> str:
        if not _has_surrogate(item):
            return item
        if not repair:
            raise JsonProblem(f"{what} holds a lone UTF-16 surrogate, which is not text")
        return clean_text(item)

    if isinstance(value, str):
        text(value)
        return
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > max_depth:
            raise JsonProblem(f"{what} is nested deeper than {max_depth} levels")
        if isinstance(node, list):
            for index, item in enumerate(node):
                if isinstance(item, str):
                    node[index] = text(item)
                elif isinstance(item, list | dict):
                    stack.append((item, depth + 1))
        elif isinstance(node, dict):
            for key in [k for k in node if isinstance(k, str) and _has_surrogate(k)]:
                node[text(key)] = node.pop(key)
            for key, item in node.items():
                if isinstance(item, str):
                    node[key] = text(item)
                elif isinstance(item, list | dict):
                    stack.append((item, depth + 1))
