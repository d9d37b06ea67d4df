"""Strings for the judge's values (judge_values.py): a format's sample, a `pattern`'s string.

A pattern is ECMA-262 (OpenAPI, JSON Schema): it is drawn from its translation for a Python
regex (`contractgen.spec.ecma.translate`, which reads `[\\w-./:]` as ECMA's Annex B does) and the
string drawn is kept only when `regress`, an ECMA-262 engine, finds the pattern in it. A pattern
that no string of its `format` can hold (PagerDuty's placeholder `YYYY-MM-DDThh:mm:ssZ` on a
`date-time`) is proved empty, not merely missed: `Unsatisfiable` says why.
"""

from __future__ import annotations

import json
import re
from typing import Any

import regress
from contractgen.spec.ecma import Untranslatable, ecma_mode, translate

FORMATS = {
    "date-time": "2024-01-02T03:04:05Z", "date": "2024-01-02", "time": "03:04:05Z",
    "uuid": "3fa85f64-5717-4562-b3fc-2c963f66afa6", "email": "judge@example.com",
    "uri": "https://example.com/judge", "url": "https://example.com/judge",
    "hostname": "example.com", "ipv4": "192.0.2.1", "ipv6": "2001:db8::1",
    "byte": "anVkZ2U=", "binary": "judge", "duration": "P1D", "uri-reference": "/judge",
}
# The characters a string of these formats is made of (RFC 3339, RFC 4122, RFC 791/4291).
_ALPHABETS = {
    "date-time": "0123456789-:.+TtZz", "date": "0123456789-", "time": "0123456789-:.+Zz",
    "uuid": "0123456789abcdefABCDEF-", "ipv4": "0123456789.", "ipv6": "0123456789abcdefABCDEF:.",
}
_SYNTAX = set("\\^$.|?*+()[]{}")


class NoValue(Exception):
    """No valid value could be made for a schema."""


class Unsatisfiable(NoValue):
    """No value is valid for a schema: the contract contradicts itself (the message says how)."""


def string(schema: dict[str, Any]) -> str:
    """The smallest string the schema describes (unchecked): a pattern's, else its format's
    sample (or `judge`) cut or padded to its lengths."""
    if "pattern" in schema:
        return patterned(schema)
    text = FORMATS.get(schema.get("format", ""), "judge")
    low, high = schema.get("minLength", 0), schema.get("maxLength")
    if len(text) < low:
        text = text + "x" * (low - len(text))
    if high is not None and len(text) > high:
        text = text[:high]
    return text


def _no_format_holds(pattern: str, fmt: str) -> str | None:
    """Why no string of format `fmt` matches `pattern`, when its text proves it: a pattern
    without regex syntax matches the strings holding it, and `fmt`'s alphabet lacks a letter
    of it."""
    if fmt not in _ALPHABETS or _SYNTAX & set(pattern):
        return None
    foreign = sorted(set(pattern) - set(_ALPHABETS[fmt]))
    if not foreign:
        return None
    return (f"`pattern: {pattern}` (no regex syntax: a value must hold this text) and "
            f"`format: {fmt}`, whose strings hold no {''.join(foreign)!r}")


def _for_python(pattern: str) -> str:
    """The pattern as Python's `re` reads it: ECMA's translation (Rust's spelling of code
    points made Python's), else as written (a lookaround, which Rust lacks and `re` has)."""
    try:
        rust = translate(pattern)
    except Untranslatable:
        return pattern
    return re.sub(r"\\x\{([0-9A-Fa-f]+)\}", lambda m: f"\\U{int(m.group(1), 16):08x}", rust)


def patterned(schema: dict[str, Any]) -> str:
    """A string matching the schema's `pattern` (and lengths, format), drawn by
    hypothesis-jsonschema from its Python spelling and kept when ECMA-262 finds the pattern
    in it: the first found, the same on every run."""
    from hypothesis import HealthCheck, Phase, find, settings
    from hypothesis_jsonschema import from_schema

    pattern = schema["pattern"]
    if (why := _no_format_holds(pattern, schema.get("format", ""))) is not None:
        raise Unsatisfiable(why)
    mode = ecma_mode(pattern)
    if mode is None:
        raise NoValue(f"`pattern` {pattern!r} is no ECMA-262 regular expression")
    leaf = {k: schema[k] for k in ("minLength", "maxLength", "format") if k in schema}
    leaf["pattern"] = _for_python(pattern)
    key = json.dumps(leaf, sort_keys=True)
    if key in _PATTERNED:
        return _PATTERNED[key]
    ecma = regress.Regex(pattern, mode)
    try:  # not shrunk: the first string drawn (shrinking one took seconds)
        found: str = find(from_schema({"type": "string", **leaf}),
                          lambda v: ecma.find(v) is not None,
                          settings=settings(database=None, derandomize=True, max_examples=200,
                                            phases=[Phase.generate],
                                            suppress_health_check=list(HealthCheck)))
    except Exception as exc:  # hypothesis's own refusal (an unsupported pattern): no value
        raise NoValue(f"no string matches {pattern!r}: {exc}"[:300]) from None
    _PATTERNED[key] = found
    return found


_PATTERNED: dict[str, str] = {}
