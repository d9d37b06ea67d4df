"""Load a YAML or JSON spec into plain data, remembering where every node was written.

YAML goes through PyYAML's composer (the C one when libyaml is there), and the node tree is
turned into JSON-compatible data here rather than by PyYAML's constructor, so that mapping keys
come out as written (`200:` -> `"200"`), timestamps stay strings, and every node keeps its line
and column. JSON is parsed by `json` (the authority on JSON) and located through the same
composer, which reads JSON as YAML (or, one pointer at a time, by `jsonpos`, which answers the
same without composing the whole text).
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import urlsplit

from ..problems import Level, Problem, SpecError
from .jsonpos import locator
from .positions import Pos
from .tree import split_pointer

# A UTF-16 surrogate escape is valid JSON but not YAML; swapping it for a same-length escape
# keeps every column where it was, and only the positions are read from that parse.
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")
# What a document must be, and the hint when it is not (a scenario is another mapping).
_KIND, _HINT = "an OpenAPI object", "a spec starts with `openapi: 3.x.y` at the top level"


@dataclass(frozen=True)
class Document:
    """A loaded spec: its data, the text and hash it came from, and where each node was written.

    A document with an overlay applied (`overlay.apply_overlay`) keeps `path` (the spec, whose
    lines the positions refer to), sets `overlay_path`, and has `text` = spec text followed by
    overlay text and `sha256` = the hash of the spec's bytes followed by the overlay's bytes
    (what `cat spec overlay | sha256sum` prints).
    """

    path: Path
    text: str
    sha256: str
    data: dict[str, Any]
    locate: Callable[[], Pos | None] = field(default=lambda: None, repr=False, compare=False)
    overlay_path: Path | None = None
    # Parts copied from other files (`resolve`): (pointer here, that file, pointer there)
    origins: tuple[tuple[str, Document, str], ...] = field(default=(), repr=False, compare=False)
    # JSON: one pointer's position without composing the whole text (`jsonpos`); None when
    # it cannot be sure to answer as `positions` would.
    quick_position: Callable[[list[str]], tuple[int, int] | None] | None = field(
        default=None, repr=False, compare=False)
    # A document fetched from an http(s) URL (`remote`): problems name the URL. Its `path` is
    # one no file can be at (`remote.nowhere`), so nothing takes it for a local file.
    url: str | None = None

    @property
    def source(self) -> str:
        """Where the document was read, as problems name it: its URL, else its file."""
        return self.url or str(self.path)

    @functools.cached_property
    def positions(self) -> Pos | None:
        """Where each node was written; found on first use for JSON (YAML has it already)."""
        return self.locate()

    def may_spell(self, word: str) -> bool:
        """Whether `word` (ASCII) may be written in the texts this document was read from (its
        own, its overlay's, the files bundled into it): False only when none holds it, nor an
        escape of one of its letters, nor a YAML line fold (which joins words)."""
        escapes, lowered = _escapes(word), word.lower()
        return any(lowered in text.lower() or escapes.search(text) is not None
                   for text in (self.text, *(o.text for _, o, _ in self.origins)))

    def position(self, pointer: str) -> tuple[int, int] | None:
        """1-based (line, column) of the node at `pointer`, else of its deepest existing ancestor."""
        if self.quick_position is not None and "positions" not in self.__dict__:
            found = self.quick_position(split_pointer(pointer))
            if found is not None:
                return found
        node = self.positions
        if node is None:
            return None
        for token in split_pointer(pointer):
            children = node.children
            child: Pos | None = None
            if isinstance(children, dict):
                child = children.get(token)
            elif isinstance(children, list) and token.isdigit() and int(token) < len(children):
                child = children[int(token)]
            if child is None:
                break
            node = child
        return node.line, node.col

    def problem(self, level: Level, pointer: str, message: str, hint: str | None = None
                ) -> Problem:
        """A Problem located at `pointer` in this document (or in the file it was copied from)."""
        for here, other, there in self.origins:
            if pointer == here or pointer.startswith(here + "/"):
                return other.problem(level, there + pointer[len(here):], message, hint)
        pos = self.position(pointer)
        line, col = pos if pos else (None, None)
        return Problem(level, message, self.source, line, col, pointer, hint)


@functools.cache
def _escapes(word: str) -> re.Pattern[str]:
    """An escape (JSON `\\uXXXX`, YAML `\\xXX`, `\\uXXXX`, `\\UXXXXXXXX`) of one of `word`'s
    letters in either case, or a backslash before a line break. One pattern led by a literal
    backslash: quick to search (a pattern for the word too, in any case, took 16 ms over 1 MB)."""
    assert word.isascii()
    codes = sorted({f"{ord(c):02x}" for c in word.lower() + word.upper()})
    return re.compile(rf"\\(?:x|u00|U000000)(?i:{'|'.join(codes)})|\\[\r\n]")


def document_from_data(data: dict[str, Any], path: str | Path, *, text: str,
                       sha256: str | None = None, positions: Pos | None = None,
                       overlay_path: Path | None = None) -> Document:
    """A Document for data built in memory; `sha256` defaults to the hash of `text`."""
    digest = sha256 or hashlib.sha256(text.encode()).hexdigest()
    return Document(Path(path), text, digest, data, lambda: positions, overlay_path)


def load_document(path: str | Path, *, kind: str = _KIND, hint: str = _HINT,
                  read: tuple[bytes, str] | None = None) -> Document:
    """Read and parse a YAML or JSON spec (or another mapping: `kind`, with `hint` when it is
    not one); SpecError (with line and hint) when that fails. `read`: the file's bytes and
    their sha256 when the caller read it already (`inputs.Inputs`)."""
    path = Path(path)
    raw, digest = read or (read_bytes(path), "")
    return parse_document(decode(raw, str(path)), digest or hashlib.sha256(raw).hexdigest(),
                          path, kind=kind, hint=hint)


def parse_document(text: str, sha256: str, path: Path, *, url: str | None = None,
                   kind: str = _KIND, hint: str = _HINT) -> Document:
    """A Document of `text` (read from `path`, or fetched from `url`), parsed as JSON when
    its name ends in `.json`, else as YAML 1.2; SpecError (with line and hint) when it fails."""
    name = url or str(path)
    is_json = PurePosixPath(urlsplit(url).path if url else path.name).suffix.lower() == ".json"
    root = Pos(1, 1)
    if is_json:
        data, locate = _parse_json(text, name)
    else:
        data, positions = _parse_yaml(text, name)
        root = positions or root
        locate = lambda: positions  # noqa: E731
    if not isinstance(data, dict):
        found = "nothing" if data is None else f"a {_kind(data)}"
        raise SpecError([Problem(Level.ERROR, f"the document must be a mapping ({kind}), found "
                                 f"{found}", name, root.line, root.col, "", hint)])
    quick = locator(text) if is_json else None
    return Document(path, text, sha256, data, locate, quick_position=quick, url=url)


def read_bytes(path: Path) -> bytes:
    """The file's bytes; SpecError when it cannot be read."""
    try:
        return path.read_bytes()
    except OSError as exc:
        reason = exc.strerror or str(exc)
        hint = "check the path" if isinstance(exc, FileNotFoundError) else None
        raise SpecError(
            [Problem(Level.ERROR, f"cannot read the file: {reason}", str(path), None, None, "", hint)]
        ) from exc


def decode(raw: bytes, name: str) -> str:
    """UTF-8 text (a BOM is dropped); SpecError at the first undecodable byte."""
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        before = raw[: exc.start]
        line = before.count(b"\n") + 1
        col = exc.start - (before.rfind(b"\n") + 1) + 1
        raise SpecError(
            [Problem(Level.ERROR, f"the file is not UTF-8 (byte {raw[exc.start]:#04x})",
                     name, line, col, "", "save the file as UTF-8")]
        ) from exc


def _parse_yaml(text: str, name: str) -> tuple[Any, Pos | None]:
    # PyYAML is imported only where a document is read as YAML (a JSON contract whose
    # positions are never asked for does without it: a fiftieth of a second).
    from .yamltext import parse_yaml

    return parse_yaml(text, name)


def _parse_json(text: str, name: str) -> tuple[Any, Callable[[], Pos | None]]:
    duplicated = False

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        nonlocal duplicated
        obj = dict(items)
        duplicated = duplicated or len(obj) < len(items)
        return obj

    try:
        data = json.loads(text, object_pairs_hook=pairs)
    except json.JSONDecodeError as exc:
        hint = None
        if "property name" in exc.msg or "Expecting value" in exc.msg:
            hint = "JSON allows no trailing commas, comments or single quotes"
        raise SpecError(
            [Problem(Level.ERROR, f"JSON syntax error: {exc.msg}", name, exc.lineno,
                     exc.colno, "", hint)]
        ) from exc
    if duplicated:
        _json_positions(text, name)  # raises, saying where
        raise SpecError([Problem(Level.ERROR, "duplicate key in an object", name, None,
                                 None, "", "remove one of them; JSON would keep the last")])
    return data, lambda: _json_positions(text, name)


def _json_positions(text: str, name: str) -> Pos | None:
    """Positions of JSON text, read as YAML; None when YAML cannot read it."""
    try:
        return _parse_yaml(_SURROGATE_ESCAPE.sub(r"\\u0041", text), name)[1]
    except SpecError as exc:
        if any("duplicate key" in p.message for p in exc.problems):
            raise
        return None


def _kind(value: Any) -> str:
    return {list: "list", str: "string", bool: "boolean", int: "number", float: "number"}.get(
        type(value), type(value).__name__)
