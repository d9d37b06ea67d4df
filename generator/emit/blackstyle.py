"""Statements written in black's layout, for the shapes whose layout depends on the contract.

The generated code is black's output, but black does not run on what the templates write in
its layout (emit/vouch.py). These helpers lay statements out the way black's right-hand split
does: on one line when it fits in 88 columns, else split after its last bracket, the contents on
one line when they fit, else one item per line with a trailing comma. A shape they cannot lay
out stays on one line, over 88 columns: emit/vouch.py leaves it to black. Each shape is checked
against black's output for its one-line spelling (tests/test_blackstyle.py), every generated
module against black's (tests/test_black_layout.py)."""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

from ..model.literal import literal

LINE_LENGTH = 88
_STRING = r"""(?:"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')"""
# What black cannot split however long it is: a name, a one-dot attribute, a number, one string
# literal, each optionally a keyword argument's value. Anything else (brackets, operators, a
# chain of attributes) black might split, so a long one is left to black.
_UNSPLITTABLE = re.compile(rf"(?:\w+=|{_STRING}: )?(?:{_STRING}|-?\w+(?:\.\w+)?)")
# A name or a chain of attributes: in a return annotation black puts it in parentheses.
_DOTTED = re.compile(r"\w+(?:\.\w+)*")
# What opens a call or a subscript: `f(`, `models.X[`, `key=Field(`.
_CALLED = re.compile(r"(?:\w+=)?[A-Za-z_][\w.]*[\[(]")
_NAMED = re.compile(r"(\w+): ")
_DEFAULT = re.compile(rf"{_STRING}|-?[\w.]+")  # a parameter's default black cannot split
_DEFAULTED = re.compile(rf"[\])] = (?:{_DEFAULT.pattern}),")  # a line ending a parameter with it


class Group:
    """A bracketed expression: `opener` (`Field(`, `[`, `Annotated[`), items, `closer`; and
    `text`, the group on one line, computed once (every level of a layout asks for it). A
    plain class with slots: the templates make about ten thousand per large contract."""

    __slots__ = ("closer", "explode", "items", "opener", "text")
    opener: str
    items: tuple[Expr, ...]
    closer: str
    text: str
    explode: bool  # split, one item per line (a display: a list, dict, set or tuple)

    def __init__(self, opener: str, items: tuple[Expr, ...], closer: str,
                 explode: bool | None = None) -> None:
        self.opener, self.items, self.closer = opener, items, closer
        self.explode = _display(opener) if explode is None else explode
        self.text = f"{opener}{', '.join(map(flat, items))}{closer}"


Expr = str | Group


def flat(expr: Expr) -> str:
    return expr if isinstance(expr, str) else expr.text


def call(opener: str, items: Sequence[Expr], closer: str = ")") -> Group:
    """`opener items closer`: a call (`f(`, `)`), a list (`[`, `]`), a dict, a subscript."""
    return Group(opener, tuple(items), closer)


def value(constant: object) -> Expr:
    """A constant (`model.literal`'s kinds) as an expression black would split like a display."""
    if isinstance(constant, dict):
        return Group("{", tuple(_around(value(item), literal(key) + ": ")
                                for key, item in constant.items()), "}")
    if isinstance(constant, (tuple, list)):
        items = [value(item) for item in constant]
        if isinstance(constant, list):
            return Group("[", tuple(items), "]")
        if len(items) == 1:  # `(x,)`: the comma stays after the item, split or not
            items = [_around(items[0], after=",")]
        return Group("(", tuple(items), ")", explode=True)
    return literal(constant)


def _around(item: Expr, before: str = "", after: str = "") -> Expr:
    return before + item + after if isinstance(item, str) else Group(
        before + item.opener, item.items, item.closer + after, item.explode)


def laid(indent: str, head: str, opener: str, items: Sequence[Expr], *, closer: str = ")",
         tail: str = "") -> str:
    """`indent head opener items closer tail` (a call or a literal), for the templates."""
    return statement(indent, head, call(opener, items, closer), tail)


def statement(indent: str, head: str, expr: Expr, tail: str = "") -> str:
    """`indent + head + expr + tail`, in black's layout when this module knows it."""
    lines = _lay(indent, head, expr, tail)
    if (lines is None and isinstance(expr, str) and head.endswith(" = ") and not tail
            and len(indent + head + "(") <= LINE_LENGTH
            and len(_top_level_split(expr, " | ")) > 1):
        # A union after `=` (a type alias): in parentheses, split before each `|`.
        members = _annotation(indent + "    ", expr)
        lines = None if members is None else [indent + head + "(", *members, indent + ")"]
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
        returned = subscript(tail[5:-1])  # `-> Answer[...]:` splits at its bracket
        if isinstance(returned, str) and _DOTTED.fullmatch(returned):
            return [indent + ") -> (", inner + returned, indent + "):"]
        return _lay(indent, ") -> ", returned, ":") if isinstance(returned, Group) else None
    laid = _annotation(inner, tail[5:-1])
    return None if laid is None else [indent + ") -> (", *laid, indent + "):"]


def subscript(text: str) -> Expr:
    """A subscript or a call (`Name[a, b]`, `f(x, k=g(y))`, `key=f(x)`) as a group of its
    arguments, each parsed alike; any other expression as it is."""
    opened = _CALLED.match(text)
    if opened is None or not _closes_at_end(text, opened.end() - 1):
        return text
    inner = text[opened.end():-1]
    items = _top_level_split(inner, ", ") if inner else []
    return Group(opened.group(), tuple(subscript(item) for item in items), text[-1])


