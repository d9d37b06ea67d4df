"""Patterns are ECMA-262 (OpenAPI 3.0 section 4.7.24.1, JSON Schema 2020-12 section 6.4): judged
with `regress` (an ECMA-262 engine) and translated for the engine the generated models use.

A pattern is read as JSON Schema reads it, with the `u` flag (code points, `\\p{...}`), and, when
that mode refuses it, as browsers do without the flag (ECMA-262 Annex B, where `[\\w-./:]` is a
class of `\\w`, `-`, `.`, `/` and `:`). `translate` writes it for pydantic-core's regex engine
(Rust's `regex` crate) so that it accepts the same strings: `\\d`, `\\w`, `\\s`, `.` and `\\b` spelled
with ECMA's sets; lookarounds and back-references, which that engine lacks, are untranslatable.
"""

from __future__ import annotations

import functools

import regress
from pydantic_core import SchemaError, SchemaValidator, core_schema

from ..errors import ContractgenError

_DIGIT = "0-9"
_WORD = "0-9A-Z_a-z"
_SPACE = ("\\t\\n\\x0B\\x0C\\r \\xA0\\x{1680}\\x{2000}-\\x{200A}\\x{2028}\\x{2029}\\x{202F}"
          "\\x{205F}\\x{3000}\\x{FEFF}")
_SETS = {"d": _DIGIT, "w": _WORD, "s": _SPACE}
_META = frozenset("\\.+*?()|[]{}^$#&-~")
_SYNTAX = frozenset("^$\\.*+?()[]{}|/")
_CONTROL = {"t": 9, "n": 10, "v": 11, "f": 12, "r": 13}


class Untranslatable(ContractgenError, ValueError):
    """A valid ECMA-262 pattern that the models' regex engine cannot check the same way."""


@functools.cache
def ecma_mode(pattern: str) -> str | None:
    """`"u"` or `""`: the mode the pattern is read in; None when ECMA-262 refuses it."""
    return "u" if error(pattern, "u") is None else "" if error(pattern, "") is None else None


def error(pattern: str, flags: str = "u") -> str | None:
    """Why ECMA-262 refuses `pattern` in the mode `flags`, or None."""
    try:
        regress.Regex(pattern, flags)
    except regress.RegressError as exc:
        return str(exc)
    return None


def pattern_problem(pattern: str) -> str | None:
    """Why `pattern` is not a valid ECMA-262 regular expression, or None."""
    if ecma_mode(pattern) is not None:
        return None
    return f"`pattern` {pattern!r} is not a valid ECMA-262 regular expression: {error(pattern)}"


def same_reading(first: str, second: str) -> bool:
    """Whether two patterns read the same in ECMA-262 as far as their spelling shows: the same
    text or the same translation (`\\d` and `[0-9]`, `[\\w-.]` and `[\\w\\-.]`)."""
    if first == second:
        return True
    try:
        return translate(first) == translate(second)
    except Untranslatable:
        return False


@functools.cache
def translate(pattern: str) -> str:
    """`pattern` for Rust's `regex` crate, matching the same strings; raises `Untranslatable`."""
    mode = ecma_mode(pattern)
    if mode is None:
        raise Untranslatable(f"not valid ECMA-262: {error(pattern)}")
    translated = _Translator(pattern, unicode=mode == "u").run()
    try:  # the engine itself says whether it takes the translation (its size limits, ...)
        SchemaValidator(core_schema.str_schema(pattern=translated))
    except SchemaError as exc:
        raise Untranslatable(f"pydantic's regex engine refuses {translated!r}: "
                             f"{str(exc).splitlines()[-1].strip()}") from None
    return translated


def _char(code: int) -> str:
    text = chr(code)
    if text in _META:
        return "\\" + text
    if 32 < code < 127:  # printable ASCII, not a metacharacter
        return text
    return f"\\x{{{code:X}}}"


