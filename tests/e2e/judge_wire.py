"""What went on the wire, as openapi-core reads it (the judge's independent validator).

`Recorder` is an httpx transport around the generated server's ASGI app that keeps the last
request and response of each call; `wire_errors` hands both to openapi-core's validators.
openapi-core has no httpx adapter: `_Request` and `_Response` are its protocols over httpx's
objects (openapi_core/protocols.py).
"""

from __future__ import annotations

import json
import re
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl, unquote, urlsplit

import httpx
from contractgen.model.schema_facts import walk
from openapi_core import OpenAPI
from openapi_core.datatypes import RequestParameters
from werkzeug.datastructures import Headers, ImmutableMultiDict

HOST = "http://judge.test"


@dataclass
class Exchange:
    """One request the client sent and the response the server answered."""

    request: httpx.Request
    response: httpx.Response


@dataclass
class Recorder(httpx.AsyncBaseTransport):
    """An httpx transport to an ASGI app, keeping every exchange (bodies read whole)."""

    app: Any
    exchanges: list[Exchange] = field(default_factory=list)
    # the judge's own test: a response changed on its way to the client
    tamper: Callable[[httpx.Response], httpx.Response] | None = None

    def __post_init__(self) -> None:
        self._inner = httpx.ASGITransport(app=self.app)

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        await request.aread()
        response = await self._inner.handle_async_request(request)
        body = await response.aread()
        kept = httpx.Response(response.status_code, headers=response.headers, content=body,
                              request=request)
        if self.tamper is not None:
            kept = self.tamper(kept)
        self.exchanges.append(Exchange(request, kept))
        return httpx.Response(kept.status_code, headers=kept.headers, content=kept.content,
                              request=request)


class _Request:
    """openapi-core's `Request` protocol over an httpx request."""

    def __init__(self, request: httpx.Request, *, port: bool = False) -> None:
        self._request = request
        url = urlsplit(str(request.url))
        self.host_url = f"{url.scheme}://{url.netloc}"
        if port and url.port is None:  # the scheme's default port spelled (`https://a:443`)
            self.host_url += {"https": ":443", "http": ":80"}.get(url.scheme, "")
        self.path = _decoded(url.path)
        self.method = request.method.lower()
        self.body: bytes | None = request.content or None
        self.content_type = _content_type(request.headers)
        cookies = {}
        for part in request.headers.get("cookie", "").split(";"):
            name, _, value = part.strip().partition("=")
            if name:
                cookies[name] = value
        self.parameters = RequestParameters(
            query=ImmutableMultiDict(parse_qsl(url.query, keep_blank_values=True)),
            header=Headers(list(request.headers.multi_items())),
            cookie=ImmutableMultiDict(cookies),
        )


def _decoded(path: str) -> str:
    """The request's path, its escapes decoded but `%2F` (a `/` inside a parameter's value).

    openapi-core matches and validates path parameters as the URL spells them, undecoded:
    `2001%3Adb8%3A%3A1` is no `ipv6` to it (no upstream issue found; RFC 3986 2.1: the value is
    the decoded one). `%2F` stays, or the path would gain a segment and match nothing.
    """
    return "%2F".join(unquote(part) for part in re.split("%2[fF]", path))


class _Response:
    """openapi-core's `Response` protocol over an httpx response."""

    def __init__(self, response: httpx.Response) -> None:
        self.status_code = response.status_code
        self.content_type = _content_type(response.headers)
        self.headers = Headers(list(response.headers.multi_items()))
        self.data: bytes | None = response.content


class Judge(OpenAPI):
    """openapi-core's OpenAPI, knowing the names of the properties the contract marks
    readOnly anywhere (to excuse its python-openapi/openapi-schema-validator#16 precisely)."""

    read_only: frozenset[str] = frozenset()


def _read_only_names(doc: dict[str, Any]) -> set[str]:
    """The names of the properties a schema of `doc` flags readOnly where it declares them."""
    return {name for node in walk(doc) if isinstance(props := node.get("properties"), dict)
            for name, prop in props.items() if isinstance(prop, dict) and prop.get("readOnly") is True}


