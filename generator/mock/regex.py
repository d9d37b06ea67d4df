"""A string matching a regular expression, drawn from an rng: for schemas' `pattern`s.

Walks the pattern as Python's own parser reads it (`re._parser`); a construct it does not
know (look-arounds, back-references) gives None, and the caller makes a value otherwise.
"""

from __future__ import annotations

import importlib
import random
import re
from typing import Any

# Python's own regular expression parser (3.11+ names; `sre_parse` is deprecated).
parser: Any = importlib.import_module("re._parser")
constants: Any = importlib.import_module("re._constants")

_MAX_REPEAT = 3
_CATEGORIES: dict[Any, str] = {
    constants.CATEGORY_DIGIT: "0123456789",
    constants.CATEGORY_WORD: "abcdefghijklmnopqrstuvwxyz0123456789_",
    constants.CATEGORY_SPACE: " ",
    constants.CATEGORY_NOT_DIGIT: "abcxyz",
    constants.CATEGORY_NOT_WORD: "-.",
    constants.CATEGORY_NOT_SPACE: "abc123",
}
_ANY = "abcdefghijklmnopqrstuvwxyz0123456789"


class _Unknown(Exception):
    pass


def sample(pattern: str, rng: random.Random) -> str | None:
    """A string `re.search(pattern, it)` accepts, or None."""
    try:
        made = _walk(parser.parse(pattern), rng)
    except (_Unknown, re.error, RecursionError, ValueError):
        return None
    return made if re.search(pattern, made) else None


def _walk(parsed: Any, rng: random.Random) -> str:
    return "".join(_one(op, arg, rng) for op, arg in parsed)


def _one(op: Any, arg: Any, rng: random.Random) -> str:
    if op == constants.LITERAL:
        return chr(arg)
    if op == constants.NOT_LITERAL:
        return "a" if chr(arg) != "a" else "b"
    if op == constants.ANY:
        return rng.choice(_ANY)
    if op == constants.AT:
        return ""
    if op == constants.IN:
        return _in(arg, rng)
    if op in (constants.MAX_REPEAT, constants.MIN_REPEAT, getattr(constants, "POSSESSIVE_REPEAT", None)):
        low, high, inner = arg
        high = min(high, low + _MAX_REPEAT)
        return "".join(_walk(inner, rng) for _ in range(rng.randint(low, high)))
    if op == constants.SUBPATTERN:
        return _walk(arg[-1], rng)
    if op == getattr(constants, "ATOMIC_GROUP", None):
        return _walk(arg, rng)
    if op == constants.BRANCH:
        return _walk(rng.choice(arg[1]), rng)
    if op == constants.CATEGORY:
        return rng.choice(_CATEGORIES.get(arg, "a"))
    raise _Unknown(str(op))


def _in(items: Any, rng: random.Random) -> str:
    if items and items[0][0] == constants.NEGATE:
        excluded = {chr(a) for op, a in items[1:] if op == constants.LITERAL}
        return next(c for c in _ANY if c not in excluded)
    choices: list[str] = []
    for op, arg in items:
        if op == constants.LITERAL:
            choices.append(chr(arg))
        elif op == constants.RANGE:
            choices.append(chr(rng.randint(arg[0], arg[1])))
        elif op == constants.CATEGORY:
            choices.append(rng.choice(_CATEGORIES.get(arg, "a")))
        else:
            raise _Unknown(str(op))
    return rng.choice(choices)
