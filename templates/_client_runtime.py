"""Runtime of the generated client: requests, credentials, answers and errors.

Copied verbatim into every client (already black-formatted). Import from `client` instead:
the names here are private, except `Answer`, which `client` exports.
"""

import base64
import dataclasses
import datetime
import enum
import functools
import inspect
import typing
from collections.abc import Callable, Mapping
from typing import Any, Generic, NamedTuple, TypeVar
from urllib.parse import quote, urlsplit

import httpx
from pydantic import BaseModel, TypeAdapter, ValidationError

from . import errors
from ._enums import responses
from ._json_types import JsonTyped

BodyT = TypeVar("BodyT")
_K = TypeVar("_K")
_E = TypeVar("_E", bound=errors.ApiError)
HeadersT = TypeVar("HeadersT")

# Each scheme: (kind, where an API key goes, its header/query/cookie name).
Scheme = tuple[str, str | None, str | None]


@dataclasses.dataclass(frozen=True)
class Answer(Generic[BodyT, HeadersT]):
    """A response: status, the declared headers (typed; None where the operation declares
    none), the body as the plain method returns it, and every header as received."""

    status: int
    headers: HeadersT
    body: BodyT
    raw_headers: httpx.Headers


class _Request(NamedTuple):
    method: str
    url: str
    params: dict[str, Any] | None = None
    headers: dict[str, str] | None = None
    content: bytes | None = None
    data: dict[str, Any] | None = None
    files: list[tuple[str, Any]] | None = None
    security: tuple[tuple[str, ...], ...] = ()
    operation: str = ""  # its operationId, for errors
    idempotency: str | None = None  # the idempotency-key header it declares
    retryable: tuple[int, ...] = ()  # statuses that say the service did nothing


@functools.cache
def _adapter(kind: Any) -> TypeAdapter[Any]:
    return TypeAdapter(kind)


def _dump(body: Any) -> bytes:
    if isinstance(body, BaseModel):
        return body.model_dump_json(by_alias=True).encode()
    return _adapter(Any).dump_json(body, by_alias=True)


def _text(value: Any) -> str:
    if isinstance(value, enum.Enum):
        value = value.value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, datetime.date | datetime.time | datetime.datetime):
        return value.isoformat()
    return str(value)


def _query(value: Any) -> Any:
    if isinstance(value, list | tuple):
        return [_text(item) for item in value]
    return _text(value)


def _simple(value: Any, exploded: bool = False, safe: str | None = None) -> str:
    """A path, header or cookie value as `simple` style writes it: a list `a,b`, an object
    `k,v,k2,v2` (`exploded`: `k=v,k2=v2`), each text percent-encoded but for `safe` (None:
    as it is, a header's)."""
    if isinstance(value, BaseModel):
        value = value.model_dump(mode="json", by_alias=True, exclude_unset=True)

    def text(item: Any) -> str:
        return _text(item) if safe is None else quote(_text(item), safe=safe)

    if isinstance(value, dict):
        sep = "=" if exploded else ","
        return ",".join(f"{text(k)}{sep}{text(v)}" for k, v in value.items())
    if isinstance(value, list | tuple):
        return ",".join(text(item) for item in value)
    return text(value)


def _cookie(name: str, value: Any) -> str:
    """A cookie in `form` style, not exploded (`ids=1,2`), the only one a cookie can carry."""
    return f"{name}={_simple(value, safe='/')}"


def _styled(
    name: str, value: Any, style: str, shape: str, exploded: bool = False
) -> dict[str, Any]:
    """Query parameters for a value in a style httpx does not write itself."""
    if style == "json":
        return {name: _dump(value).decode()}
    if isinstance(value, BaseModel):
        value = value.model_dump(mode="json", by_alias=True, exclude_unset=True)
    if style == "deepObject":
        return _deep(name, value)
    if exploded:
        return {key: _query(item) for key, item in value.items() if item is not None}
    separator = {"spaceDelimited": " ", "pipeDelimited": "|"}.get(style, ",")
    items = [x for pair in value.items() for x in pair] if shape == "object" else value
    return {name: separator.join(_text(item) for item in items)}


def _deep(name: str, value: Any) -> dict[str, str]:
    """`value` in deepObject style, nested as Stripe (and PHP's `http_build_query`) write it:
    `name[key]=v`, `name[key][0][field]=v`, a list's items by index (`name[0]=v`), a value
    that is neither a map nor a list as `name=v`; None is left out."""
    if isinstance(value, BaseModel):
        value = value.model_dump(mode="json", by_alias=True, exclude_unset=True)
    items: Any
    if isinstance(value, Mapping):
        items = value.items()
    elif isinstance(value, list | tuple):
        items = enumerate(value)
    else:
        return {name: _text(value)}
    out: dict[str, str] = {}
    for key, item in items:
        if item is not None:
            out.update(_deep(f"{name}[{key}]", item))
    return out