class _Translator:
    def __init__(self, pattern: str, unicode: bool) -> None:
        self.src, self.i, self.unicode = pattern, 0, unicode
        self.out: list[str] = []

    def run(self) -> str:
        while self.i < len(self.src):
            self.out.append(self._atom())
        return "".join(self.out)

    def _next(self) -> str:
        c = self.src[self.i]
        self.i += 1
        return c

    def _atom(self) -> str:
        c = self._next()
        if c == ".":
            return "[^\\n\\r\\x{2028}\\x{2029}]"
        if c == "[":
            return self._class()
        if c == "(":
            return self._group()
        if c in "^$|)*+?":
            return c
        if c == "{":
            return self._brace()
        if c == "\\":
            return self._escape()
        return _char(ord(c))

    def _brace(self) -> str:
        end = self.src.find("}", self.i)
        body = self.src[self.i:end] if end >= 0 else ""
        if end >= 0 and body and all(p.isdigit() for p in body.split(",", 1) if p) and body[0] != ",":
            self.i = end + 1
            return "{" + body + "}"
        return "\\{"  # Annex B: a brace that starts no quantifier is itself

    def _group(self) -> str:
        rest = self.src[self.i:]
        if rest.startswith(("?=", "?!", "?<=", "?<!")):
            raise Untranslatable("a lookaround, which pydantic's regex engine (Rust regex) lacks")
        if rest.startswith("?:"):
            self.i += 2
            return "(?:"
        if rest.startswith("?<"):
            end = self.src.index(">", self.i)
            name, self.i = self.src[self.i + 2:end], end + 1
            return f"(?P<{name}>"
        return "("

    def _escape(self) -> str:
        c = self._next()
        if c in "dws":
            return f"[{_SETS[c]}]"
        if c in "DWS":
            return f"[^{_SETS[c.lower()]}]"
        if c in "bB":
            return f"(?-u:\\{c})"
        if (c.isdigit() and c != "0") or (c == "k" and (self.unicode or "(?<" in self.src)):
            raise Untranslatable("a back-reference, which pydantic's regex engine (Rust regex) lacks")
        return _char(self._code(c))

    def _code(self, c: str) -> int:
        """The code point a character escape (after its backslash) stands for."""
        if c in _CONTROL:
            return _CONTROL[c]
        if c == "0":
            return 0
        if c == "x" and self._hex(2):
            return int(self._take(2), 16)
        if c == "u":
            if self.unicode and self.src.startswith("{", self.i):
                end = self.src.index("}", self.i)
                code = int(self.src[self.i + 1:end], 16)
                self.i = end + 1
                return code
            if self._hex(4):
                return self._surrogates(int(self._take(4), 16))
        if c == "c" and self.i < len(self.src) and self.src[self.i].isalpha():
            return ord(self._next()) % 32
        if c in "pP" and self.unicode:
            raise Untranslatable("a Unicode property escape (\\p{...}), not translated")
        return ord(c)  # an identity escape: `\.`, or in Annex B `\a` for `a`

    def _surrogates(self, code: int) -> int:
        if 0xD800 <= code < 0xDC00 and self.src.startswith("\\u", self.i) and self._hex(4, 2):
            low = int(self.src[self.i + 2:self.i + 6], 16)
            if 0xDC00 <= low < 0xE000:
                self.i += 6
                return 0x10000 + (code - 0xD800) * 0x400 + low - 0xDC00
        if 0xD800 <= code < 0xE000:
            raise Untranslatable("a lone surrogate, which no Python string holds as one")
        return code

    def _hex(self, n: int, skip: int = 0) -> bool:
        text = self.src[self.i + skip:self.i + skip + n]
        return len(text) == n and all(ch in "0123456789abcdefABCDEF" for ch in text)

    def _take(self, n: int) -> str:
        text = self.src[self.i:self.i + n]
        self.i += n
        return text

    def _class(self) -> str:
        negated = self.src.startswith("^", self.i)
        self.i += negated
        items: list[str] = []
        others: list[str] = []  # negated sets (`\D`, `\W`, `\S`): a class of their own
        while self.src[self.i] != "]":
            low = self._class_atom(items, others)
            if low is None or not self.src.startswith("-", self.i) or self.src[self.i + 1] == "]":
                continue
            self.i += 1
            high = self._class_atom(items, others)
            if high is None:  # Annex B: `[\w-.]` is `\w`, `-` and `.`
                items.append("\\-")
            else:
                items.pop()
                items[-1] = f"{_char(low)}-{_char(high)}"
        self.i += 1
        if not items and not others:
            return "[\\x{0}-\\x{10FFFF}]" if negated else "[^\\x{0}-\\x{10FFFF}]"
        if others and negated:
            raise Untranslatable("a negated class holding \\D, \\W or \\S, not translated")
        body = f"[{'^' if negated else ''}{''.join(items)}]" if items else ""
        return "(?:" + "|".join(filter(None, [body, *others])) + ")" if others else body

    def _class_atom(self, items: list[str], others: list[str]) -> int | None:
        """Read one class atom into `items` (or `others`); its code point if a single one."""
        c = self._next()
        if c != "\\":
            items.append(_char(ord(c)))
            return ord(c)
        e = self._next()
        if e in "dws":
            items.append(_SETS[e])
            return None
        if e in "DWS":
            others.append(f"[^{_SETS[e.lower()]}]")
            return None
        code = 8 if e == "b" else 45 if e == "-" else self._code(e)
        items.append(_char(code))
        return code
