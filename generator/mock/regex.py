"""A string matching a regular expression, drawn from an rng: for schemas' `pattern`s.

Patterns are ECMA-262 (`contractgen.spec.ecma`): a pattern is walked in its translation (ECMA's
`\\d`, `\\u{1F600}`, `[\\w-.]`, `[^]` spelled out; `\\x{...}` written as Python's `\\U`), else
as written, as Python's own parser reads it (`re._parser`), and the string made is judged by
an ECMA-262 engine. Look-arounds are walked as nothing (the judge says whether that fits); a
construct it does not know (back-references) gives None, and the caller makes a value otherwise.
"""

from __future__ import annotations

import importlib
import random
import re
from typing import Any

import regress

from ..spec import ecma

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


_BRACED = re.compile(r"\\x\{([0-9A-Fa-f]+)\}")


def matches(pattern: str, text: str) -> bool:
    """Whether `pattern` finds a match in `text` as ECMA-262 reads it (Python's `re` for a
    pattern ECMA-262 refuses); never for a string with a lone surrogate (no JSON has one)."""
    if any(0xD800 <= ord(c) <= 0xDFFF for c in text):
        return False
    mode = ecma.ecma_mode(pattern)
    if mode is None:
        try:
            return re.search(pattern, text) is not None
        except re.error:
            return False
    return regress.Regex(pattern, mode).find(text) is not None


def _readings(pattern: str) -> list[str]:
    """The pattern for Python's parser: its ECMA-262 translation, then as written."""
    try:
        translated = ecma.translate(pattern)
    except ecma.Untranslatable:
        return [pattern]
    python = _BRACED.sub(lambda m: f"\\U{int(m.group(1), 16):08X}", translated)
    return [python.replace("(?-u:\\b)", "\\b"), pattern]


def sample(pattern: str, rng: random.Random) -> str | None:
    """A string `pattern` (ECMA-262) accepts, or None."""
    for reading in _readings(pattern):
        try:
            made = _walk(parser.parse(reading), rng)
        except (_Unknown, re.error, RecursionError, ValueError, OverflowError):
            continue
        if matches(pattern, made):
            return made
    return None


def _walk(parsed: Any, rng: random.Random) -> str:
    return "".join(_one(op, arg, rng) for op, arg in parsed)


def _one(op: Any, arg: Any, rng: random.Random) -> str:
    if op == constants.LITERAL:
        return chr(arg)
    if op == constants.NOT_LITERAL:
        return "a" if chr(arg) != "a" else "b"
    if op == constants.ANY:
        return rng.choice(_ANY)
    if op in (constants.AT, constants.ASSERT, constants.ASSERT_NOT):
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
        elif op == constants.RANGE:  # no surrogate: `[^]` spans them
            code = rng.randint(arg[0], arg[1])
            choices.append(chr(arg[0] if 0xD800 <= code <= 0xDFFF else code))
        elif op == constants.CATEGORY:
            choices.append(rng.choice(_CATEGORIES.get(arg, "a")))
        else:
            raise _Unknown(str(op))
    return rng.choice(choices)
