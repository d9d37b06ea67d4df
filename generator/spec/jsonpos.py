"""Where a node of a JSON document was written, found along its pointer alone.

`loader` locates JSON as it locates YAML: it reads the whole text again with PyYAML's composer
and keeps a position for every node. That read is pure Python and costs about a second on a
megabyte contract, paid by every run that reports a located warning. `locator` answers the same
(line, column) for one pointer by walking only the objects on its way and skipping each sibling
with json's own C scanner, counting lines and columns the way PyYAML's reader does. It answers
None, and the caller falls back to the composer, wherever the two readings could differ: text
YAML might refuse or count differently (tabs, byte order marks, characters its reader rejects),
keys spelt with escapes or too long for a YAML simple key.

The walk remembers what it read, so that many pointers cost about one scan of the text rather
than one each. For every object it has started reading (by the offset of its `{`) it keeps the
keys met so far, each with the offsets of the key and of its value (the first occurrence of a
duplicated key), and where its reading stopped: right after a key it was asked for, whose value
the next reading skips first, or at the closing `}`, or broken (at a key it is unsure of or
anything odd: a key not met before that point is answered None without reading again). For every array (by its `[`) it keeps the
offsets of the elements met so far and whether it reached the end. A later pointer through the
same object or array answers from that table, or reads on from where the last one stopped; the
answers are the ones a fresh walk from the root would give. Lines are counted alike: where "\n"
is the only break PyYAML's reader counts (a "\r" only before it), `str.count` counts them from
the nearest offset already answered; otherwise the list of every line's start is made once.
There is no cap on the questions: answering every object of Twilio 2010 or Box (~8,000
pointers) takes 0.4 s, composing the tree 2 s.
"""

from __future__ import annotations

import bisect
import functools
import json
import re
from collections.abc import Callable


