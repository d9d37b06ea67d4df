"""Stateless answers: which declared response, and its body: an example of the contract, else
one made from the schema, always checked against the declared schema before it goes out.

Where an answer comes from follows Prism: without `Prefer`, the first example of the lowest
declared 2xx; `Prefer: code=404`, `example=NAME` and `dynamic=true` (or the query's `__code`,
`__example`, `__dynamic`) choose. A made-up value is drawn from an rng seeded by `--seed` and
the request alone.
"""

from __future__ import annotations

import functools
import json
import logging
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from http import HTTPStatus
from typing import Any
from urllib.parse import parse_qs

from ..model.schema_facts import deref
from ..spec.tree import escape, resolve_pointer
from .contract import Judge, Op
from .fake import Faker

logger = logging.getLogger("contractgen.mock")
_TRIES = 25
PROBLEM = "application/problem+json"


@dataclass
class Call:
    """One request as the mock reads it."""

    op: Op
    method: str
    path: str  # below the base path
    params: dict[str, str]  # path parameters by wire name
    query: dict[str, list[str]]
    headers: Mapping[str, str]  # lower-case names
    body: Any  # JSON or form data as parsed; None without one
    raw: bytes = b""

    @property
    def key(self) -> str:
        """What a made-up answer depends on besides the seed."""
        query = sorted((k, v) for k, vs in self.query.items() for v in vs
                       if not k.startswith("__"))
        return f"{self.method} {self.path} {query} {self.raw!r}"

    def first(self, name: str) -> str | None:
        values = self.query.get(name)
        return values[0] if values else None


@dataclass
class Answer:
    status: int
    media: str | None
    body: Any
    headers: dict[str, str] = field(default_factory=dict)

    def encoded(self) -> bytes:
        if self.body is None or self.media is None:
            return b""
        if isinstance(self.body, bytes):
            return self.body
        if "json" in self.media:
            return json.dumps(self.body, separators=(",", ":")).encode()
        return str(self.body).encode()


@dataclass(frozen=True)
class Prefer:
    """What a client asked for with Prism's `Prefer` header (or `__code` and so on)."""

    code: int | None = None
    example: str | None = None
    dynamic: bool = False

    @classmethod
    def of(cls, headers: Mapping[str, str], query: Mapping[str, list[str]]) -> Prefer:
        asked: dict[str, str] = {}
        for part in headers.get("prefer", "").replace(";", ",").split(","):
            name, _, value = part.strip().partition("=")
            if value:
                asked[name.strip().lower()] = value.strip().strip('"')
        for name in ("code", "example", "dynamic"):
            if query.get(f"__{name}"):
                asked[name] = query[f"__{name}"][0]
        code = asked.get("code", "")
        return cls(int(code) if code.isdigit() else None, asked.get("example"),
                   asked.get("dynamic", "").lower() == "true")

    @property
    def any(self) -> bool:
        return self.code is not None or self.example is not None or self.dynamic


def problem(status: int, title: str, detail: str) -> Answer:
    """An answer of the mock itself (a `Prefer` the contract cannot satisfy, a scenario out of
    order): RFC 9457 problem details, named so that nobody takes it for the contract's."""
    return Answer(status, PROBLEM, {"type": "urn:contractgen:mock", "title": title,
                                    "detail": detail}, {"X-Mock-Error": title})


