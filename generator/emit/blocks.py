"""Split a module into top-level blocks that black formats one by one, and join them back.

black formats a module line by line; across a top-level boundary only its blank-line tracker
(`EmptyLineTracker` in black/lines.py) carries state, and at depth 0, with the target versions
fixed (no feature inference from the whole file), that state is decided by:
- the previous block's last statement: a def/class (black puts 2 lines after it), an import
  (1 line after it), the module docstring (1 line after it), a one-line stub def (`def f(): ...`,
  after which a def that the source wrote without a blank line stays attached: overloads);
- the next block's first line: a comment, a def/class, a decorator, an import or another
  statement, and whether its leading comments run straight into a def/decorator/class (then
  black moves the two blank lines above the comments);
- the blank lines the source has before it, capped at 2.
Everything after a block's first line sees the same state alone as inside the module, so the
module's black output is the join of its blocks' black output with `separator()` blank lines.

A block is one top-level statement with the comments and blank lines above it (decorators
included); a bare string statement stays with the block before it (formatted alone it would be a
module docstring). Modules outside these rules (`# fmt:` / `# yapf:` directives, form feeds, defs
inside a top-level `if`/`try`, indented comments after a block, a one-line stub class) are not
split: `split()` returns None and the module is formatted whole. tests/test_blocks.py checks the
join against whole-module black on the corpus contracts, the seeds and the edge cases.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass

_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
_IMPORTS = (ast.Import, ast.ImportFrom)
DIRECTIVE = re.compile(r"#\s*(fmt|yapf)\s*:")


@dataclass(frozen=True)
class Block:
    """One top-level statement with its leading comments, as the source spells it."""

    text: str  # from its first non-blank line to its last line, newline-terminated
    blank_before: int  # blank lines in the source before `text`
    head: str  # its statement: "def" (also class), "decorated", "import", "other" or "none"
    comment_first: bool  # `text` starts with a comment
    comments_into_def: bool  # its first comment runs without blank lines into the def/decorator
    tail: str  # its last statement: "def" (also class), "import", "docstring" or "other"
    stub_last: bool  # its last line is a one-line stub def (`def f(): ...`)


def split(source: str) -> list[Block] | None:
    """The top-level blocks of `source`, or None when it must be formatted whole."""
    found = split_spans(source)
    return found[0] if found is not None else None


def split_spans(source: str) -> tuple[list[Block], list[int]] | None:
    """The top-level blocks of `source` and where each one's region starts: region `i` is
    `source[bounds[i]:bounds[i + 1]]` (the blank lines and comments above the block, then the
    block), and `source[bounds[-1]:]` holds only blank lines. None as for `split`."""
    if DIRECTIVE.search(source) or "\f" in source or "\r" in source:
        return None
    try:
        tree = ast.parse(source)  # a whole module: its first statement may be its docstring
    except SyntaxError:
        return None
    # Not splitlines(): it also breaks at \u2028, \x85 and the like, which specs put in strings.
    parts = source.split("\n")
    lines = [part + "\n" for part in parts[:-1]] + ([parts[-1]] if parts[-1] else [])
    groups: list[list[ast.stmt]] = []
    for node in tree.body:
        if _last_line_kind(node) == "stub class":
            return None
        if not isinstance(node, (*_DEFS, *_IMPORTS)) and any(
                isinstance(inner, _DEFS) for inner in ast.walk(node)):
            return None
        start = _first_line(node)
        if groups and (start <= _last_line(groups[-1][-1]) or _is_string(node)):
            groups[-1].append(node)
        else:
            groups.append([node])
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line))
    spans = [(_last_line(group[-1]), group) for group in groups]
    if any(line.strip(" \t\n") for line in lines[spans[-1][0] if spans else 0:]):
        spans.append((len(lines), []))  # the comments after the last statement
    blocks: list[Block] = []
    bounds: list[int] = []
    start = 0
    for index, (end, group) in enumerate(spans):
        block = _block(lines, start, end, group, first=index == 0)
        if block is None:
            return None
        blocks.append(block)
        bounds.append(offsets[start])
        start = end
    bounds.append(offsets[start])
    return blocks, bounds


def _block(lines: list[str], start: int, end: int, group: list[ast.stmt], *, first: bool
           ) -> Block | None:
    """The block of `lines[start:end]` (0-based), holding the statements `group`."""
    at = start
    while at < end and not lines[at].strip(" \t\n"):
        at += 1
    statement = _first_line(group[0]) - 1 if group else end
    runs: list[int] = []  # blank lines before each leading comment
    blanks = 0
    for line in lines[at:statement]:
        if not line.strip(" \t\n"):
            blanks += 1
        elif line.startswith("#"):
            runs.append(blanks)
            blanks = 0
        else:  # an indented comment: black keeps it in the block above
            return None
    text = "".join(lines[at:end])
    if not text.endswith("\n"):
        text += "\n"
    head = "none"
    if group:
        node = group[0]
        if isinstance(node, _DEFS):
            head = "decorated" if node.decorator_list else "def"
        else:
            head = "import" if isinstance(node, _IMPORTS) else "other"
    last = group[-1] if group else None
    if isinstance(last, _DEFS):
        tail = "def"
    elif isinstance(last, _IMPORTS):
        tail = "import"
    elif first and len(group) == 1 and _is_string(group[0]):
        tail = "docstring"
    else:
        tail = "other"
    return Block(
        text=text,
        blank_before=at - start,
        head=head,
        comment_first=bool(runs),
        comments_into_def=bool(runs) and head in ("def", "decorated")
        and not any(runs[1:]) and blanks == 0,
        tail=tail,
        stub_last=last is not None and _last_line_kind(last) == "stub def",
    )


def separator(previous: Block, block: Block) -> int:
    """Blank lines black puts between two consecutive top-level blocks."""
    blank = min(block.blank_before, 2)
    if not block.comment_first and block.head == "def":
        return 0 if previous.stub_last and blank == 0 else 2
    if not block.comment_first and block.head == "decorated":
        if previous.tail == "docstring":
            return 1
        return 0 if previous.stub_last and blank == 0 else 2
    lines = 2 if previous.tail == "def" else blank
    if previous.tail == "import" and (block.comment_first or block.head != "import"):
        lines = 1
    if previous.tail == "docstring":
        lines = 1
    if block.comments_into_def:
        lines = 2
    return lines


def join(blocks: list[Block], formatted: list[str]) -> str:
    """The module: formatted blocks with the blank lines black puts between them."""
    parts = formatted[:1]
    for index in range(1, len(formatted)):
        parts += ["\n" * separator(blocks[index - 1], blocks[index]), formatted[index]]
    return "".join(parts)


def _first_line(node: ast.stmt) -> int:
    decorators: list[ast.expr] = node.decorator_list if isinstance(node, _DEFS) else []
    return min([node.lineno, *(d.lineno for d in decorators)])


def _last_line(node: ast.stmt) -> int:
    return node.end_lineno or node.lineno


def _is_string(node: ast.stmt) -> bool:
    return isinstance(node, ast.Expr) and (
        isinstance(node.value, ast.JoinedStr)
        or (isinstance(node.value, ast.Constant) and isinstance(node.value.value, (str, bytes)))
    )


def _is_ellipsis_body(node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> bool:
    return len(node.body) == 1 and isinstance(node.body[0], ast.Expr) and isinstance(
        node.body[0].value, ast.Constant) and node.body[0].value.value is Ellipsis


def _last_line_kind(node: ast.stmt) -> str:
    """"stub def" or "stub class" when the last line black writes for `node` is a one-line
    `def ...: ...` or `class ...: ...` (they change the blank lines after it), else ""."""
    while isinstance(node, _DEFS):
        if _is_ellipsis_body(node):
            return "stub class" if isinstance(node, ast.ClassDef) else "stub def"
        node = node.body[-1]
    return ""
