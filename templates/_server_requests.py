"""What the generated server reads from requests that FastAPI does not read itself: form
bodies, a body declared as JSON and as a form, query parameters in other styles, parameters of
union and Literal types, and raw (binary or text) bodies.

Copied verbatim into every server (already black-formatted). Import from `server` instead.
"""

import dataclasses
import json
import re
import types
import typing
from collections.abc import Awaitable, Callable, Iterable, Mapping
from typing import Any, TypeVar, cast
from urllib.parse import unquote

from fastapi import Request
from fastapi.exceptions import RequestValidationError
from pydantic import TypeAdapter, ValidationError
from starlette.datastructures import UploadFile
from starlette.exceptions import HTTPException as StarletteHTTPException

from ._server_media import is_json

_ANY: TypeAdapter[Any] = TypeAdapter(Any)


FormT = TypeVar("FormT")


def form_body(
    cls: type[FormT],
    wire: Mapping[str, str] | None = None,
    *,
    json: tuple[str, ...] = (),
    deep: tuple[str, ...] = (),
    required: bool = True,
) -> Callable[[Request], Awaitable[FormT | None]]:
    """A dependency reading a form-urlencoded or multipart body into the form dataclass `cls`,
    validated like any other parameter: each field from its wire name (`wire` lists the fields
    whose Python name differs), every value of a list field, the fields in `json` from the
    JSON text of their part, those in `deep` from their deepObject keys (`deep_value`), and
    `a=` as the empty string it is (FastAPI's own form parameters read it as `a` missing). A
    body that is not required and sends no field is None."""
    names = {
        item.name: (wire or {}).get(item.name, item.name)
        for item in dataclasses.fields(cast(Any, cls))
    }
    known: list[tuple[TypeAdapter[FormT], frozenset[str], dict[str, Any]]] = []

    async def read(request: Request) -> FormT | None:
        if not known:  # on the first request, like the routes' own parameters
            hints = typing.get_type_hints(cls)
            lists = frozenset(name for name in names if _is_list(hints[name]))
            # the deep fields', and those whose text may spell a number (`spelled`), adapters
            typed = {
                n: TypeAdapter(hints[n])
                for n in names
                if n in deep or _spells(hints[n])
            }
            known.append((TypeAdapter(cls), lists, typed))
        adapter, lists, typed = known[0]
        form = await request.form()
        data: dict[str, Any] = {}
        for name, key in names.items():
            if name in json and key in form:
                data[name] = await _json_part(form[key], key)
            elif name in deep:
                value = deep_value(form.multi_items(), key, "body")
                if value is not None:
                    data[name] = _deep_field(typed[name], value, key)
            elif name in lists:
                if values := form.getlist(key):
                    data[name] = values
            elif key in form:
                text = form[key]
                if isinstance(text, str) and name in typed:
                    text = spelled(typed[name], text)
                data[name] = text
        if not data and not required:
            return None
        try:
            return adapter.validate_python(data)
        except ValidationError as exc:
            # Located by wire name, as FastAPI locates its own form parameters.
            raise RequestValidationError(
                [{**e, "loc": ("body", *_wire(e["loc"], names))} for e in exc.errors()]
            ) from None

    return read


_FORMS = ("multipart/form-data", "application/x-www-form-urlencoded")


def json_or_form(kind: Any, required: bool) -> Callable[[Request], Awaitable[Any]]:
    """A dependency reading a body declared as JSON and as a form with the same schema into
    its one model: JSON as JSON; a form's fields by their wire names (a file part as its
    bytes, a structured field from its JSON text, other values from their text)."""
    known: list[TypeAdapter[Any]] = []

    async def read(request: Request) -> Any:
        if not known:  # on the first request, like the routes' own parameters
            known.append(TypeAdapter(kind))
        adapter = known[0]
        media = request.headers.get("content-type", "").split(";", maxsplit=1)[0]
        media = media.strip().lower()
        try:
            if media in _FORMS:
                data = await _form_data(request, _list_fields(kind))
                if not data and not required:
                    return None
                return _from_form(adapter, data)
            if media and not is_json(media):
                raise StarletteHTTPException(
                    415,
                    f"Unsupported media type {media!r}: expected JSON or {_FORMS[0]}",
                )
            body = await request.body()
            if not body and not required:
                return None
            return adapter.validate_json(body)
        except ValidationError as exc:
            raise RequestValidationError(
                [{**e, "loc": ("body", *e["loc"])} for e in exc.errors()]
            ) from None

    return read


def _list_fields(kind: Any) -> frozenset[str]:
    """The names (wire and Python) of a model's list fields: a form repeats them."""
    fields = getattr(kind, "model_fields", {})
    return frozenset(
        name
        for key, field in fields.items()
        if _is_list(field.annotation)
        for name in (key, field.alias or key)
    )


