"""Python literals spelled as black spells them, so black finds them already in its layout.

black rewrites `'text'` as `"text"`. A literal the generator writes in black's spelling saves
black nothing by itself, but a block written entirely in black's layout comes out of black's
first pass unchanged, and then black skips its second pass: half its cost for that block. The
output is black's either way (black still formats every block); this only makes it cheaper.
"""

from __future__ import annotations

from typing import Any


def string(text: str) -> str:
    """`repr(text)` with black's choice of quotes (`black.strings.normalize_string_quotes`)."""
    spelled = repr(text)
    if spelled[0] == '"':  # repr chose double quotes: the text has ' and no "
        return spelled
    singles, doubles = text.count("'"), text.count('"')
    # From '...' black unescapes \' and escapes ", and keeps '...' only when that adds escapes.
    if doubles > singles:
        return spelled
    body = spelled[1:-1].replace("\\'", "'").replace('"', '\\"')
    return f'"{body}"'


def literal(value: Any) -> str:
    """The source of a constant (str, number, bool, None, and tuples, lists and dicts of them)
    as `repr` writes it, with strings quoted as black quotes them."""
    if isinstance(value, str):
        return string(value)
    if isinstance(value, tuple):
        if len(value) == 1:
            return f"({literal(value[0])},)"
        return "(" + ", ".join(literal(item) for item in value) + ")"
    if isinstance(value, list):
        return "[" + ", ".join(literal(item) for item in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{literal(k)}: {literal(v)}" for k, v in value.items()) + "}"
    return repr(value)