def judge_of(doc: dict[str, Any]) -> Judge:
    """openapi-core's view of the contract (not checked again: generation validated it).

    openapi-core reads only `application/json` and `application/vnd.api+json` as JSON; any
    other `+json` type (`application/problem+json`) stays bytes and fails every object schema
    (python-openapi/openapi-core#224: "Media type 'application/vnd.api+json' is not
    supported", closed by letting callers add deserializers): the contract's own `+json` types
    are added as JSON, as RFC 6839 says they are.
    """
    from openapi_core import Config

    suffixed = {m for m in _media_types(doc) if is_json(m) and "+" in m}
    judge = Judge.from_dict(doc, config=Config(
        spec_validator_cls=None,
        extra_media_type_deserializers=dict.fromkeys(suffixed, _json_loads)))
    judge.read_only = frozenset(_read_only_names(doc))
    return judge


def is_json(media: str) -> bool:
    """A JSON media type by its name: `application/json` or a `+json` one (RFC 6839)."""
    base = media.split(";", maxsplit=1)[0].strip().lower()
    return base == "application/json" or base.endswith("+json")


def _json_loads(value: bytes | str, **_: Any) -> Any:
    return json.loads(value)


def _media_types(node: Any) -> set[str]:
    """Every media type a `content` of the document names."""
    found: set[str] = set()
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "content" and isinstance(value, dict):
                found |= {str(m) for m in value}
            found |= _media_types(value)
    elif isinstance(node, list):
        for item in node:
            found |= _media_types(item)
    return found


def _content_type(headers: httpx.Headers) -> str:
    """The Content-Type as openapi-core is given it.

    openapi-core matches a declared media type with parameters only when the header is that
    exact text, so `text/plain; version=0.0.4; charset=utf-8` does not match a declared
    `text/plain; version=0.0.4` (python-openapi/openapi-core#304; OAI/OpenAPI-Specification#2342:
    a declared type with parameters should match a header carrying them and more). `charset` is
    dropped when other parameters are there, so the declared ones decide.
    """
    value = headers.get("content-type", "").lower()
    parts = [p.strip() for p in value.split(";")]
    if len(parts) > 2:
        parts = [p for p in parts if not p.startswith("charset=")]
    return "; ".join(parts)


def wire_errors(judge: Judge, exchange: Exchange) -> list[tuple[str, str]]:
    """What openapi-core finds wrong with the request and with the response (empty: none):
    each as said (cut short) and as raised (whole, to be matched with OPENAPI_CORE_WRONG).

    httpx drops a URL's default port (`https://a:443/v2` is sent as `https://a/v2`, the same
    URL by RFC 3986 6.2.3), and openapi-core matches a server `https://{h}:{port}/v2` only with
    the port written: a request no server matches is matched again with the port spelled.
    """
    found = _errors(judge, exchange, _Request(exchange.request))
    if any("ServerNotFound" in raw for _, raw in found) and exchange.request.url.port is None:
        spelled = _errors(judge, exchange, _Request(exchange.request, port=True))
        if not any("ServerNotFound" in raw for _, raw in spelled):
            return [*spelled, (_DEFAULT_PORT, _DEFAULT_PORT)]
    return found


_DEFAULT_PORT = "a server with the default port written matched only with the port spelled"
_EVENTS = "in a text/event-stream answer: "


def _errors(judge: Judge, exchange: Exchange, request: _Request) -> list[tuple[str, str]]:
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always")
        try:
            errors = list(judge.iter_request_errors(request))
            found = [(f"request: {_said(e)}", _raw(e, judge.read_only)) for e in errors]
            # the response too, unless the request found no operation (a request error may be
            # one the judge excuses)
            if not any(type(e).__name__.endswith("NotFound") for e in errors):
                # a stream's body errors say so (the events are judged by judge_calls)
                tag = _EVENTS if _content_type(exchange.response.headers).startswith(
                    "text/event-stream") else ""
                found += [(f"response {exchange.response.status_code}: {_said(e)}",
                           tag + _raw(e, judge.read_only))
                          for e in judge.iter_response_errors(request,
                                                              _Response(exchange.response))]
        except Exception as exc:  # openapi-core's own failure: said, never taken for agreement
            text = f"openapi-core failed: {type(exc).__name__}: {exc}"
            found = [(text[:400], text)]
    # openapi-core warns of what it leaves unchecked (a security scheme type it does not know)
    return found + [(f"openapi-core warned: {w.message}",) * 2 for w in said
                    if "openapi_core" in w.filename and issubclass(w.category, UserWarning)]


