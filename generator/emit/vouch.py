"""What of a rendered module the emitter vouches is black's layout, and what it leaves to black.

The built-in templates write black's layout (emit/blackstyle.py lays out the statements whose
shape depends on the contract); tests/test_black_layout.py proves it byte for byte against
`black.format_str` on the seeds, the test contracts, the corpus and bench/synthetic.py's contract.
A top-level block is UNSURE when one of its lines is over 88 columns and is not a comment, a
line of a docstring (whose quotes open a line and close one) or a line black cannot split
(`_KEPT`). The layout helpers leave on one line what they cannot lay out (a deeply nested
annotation, a long error-body expression), so a long line marks what they gave up on; black
formats those blocks alone, and emit/blocks.py joins them with the blank lines black puts
between blocks, which is black's output for the whole module (tests/test_blocks.py).
`blank_lines` gives black's blank lines where the templates' conditional sections meet.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable

from . import blocks
from .blackstyle import LINE_LENGTH

_LONG_LINE = re.compile(rf"^.{{{LINE_LENGTH + 1},}}$", re.MULTILINE)
_STRING = r"""[bfruBFRU]{0,2}(?:"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')"""
_ATOM = rf"(?:{_STRING}|-?\w+(?:\.\w+)*(?:\(\))?)"
# Long lines black leaves as they are, inside brackets it split: one string, name or number
# (a keyword argument's value, maybe), or a dict entry or a parameter with its comma (a
# parameter annotated with a name or a one-dot attribute, with no default too, or the closing
# line of a split annotation with its default); and the first line of a split whose head black
# cannot split (`class X(`, `x = await f(`, `"key": {`).
_KEPT = re.compile(rf"(?:\w+=)?{_ATOM},?|(?:{_STRING}: |\w+: [\w.]+ = |[\])] = ){_ATOM},"
                   rf"|\w+: \w+(?:\.\w+)?,|{_STRING}: \{{"
                   rf"|(?:class |(?:async )?def )\w+\((?:\) -> \()?"
                   rf"|(?:{_STRING}: |\w+ = |return )?(?:await )?\w+(?:\.\w+)*\(")


def unsure_lines(source: str) -> list[int]:
    """The 0-based numbers of the lines black might lay out otherwise (see the module's
    docstring)."""
    if _LONG_LINE.search(source) is None:
        return []
    found = []
    in_docstring = False
    for number, line in enumerate(source.split("\n")):
        text = line.strip()
        opens = not in_docstring and text.startswith('"""')
        if len(line) > LINE_LENGTH and not (in_docstring or opens or text.startswith("#")
                                            or _KEPT.fullmatch(text)):
            found.append(number)
        if opens:
            in_docstring = len(text) < 6 or not text.endswith('"""')
        elif in_docstring and text.endswith('"""'):
            in_docstring = False
    return found


def vouched(source: str, black: Callable[[str], str]) -> str:
    """`source` (rendered by the built-in templates) in black's layout: as it is, its unsure
    blocks formatted by `black`."""
    unsure = unsure_lines(source)
    if not unsure:
        return source
    found = blocks.split_spans(source)
    if found is None:  # no top-level blocks to format alone (never for the built-in templates)
        return black(source)
    split, bounds = found
    # Block i's region (its leading blank lines and comments, then the block) starts at
    # bounds[i]: the blocks whose regions hold an unsure line.
    line_starts = [0, *(match.end() for match in re.finditer("\n", source))]
    marked = {bisect.bisect_right(bounds, line_starts[number]) - 1 for number in unsure}
    return blocks.join(split, [black(block.text) if index in marked else block.text
                               for index, block in enumerate(split)])


# A run of blank lines before a top-level line, where a template's conditional sections meet.
_BLANK_RUN = re.compile(r"\n{4,}(?=\S)")


def blank_lines(text: str) -> str:
    """black's blank lines where the templates' conditional sections meet: at most two before a
    top-level line (no template writes a string literal with blank lines at the top level),
    none at the end."""
    return _BLANK_RUN.sub("\n\n\n", text).rstrip("\n") + "\n"