# PyYAML's Reader.NON_PRINTABLE, and the line breaks its Reader counts.
@functools.cache
def _non_printable() -> re.Pattern[str]:
    """What YAML does not allow unescaped (compiled on first use: a few ms at import)."""
    return re.compile("[^\x09\x0a\x0d\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


# The same, for a text that is ASCII (most JSON contracts): a small class, quick to compile.
_ASCII_NON_PRINTABLE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_BREAK = re.compile("\r\n|[\n\r\x85\u2028\u2029]")
_SPACE = re.compile(r"[ \n\r]*")
_SIMPLE_KEY = 1000  # PyYAML drops a simple key longer than 1024 characters


class _Object:
    """What the walk has read of one object."""

    __slots__ = ("at", "broken", "closed", "members", "pending")

    def __init__(self, at: int) -> None:
        self.members: dict[str, tuple[int, int]] = {}  # key -> (key offset, value offset)
        self.at = at  # where reading stopped
        self.pending = False  # `at` is the value of the last key found: skip it first
        self.closed = False  # `at` is the closing brace
        self.broken = False  # reading on raised: every key not met yet is unsure


class _Array:
    """What the walk has read of one array."""

    __slots__ = ("broken", "closed", "elements")

    def __init__(self) -> None:
        self.elements: list[int] = []  # offset of each element met so far
        self.closed = False  # no element after the last one
        self.broken = False  # reading on raised


def printable(text: str) -> bool:
    """No character YAML refuses unescaped (PyYAML's Reader.NON_PRINTABLE)."""
    pattern = _ASCII_NON_PRINTABLE if text.isascii() else _non_printable()
    return pattern.search(text) is None


def locator(text: str, *, decoder: type[json.JSONDecoder] = json.JSONDecoder,
            ) -> Callable[[list[str]], tuple[int, int] | None] | None:
    """A function from pointer tokens to the 1-based (line, column) of the deepest node on that
    path (as `Document.position` reads it from the composed tree); None when this text is one
    the composer might read differently. The walk skips siblings with `decoder`'s
    `raw_decode` (json's C scanner)."""
    if "\t" in text or "\ufeff" in text or not printable(text):
        return None
    return _Locator(text, decoder)


class _Lines:
    """1-based (line, column) of offsets of `text`, counted as PyYAML's reader counts them.

    Where "\n" is the only line break PyYAML counts ("\r" only in "\r\n"), lines are counted
    in the gap between the offset asked and the nearest one already answered; otherwise from
    the offsets where each line after the first starts, found on first use.
    """

    def __init__(self, text: str) -> None:
        self.text = text
        self.answered = [0]  # offsets already answered, ascending, with their line and start
        self.lines = [0]
        self.line_starts = [0]
        self.starts: list[int] = []

    @functools.cached_property
    def counted(self) -> bool:
        """Decided on first use: "\n" is the only line break PyYAML counts in this text."""
        text = self.text
        return not any(c in text for c in "\x85\u2028\u2029") and (
            "\r" not in text or text.count("\r") == text.count("\r\n"))

    def __call__(self, index: int) -> tuple[int, int]:
        if self.counted:
            return self._counted(index)
        if not self.starts:
            self.starts.extend(m.end() for m in _BREAK.finditer(self.text))
        line = bisect.bisect_right(self.starts, index)
        return line + 1, index - (self.starts[line - 1] if line else 0) + 1

    def _counted(self, index: int) -> tuple[int, int]:
        text, answered, lines, line_starts = (
            self.text, self.answered, self.lines, self.line_starts)
        at = bisect.bisect_right(answered, index)  # answered[at - 1] <= index < answered[at]
        left = answered[at - 1]
        start = -1
        if at < len(answered) and answered[at] - index < index - left:
            after = text.count("\n", index, answered[at])
            line = lines[at] - after
            if not after:
                start = line_starts[at]
        else:
            before = text.count("\n", left, index)
            line = lines[at - 1] + before
            if not before:
                start = line_starts[at - 1]
        if start < 0:
            found = text.rfind("\n", left, index)
            start = found + 1 if found >= 0 else line_starts[at - 1]
        answered.insert(at, index)
        lines.insert(at, line)
        line_starts.insert(at, start)
        return line + 1, index - start + 1


class _Locator:
    """`locator`'s answer: the walk along a pointer, remembering what it read."""

    def __init__(self, text: str, decoder: type[json.JSONDecoder]) -> None:
        self.text = text
        self.decode = decoder().raw_decode
        self.line_col = _Lines(text)
        self.objects: dict[int, _Object] = {}  # by the offset of the `{`
        self.arrays: dict[int, _Array] = {}  # by the offset of the `[`

    def __call__(self, tokens: list[str]) -> tuple[int, int] | None:
        try:
            return self.line_col(self._walk(tokens))
        except (ValueError, IndexError, _Unsure):
            return None

    def _space(self, index: int) -> int:
        end = _SPACE.match(self.text, index)
        return end.end() if end else index

    def _skip(self, at: int) -> int:
        """Past the value at `at`, its trailing spaces and comma."""
        at = self._space(self.decode(self.text, at)[1])
        return self._space(at + 1) if self.text[at] == "," else at

    def _walk(self, tokens: list[str]) -> int:
        text = self.text
        at = self._space(0)
        best = at
        for token in tokens:
            if text[at] == "{":
                found = self._member(at, token)
                if found is None:
                    return best
                best, at = found
            elif text[at] == "[":
                if not token.isdigit():
                    return best
                element = self._element(at, int(token))
                if element is None:
                    return best
                best = at = element
            else:
                return best
        return best

    def _member(self, brace: int, token: str) -> tuple[int, int] | None:
        """(key offset, value offset) of the first `token` key of the object at `brace`."""
        memo = self.objects.get(brace)
        if memo is None:
            memo = self.objects[brace] = _Object(self._space(brace + 1))
        found = memo.members.get(token)
        if found is not None:
            return found
        if memo.broken:
            raise _Unsure
        if memo.closed:
            return None
        try:
            return self._read_members(memo, token)
        except (ValueError, IndexError, _Unsure):
            memo.broken = True
            raise

    def _read_members(self, memo: _Object, token: str) -> tuple[int, int] | None:
        text, space = self.text, self._space
        at = memo.at
        if memo.pending:
            at = self._skip(at)
            memo.pending = False
        while text[at] != "}":
            start = at
            key, at = self.decode(text, at)
            if not isinstance(key, str):
                raise _Unsure
            if "\\" in text[start:at] or at - start > _SIMPLE_KEY:
                raise _Unsure
            at = space(at)
            if text[at] != ":":
                raise _Unsure
            at = space(at + 1)
            memo.members.setdefault(key, (start, at))
            if key == token:
                memo.at, memo.pending = at, True
                return start, at
            at = self._skip(at)
        memo.at, memo.closed = at, True
        return None

    def _element(self, bracket: int, wanted: int) -> int | None:
        """Offset of element `wanted` of the array at `bracket`."""
        memo = self.arrays.get(bracket)
        try:
            if memo is None:
                memo = self.arrays[bracket] = _Array()
                first = self._space(bracket + 1)
                if self.text[first] == "]":
                    memo.closed = True
                else:
                    memo.elements.append(first)
            if wanted < len(memo.elements):
                return memo.elements[wanted]
            if memo.broken:
                raise _Unsure
            if memo.closed:
                return None
            while len(memo.elements) <= wanted:
                at = self._space(self.decode(self.text, memo.elements[-1])[1])
                if self.text[at] != ",":
                    memo.closed = True
                    return None
                memo.elements.append(self._space(at + 1))
        except (ValueError, IndexError, _Unsure):
            if memo is not None:
                memo.broken = True
            raise
        return memo.elements[wanted]


class _Unsure(Exception):
    pass
