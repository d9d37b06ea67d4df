"""Statements written in black's layout, for the shapes the templates emit most.

black formats every generated block (it stays the formatter of record). When its first pass
leaves a block unchanged it skips its second one, so a block the templates already write in
black's layout costs half as much to format. These helpers lay out the common statements the
way black's right-hand split does: the statement on one line when it fits in 88 columns, else
split after its last bracket, the contents on one line when they fit, else one item per line
with a trailing comma. A shape they are not sure of is written on one line, and black lays it
out as always. A layout that is black's own leaves the output as it was; one that is not would
still be formatted, but a trailing comma it added would stay (black keeps a "magic" trailing
comma), so every shape is checked against black's output for its one-line spelling
(tests/test_blackstyle.py) and whole packages against the previous output (the goldens).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

LINE_LENGTH = 88
_STRING = r"""(?:"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')"""
# What black cannot split however long it is: a name, a one-dot attribute, a number, one string
# literal, each optionally a keyword argument's value. Anything else (brackets, operators, a
# chain of attributes) black might split, so a long one is left to black.
_UNSPLITTABLE = re.compile(rf"(?:\w+=)?(?:{_STRING}|-?\w+(?:\.\w+)?)")
# `name: annotation` with an optional ` = default`; no quotes or `=` in the annotation.
_PARAMETER = re.compile(rf"(\w+): ([^'\"=]+?)((?: = (?:{_STRING}|-?[\w.]+))?)")


class Group:
    """A bracketed expression: `opener` (`Field(`, `[`, `Annotated[`), items, `closer`; and
    `text`, the group on one line, computed once (every level of a layout asks for it). A
    plain class with slots: the templates make about ten thousand per large contract."""

    __slots__ = ("closer", "items", "opener", "text")
    opener: str
    items: tuple[Expr, ...]
    closer: str
    text: str

    def __init__(self, opener: str, items: tuple[Expr, ...], closer: str) -> None:
        self.opener, self.items, self.closer = opener, items, closer
        self.text = opener + ", ".join(
            item if isinstance(item, str) else item.text for item in items) + closer


Expr = str | Group


def flat(expr: Expr) -> str:
    return expr if isinstance(expr, str) else expr.text


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
    joined = ", ".join(flat(p) for p in params)
    line = indent + head + joined + tail
    if len(line) <= LINE_LENGTH:
        return line
    if not params:  # nothing to split but the return annotation, which goes in parentheses
        annotation = tail[5:-1]
        if (tail.startswith(") -> ") and tail.endswith(":")
                and _UNSPLITTABLE.fullmatch(annotation) and "=" not in annotation):
            return "\n".join([indent + head + ") -> (", indent + "    " + annotation,
                              indent + "):"])
        return line
    first, inner = indent + head, indent + "    "
    last = _def_tail(indent, tail)
    if last is not None and len(last) > 1 and len(params) > 1 and any(
            line.endswith(",") for line in last):
        # The return annotation is split one item per line: black then keeps the parameters
        # beside the name when they fit there, before the annotation's opening bracket.
        opening = indent + head + joined + last[0][len(indent):]
        if len(opening) <= LINE_LENGTH:
            return "\n".join([opening, *last[1:]])
    body = _item(inner, params[0], ",") if len(params) == 1 else _body(inner, tuple(params))
    if last is None or body is None:  # a long first line: black has no other split either
        return line
    return "\n".join([first, *body, *last])


def _def_tail(indent: str, tail: str) -> list[str] | None:
    """`) -> T:` on one line, or a long union `T` in parentheses, one member per line."""
    if len(indent + tail) <= LINE_LENGTH:
        return [indent + tail]
    if not (tail.startswith(") -> ") and tail.endswith(":")):
        return None
    inner = indent + "    "
    if len(_top_level_split(tail[5:-1], " | ")) < 2:
        subscript = _subscript(tail[5:-1])  # `-> Answer[...]:` splits at its bracket
        return _lay(indent, ") -> ", subscript, ":") if isinstance(subscript, Group) else None
    laid = _annotation(inner, tail[5:-1])
    return None if laid is None else [indent + ") -> (", *laid, indent + "):"]


def _subscript(text: str) -> Expr:
    """`Name[a, b]` as a group of its arguments; any other type expression as it is."""
    opener = text.find("[")
    if opener < 1 or not text.endswith("]") or not text[:opener].replace(".", "").isidentifier():
        return text
    return call(text[:opener + 1], _top_level_split(text[opener + 1:-1], ", "), "]")


def _top_level_split(text: str, separator: str) -> list[str]:
    """`text` split at `separator` outside brackets and string literals."""
    if separator not in text:
        return [text]
    parts, depth, start = [], 0, 0
    for found in _splitter(separator).finditer(text):
        token = found.group()
        if token in "([{":
            depth += 1
        elif token in ")]}":
            depth -= 1
        elif token in "'\"":  # a quote that opens no literal this module knows: no split
            return [text]
        elif token == separator and depth == 0:
            parts.append(text[start:found.start()])
            start = found.end()
    return [*parts, text[start:]]


@functools.cache
def _splitter(separator: str) -> re.Pattern[str]:
    # String literals first (skipped whole), then brackets, a stray quote, the separator.
    return re.compile(rf"{_STRING}|[\[\](){{}}'\"]|{re.escape(separator)}")


def annotated(indent: str, name: str, annotation: str, value: Expr | None = None) -> str:
    """`name: annotation = value` in a class body (a model field, a dataclass field)."""
    head = f"{name}: {annotation}"
    line = indent + head + ("" if value is None else " = " + flat(value))
    if len(line) <= LINE_LENGTH or value is None:
        return line
    laid = None
    if isinstance(value, Group) and len(indent + head + " = " + value.opener) <= LINE_LENGTH:
        laid = _lay(indent, head + " = ", value, "")
    elif len(indent + head + " = (") <= LINE_LENGTH:
        # black wraps the value in parentheses when the statement fits before them (an atom:
        # when it fits inside them too).
        inner = _item(indent + "    ", value, "")
        if inner is not None and (isinstance(value, Group) or len(inner[0]) <= LINE_LENGTH):
            laid = [indent + head + " = (", *inner, indent + ")"]
    else:
        # Else the annotation goes in parentheses, split at its `|` when it is still too long.
        members = _annotation(indent + "    ", annotation)
        rest = _item(indent, value, "", ") = ")
        if members is not None and rest is not None and len(indent + name + ": (") <= LINE_LENGTH:
            laid = [indent + name + ": (", *members, *rest]
    return line if laid is None else "\n".join(laid)


def assignment(indent: str, target: str, value: str) -> str:
    """`target = value` for a value black cannot split (an enum member): in parentheses when
    the line is too long and every line fits that way."""
    line = f"{indent}{target} = {value}"
    if len(line) <= LINE_LENGTH or not _UNSPLITTABLE.fullmatch(value):
        return line
    if len(f"{indent}{target} = (") > LINE_LENGTH or len(f"{indent}    {value}") > LINE_LENGTH:
        return line  # black's parentheses only when every line then fits
    return f"{indent}{target} = (\n{indent}    {value}\n{indent})"


def _annotation(indent: str, annotation: str, tail: str = "") -> list[str] | None:
    """A type expression on its line, else split before each top-level `|` (black's split at
    its delimiter), each member split at its brackets when it is still too long."""
    if len(indent + annotation + tail) <= LINE_LENGTH:
        return [indent + annotation + tail]
    members = _top_level_split(annotation, " | ")
    if len(members) < 2:
        return None
    lines: list[str] = []
    for index, member in enumerate(members):
        end = tail if index == len(members) - 1 else ""
        laid = _item(indent, _subscript(member), end, "| " if index else "")
        if laid is None:
            return None
        lines += laid
    return lines


def _lay(indent: str, head: str, expr: Expr, tail: str) -> list[str] | None:
    line = indent + head + flat(expr) + tail
    if len(line) <= LINE_LENGTH:
        return [line]
    if not isinstance(expr, Group):
        return None
    first = indent + head + expr.opener
    last = indent + expr.closer + tail
    assigned = head.find(" = ") + 3 if " = " in head else 7 if head.startswith("return ") else 0
    if not expr.items:
        if not assigned or tail or len(last) > LINE_LENGTH:
            return None
        # An empty call after `=` or `return`: black puts it in parentheses, however long.
        return [indent + head[:assigned] + "(", indent + "    " + head[assigned:] + flat(expr),
                indent + ")"]
    if len(first) > LINE_LENGTH and assigned and not tail:
        # After `=` or `return`, black's second opinion: the value in parentheses, taken
        # when every line of that fits.
        laid = _lay(indent + "    ", head[assigned:], expr, "")
        if laid is not None:
            laid = [indent + head[:assigned] + "(", *laid, indent + ")"]
            if all(len(line) <= LINE_LENGTH for line in laid):
                return laid
    # A first line too long is black's split too when it has no other bracket to split at.
    if ((len(first) > LINE_LENGTH and any(c in head + expr.opener[:-1] for c in "([{"))
            or len(last) > LINE_LENGTH):
        return None
    body = _body(indent + "    ", expr.items, explode=_display(expr.opener))
    return None if body is None else [first, *body, last]


def _display(opener: str) -> bool:
    """A list, dict or set display (not a call or a subscript): split, black puts each of its
    several items on a line of its own even when they would fit on one."""
    return opener.endswith("{") or (opener.endswith("[") and (
        len(opener) == 1 or not (opener[-2].isalnum() or opener[-2] in "_)]")))


def _body(indent: str, items: tuple[Expr, ...], explode: bool = False) -> list[str] | None:
    joined = indent + ", ".join(flat(item) for item in items)
    if len(joined) <= LINE_LENGTH and not (explode and len(items) > 1):
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
    if laid is not None or not isinstance(item, str):
        return laid
    if _UNSPLITTABLE.fullmatch(item):
        return [indent + head + item + tail]  # too long, and black cannot split it either
    if head:
        return None
    parameter = _PARAMETER.fullmatch(item)
    if parameter and _UNSPLITTABLE.fullmatch(parameter[2]):
        return [indent + item + tail]  # `name: T = default`: nothing black splits at
    if parameter and len(_top_level_split(parameter[2], " | ")) > 1:
        # A parameter annotated with a union: black puts the annotation in parentheses.
        members = _annotation(indent + "    ", parameter[2])
        return None if members is None else [
            indent + parameter[1] + ": (", *members, indent + ")" + parameter[3] + tail]
    members = _annotation(indent, item, tail)  # a union beside no comma: split at its `|`
    return None if members is None or len(members) < 2 else members


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