def _queries(
    values: dict[str, Any], styles: Mapping[str, tuple[str, str, bool]] | None = None
) -> dict[str, Any]:
    """Query parameters (or form fields) by wire name: each value set, as text; those in
    `styles` (style, shape, exploded) in a style httpx does not write itself."""
    out: dict[str, Any] = {}
    for name, value in values.items():
        if value is None:
            continue
        if styles and name in styles:
            out.update(_styled(name, value, *styles[name]))
        else:
            out[name] = _query(value)
    return out


def _parts(
    fields: dict[str, Any], files: list[tuple[str, Any]]
) -> list[tuple[str, Any]]:
    """A multipart body's parts: each field's text its own part (a list's items one part
    each), then `files`. Given as parts, never as `data`: httpx sends a body of fields alone
    as `application/x-www-form-urlencoded`, which a multipart body is not."""
    parts: list[tuple[str, Any]] = []
    for name, value in fields.items():
        for text in value if isinstance(value, list) else [value]:
            parts.append((name, (None, text)))
    return parts + files


def _texts(
    values: dict[str, Any], exploded: frozenset[str] = frozenset()
) -> dict[str, str]:
    """Headers by wire name: each value set, as `simple` style writes it (`exploded`: the
    names of exploded objects)."""
    return {
        name: _simple(value, name in exploded)
        for name, value in values.items()
        if value is not None
    }


def _own_servers(
    base_url: str,
    chosen: Mapping[str, str] | None,
    main: tuple[str, ...],
    own: tuple[str, ...],
) -> dict[str, str]:
    """Where the calls of operations that declare a server of their own go, by its URL:
    where `chosen` says; to that server when `base_url` is one of the contract's; else (a
    deployment of the whole API: a local or staging one) to `base_url`'s origin, under the
    server's path, where the generated server routes them."""
    unknown = sorted(set(chosen or {}) - set(own))
    if unknown:
        raise ValueError(
            f"unknown servers {unknown}; operations declare: {sorted(own)}"
        )
    at_home = base_url.rstrip("/") in {url.rstrip("/") for url in main}
    scheme, host, *_ = urlsplit(base_url)
    return {
        url: (chosen or {}).get(
            url, url if at_home else f"{scheme}://{host}{urlsplit(url).path}"
        )
        for url in own
    }


def _rebased(url: httpx.URL, servers: Mapping[str, str]) -> httpx.URL:
    text = str(url)
    for declared, actual in servers.items():
        if text == declared or text.startswith(declared + "/"):
            return httpx.URL(actual.rstrip("/") + text[len(declared) :])
    return url


def _server_hooks(servers: Mapping[str, str]) -> dict[str, list[Any]]:
    """httpx's event hooks sending each call to its operation's server (`_own_servers`)."""

    def hook(request: httpx.Request) -> None:
        request.url = _rebased(request.url, servers)

    return {"request": [hook]}


def _aserver_hooks(servers: Mapping[str, str]) -> dict[str, list[Any]]:
    """`_server_hooks`, for an async client."""

    async def hook(request: httpx.Request) -> None:
        request.url = _rebased(request.url, servers)

    return {"request": [hook]}


def _authorize(request: _Request, auth: Mapping[str, tuple[Scheme, Any]]) -> _Request:
    """`request` with the credentials of the first of its requirements `auth` can satisfy."""
    chosen = next(
        (alt for alt in request.security if alt and all(n in auth for n in alt)), ()
    )
    if not chosen:
        return request
    headers = dict(request.headers or {})
    params = dict(request.params or {})
    cookies = [headers.pop("Cookie")] if "Cookie" in headers else []
    for name in chosen:
        (kind, location, parameter), secret = auth[name]
        if kind == "basic":
            pair = f"{secret[0]}:{secret[1]}".encode()
            headers["Authorization"] = "Basic " + base64.b64encode(pair).decode()
        elif kind == "api_key" and location == "query":
            params[str(parameter)] = secret
        elif kind == "api_key" and location == "cookie":
            cookies.append(f"{parameter}={secret}")
        elif kind == "api_key":
            headers[str(parameter)] = secret
        else:
            headers["Authorization"] = secret if kind == "other" else f"Bearer {secret}"
    if cookies:
        headers["Cookie"] = "; ".join(cookies)
    return request._replace(headers=headers, params=params or None)


def _credentials(
    auth: Mapping[str, Any] | None, token: str | None, schemes: Mapping[str, Scheme]
) -> dict[str, tuple[Scheme, Any]]:
    """Each scheme's credential in `auth`, with `token` for every bearer, OAuth2 and OpenID
    Connect scheme it leaves out."""
    chosen: dict[str, Any] = dict(auth or {})
    if token is not None:
        for name, (kind, _, _) in schemes.items():
            if kind in ("bearer", "oauth2", "openid"):
                chosen.setdefault(name, token)
    return {name: (schemes[name], secret) for name, secret in chosen.items()}


