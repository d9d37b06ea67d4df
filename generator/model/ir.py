"""The intermediate model: frozen, typed, independent of templates and files.

The model definitions (classes, enums, aliases) are in `definitions`, the responses (and the
error bodies the server builds) in `response_shape`, re-exported here.
It holds what the contract says, decided once (names, types, defaults, which
responses and bodies); `emit.source` turns it into Python text. Every value set is a `Literal`.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Literal
from urllib.parse import urlsplit

from ..problems import Problem
from ..version import generated_header
from .definitions import AliasDef, Definition, EnumDef, FieldDef, ModelDef
from .paging_shape import Paging
from .response_shape import (
    ErrorBody,
    ErrorClass,
    Representation,
    Response,
    ResponseHeader,
    ResponseKind,
)
from .typeref import Check, TypeRef

# `definitions`' and `response_shape`'s classes are part of the IR's one import
# (`from .ir import ModelDef`).
__all__ = ["AliasDef", "Definition", "EnumDef", "ErrorBody", "ErrorClass", "FieldDef", "ModelDef",
           "Representation", "Response", "ResponseHeader", "ResponseKind"]

ParameterLocation = Literal["path", "query", "header", "cookie"]
# OpenAPI's styles, and `json` for a parameter declared with `content: application/json`
ParameterStyle = Literal["form", "simple", "label", "matrix", "deepObject", "spaceDelimited",
                         "pipeDelimited", "json"]
ParameterShape = Literal["scalar", "array", "object"]
BodyKind = Literal["json", "multipart", "form", "binary", "text"]
SchemeKind = Literal["bearer", "basic", "api_key", "oauth2", "openid", "other"]
FastApiMarker = Literal["Path", "Query", "Header", "Cookie", "Depends"]


@dataclass(frozen=True)
class Parameter:
    """A path, query, header or cookie parameter."""

    name: str
    wire: str
    location: ParameterLocation
    type: TypeRef
    required: bool
    default: Any = None  # the spec's default as JSON; None when there is none
    description: str | None = None
    style: ParameterStyle = "form"
    explode: bool = True
    shape: ParameterShape = "scalar"
    # form + explode objects: the query keys that are the object's (None: every key but `others`)
    keys: tuple[str, ...] | None = None
    others: tuple[str, ...] = ()
    deprecated: bool = False
    # a scalar FastAPI cannot read from its text (a union, a non-string Literal), or a path,
    # header or cookie array (`a,b`): the server's runtime parses it (`query_parameter`,
    # `text_parameter`); the client sends it as any other
    from_text: bool = False

    @property
    def styled(self) -> bool:
        """A query parameter in a style the generated code (de)serializes itself."""
        return self.parsed and not self.from_text

    @property
    def parsed(self) -> bool:
        """A parameter FastAPI cannot read itself: the generated code (de)serializes it."""
        if self.from_text:
            return True
        if self.location != "query":
            return False
        if self.style in ("json", "deepObject"):
            return True
        if self.style in ("spaceDelimited", "pipeDelimited"):
            return self.shape == "array"
        return self.shape == "object" or (self.shape == "array" and not self.explode)

    @property
    def exploded(self) -> bool:
        """A form-exploded object: its fields are query keys of their own (`?x=1&y=2`)."""
        return self.location == "query" and self.style == "form" and self.shape == "object" and (
            self.explode)

    @property
    def fastapi_marker(self) -> FastApiMarker:
        if self.parsed:
            return "Depends"
        markers: dict[ParameterLocation, FastApiMarker] = {
            "path": "Path", "query": "Query", "header": "Header", "cookie": "Cookie"}
        return markers[self.location]

    @property
    def effective_type(self) -> TypeRef:
        """The type as the signature takes it: an optional parameter without default is nullable."""
        return self.type if self.required or self.default is not None else self.type.with_nullable()


@dataclass(frozen=True)
class FormField:
    """A field of a multipart or form-urlencoded body."""

    name: str
    wire: str
    type: TypeRef
    required: bool
    is_file: bool = False
    is_file_list: bool = False
    description: str | None = None
    json: bool = False  # a multipart part carrying JSON (an object, an array of them, a union)
    deep: bool = False  # a urlencoded field in deepObject style (`encoding`): `a[k]=v`, `a[0]=v`


@dataclass(frozen=True)
class RequestBody:
    """An operation's request body, in the one media type the generated code speaks."""

    kind: BodyKind
    media_type: str
    required: bool
    type: TypeRef | None = None  # json
    form_class: str | None = None  # multipart/form
    form_fields: tuple[FormField, ...] = ()
    description: str | None = None
    # a form media type (multipart or urlencoded) declared with the JSON one's schema: the
    # server reads it into the same model, the client may send it (`content_type=`)
    also_form: str | None = None

    @property
    def is_form(self) -> bool:
        return self.kind in ("multipart", "form")


