"""Where a node of a JSON document was written, found along its pointer alone.

`loader` locates JSON as it locates YAML: it reads the whole text again with PyYAML's composer
and keeps a position for every node. That read is pure Python and costs about a second on a
megabyte contract, paid by every run that reports a located warning. `locate` answers the same
(line, column) for one pointer by walking only the objects on its way and skipping each sibling
with json's own C scanner, counting lines and columns the way PyYAML's reader does. It answers
None, and the caller falls back to the composer, wherever the two readings could differ: text
YAML might refuse or count differently (tabs, byte order marks, characters its reader rejects),
keys spelt with escapes or too long for a YAML simple key.
"""

from __future__ import annotations

import bisect
import json
import re
from collections.abc import Callable

# PyYAML's Reader.NON_PRINTABLE, and the line breaks its Reader counts.
_NON_PRINTABLE = re.compile("[^\x09\x0a\x0d\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
_BREAK = re.compile("\r\n|[\n\r\x85\u2028\u2029]")
_SPACE = re.compile(r"[ \n\r]*")
_SIMPLE_KEY = 1000  # PyYAML drops a simple key longer than 1024 characters
_QUICK_ANSWERS = 40


def locator(text: str) -> Callable[[list[str]], tuple[int, int] | None] | None:
    """A function from pointer tokens to the 1-based (line, column) of the deepest node on that
    path (as `Document.position` reads it from the composed tree); None when this text is one
    the composer might read differently."""
    if "\t" in text or "\ufeff" in text or _NON_PRINTABLE.search(text):
        return None
    decode = json.JSONDecoder().raw_decode
    starts: list[int] = []  # offset where each line after the first starts

    def line_col(index: int) -> tuple[int, int]:
        if not starts:
            starts.extend(m.end() for m in _BREAK.finditer(text))
        line = bisect.bisect_right(starts, index)
        return line + 1, index - (starts[line - 1] if line else 0) + 1

    def space(index: int) -> int:
        end = _SPACE.match(text, index)
        return end.end() if end else index

    calls = [0]

    def locate(tokens: list[str]) -> tuple[int, int] | None:
        # Each answer costs a scan of the siblings before it (milliseconds); for a document
        # with many located problems, composing it once is cheaper.
        calls[0] += 1
        if calls[0] > _QUICK_ANSWERS:
            return None
        try:
            return line_col(_walk(tokens))
        except (ValueError, IndexError, _Unsure):
            return None

    def _walk(tokens: list[str]) -> int:
        at = space(0)
        best = at
        for token in tokens:
            if text[at] == "{":
                at = space(at + 1)
                found = None
                while text[at] != "}":
                    start = at
                    key, at = decode(text, at)
                    if not isinstance(key, str):
                        raise _Unsure
                    if "\\" in text[start:at] or at - start > _SIMPLE_KEY:
                        raise _Unsure
                    at = space(at)
                    if text[at] != ":":
                        raise _Unsure
                    at = space(at + 1)
                    if key == token:
                        found = start
                        break
                    at = space(decode(text, at)[1])
                    if text[at] == ",":
                        at = space(at + 1)
                if found is None:
                    return best
                best = found
            elif text[at] == "[":
                if not token.isdigit():
                    return best
                wanted = int(token)
                at = space(at + 1)
                if text[at] == "]":
                    return best
                for _ in range(wanted):
                    at = space(decode(text, at)[1])
                    if text[at] != ",":
                        return best
                    at = space(at + 1)
                best = at
            else:
                return best
        return best

    return locate


class _Unsure(Exception):
    pass