def _headers(cls: type[HeadersT], response: httpx.Response) -> HeadersT:
    """The declared headers of `response`; a required one missing is an unexpected answer."""
    hints = typing.get_type_hints(cls)
    values: dict[str, Any] = {}
    for item in dataclasses.fields(typing.cast(Any, cls)):
        raw = response.headers.get(item.metadata["wire"])
        if raw is not None:
            values[item.name] = _adapter(hints[item.name]).validate_python(raw)
    try:
        return cls(**values)
    except TypeError:
        raise errors.UnexpectedStatus(
            response.status_code, response.text, headers=response.headers
        ) from None


def _arguments(values: dict[str, Any]) -> dict[str, Any]:
    """A client method's arguments (its `locals()` on entry), for its operation's `_build_`."""
    return {name: value for name, value in values.items() if name != "self"}


def _path(value: Any, exploded: bool = False) -> str:
    return _simple(value, exploded, safe="")


@typing.overload
def _json(kind: type[_K], response: httpx.Response) -> _K: ...


@typing.overload
def _json(kind: Any, response: httpx.Response) -> Any: ...


def _json(kind: Any, response: httpx.Response) -> Any:
    """The response's JSON body validated as `kind` (a class: an instance of it); a body
    that does not match raises `errors.ResponseValidationError`, pydantic's error its cause.
    """
    try:
        return _validated(kind, response)
    except ValidationError as exc:
        error = errors.ResponseValidationError(
            _loose(response),
            headers=response.headers,
            status_code=response.status_code,
        )
        operation = _extension(response, "contractgen_operation", None)
        raise _noted(error, operation or None, response) from exc


def _validated(kind: Any, response: httpx.Response) -> Any:
    """The body read as `kind` with JSON Schema's types (`"25"` is no number), unknown fields
    and (open enums) unknown enum values kept."""
    if kind is Any and not response.content:
        return None
    content = response.content
    if response.headers.get("content-type", "").startswith("text/event-stream"):
        content = _event_data(content)  # an error declared as events: TGI's
    with responses(_extension(response, "contractgen_open_enums", True)):
        return _json_typed(kind).validate_json(content)


def _event_data(stream: bytes) -> bytes:
    """The data of the first event of a text/event-stream body."""
    lines: list[bytes] = []
    for line in stream.splitlines():
        if not line.strip() and lines:
            break
        if line.startswith(b"data:"):
            value = line[5:]
            lines.append(value[1:] if value.startswith(b" ") else value)
    return b"\n".join(lines)


@functools.cache
def _json_typed(kind: Any) -> TypeAdapter[Any]:
    return TypeAdapter(typing.Annotated[kind, JsonTyped()])


def _loose(response: httpx.Response) -> Any:
    """The body as JSON where it parses, else its text."""
    try:
        return response.json()
    except ValueError:
        return response.text


def _noted(error: _E, operation_id: str | None, response: httpx.Response) -> _E:
    """`error` with the operation, status, raw body, request id and attempts of `response`."""
    error.status_code = response.status_code
    error.operation = operation_id
    error.raw = response.content
    error.request_id = _request_id(response)
    error.attempts = _extension(response, "contractgen_attempt", 1)
    return error


def _error(operation_id: str, response: httpx.Response) -> errors.ApiError:
    """The exception for an error answer, with its operation, raw body and request id."""
    headers = dict(response.headers)
    status = response.status_code
    cls = errors.error_class(operation_id, status)
    error: errors.ApiError
    if cls is None:
        error = _unexpected(response)
    elif cls.body_type is not None and response.content:
        try:
            body = _validated(cls.body_type, response)
        except (ValidationError, ValueError):
            error = _unexpected(response)
        else:
            error = errors.with_status(cls, status)(body, headers=headers)
    else:
        body = response.content or None
        error = errors.with_status(cls, status)(body, headers=headers)
    return _noted(error, operation_id, response)


def _unexpected(response: httpx.Response) -> errors.UnexpectedStatus:
    cls = errors.with_status(errors.UnexpectedStatus, response.status_code)
    return cls(
        response.status_code,
        response.text,
        headers=response.headers,
        content=response.content,
    )


# Response headers that carry a request id, first found wins (a client's option).
REQUEST_ID_HEADERS = (
    "x-request-id",
    "request-id",
    "x-amzn-requestid",
    "x-correlation-id",
)


def _request_id(response: httpx.Response) -> str | None:
    names = _extension(response, "contractgen_request_id", REQUEST_ID_HEADERS)
    return next((response.headers[n] for n in names if n in response.headers), None)


def _extension(response: httpx.Response, key: str, default: Any) -> Any:
    """What the client's `_send` noted on the request of `response` (not set: `default`)."""
    try:
        return response.request.extensions.get(key, default)
    except RuntimeError:  # a response made without a request
        return default


_R = TypeVar("_R")

# The pages' iterators read a request builder's parameters once, not at every page.
_signature = functools.cache(inspect.signature)


def _answer(
    response: httpx.Response,
    parse: Callable[[httpx.Response], _R],
    headers: type[Any] | None,
) -> Answer[_R, Any]:
    """A `_detailed` method's answer: the status, the declared headers and the parsed body."""
    body = parse(response)
    declared = None if headers is None else _headers(headers, response)
    return Answer(response.status_code, declared, body, response.headers)