class Responder:
    """Builds the declared answers of one contract."""

    def __init__(self, spec: Mapping[str, Any], seed: int,
                 error_body: Callable[..., Any] | None = None) -> None:
        self.spec = spec
        self.error_body = error_body  # the generated service's: its declared error shapes
        self.seed = seed
        self.faker = Faker(spec)

    @functools.cached_property
    def judge(self) -> Judge:
        """Built at the first answer: jsonschema's import is a third of a cold start."""
        return Judge(self.spec)

    def declared_key(self, op: Op, status: int) -> str | None:
        """The `responses` key that declares `status`: exact, its range, then `default`."""
        for key in (str(status), f"{str(status)[0]}XX", f"{str(status)[0]}xx", "default"):
            if key in op.responses:
                return key
        return None

    def success(self, op: Op) -> int:
        """The lowest declared 2xx; without one the lowest 3xx, the success of an operation that
        only redirects, as the generated server answers it (GitHub's 302 to an archive); else
        200 (`2XX` or `default` alone)."""
        codes = sorted(int(k) for k in op.responses if str(k).isdigit() and str(k)[0] in "23")
        return codes[0] if codes else 200

    def response_at(self, op: Op, key: str) -> tuple[Mapping[str, Any], str]:
        """The response object declared at `key`, and its pointer (through a `$ref`)."""
        raw = op.responses[key]
        if isinstance(raw, dict) and isinstance(raw.get("$ref"), str):
            return deref(self.spec, raw), raw["$ref"][1:]
        return deref(self.spec, raw), f"{op.pointer}/responses/{escape(key)}"

    def media(self, content: Mapping[str, Any], accept: str) -> str | None:
        if not content:
            return None
        for media in content:
            if media in accept and "*" not in media:
                return str(media)
        json_like = [m for m in content if "json" in m]
        return str(json_like[0] if json_like else next(iter(content)))

    def answer(self, call: Call, status: int, prefer: Prefer = Prefer(), *,
               value: Any = None, salt: str = "", message: str | None = None) -> Answer:
        """The declared answer of `status`: `value` when given and valid, else (with `message`,
        an error) the body the generated server builds for it, else an example, else made up;
        a problem when `status` (or the example asked for) is not declared."""
        key = self.declared_key(call.op, status)
        if key is None:
            return problem(404, "NO_RESPONSE_DEFINED",
                           f"{call.op.id} declares no response {status}")
        response, pointer = self.response_at(call.op, key)
        content = response.get("content") or {}
        media = self.media(content, call.headers.get("accept", ""))
        headers = self.headers(response, call, salt)
        if media is None:
            return Answer(status, None, None, headers)
        sent = concrete(media, call.headers.get("accept", ""))
        schema_pointer = f"{pointer}/content/{escape(media)}/schema"
        typed = deref(self.spec, content[media])
        has_schema = "schema" in typed
        built = self._error_body(call, status, message)
        if built is not None and (not has_schema or self.judge.valid(schema_pointer, built)):
            return Answer(status, sent, built, headers)  # else the contract's example
        if value is not None:
            if not has_schema or self.judge.valid(schema_pointer, value):
                return Answer(status, sent, value, headers)
            problems = self.judge.problems(schema_pointer, value)
            # never silently: the stored item does not fit this answer's schema
            warning = f"{call.op.id} {status}: the stored value does not fit the schema " \
                      f"({problems[0]}); answered from the contract instead"
            logger.warning("contractgen mock: %s", warning)
            headers["X-Mock-Warning"] = warning[:300]
        if not prefer.dynamic:
            found = self.example(typed, prefer.example, schema_pointer if has_schema else None)
            if found is None and prefer.example is not None:
                return problem(404, "NOT_FOUND",
                               f"{call.op.id} {status} {media} has no example {prefer.example!r}")
            if found is not None:
                return Answer(status, sent, found[0], headers)
        made = self.made_up(typed.get("schema"), schema_pointer if has_schema else None,
                            f"{call.key}|{status}|{salt}")
        return Answer(status, sent, made, headers)

    def _error_body(self, call: Call, status: int, message: str | None) -> Any:
        """The body the generated server builds for an error of `status`, with `message`."""
        if message is None or self.error_body is None:
            return None
        known = status in HTTPStatus._value2member_map_
        code = HTTPStatus(status).phrase.upper().replace(" ", "_") if known else "ERROR"
        return self.error_body(call.op.id, status, code, message, None)

    def example(self, typed: Mapping[str, Any], name: str | None,
                pointer: str | None) -> tuple[Any] | None:
        """The named (else the first) example of a media type, when it is valid: a 1-tuple."""
        candidates: list[Any] = []
        examples = typed.get("examples")
        if isinstance(examples, Mapping):
            chosen = [examples[name]] if name in examples else [] if name else list(
                examples.values())
            candidates += [deref(self.spec, e)["value"] for e in chosen
                           if "value" in deref(self.spec, e)]
        if name is None and "example" in typed:
            candidates.append(typed["example"])
        schema = self.faker.merged(typed.get("schema") or {})
        if name is None and "example" in schema:
            candidates.append(schema["example"])
        for candidate in candidates:
            if pointer is None or self.judge.valid(pointer, candidate):
                return (candidate,)
        return None

    def made_up(self, schema: Any, pointer: str | None, key: str,
                fix: Any = None, *, pointer_schema: bool = False) -> Any:
        """A value of `schema` (`pointer_schema`: the one at `pointer`) drawn from `--seed` and
        `key`, valid at `pointer` (tried `_TRIES` times); `fix(value)` adjusts each draw before
        it is judged."""
        if pointer_schema and pointer is not None:
            schema = resolve_pointer(self.spec, pointer)
        made: Any = None
        for attempt in range(_TRIES):
            rng = random.Random(f"{self.seed}|{key}|{attempt}")
            made = self.faker.value(schema or {}, rng)
            if fix is not None:
                made = fix(made)
            if pointer is None or self.judge.valid(pointer, made):
                return made
        return made

    def schema_pointer(self, op: Op, status: int) -> str | None:
        """The pointer of the JSON schema declared for `status`, if there is one."""
        key = self.declared_key(op, status)
        if key is None:
            return None
        response, pointer = self.response_at(op, key)
        content = response.get("content") or {}
        media = next((m for m in content if "json" in m), None)
        if media is None or "schema" not in deref(self.spec, content[media]):
            return None
        return f"{pointer}/content/{escape(media)}/schema"

    def properties(self, pointer: str) -> dict[str, Any]:
        """The properties of the object schema at `pointer` (through `$ref`s and `allOf`)."""
        found = self.faker.merged(resolve_pointer(self.spec, pointer)).get("properties")
        return dict(found) if isinstance(found, Mapping) else {}

    def headers(self, response: Mapping[str, Any], call: Call, salt: str) -> dict[str, str]:
        """Values of the response's required headers (and of optional ones with examples)."""
        out: dict[str, str] = {}
        for name, raw in sorted((response.get("headers") or {}).items()):
            header = deref(self.spec, raw)
            if name.lower() == "content-type":
                continue
            schema = self.faker.merged(header.get("schema") or {})
            if "example" in header or "example" in schema:
                value = header.get("example", schema.get("example"))
            elif header.get("required"):
                rng = random.Random(f"{self.seed}|{call.key}|{name}|{salt}")
                value = self.faker.value(schema, rng)
            else:
                continue
            out[name] = ("true" if value else "false") if isinstance(value, bool) else str(value)
        return out


