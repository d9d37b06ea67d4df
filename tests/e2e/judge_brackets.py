"""Bracket notation (`metadata[key]=v`, `expand[0]=x`, `items[0][price]=p`) judged by an
encoder we did not write, where openapi-core cannot read it.

openapi-core reads `style: deepObject` only for a flat object (`?filter[name]=x`): an array, a
nested object or a union under deepObject raises `ValueError: not available` or fails to cast
(python-openapi/openapi-core#250, whose #379 added flat objects only; OpenAPI itself leaves
nested deepObject undefined, OAI/OpenAPI-Specification#1706). Stripe's contract uses it for
every list and map, in query parameters and in form bodies. Stripe's own encoder is the
authority of Stripe's wire: stripe-python's `_api_encode` (`stripe._encode`, what its requests
are made of, urlencoded) writes the same arguments, and the client's query or body must carry
the same keys and values (as multisets: order aside).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from email.parser import BytesParser
from email.policy import HTTP
from typing import Any
from urllib.parse import parse_qsl, urlsplit

import httpx

FORM = "application/x-www-form-urlencoded"
# an error of openapi-core's about a part judged here instead
_QUERY_ERROR = "Query parameter error: {}"
_BODY_ERROR = "Request body validation error"
WHY = ("openapi-core does not read deepObject beyond a flat object "
       "(python-openapi/openapi-core#250): judged by stripe-python's encoder instead")


@dataclass
class Brackets:
    """What the encoder found of one request: the differences, and the parts it judged."""

    problems: list[str] = field(default_factory=list)
    parts: list[str] = field(default_factory=list)  # openapi-core's errors it stands for

    def excuses(self, raw: str) -> bool:
        """Whether openapi-core's error `raw` is about a part judged here."""
        return any(part in raw for part in self.parts)


def judge_brackets(op: Any, wire: dict[str, Any], request: httpx.Request) -> Brackets:
    """Compare the deepObject query parameters and a form body with deepObject fields of
    `request` with what Stripe's encoder writes of the same arguments (`wire`: by argument
    name, as the contract's JSON)."""
    found = Brackets()
    deep = {p.wire: p.name for p in op.query_params if p.style == "deepObject"}
    if deep:
        sent = [(k, v) for k, v in parse_qsl(urlsplit(str(request.url)).query,
                                               keep_blank_values=True)
                if k.split("[", 1)[0] in deep]
        values = {w: wire[n] for w, n in deep.items() if wire.get(n) is not None}
        found.problems += _differences("query", sent, _stripe(values))
        found.parts += [_QUERY_ERROR.format(w) for w in deep]
    fields = [f for f in (op.body.form_fields if op.body is not None else ())
              if not (f.is_file or f.is_file_list)]
    body = _fields(request) if any(f.deep for f in fields) else None
    if body is not None:
        expected = _stripe({f.wire: wire[f.name] for f in fields
                            if f.deep and wire.get(f.name) is not None})
        for f in fields:  # the others as OpenAPI's `form` style writes them
            value = wire.get(f.name)
            if not f.deep and value is not None:
                expected += [(f.wire, _text(v)) for v in
                             (value if isinstance(value, list) else [value])]
        found.problems += _differences("body", body, expected)
        found.parts.append(_BODY_ERROR)
    return found


def _fields(request: httpx.Request) -> list[tuple[str, str]] | None:
    """The fields of a urlencoded body, or the parts of a multipart one that are no file
    (stripe-python writes both from its encoder); None for another body."""
    kind = request.headers.get("content-type", "")
    if kind.startswith(FORM):
        return parse_qsl(request.content.decode(), keep_blank_values=True)
    if not kind.startswith("multipart/form-data"):
        return None
    message = BytesParser(policy=HTTP).parsebytes(
        f"Content-Type: {kind}\r\n\r\n".encode() + request.content)
    return [(str(part.get_param("name", header="content-disposition")), part.get_content())
            for part in message.iter_parts() if part.get_filename() is None]


def _stripe(values: dict[str, Any]) -> list[tuple[str, str]]:
    """stripe-python's encoding of `values`, as its requests urlencode it (`str` of each)."""
    from stripe._encode import _api_encode

    return [(key, str(value)) for key, value in _api_encode(values)]


def _text(value: Any) -> str:
    """A scalar as OpenAPI's `form` style writes it (JSON's `true`, not Python's `True`)."""
    return str(value).lower() if isinstance(value, bool) else str(value)


def _differences(part: str, sent: list[tuple[str, str]],
                 expected: list[tuple[str, str]]) -> list[str]:
    extra = Counter(sent) - Counter(expected)
    missing = Counter(expected) - Counter(sent)
    if not extra and not missing:
        return []
    return [f"the {part} in bracket notation differs from stripe-python's encoding: "
            f"sent but not encoded [{_shown(extra)}], encoded but not sent [{_shown(missing)}]"]


def _shown(pairs: Counter[tuple[str, str]]) -> str:
    return ", ".join(f"{k}={v}" for k, v in sorted(pairs.elements()))[:400]


EMPTY = ("an empty list or object has no spelling in bracket notation (nor in OpenAPI's "
         "deepObject): not sent, as stripe-python's encoder sends none")


def unsendable(op: Any, wire: dict[str, Any], received: dict[str, Any] | None) -> list[str]:
    """The deepObject arguments that reached the service whole but for their empty lists and
    objects (`tax_rates: []`), which bracket notation cannot write."""
    from judge_calls import lost_value
    from pydantic_core import to_jsonable_python

    body = (received or {}).get("body")
    deep = {p.name: (received or {}).get(p.name) for p in op.query_params
            if p.style == "deepObject"}
    deep |= {f.name: getattr(body, f.name, None) for f in
             (op.body.form_fields if op.body is not None else ()) if f.deep}
    found = []
    for name, got in deep.items():
        given = _pruned(wire.get(name))
        if given != wire.get(name) and lost_value(given, _pruned(to_jsonable_python(
                got, by_alias=True, fallback=repr)), name) is None:
            found.append(name)
    return found


def _pruned(value: Any) -> Any:
    """`value` without its empty lists and objects (and None), as bracket notation writes it."""
    if isinstance(value, dict):
        kept = {k: p for k, v in value.items() if (p := _pruned(v)) is not None}
        return kept or None
    if isinstance(value, list):
        return [p for v in value if (p := _pruned(v)) is not None] or None
    return value
