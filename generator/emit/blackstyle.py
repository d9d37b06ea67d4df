"""Statements written in black's layout, for the shapes the templates emit most.

black formats every generated block (it stays the formatter of record). When its first pass
leaves a block unchanged it skips its second one, so a block the templates already write in
black's layout costs half as much to format. These helpers lay out the common statements the
way black's right-hand split does: the statement on one line when it fits in 88 columns, else
split after its last bracket, the contents on one line when they fit, else one item per line
with a trailing comma. A shape they are not sure of is written on one line, and black lays it
out as always: nothing here decides what the output is, only how much of it black rewrites.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

LINE_LENGTH = 88
_STRING = r"""(?:"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')"""
# What black cannot split however long it is: a name, a one-dot attribute, a number, one string
# literal, each optionally a keyword argument's value. Anything else (brackets, operators, a
# chain of attributes) black might split, so a long one is left to black.
_UNSPLITTABLE = re.compile(rf"(?:\w+=)?(?:{_STRING}|-?\w+(?:\.\w+)?)")


@dataclass(frozen=True)
class Group:
    """A bracketed expression: `opener` (`Field(`, `[`, `Annotated[`), items, `closer`."""

    opener: str
    items: tuple[Expr, ...]
    closer: str

    def flat(self) -> str:
        return self.opener + ", ".join(flat(item) for item in self.items) + self.closer


Expr = str | Group


def flat(expr: Expr) -> str:
    return expr if isinstance(expr, str) else expr.flat()


def call(opener: str, items: Sequence[Expr], closer: str = ")") -> Group:
    """`opener items closer`: a call (`f(`, `)`), a list (`[`, `]`), a dict, a subscript."""
    return Group(opener, tuple(items), closer)


def laid(indent: str, head: str, opener: str, items: Sequence[Expr], *, closer: str = ")",
         tail: str = "") -> str:
    """`indent head opener items closer tail` (a call or a literal), for the templates."""
    return statement(indent, head, call(opener, items, closer), tail)


def statement(indent: str, head: str, expr: Expr, tail: str = "") -> str:
    """`indent + head + expr + tail`, in black's layout when this module knows it."""
    lines = _lay(indent, head, expr, tail)
    return "\n".join(lines) if lines is not None else indent + head + flat(expr) + tail


def define(indent: str, head: str, params: Sequence[Expr], tail: str) -> str:
    """A `def` statement (`head` ends with its opening parenthesis, `tail` starts with the
    closing one), as black's left-hand split writes it: the parameters on their own line when
    they fit, else one per line; a single parameter gets a trailing comma either way."""
    line = indent + head + ", ".join(flat(p) for p in params) + tail
    if len(line) <= LINE_LENGTH or not params:
        return line
    first, inner = indent + head, indent + "    "
    last = _def_tail(indent, tail)
    if last is not None and len(params) > 1 and any(line.endswith(",") for line in last):
        # A member of the parenthesized return annotation is split one item per line: black
        # then keeps the parameters beside the name when they fit there, before `-> (`.
        opening = indent + head + ", ".join(flat(p) for p in params) + ") -> ("
        if len(opening) <= LINE_LENGTH:
            return "\n".join([opening, *last[1:]])
    body = _item(inner, params[0], ",") if len(params) == 1 else _body(inner, tuple(params))
    if len(first) > LINE_LENGTH or last is None or body is None:
        return line
    return "\n".join([first, *body, *last])


def _def_tail(indent: str, tail: str) -> list[str] | None:
    """`) -> T:` on one line, or a long union `T` in parentheses, one member per line."""
    if len(indent + tail) <= LINE_LENGTH:
        return [indent + tail]
    if not (tail.startswith(") -> ") and tail.endswith(":")):
        return None
    members = _top_level_split(tail[5:-1], " | ")
    inner = indent + "    "
    if len(members) < 2:
        return None
    if len(inner + tail[5:-1]) <= LINE_LENGTH:
        return [indent + ") -> (", inner + tail[5:-1], indent + "):"]
    lines = [indent + ") -> ("]
    for index, member in enumerate(members):
        laid = _item(inner, _subscript(member), "", "| " if index else "")
        if laid is None:
            return None
        lines += laid
    return [*lines, indent + "):"]


def _subscript(text: str) -> Expr:
    """`Name[a, b]` as a group of its arguments; any other type expression as it is."""
    opener = text.find("[")
    if opener < 1 or not text.endswith("]") or not text[:opener].replace(".", "").isidentifier():
        return text
    return call(text[:opener + 1], _top_level_split(text[opener + 1:-1], ", "), "]")


def _top_level_split(text: str, separator: str) -> list[str]:
    """`text` split at `separator` outside brackets (type expressions hold no strings)."""
    parts, depth, start, index = [], 0, 0, 0
    while index < len(text):
        char = text[index]
        if char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
        elif depth == 0 and text.startswith(separator, index):
            parts.append(text[start:index])
            start = index = index + len(separator)
            continue
        index += 1
    return [*parts, text[start:]]


def _lay(indent: str, head: str, expr: Expr, tail: str) -> list[str] | None:
    line = indent + head + flat(expr) + tail
    if len(line) <= LINE_LENGTH:
        return [line]
    if not isinstance(expr, Group) or not expr.items:
        return None
    first = indent + head + expr.opener
    last = indent + expr.closer + tail
    if len(first) > LINE_LENGTH or len(last) > LINE_LENGTH:
        return None
    body = _body(indent + "    ", expr.items)
    return None if body is None else [first, *body, last]


def _body(indent: str, items: tuple[Expr, ...]) -> list[str] | None:
    joined = indent + ", ".join(flat(item) for item in items)
    if len(joined) <= LINE_LENGTH:
        return [joined]
    if len(items) == 1:  # no comma to split at: black splits the item's own brackets
        return _item(indent, items[0], "")
    lines: list[str] = []
    for item in items:
        laid = _item(indent, item, ",")
        if laid is None:
            return None
        lines += laid
    return lines


def _item(indent: str, item: Expr, tail: str, head: str = "") -> list[str] | None:
    laid = _lay(indent, head, item, tail)
    if laid is None and isinstance(item, str) and _UNSPLITTABLE.fullmatch(item):
        return [indent + head + item + tail]  # too long, and black cannot split it either
    return laid


def class_line(name: str, bases: Sequence[str]) -> str:
    """`class name(bases):`."""
    return statement("", f"class {name}", call("(", list(bases)), ":")


def docstring(text: object, indent: int = 4) -> str:
    """The inside of a docstring's triple quotes, as black writes it (closing quotes that would
    pass column 88 go on a line of their own)."""
    body = str(text).strip().replace("\\", "\\\\").replace('"""', '\\"\\"\\"')
    pad = " " * indent
    lines = body.splitlines()
    joined = "\n".join([lines[0], *[(pad + line).rstrip() for line in lines[1:]]]) if lines else ""
    padded = joined + " " if joined.endswith('"') else joined  # a quote would end the docstring
    if len(lines) > 1 and len(padded) - padded.rfind("\n") - 1 + 3 > LINE_LENGTH:
        return joined + "\n" + pad  # black's place for closing quotes that would not fit
    return padded
