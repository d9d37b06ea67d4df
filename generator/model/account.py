"""The account of a contract's wire and type keywords: for each one written, whether the
generated code honours it, approximates it (and what it does instead) or ignores it (and why).

The IR build marks what it approximates by its located warnings (`Notes`); this walk, run after
it, classifies every keyword of `WIRE_KEYWORDS` present in the contract by its site (parameter,
header, encoding, media type, schema, path item, operation, response) and by the rules below.
A keyword no rule knows (a schema keyword of a later dialect, a typo) is `ignored`: warned
about rather than dropped silently. `contractgen validate --account` prints the account."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from ..spec.tree import make_pointer, walk_objects

Status = Literal["honoured", "approximated", "ignored"]
STATUSES: tuple[Status, ...] = ("honoured", "approximated", "ignored")


@dataclass(frozen=True)
class Entry:
    """One keyword written at `pointer` (the object holding it), and what the code does."""

    pointer: str
    site: str
    keyword: str
    status: Status
    text: str

    @property
    def construct(self) -> str:
        return f"{self.site}.{self.keyword}"


Verdict = tuple[Status, str]
Rule = Callable[[Mapping[str, Any], Any], Verdict]

_PERCENT: Verdict = ("approximated", "`allowReserved: true` is not honoured: reserved characters "
            "(`/?#[]@!$&'()*+,;=`) are percent-encoded, as without it")


def _param_style(node: Mapping[str, Any], value: Any) -> Verdict:
    if value in ("label", "matrix"):
        return ("approximated", f"style `{value}` is not written: the value is sent and read "
                "in `simple` style (`a,b`)")
    if node.get("in") == "cookie" and value != "form":
        return ("approximated", f"style `{value}` on a cookie is not written: `form` is used")
    return ("honoured", f"style `{value}`")


def _param_content(node: Mapping[str, Any], value: Any) -> Verdict:
    media = str(next(iter(value), "")) if isinstance(value, dict) else ""
    if media.split(";")[0].strip().endswith("json"):
        return ("honoured", f"the value is `{media}` text")
    return ("approximated", f"`content: {media}` is not written: the value is sent in the "
            "location's default style")


def _header_content(node: Mapping[str, Any], value: Any) -> Verdict:
    return ("approximated", "a header's `content` is not parsed: the header is typed and read "
            "as its text (`str`)")


def _encoding_style(node: Mapping[str, Any], value: Any) -> Verdict:
    if value in ("form", "deepObject"):
        return ("honoured", f"encoding style `{value}`")
    return ("approximated", f"encoding style `{value}` is not written: sent as `form` (repeated "
            "keys)")


def _encoding_type(node: Mapping[str, Any], value: Any) -> Verdict:
    base = str(value).split(";")[0].strip()
    if base == "application/json" or base.startswith("text/plain"):
        return ("honoured", f"a `{base}` part (structured fields JSON, scalars text)")
    return ("approximated", f"encoding `contentType: {value}` is not written: a part's type "
            "follows its schema (files `application/octet-stream`, objects JSON, else text)")


def _content_media(node: Mapping[str, Any], value: Any) -> Verdict:
    return ("approximated", f"`contentMediaType: {value}`: the value is kept as its text "
            "(`str`; a multipart property as a file part), not decoded")


def _content_encoding(node: Mapping[str, Any], value: Any) -> Verdict:
    return ("approximated", f"`contentEncoding: {value}`: the value is kept as the encoded "
            "text (`str`), not decoded")


def _own_servers(node: Mapping[str, Any], value: Any) -> Verdict:
    if isinstance(value, list) and len(value) > 1:
        return ("approximated", "only the first of these servers is used (its variables at "
                "their defaults)")
    return ("honoured", "the operation is sent to, and served at, this server")


def _fixed(status: Status, text: str) -> Rule:
    return lambda node, value: (status, text)


_MEMBER = ("`{keyword}` on a member of `{of}` is not read: the property stays in the "
           "models of both directions (hint: write `{keyword}` beside the `{of}`)")
_DYNAMIC: Verdict = ("ignored", "dynamic references are not followed: the value is typed `Any` "
            "(hint: use `$ref`)")

# site -> keyword -> rule: the keywords that change the wire or the types.
WIRE_KEYWORDS: dict[str, dict[str, Rule]] = {
    "parameter": {
        "style": _param_style, "explode": _fixed("honoured", "explode as declared"),
        "allowReserved": lambda n, v: _PERCENT if v is True else ("honoured", "percent-encoded"),
        "content": _param_content,
        "allowEmptyValue": _fixed("approximated", "`allowEmptyValue` is not read: an empty "
                                  "value is parsed like any other (and fails a typed value)"),
    },
    "header": {
        "style": _fixed("honoured", "style `simple`"),
        "explode": lambda n, v: ("honoured", "`simple` lists") if v is not True else (
            "approximated", "`explode: true` of a header is not read: `simple` lists"),
        "content": _header_content,
    },
    "encoding": {
        "style": _encoding_style, "explode": _fixed("honoured", "explode as declared"),
        "allowReserved": lambda n, v: _PERCENT if v is True else ("honoured", "percent-encoded"),
        "contentType": _encoding_type,
        "headers": _fixed("ignored", "a part's `headers` are neither sent by the client nor "
                          "read by the server"),
    },
    "pathitem": {"servers": _own_servers},
    "operation": {
        "servers": _own_servers,
        "callbacks": _fixed("honoured", "a sender method and a receiver route per callback"),
    },
    "response": {
        "links": _fixed("approximated", "links are named in the operation's docstring: the "
                        "client does not follow them"),
    },
    "root": {
        "servers": _fixed("honoured", "the client's base URLs (variables at their defaults)"),
        "webhooks": _fixed("honoured", "a receiver route and a sender method per webhook"),
    },
    "schema": {
        "const": _fixed("honoured", "a `Literal` of the value"),
        "prefixItems": _fixed("honoured", "a `tuple` of the items' types"),
        "readOnly": _fixed("honoured", "left out of the request models"),
        "writeOnly": _fixed("honoured", "left out of the response models"),
        "discriminator": _fixed("honoured", "a union told apart by its property"),
        "contentMediaType": _content_media, "contentEncoding": _content_encoding,
        "contentSchema": _fixed("ignored", "the decoded content is not checked against "
                                "`contentSchema`"),
        "$dynamicRef": _fixed(*_DYNAMIC), "$dynamicAnchor": _fixed(*_DYNAMIC),
        "$recursiveRef": _fixed(*_DYNAMIC),
    },
}

# The schema keywords of JSON Schema 2020-12 and of OpenAPI 3.0's subset; any other key of a
# schema (not `x-`) is a keyword nobody reads, warned about.
SCHEMA_KEYWORDS = frozenset("""
$schema $id $anchor $ref $defs $comment $vocabulary definitions type enum const
multipleOf maximum exclusiveMaximum minimum exclusiveMinimum maxLength minLength pattern
maxItems minItems uniqueItems maxContains minContains maxProperties minProperties required
dependentRequired dependencies allOf anyOf oneOf not if then else dependentSchemas
prefixItems items additionalItems contains properties patternProperties additionalProperties
propertyNames unevaluatedItems unevaluatedProperties format title description default
deprecated readOnly writeOnly examples example nullable discriminator xml externalDocs
""".split()) | WIRE_KEYWORDS["schema"].keys()

_SCHEMA_CHILD = frozenset({
    "schema", "items", "not", "additionalProperties", "contains", "if", "then", "else",
    "propertyNames", "unevaluatedItems", "unevaluatedProperties", "contentSchema",
    "additionalItems"})
_SCHEMA_LISTS = frozenset({"allOf", "anyOf", "oneOf", "prefixItems"})
_BY_MAP = {"properties": "schema", "patternProperties": "schema", "$defs": "schema",
           "definitions": "schema", "dependentSchemas": "schema", "headers": "header",
           "encoding": "encoding", "responses": "response", "paths": "pathitem",
           "webhooks": "pathitem", "pathItems": "pathitem", "parameters": "parameter"}
_NAME_MAPS = frozenset(_BY_MAP) | {"schemas", "content", "callbacks", "links", "examples",
                                   "requestBodies", "securitySchemes", "variables", "mapping",
                                   "scopes"}
_NOT_SCHEMA = frozenset({"discriminator", "xml", "externalDocs"})
_OPERATIONS = frozenset({"get", "put", "post", "delete", "options", "head", "patch", "trace"})


def site_of(path: tuple[str | int, ...]) -> str | None:
    """What kind of object the node at `path` is, for the keywords `WIRE_KEYWORDS` lists."""
    if not path:
        return "root"
    last, parent = path[-1], path[-2] if len(path) > 1 else None
    if last in _NOT_SCHEMA and not _named(path):
        return None
    if _named(path):  # `last` is a name an author chose: the map holding it says what it is
        if parent == "schemas":
            return "schema" if path[0] == "components" and len(path) == 3 else None
        return _BY_MAP.get(str(parent))
    if parent == "parameters" or last in _SCHEMA_CHILD or parent in _SCHEMA_LISTS:
        return "parameter" if parent == "parameters" else "schema"
    if last in _OPERATIONS and len(path) >= 2 and _named(path[:-1]):
        return "operation"
    return None


def _named(path: tuple[str | int, ...]) -> bool:
    """Whether the last token of `path` is a name in a map (a property, a response...), not a
    keyword: its parent is a map of names, and that parent is not itself a name."""
    return len(path) >= 2 and path[-2] in _NAME_MAPS and not _named(path[:-1])


def account(document: Mapping[str, Any], notes: Iterable[tuple[str, str]]) -> list[Entry]:
    """Every wire or type keyword of `document`, classified; `notes`: the IR build's located
    warnings (pointer, message), which make a keyword they name `approximated`."""
    warned: dict[str, list[str]] = {}
    for pointer, message in notes:
        warned.setdefault(pointer, []).append(message)
    entries: list[Entry] = []
    for path, node in walk_objects(document):
        site = site_of(path)
        if site is None or ("$ref" in node and site != "schema"):
            continue
        rules = WIRE_KEYWORDS.get(site, {})
        pointer = make_pointer(path)
        # readOnly/writeOnly on an allOf member is read (model/access.py); on a member of a
        # oneOf/anyOf only when every member says it.
        composed = len(path) >= 2 and path[-2] in ("oneOf", "anyOf")
        for keyword, value in node.items():
            if composed and keyword in ("readOnly", "writeOnly") and value is True and not (
                    _every_member(document, path, keyword)):
                entries.append(Entry(pointer, site, keyword, "approximated", _MEMBER.format(
                    keyword=keyword, of=path[-2])))
                continue
            entry = _entry(site, pointer, node=node, keyword=str(keyword), value=value,
                           rules=rules, warned=warned)
            if entry is not None:
                entries.append(entry)
    return entries


def _every_member(document: Mapping[str, Any], path: tuple[Any, ...], keyword: str) -> bool:
    """Every member of the `oneOf`/`anyOf` holding `path` sets `keyword` (model/access.py)."""
    members: Any = document
    for part in path[:-1]:
        members = members[part]
    return all(isinstance(m, dict) and m.get(keyword) is True for m in members)


def _entry(site: str, pointer: str, *, node: Mapping[str, Any], keyword: str, value: Any,
           rules: Mapping[str, Rule], warned: Mapping[str, list[str]]) -> Entry | None:
    own = f"`{keyword}`: "  # the account's own warning, from an earlier build
    said = [m.removeprefix(own) for m in warned.get(pointer, ())
            if f"`{keyword}" in m or (keyword == "style" and "style `" in m)]
    if keyword in rules:
        status, text = rules[keyword](node, value)
        if keyword == "servers" and pointer.startswith("/webhooks/"):
            status, text = "ignored", ("a webhook is sent to the URL its sender is given, and "
                                       "received where the app is served")
        if keyword == "contentMediaType" and "/multipart~1" in pointer:
            status, text = "honoured", "a file part of the multipart body"
        if said:
            status, text = "approximated" if status == "honoured" else status, said[0]
        return Entry(pointer, site, keyword, status, text)
    if said and site == "schema":
        return Entry(pointer, site, keyword, "approximated", said[0])
    if site == "schema" and keyword not in SCHEMA_KEYWORDS and not keyword.startswith("x-"):
        return Entry(pointer, site, keyword, "ignored", f"`{keyword}` is not a schema keyword "
                     "the generator reads: it has no effect on the models")
    return None


def warnings(entries: Iterable[Entry], notes: Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
    """The (pointer, message) warnings the account adds to the IR build's: each keyword it
    finds approximated or ignored that the build did not already warn about."""
    said = {message for _, message in notes}
    return [(e.pointer, f"`{e.keyword}`: {e.text}") for e in entries if e.status != "honoured"
            and e.text not in said and f"`{e.keyword}`: {e.text}" not in said]


def summary(entries: Iterable[Entry]) -> list[str]:
    """The account as lines: counts by construct and status, then each non-honoured entry."""
    entries = list(entries)
    counts = Counter((e.construct, e.status) for e in entries)
    lines = [f"{'construct':<28} {'honoured':>9} {'approx.':>8} {'ignored':>8}"]
    for construct in sorted({e.construct for e in entries}):
        row = [counts[(construct, s)] for s in STATUSES]
        lines.append(f"{construct:<28} {row[0]:>9} {row[1]:>8} {row[2]:>8}")
    for e in entries:
        if e.status != "honoured":
            lines.append(f"{e.status}: {e.pointer} `{e.keyword}`: {e.text}")
    return lines
