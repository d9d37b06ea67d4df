"""The subset of JSONPath (RFC 9535) that overlays use, evaluated to the paths of matched nodes.

Supported: `$`, `.name` (also with `-`, as real overlays write `$.info.x-logo`), `['name']`,
`["name"]`, `[n]` (negative too), `[*]`, `.*`, unions `['a', 'b']`, `..name` / `..*` /
`..[...]` (descendants), and filters `[?(...)]` / `[?...]` over `@`-relative paths with
`==, !=, <, <=, >, >=` against string, number, true, false and null literals, existence tests
(`[?@.key]`), `!`, `&&`, `||` and parentheses. Anything else (slices, functions, `$` inside a
filter) is a JSONPathError naming the character where it stopped.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from ..errors import ContractgenError
from .tree import Part

_NAME = re.compile(r"[A-Za-z_\u0080-\U0010ffff][A-Za-z0-9_\-\u0080-\U0010ffff]*")
_INT = re.compile(r"-?(0|[1-9][0-9]*)")
_NUMBER = re.compile(r"-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?")
_OPS = ("==", "!=", "<=", ">=", "<", ">")
_NOTHING = object()  # a relative path that selects nothing (RFC 9535 "Nothing")


class JSONPathError(ContractgenError, ValueError):
    """An expression outside the supported subset, or malformed (the overlay reports it located;
    a ValueError too, as it was before the error root)."""


@dataclass(frozen=True)
class Name:
    """`.name`, `['name']`."""

    name: str


@dataclass(frozen=True)
class Index:
    """`[n]`."""

    index: int


@dataclass(frozen=True)
class Wildcard:
    """`*`."""


@dataclass(frozen=True)
class Filter:
    """`[?expr]`: keeps the children for which `test(child)` holds."""

    test: Callable[[Any], bool]


Selector = Name | Index | Wildcard | Filter


@dataclass(frozen=True)
class Segment:
    """One step: the selectors applied to each node (or to each descendant when `descendant`)."""

    selectors: tuple[Selector, ...]
    descendant: bool = False


def parse(expression: str) -> tuple[Segment, ...]:
    """Parse a query; JSONPathError when it is outside the subset."""
    return _Parser(expression).query()


def find(data: Any, expression: str | tuple[Segment, ...]) -> list[tuple[Part, ...]]:
    """Paths (keys and indices from the root) of the nodes the query selects, in document order."""
    segments = parse(expression) if isinstance(expression, str) else expression
    nodes: list[tuple[tuple[Part, ...], Any]] = [((), data)]
    for segment in segments:
        found: list[tuple[tuple[Part, ...], Any]] = []
        for path, node in nodes:
            starts = _descendants(path, node) if segment.descendant else iter([(path, node)])
            for start_path, start in starts:
                for selector in segment.selectors:
                    found.extend(_select(start_path, start, selector))
        nodes = found
    seen: set[tuple[Part, ...]] = set()
    unique = []
    for path, _ in nodes:
        if path not in seen:
            seen.add(path)
            unique.append(path)
    return unique


def _children(path: tuple[Part, ...], node: Any) -> Iterator[tuple[tuple[Part, ...], Any]]:
    if isinstance(node, dict):
        for key, value in node.items():
            yield (*path, key), value
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield (*path, i), value


def _descendants(path: tuple[Part, ...], node: Any) -> Iterator[tuple[tuple[Part, ...], Any]]:
    yield path, node
    for child_path, child in _children(path, node):
        yield from _descendants(child_path, child)


def _select(
    path: tuple[Part, ...], node: Any, selector: Selector
) -> Iterator[tuple[tuple[Part, ...], Any]]:
    if isinstance(selector, Name):
        if isinstance(node, dict) and selector.name in node:
            yield (*path, selector.name), node[selector.name]
    elif isinstance(selector, Index):
        if isinstance(node, list) and -len(node) <= selector.index < len(node):
            i = selector.index % len(node)
            yield (*path, i), node[i]
    elif isinstance(selector, Wildcard):
        yield from _children(path, node)
    else:
        for child_path, child in _children(path, node):
            if selector.test(child):
                yield child_path, child


def _walk_relative(node: Any, steps: tuple[str | int, ...]) -> Any:
    for step in steps:
        if isinstance(step, str) and isinstance(node, dict) and step in node:
            node = node[step]
        elif isinstance(step, int) and isinstance(node, list) and -len(node) <= step < len(node):
            node = node[step]
        else:
            return _NOTHING
    return node


def _equal(a: Any, b: Any) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    return bool(a == b) and (type(a) is type(b) or (_is_number(a) and _is_number(b)))


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _compare(op: str, a: Any, b: Any) -> bool:
    if op == "==":
        return _equal(a, b)
    if op == "!=":
        return not _equal(a, b)
    comparable = (_is_number(a) and _is_number(b)) or (isinstance(a, str) and isinstance(b, str))
    if not comparable:
        return op in ("<=", ">=") and _equal(a, b)
    result: bool = {"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}[op]
    return result


Test = Callable[[Any], bool]


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.i = 0

    def fail(self, reason: str) -> JSONPathError:
        return JSONPathError(f"{reason} at character {self.i + 1}")

    def peek(self, s: str) -> bool:
        return self.text.startswith(s, self.i)

    def eat(self, s: str) -> bool:
        if self.peek(s):
            self.i += len(s)
            return True
        return False

    def expect(self, s: str) -> None:
        if not self.eat(s):
            raise self.fail(f"expected {s!r}")

    def blank(self) -> None:
        while self.i < len(self.text) and self.text[self.i] in " \t\n\r":
            self.i += 1

    def query(self) -> tuple[Segment, ...]:
        self.blank()
        if not self.eat("$"):
            raise self.fail("a query starts with '$'")
        segments = []
        while self.i < len(self.text):
            segments.append(self.segment())
        return tuple(segments)

    def segment(self) -> Segment:
        if self.eat(".."):
            if self.peek("["):
                return Segment(self.bracket(), descendant=True)
            return Segment((self.dot_selector(),), descendant=True)
        if self.eat("."):
            return Segment((self.dot_selector(),))
        if self.peek("["):
            return Segment(self.bracket())
        raise self.fail("expected '.', '..' or '['")

    def dot_selector(self) -> Selector:
        if self.eat("*"):
            return Wildcard()
        match = _NAME.match(self.text, self.i)
        if not match:
            raise self.fail("expected a member name or '*'")
        self.i = match.end()
        return Name(match.group())

    def bracket(self) -> tuple[Selector, ...]:
        self.expect("[")
        selectors: list[Selector] = []
        while True:
            self.blank()
            selectors.append(self.bracket_selector())
            self.blank()
            if self.eat("]"):
                return tuple(selectors)
            self.expect(",")

    def bracket_selector(self) -> Selector:
        if self.eat("*"):
            return Wildcard()
        if self.eat("?"):
            return Filter(self.logical_or())
        if self.peek("'") or self.peek('"'):
            return Name(self.string())
        match = _INT.match(self.text, self.i)
        if match:
            self.i = match.end()
            if self.peek(":"):
                raise self.fail("slices are not supported")
            return Index(int(match.group()))
        raise self.fail("expected a quoted name, an index, '*' or a '?' filter")

    def string(self) -> str:
        quote = self.text[self.i]
        self.i += 1
        out: list[str] = []
        while self.i < len(self.text):
            char = self.text[self.i]
            if char == quote:
                self.i += 1
                return "".join(out)
            if char == "\\" and self.i + 1 < len(self.text):
                nxt = self.text[self.i + 1]
                self.i += 2
                if nxt in "'\"\\/":
                    out.append(nxt)
                elif nxt in "bfnrt":
                    out.append(json.loads(f'"\\{nxt}"'))
                elif nxt == "u" and self.i + 4 <= len(self.text):
                    out.append(chr(int(self.text[self.i : self.i + 4], 16)))
                    self.i += 4
                else:
                    raise self.fail(f"unknown escape \\{nxt}")
                continue
            out.append(char)
            self.i += 1
        raise self.fail("unterminated string")

    # Filters: or := and ('||' and)*; and := unary ('&&' unary)*; unary := '!'? primary
    def logical_or(self) -> Test:
        tests = [self.logical_and()]
        while self.eat_op("||"):
            tests.append(self.logical_and())
        return tests[0] if len(tests) == 1 else (lambda node: any(t(node) for t in tests))

    def logical_and(self) -> Test:
        tests = [self.unary()]
        while self.eat_op("&&"):
            tests.append(self.unary())
        return tests[0] if len(tests) == 1 else (lambda node: all(t(node) for t in tests))

    def eat_op(self, op: str) -> bool:
        self.blank()
        return self.eat(op)

    def unary(self) -> Test:
        self.blank()
        if self.eat("!"):
            self.blank()
            if not (self.peek("(") or self.peek("@")):
                raise self.fail("'!' applies to a parenthesised test or an existence test")
            inner = self.unary()
            return lambda node: not inner(node)
        if self.eat("("):
            inner = self.logical_or()
            self.blank()
            self.expect(")")
            return inner
        return self.comparison()

    def comparison(self) -> Test:
        if self.peek("$"):
            raise self.fail("absolute paths ('$') inside filters are not supported")
        if not self.eat("@"):
            raise self.fail("a filter test starts with '@'")
        steps = self.relative_path()
        self.blank()
        op = next((o for o in _OPS if self.peek(o)), None)
        if op is None:
            return lambda node: _walk_relative(node, steps) is not _NOTHING
        self.i += len(op)
        self.blank()
        literal = self.literal()
        return lambda node: _compare(op, _walk_relative(node, steps), literal)

    def relative_path(self) -> tuple[str | int, ...]:
        steps: list[str | int] = []
        while True:
            if self.peek(".."):
                raise self.fail("descendant segments inside filters are not supported")
            if self.eat("."):
                selector = self.dot_selector()
            elif self.peek("["):
                self.expect("[")
                self.blank()
                selector = self.bracket_selector()
                self.blank()
                self.expect("]")
            else:
                return tuple(steps)
            if isinstance(selector, Name):
                steps.append(selector.name)
            elif isinstance(selector, Index):
                steps.append(selector.index)
            else:
                raise self.fail("only names and indices are supported inside filter paths")

    def literal(self) -> Any:
        if self.peek("'") or self.peek('"'):
            return self.string()
        for word, value in (("true", True), ("false", False), ("null", None)):
            if self.eat(word):
                return value
        match = _NUMBER.match(self.text, self.i)
        if match:
            self.i = match.end()
            text = match.group()
            return float(text) if any(c in text for c in ".eE") else int(text)
        if self.peek("@") or self.peek("$"):
            raise self.fail("comparisons between two paths are not supported")
        raise self.fail("expected a string, number, true, false or null")