async def _form_data(request: Request, lists: frozenset[str]) -> dict[str, Any]:
    form = await request.form()
    data: dict[str, Any] = {}
    for key in dict.fromkeys(form.keys()):
        values = [
            await v.read() if isinstance(v, UploadFile) else v
            for v in form.getlist(key)
        ]
        data[key] = values if key in lists or len(values) > 1 else values[0]
    return data


def _from_form(adapter: TypeAdapter[Any], data: dict[str, Any]) -> Any:
    """The model a form's values make: each as its text, else (a field its text does not fit:
    a number, a boolean, an object) as the JSON its text spells."""
    try:
        return adapter.validate_python(data)
    except ValidationError as exc:
        failed = {e["loc"][0] for e in exc.errors() if e["loc"]}
        retried = {k: _json_text(v) if k in failed else v for k, v in data.items()}
        if retried == data:
            raise
        try:
            return adapter.validate_python(retried)
        except ValidationError:
            raise exc from None


def _json_text(value: Any) -> Any:
    if isinstance(value, list):
        return [_json_text(item) for item in value]
    if not isinstance(value, str):
        return value
    try:
        return json.loads(value)
    except ValueError:
        return value


async def _json_part(part: Any, key: str) -> Any:
    """The value a multipart part carries as JSON (a field, or a file part holding it)."""
    text = await part.read() if isinstance(part, UploadFile) else part
    try:
        return _ANY.validate_json(text)
    except ValidationError as exc:
        raise RequestValidationError(
            [{**e, "loc": ("body", key, *e["loc"])} for e in exc.errors()]
        ) from None


def _wire(
    loc: tuple[int | str, ...], names: Mapping[str, str]
) -> tuple[int | str, ...]:
    return (names.get(str(loc[0]), loc[0]), *loc[1:]) if loc else ()


def _spells(hint: Any) -> bool:
    """Whether a form field's text may spell a number or boolean of its type, which a string
    member would take as text (`spelled`): a union beside a string, a Literal of numbers.
    """
    hint = getattr(hint, "__value__", hint)  # a `type X = ...` alias
    origin = typing.get_origin(hint)
    if origin is typing.Annotated:
        return _spells(typing.get_args(hint)[0])
    if origin is typing.Literal:
        return not all(isinstance(v, str) for v in typing.get_args(hint))
    if origin in (typing.Union, types.UnionType):
        members = [m for m in typing.get_args(hint) if m is not type(None)]
        return len(members) > 1 or any(_spells(m) for m in members)
    return False


def _item_kind(hint: Any) -> Any:
    """The items' type of a list type (optional, constrained or not); None for another type."""
    hint = getattr(hint, "__value__", hint)
    origin = typing.get_origin(hint)
    if origin is typing.Annotated:
        return _item_kind(typing.get_args(hint)[0])
    if origin in (typing.Union, types.UnionType):
        found = [
            kind
            for arg in typing.get_args(hint)
            if (kind := _item_kind(arg)) is not None
        ]
        return found[0] if len(found) == 1 else None
    return (
        typing.get_args(hint)[0] if origin is list and typing.get_args(hint) else None
    )


def _is_list(hint: Any) -> bool:
    """Whether a form field's type is a list (optional or not, constrained or not)."""
    if typing.get_origin(hint) is typing.Annotated:  # `maxItems`, `uniqueItems`
        return _is_list(typing.get_args(hint)[0])
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        return any(_is_list(arg) for arg in typing.get_args(hint))
    return typing.get_origin(hint) is list