def _closes_at_end(text: str, start: int) -> bool:
    """The bracket at `start` closes at the end of `text` (no stray quote in between)."""
    depth = 0
    for found in _splitter(", ").finditer(text, start):
        token = found.group()
        if token in ("(", "[", "{"):
            depth += 1
        elif token in (")", "]", "}"):
            depth -= 1
            if depth == 0:
                return found.end() == len(text)
        elif token in ("'", '"'):
            return False
    return False


def typed(indent: str, target: str, annotation: str, value: Expr) -> str:
    """`target: annotation = value` split at the value, else (its first line too long) with the
    value in parentheses, else split at the annotation's brackets (`XAdapter: TypeAdapter[X]`)."""
    head = f"{target}: {annotation} = "
    ann = subscript(annotation)
    if (len(indent + head + flat(value)) <= LINE_LENGTH or not isinstance(value, Group)
            or len(indent + head + value.opener) <= LINE_LENGTH or not isinstance(ann, Group)):
        return statement(indent, head, value)
    if len(indent + head + "(") <= LINE_LENGTH and len(indent + "    " + flat(value)) <= LINE_LENGTH:
        return f"{indent}{head}(\n{indent}    {flat(value)}\n{indent})"
    laid = _lay(indent, target + ": ", ann, " = " + flat(value))
    return indent + head + flat(value) if laid is None else "\n".join(laid)


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
    elif isinstance(split := subscript(annotation), Group):
        # A subscript annotation (no `|` beside it) splits at its brackets, then the value.
        body = _body(indent + "    ", split.items, explode=split.explode)
        rest = _item(indent, value, "", split.closer + " = ")
        if len(indent + name + ": " + split.opener) <= LINE_LENGTH and body and rest:
            laid = [indent + name + ": " + split.opener, *body, *rest]
    else:
        # Else the annotation goes in parentheses, split at its `|` when it is still too long.
        members = _annotation(indent + "    ", annotation)
        if (members is None and isinstance(value, Group) and value.items
                and _DOTTED.fullmatch(annotation)
                and len(indent + ") = " + flat(value)) <= LINE_LENGTH):
            members = [indent + "    " + annotation]  # too long, and black cannot split it
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
        laid = _item(indent, subscript(member), end, "| " if index else "")
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
    # black keeps a long first line with no other bracket to split, a long `] = default,` last.
    if ((len(first) > LINE_LENGTH and any(c in head + expr.opener[:-1] for c in "([{"))
            or (len(last) > LINE_LENGTH and not _DEFAULTED.fullmatch(expr.closer + tail))):
        return None
    body = _body(indent + "    ", expr.items, explode=expr.explode)
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
    if isinstance(parsed := subscript(item), Group):  # a call or subscript spelled as text
        empty = not (parsed.items or head)  # `f()`: black has nothing inside to split
        return [indent + item + tail] if empty else _lay(indent, head, parsed, tail)
    if head:
        return None
    parameter = _parameter(item)
    if parameter and _UNSPLITTABLE.fullmatch(parameter[2]):
        return [indent + item + tail]  # `name: T = default`: nothing black splits at
    if parameter and len(_top_level_split(parameter[2], " | ")) > 1:
        # A parameter annotated with a union: black puts the annotation in parentheses.
        members = _annotation(indent + "    ", parameter[2])
        return None if members is None else [
            indent + parameter[1] + ": (", *members, indent + ")" + parameter[3] + tail]
    if parameter and isinstance(split := subscript(parameter[2]), Group):
        # `name: Literal[...] = default`: split at the annotation's brackets
        return _lay(indent, parameter[1] + ": ", split, parameter[3] + tail)
    members = _annotation(indent, item, tail)  # a union beside no comma: split at its `|`
    return None if members is None or len(members) < 2 else members


def _parameter(item: str) -> tuple[str, str, str, str] | None:
    """(item, name, annotation, ` = default` or "") of a parameter black cannot split after `=`."""
    named = _NAMED.match(item)
    if named is None:
        return None
    parts = _top_level_split(item[named.end():], " = ")
    if len(parts) > 2 or (len(parts) == 2 and not _DEFAULT.fullmatch(parts[1])):
        return None
    return item, named[1], parts[0], " = " + parts[1] if len(parts) == 2 else ""


def braced(head: str, body: str) -> str:
    """`head` and a dict display of the entry lines `body`, one per line (`{}` when empty)."""
    return head + ("{\n" + body + "}" if body else "{}")


def class_line(name: str, bases: Sequence[str]) -> str:
    """`class name(bases):`."""
    return statement("", f"class {name}", call("(", list(bases)), ":")


def _tabs_expanded(line: str) -> str:
    stripped = line.lstrip()
    if not stripped or stripped == line:
        return line
    return line[:len(line) - len(stripped)].expandtabs() + stripped


def docstring(text: object, indent: int = 4) -> str:
    """The inside of a docstring's triple quotes, as black writes it (closing quotes that would
    pass column 88 go on a line of their own)."""
    body = str(text).strip().replace("\\", "\\\\").replace('"""', '\\"\\"\\"')
    pad = " " * indent
    lines = body.splitlines()
    # black strips the first line, and takes the common indentation off the others (its
    # `fix_docstring`, leading tabs expanded).
    rest = [_tabs_expanded(line) for line in lines[1:]]
    common = min((len(line) - len(line.lstrip()) for line in rest if line.lstrip()), default=0)
    joined = "\n".join([lines[0].strip(), *[(pad + line[common:]).rstrip() for line in rest]]
                       ) if lines else ""
    padded = joined + " " if joined.endswith('"') else joined  # a quote would end the docstring
    if len(lines) > 1 and len(padded) - padded.rfind("\n") - 1 + 3 > LINE_LENGTH:
        return joined + "\n" + pad  # black's place for closing quotes that would not fit
    return padded