@dataclass(frozen=True)
class Operation:
    """One operation: what the server method, the route and the client method are made from."""

    id: str
    method_name: str
    http_method: str
    path: str
    summary: str | None
    description: str | None
    path_params: tuple[Parameter, ...]
    query_params: tuple[Parameter, ...]
    header_params: tuple[Parameter, ...]
    cookie_params: tuple[Parameter, ...]
    body: RequestBody | None
    success: tuple[Response, ...]
    errors: tuple[ErrorClass, ...]
    security: tuple[tuple[str, ...], ...] | None  # alternatives of scheme names; () = anonymous
    validation_status: int  # a request that fails validation: the declared 422, else 400, else 422
    unknown_tag_status: int  # a discriminator naming no member: the declared 400, else as above
    too_large_status: int  # a body over the app's cap: the declared 413, else 400, else 413
    error_bodies: tuple[tuple[str, ErrorBody], ...]  # (status or "*", the body the server builds)
    extensions: tuple[tuple[str, object], ...] = ()  # the operation's `x-` keys, as written
    notes: tuple[str, ...] = ()  # what the target's `extension_notes` say of them
    # `security` with scopes: alternatives of ((scheme name, required scopes), ...)
    requirements: tuple[tuple[tuple[str, tuple[str, ...]], ...], ...] = ()
    deprecated: bool = False
    headers_class: str | None = None  # the class of its success responses' declared headers
    # for docstrings: (parameter name or "body", the example as JSON); links of success answers
    examples: tuple[tuple[str, str], ...] = ()
    links: tuple[str, ...] = ()
    # the client's view of an operation answering JSON or events: its event stream, called by
    # `<method>_events` (its `success` keeps the other media types, called by `<method>`)
    also_events: Representation | None = None
    paging: Paging | None = None  # how it pages, when it does
    server: str | None = None  # its own server's URL (`servers` on it or its path item)

    @property
    def response_headers(self) -> tuple[ResponseHeader, ...]:
        """Headers of the success responses: required when every success response requires it."""
        merged: dict[str, ResponseHeader] = {}
        for response in self.success:
            for header in response.headers:
                merged.setdefault(header.wire.lower(), header)
        return tuple(
            ResponseHeader(h.name, h.wire, h.type, all(
                any(x.wire.lower() == key and x.required for x in r.headers)
                for r in self.success), h.description)
            for key, h in merged.items())

    @property
    def keyword_params(self) -> tuple[Parameter, ...]:
        return self.query_params + self.header_params + self.cookie_params

    @property
    def success_status(self) -> int:
        for response in self.success:
            if response.status_code is not None:
                return response.status_code
        return 200

    @property
    def returns_nothing(self) -> bool:
        """No success response has a body: the server method returns None."""
        return all(r.kind == "empty" or (r.kind == "json" and r.type is None) for r in self.success)

    @property
    def media_types(self) -> tuple[str, ...]:
        """Every media type its success responses declare, in order (for `Accept`)."""
        return tuple(dict.fromkeys(r.media_type for s in self.success for r in s.representations))

    @property
    def negotiates(self) -> bool:
        """Its success responses declare several media types, no event stream among them: the
        client may choose one (an operation that may stream events is called for events)."""
        return len(self.media_types) > 1 and not self.streams_events

    @property
    def json_or_events(self) -> bool:
        """It answers JSON or events and nothing else (an LLM API's `stream` flag): the server
        answers what the service returns, the client has a method for each."""
        each = [{r.kind for r in s.representations} for s in self.success]
        return self.also_events is not None or (
            set().union(*each) == {"json", "events"} and all("json" in k for k in each if k))

    @property
    def streams_events(self) -> bool:
        """A success response is a `text/event-stream`: server and client stream events."""
        return any(r.kind == "events" for s in self.success for r in s.representations)

    @property
    def streams_bytes(self) -> bool:
        """A success response may be a body other than JSON: the client can stream it."""
        return not self.streams_events and any(
            r.kind in ("binary", "text") for s in self.success for r in s.representations)

    @property
    def secured(self) -> bool:
        return self.security is not None and any(len(alt) > 0 for alt in self.security)