def _raw(error: BaseException, read_only: frozenset[str]) -> str:
    chain = []
    cause: BaseException | None = error
    while cause is not None:
        chain.append(f"{type(cause).__name__}: {cause}")
        schema_errors = getattr(cause, "schema_errors", None) or []
        for schema_error in schema_errors:
            chain.append(str(schema_error.message))
            if _member_read_only(schema_error):
                chain.append("Tried to write read-only property (a member of its anyOf/oneOf)")
        if schema_errors and all(_member_missing_only(e, read_only) for e in schema_errors):
            chain.append(_MISSING_IN_A_MEMBER)
        cause = cause.__cause__
    return " <- ".join(chain)


_MISSING_IN_A_MEMBER = ("each error: a member of its anyOf/oneOf misses only required properties "
                        "the contract marks readOnly")
_REQUIRED = re.compile(r"^'(.*)' is a required property$", re.S)


def _members(error: Any) -> dict[Any, list[str]]:
    """The errors of each member of the `anyOf`/`oneOf` an error of no member matching is about."""
    members: dict[Any, list[str]] = {}
    for sub in getattr(error, "context", None) or []:
        path = list(sub.relative_schema_path)
        members.setdefault(path[0] if path else None, []).append(str(sub.message))
    return members


def _member_read_only(error: Any) -> bool:
    """Whether a member of the `anyOf`/`oneOf` an error of no member matching is about fails
    for its `readOnly` alone (DigitalOcean's `ssh_key_identifier`: `anyOf` of two read-only
    schemas): openapi-core's mistake of `readOnly` on a parameter's own schema, one level down."""
    return any(all(m.startswith("Tried to write read-only property") for m in found)
               for found in _members(error).values())


def _member_missing_only(error: Any, read_only: frozenset[str]) -> bool:
    """Whether a member of the `anyOf`/`oneOf` no member of which matched fails for missing
    required properties alone, each a name the contract marks readOnly (PagerDuty's contact
    methods: each member requires `type`, which another `allOf` member marks readOnly;
    openapi-schema-validator#16 below)."""
    def excused(message: str) -> bool:
        missing = _REQUIRED.match(message)
        return missing is not None and missing.group(1) in read_only
    return any(found and all(excused(m) for m in found) for found in _members(error).values())