def concrete(media: str, accept: str) -> str:
    """The media type an answer declared as `media` is sent as: a range (`*/*`, `text/*`) made
    concrete by the request's `Accept`, else `application/octet-stream` (`text/plain`)."""
    if "*" not in media:
        return media
    kind = media.split("/", maxsplit=1)[0]
    for asked in (part.split(";")[0].strip() for part in accept.split(",")):
        if "*" not in asked and "/" in asked and kind in ("*", asked.split("/")[0]):
            return asked
    return "text/plain" if kind == "text" else "application/octet-stream"


def parse_body(raw: bytes, media: str) -> Any:
    """A request body as data: JSON, or a form's fields; None for anything else."""
    if not raw:
        return None
    if "json" in media:
        try:
            return json.loads(raw)
        except ValueError:
            return None
    if media == "application/x-www-form-urlencoded":
        return {k: v[0] if len(v) == 1 else v
                for k, v in parse_qs(raw.decode("latin-1"), keep_blank_values=True).items()}
    return None


def overlaid(made: Any, given: Any) -> Any:
    """`given` over `made`, objects merged member by member (what a client sent over what the
    mock made up, so a partial nested object keeps the made-up members its schema requires)."""
    if not (isinstance(made, dict) and isinstance(given, dict)):
        return given
    return {**made, **{k: overlaid(made.get(k), v) for k, v in given.items()}}