def query_parameter(
    name: str,
    style: str,
    shape: str,
    kind: Any,
    default: Any,
    *,
    keys: tuple[str, ...] | None = None,
    others: tuple[str, ...] | None = None,
    repeated: bool = False,
) -> Callable[[Request], Any]:
    """A dependency reading a query parameter in a style FastAPI does not parse (deepObject,
    form-exploded objects, comma/space/pipe-separated arrays, JSON content), validated like
    any other parameter. An exploded object takes the query keys in `keys` (its fields), or
    every key not in `others` (the operation's other parameters) when it is free-form. An
    array's items of a union are read as their text spells them (`spelled`); `repeated`: an
    exploded array of such items (`?id=1&id=a`).
    """
    known: list[tuple[TypeAdapter[Any], bool]] = []
    items: list[TypeAdapter[Any] | None] = []

    def parse(request: Request) -> Any:
        adapter, required = _adapter(known, kind, default)
        if not items:
            item = _item_kind(kind)
            items.append(TypeAdapter(item) if _spells(item) else None)
        query = request.query_params
        raw: Any = None
        if repeated:
            raw = query.getlist(name) or None
        elif style == "deepObject":
            raw = deep_value(query.multi_items(), name, "query")
        elif keys is not None or others is not None:
            found: dict[str, list[str]] = {}
            for key, value in query.multi_items():
                owner = key.split("[", 1)[0]  # `other[k]`: a deepObject parameter's key
                if key in keys if keys is not None else owner not in (others or ()):
                    found.setdefault(key, []).append(value)
            raw = {k: v[0] if len(v) == 1 else v for k, v in found.items()} or None
        elif name in query:
            text = query[name]
            if style == "json" or shape == "scalar":
                raw = text
            else:
                sep = {"spaceDelimited": " ", "pipeDelimited": "|"}.get(style, ",")
                parts = text.split(sep) if text else []
                raw = (
                    dict(zip(parts[::2], parts[1::2], strict=False))
                    if shape == "object"
                    else parts
                )
        try:
            if raw is None:
                if required:
                    raise RequestValidationError(
                        [
                            {
                                "type": "missing",
                                "loc": ("query", name),
                                "msg": "Field required",
                                "input": None,
                            }
                        ]
                    )
                return default
            if style == "json":
                return adapter.validate_json(raw)
            if isinstance(raw, str):
                return _from_text(adapter, raw)
            if isinstance(raw, list) and (item := items[0]) is not None:
                raw = [spelled(item, v) if isinstance(v, str) else v for v in raw]
            return _from_deep(adapter, raw)
        except ValidationError as exc:
            raise RequestValidationError(
                [{**e, "loc": ("query", name, *e["loc"])} for e in exc.errors()]
            ) from None

    return parse


_BRACKETED = re.compile(r"\[([^\[\]]*)\]")


def deep_value(pairs: Iterable[tuple[str, Any]], name: str, location: str) -> Any:
    """The value deepObject keys spell, nested as Stripe (and PHP's `http_build_query`)
    write them: `name[key]=v`, `name[key][0][field]=v`, `name[]=v` (the next index); `name=v`
    alone is a value that is neither a map nor a list. None where no key is `name`'s. Keys
    that contradict each other (`name=v` and `name[k]=v`) are a validation error."""
    root: dict[str, Any] = {}
    for key, value in pairs:
        rest = key[len(name) :]
        parts = _BRACKETED.findall(rest)
        if not key.startswith(name) or "".join(f"[{p}]" for p in parts) != rest:
            continue  # another parameter's key
        node: Any = root
        for part in [name, *parts][:-1]:
            node = node.setdefault(part or str(len(node)), {})
            if not isinstance(node, dict):
                raise _conflict(location, key)
        last = ([name, *parts][-1]) or str(len(node))
        if last in node:
            raise _conflict(location, key)
        node[last] = value
    return root.get(name)


def _conflict(location: str, key: str) -> RequestValidationError:
    problem = {"type": "value_error", "loc": (location, key), "input": key}
    return RequestValidationError([{**problem, "msg": "Keys contradict each other"}])


def _deep_field(adapter: TypeAdapter[Any], value: Any, key: str) -> Any:
    try:
        return _from_deep(adapter, value)
    except ValidationError as exc:
        raise RequestValidationError(
            [{**e, "loc": ("body", key, *e["loc"])} for e in exc.errors()]
        ) from None


def _listed(value: Any) -> Any:
    """`value` with each map whose keys are all indexes (`0`, `1`, ...) as a list."""
    if not isinstance(value, dict):
        return value
    items = {key: _listed(item) for key, item in value.items()}
    if items and all(key.isdigit() for key in items):
        return [items[key] for key in sorted(items, key=int)]
    return items


def _from_deep(adapter: TypeAdapter[Any], raw: Any) -> Any:
    """A deepObject value validated as its type: maps of indexes read as lists (Stripe's
    `expand[0]=x`), else (a map whose keys are numbers) as they were sent."""
    listed = _listed(raw)
    try:
        return adapter.validate_python(listed)
    except ValidationError:
        if listed == raw:
            raise
        try:
            return adapter.validate_python(raw)
        except ValidationError:
            pass
        raise