# Where openapi-core itself is wrong: (what its error says, why, its upstream issue). Such an
# error is not taken as a disagreement; the verdict's detail still names it.
OPENAPI_CORE_WRONG = (
    (re.compile(r"Value b'.*not valid for schema of type string", re.S),
     "the bytes of a body other than JSON (a file, CSV) against `type: string`",
     "python-openapi/openapi-core#854"),
    # OpenAPI: a header parameter named Accept, Content-Type or Authorization "SHALL be ignored"
    (re.compile(r"Invalid header parameter: (Accept|Content-Type|Authorization)\b", re.I),
     "a declared Accept, Content-Type or Authorization header, which OpenAPI ignores",
     "none found upstream"),
    ("b'judge' is not of type 'string'", "bytes of a `format: binary` string",
     "python-openapi/openapi-core#854"),
    ("Expected a string value, got <class 'list'>",
     "a 3.1 `type: [string, 'null']` parameter", "none found upstream"),
    ("KeyError: 'responses'", "a 3.1 operation without `responses`", "none found upstream"),
    # `/{v}/volumes/types` and `/{v}/volumes/{volumeId}` are both templated; OpenAPI leaves
    # their order to the tool (OAI/OpenAPI-Specification#2356), openapi-core takes the second
    # (its concrete-first rule, python-openapi/openapi-core#265, needs a wholly concrete path)
    # where the generated server takes the more concrete segment by segment
    (re.compile(r"Path parameter error: .* <- CastError"), "which of two templated paths a URL matches",
     "OAI/OpenAPI-Specification#2356"),
    # openapi-schema-validator reads `readOnly` on the property in the same schema object as
    # the `required` list only (as its python-openapi/openapi-schema-validator#16 says), not in
    # a sibling `allOf` member nor through a `$ref`: PagerDuty's `Reference`, `{allOf: [{$ref:
    # ...Tag/allOf/0} (id, type readOnly), {required: [type, id]}]}`. Only a request body whose
    # every error is a missing property: the judge's values carry every required property but
    # the readOnly ones, and one the client was given and lost fails the round trip instead
    (re.compile(r"^InvalidRequestBody: [^\n]*? not valid for schema of type \w+: \((?:<Validation"
                r"Error: \"'[^'\"]*' is a required property\">,? ?)+\) <- "),
     "`readOnly` beside `required` in another `allOf` member or through a `$ref` (the required "
     "takes effect on the response only)", "python-openapi/openapi-schema-validator#16"),
    # the same in the members of a `oneOf`/`anyOf` (PagerDuty's contact methods): its error
    # says no member matched; each error of the body has a member missing required properties
    # alone (the round trip still catches a property the client was given and lost)
    (re.compile(r"^InvalidRequestBody: .* <- " + re.escape(_MISSING_IN_A_MEMBER) + "$", re.S),
     "`readOnly` beside `required` in another `allOf` member, inside a member of a `oneOf`/"
     "`anyOf` (the required takes effect on the response only)",
     "python-openapi/openapi-schema-validator#16"),
    ("Tried to write read-only property", "`readOnly` on a parameter's own schema (OpenAPI: "
     "relevant only for properties)", "none found upstream"),
    # not wrong, but silent: openapi-core checks no credential of these (mutualTLS, http
    # digest...); the security tests of templates/ check them
    ("openapi-core warned: Unsupported scheme type", "security schemes it does not check",
     "its security providers know apiKey, http basic/bearer only"),
    ("parameter is deprecated", "a deprecated parameter sent (it warns; not an error)",
     "as designed"),
    (_DEFAULT_PORT, "a URL without the default port its server writes (`:443`), the same URL "
     "by RFC 3986 6.2.3", "none found upstream"),
    # it reads the whole stream as one value of the event's schema; each event's data is
    # judged with jsonschema instead (judge_calls.event_errors). OpenAPI 3.0/3.1 do not say
    # how a schema applies to a stream; 3.2's `itemSchema` does (each event)
    (re.compile("^" + re.escape(_EVENTS) + r"InvalidData\b"),
     "a `text/event-stream` body (it validates the whole stream as one value; each event is "
     "judged with jsonschema instead)", "none found upstream; OpenAPI 3.2's `itemSchema`"),
)


def wrong_judge(found: list[tuple[str, str]]) -> tuple[list[str], list[str]]:
    """`found` (said, raised) split into the real problems (said) and openapi-core's own known
    mistakes."""
    real, excused = [], []
    for problem, raw in found:
        known = next((k for k in OPENAPI_CORE_WRONG if (
            k[0].search(raw) if isinstance(k[0], re.Pattern) else k[0] in raw)), None)
        if known is None:
            real.append(problem)
        else:
            excused.append(f"openapi-core does not judge {known[1]} ({known[2]})")
    return real, sorted(set(excused))


def _said(error: Exception) -> str:
    """An openapi-core error: the schema errors it wraps first, then its chain, cut short."""
    chain, details = [], []
    cause: BaseException | None = error
    while cause is not None:
        chain.append(f"{type(cause).__name__}: {str(cause)[:160]}")
        details += [f"{'/'.join(map(str, d.absolute_path)) or '<root>'}: {str(d.message)[:160]}"
                    for d in list(getattr(cause, "schema_errors", None) or [])[:3]]
        cause = cause.__cause__
    said = f"[{'; '.join(details)}] " if details else ""
    return (said + " <- ".join(chain))[:900]