@dataclass(frozen=True)
class SecurityScheme:
    """A security scheme as the generated code checks it."""

    name: str
    kind: SchemeKind
    location: Literal["header", "query", "cookie"] | None = None  # api_key only
    parameter: str | None = None  # api_key: the header/query/cookie name
    http_scheme: str | None = None  # http: the scheme as declared (bearer, basic, digest...)


@dataclass(frozen=True)
class Server:
    """A server of the contract: its URL template, variables' defaults, and description."""

    url: str
    description: str | None = None
    variables: tuple[tuple[str, str], ...] = ()

    @property
    def default_url(self) -> str:
        """The URL with every variable at its default."""
        url = self.url
        for name, default in self.variables:
            url = url.replace("{" + name + "}", default)
        return url


@dataclass(frozen=True)
class Hook:
    """A webhook (3.1 `webhooks`) or a callback of an operation: a request the API sends to a
    subscriber, received by the generated `webhooks.py` and sent by `webhook_sender.py`."""

    kind: Literal["webhook", "callback"]
    name: str  # the webhook's name, or the callback's
    operation: Operation  # path: the callback's URL expression (a webhook's name)
    owner: str | None = None  # a callback's operation id
    route: str = "/"  # where the generated receiver mounts it by default
    security: tuple[str, ...] = ()  # the schemes it declares (not checked: the receiver refuses)


@dataclass(frozen=True)
class Api:
    """The whole contract, as the templates see it."""

    title: str
    version: str
    description: str | None
    definitions: tuple[Definition, ...]
    operations: tuple[Operation, ...]
    security_schemes: tuple[SecurityScheme, ...]
    spec: str  # the paths as the generated modules' header shows them (`version.generated_header`)
    spec_json: str
    parts: tuple[str, ...] = ("models", "server", "client")
    servers: tuple[Server, ...] = ()
    # located warnings: what the contract declares that the generated code does not enforce
    problems: tuple[Problem, ...] = ()
    hooks: tuple[Hook, ...] = ()  # webhooks and callbacks
    overlay: str | None = None
    templates: str | None = None  # the template overrides' folder

    @property
    def header(self) -> str:
        """Deprecated: templates read `{{ header }}`; `{{ api.header }}` goes in the next release."""
        return generated_header(self.spec, self.overlay, self.templates)

    @property
    def base_path(self) -> str:
        """The path of the first server's URL (variables at their defaults): where the API lives."""
        if not self.servers:
            return ""
        path = urlsplit(self.servers[0].default_url).path.rstrip("/")
        return path if path.startswith("/") else ""

    @property
    def uses_excluding(self) -> bool:
        """True when some schema has a `not`, so models.py needs its `Excluding` validator."""
        return self._type_facts[0]

    @property
    def checks(self) -> tuple[Check, ...]:
        """The `check_<name>` validators some type uses, so models.py defines them."""
        return self._type_facts[1]

    @functools.cached_property
    def _type_facts(self) -> tuple[bool, tuple[Check, ...]]:
        # One walk of every type expression, however often the templates ask (five times).
        excluding = False
        used: set[Check] = set()
        for ref in self._type_refs():
            excluding = excluding or ref.excluded is not None
            used.update(ref.checks)
        return excluding, tuple(sorted(used))

    def _type_refs(self) -> Iterable[TypeRef]:
        """Every type expression of the contract, nested ones included."""
        refs: list[TypeRef] = []
        for definition in self.definitions:
            if isinstance(definition, ModelDef):
                refs.extend(f.type for f in definition.fields)
                refs.extend([definition.extra_type] if definition.extra_type else [])
            elif isinstance(definition, AliasDef):
                refs.append(definition.type)
        for op in self.operations:  # inline bodies are not definitions
            refs.extend(p.type for p in (*op.path_params, *op.keyword_params))
            refs.extend(r.type for r in (*op.success, *(e.response for e in op.errors)) if r.type)
            if op.body is not None:
                refs.extend([op.body.type] if op.body.type else [])
                refs.extend(f.type for f in op.body.form_fields)
        while refs:
            ref = refs.pop()
            yield ref
            refs.extend(ref.args)

    @property
    def error_classes(self) -> tuple[ErrorClass, ...]:
        return tuple(e for op in self.operations for e in op.errors)