def text_parameter(
    location: str,
    key: str,
    kind: Any,
    default: Any,
    *,
    shape: str = "scalar",
    exploded: bool = False,
) -> Callable[[Request], Any]:
    """A dependency reading a path, header or cookie value of a union or a Literal of numbers
    or booleans (FastAPI compares a Literal with the text, and reads a union as its text), an
    array (`simple` style: `a,b`; a header repeated is its values joined) or an object (`k,v`;
    `exploded`: `k=v`), from its text, as `query_parameter` reads a query value. `key`: the
    route's name of a path parameter, the wire name of a header or cookie."""
    known: list[tuple[TypeAdapter[Any], bool]] = []
    items: list[tuple[Any, TypeAdapter[Any] | None]] = []

    def parse(request: Request) -> Any:
        adapter, required = _adapter(known, kind, default)
        if not items:
            item = _item_kind(kind)
            items.append((item, TypeAdapter(item) if _spells(item) else None))
        found: Mapping[str, Any] = (
            request.path_params
            if location == "path"
            else request.headers if location == "header" else request.cookies
        )
        text = found.get(key)
        if location == "header" and text is not None:
            text = ",".join(request.headers.getlist(key))
        try:
            if text is None:
                if required:
                    problem = {"type": "missing", "loc": (location, key), "input": None}
                    raise RequestValidationError([{**problem, "msg": "Field required"}])
                return default
            item, spells = items[0]
            if location == "cookie" and shape == "scalar" and item is None:
                text = unquote(str(text))  # the client percent-encodes a cookie's text
            parts = str(text).split(",") if text else []
            if location == "header":
                parts = [part.strip() for part in parts]  # `a, b`: RFC 9110's list
            elif location == "cookie":
                parts = [unquote(part) for part in parts]
            if shape == "object":
                pairs = (
                    [part.partition("=")[::2] for part in parts]
                    if exploded
                    else zip(parts[::2], parts[1::2], strict=False)
                )
                return _from_deep(adapter, dict(pairs))
            if item is not None:  # an array: its items, each read as its text spells it
                return adapter.validate_python(
                    [spelled(spells, part) if spells else part for part in parts]
                )
            return _from_text(adapter, str(text))
        except ValidationError as exc:
            raise RequestValidationError(
                [{**e, "loc": (location, key, *e["loc"])} for e in exc.errors()]
            ) from None

    return parse


def _from_text(adapter: TypeAdapter[Any], text: str) -> Any:
    """A parameter's value of a union or a Literal of numbers or booleans, read from its text:
    the number or boolean the text spells (`1`, `0.5`, `true`) when a member other than a
    string takes it, else the text (`?id=1` of `integer | string` is the integer 1)."""
    return adapter.validate_python(spelled(adapter, text))


def spelled(adapter: TypeAdapter[Any], text: str) -> Any:
    """The number or boolean `text` spells, as JSON does, when `adapter` reads it as other than
    a string; else `text`. Text on the wire cannot say which member of a union it is: the
    most specific one that reads it is taken, whatever the union's order."""
    try:
        value = json.loads(text, parse_constant=_no_constant)
    except ValueError:
        return text
    if text != text.strip() or not isinstance(value, bool | int | float):
        return text
    try:
        read = adapter.validate_python(value)
    except ValidationError:
        return text
    if isinstance(read, str) or (type(read) is int and not isinstance(value, int)):
        return text  # text, or an integer spelled otherwise (`1.0`, `1e3`): not an integer's
    return value


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is no JSON number")


async def raw_body(request: Request, media_type: str, required: bool) -> bytes:
    """A body other than JSON or a form, as sent: in the declared media type (else 415), not
    empty when required (else a validation error, before the service is called)."""
    sent = request.headers.get("content-type")
    if sent is not None and not _media_matches(sent, media_type):
        raise StarletteHTTPException(
            415, f"Unsupported media type {sent.split(';')[0]!r}: expected {media_type}"
        )
    body = await request.body()
    if required and not body:
        raise RequestValidationError(
            [{"type": "missing", "loc": ("body",), "msg": "Field required"}]
        )
    return body


async def text_body(request: Request, media_type: str, required: bool) -> str:
    """A text body (as `raw_body`), decoded from UTF-8; undecodable text is a validation error."""
    body = await raw_body(request, media_type, required)
    try:
        return body.decode()
    except UnicodeDecodeError:
        raise RequestValidationError(
            [{"type": "unicode", "loc": ("body",), "msg": "Body is not UTF-8 text"}]
        ) from None


def _media_matches(sent: str, declared: str) -> bool:
    """Whether a Content-Type is within a declared media range (`image/*`, `*/*`)."""
    sent = sent.split(";", maxsplit=1)[0].strip().lower()
    kind, _, sub = declared.split(";", maxsplit=1)[0].strip().lower().partition("/")
    sent_kind, _, sent_sub = sent.partition("/")
    return kind in ("*", sent_kind) and sub in ("*", sent_sub)


def _adapter(
    known: list[tuple[TypeAdapter[Any], bool]], kind: Any, default: Any
) -> tuple[TypeAdapter[Any], bool]:
    """A parameter's validator, made on its first request like the routes' own parameters,
    and whether the parameter is required (no default, and None is no value of its type).
    """
    if not known:
        made: TypeAdapter[Any] = TypeAdapter(kind)
        known.append((made, default is None and not _accepts_none(made)))
    return known[0]


def _accepts_none(adapter: TypeAdapter[Any]) -> bool:
    try:
        adapter.validate_python(None)
    except ValidationError:
        return False
    return True
