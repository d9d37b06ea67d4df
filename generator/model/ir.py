"""The intermediate model: frozen, typed, independent of templates and files.

Every concept carries the type strings and defaults the templates print, computed here once.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace


@dataclass(frozen=True)
class TypeRef:
    """A Python type expression: a builtin, a generated model, or a container of them."""

    kind: str  # builtin | model | list | dict | literal | union | any
    name: str = ""
    args: tuple[TypeRef, ...] = ()
    literals: tuple[object, ...] = ()
    constraints: tuple[tuple[str, str], ...] = ()  # pydantic Field keyword arguments, as source
    discriminator: str | None = None
    nullable: bool = False
    excluded: tuple[tuple[str, ...], tuple[object, ...]] | None = None  # `not`: types, values

    def with_nullable(self, nullable: bool = True) -> TypeRef:
        return replace(self, nullable=nullable)

    def bare(self) -> TypeRef:
        """The same type without constraints and nullability (for parameters and unions)."""
        return replace(self, constraints=(), nullable=False, excluded=None)

    @property
    def is_nullable(self) -> bool:
        """Accepts None: marked so, or a union with a nullable member."""
        return self.nullable or (self.kind == "union" and any(a.nullable for a in self.args))

    @property
    def is_any(self) -> bool:
        return self.kind == "any" and self.excluded is None

    def render(self, prefix: str = "") -> str:
        """Source text, with `prefix` before generated model names (`models.` outside models.py)."""
        if self.kind == "any":
            text = "Any"
        elif self.kind == "builtin":
            text = self.name
        elif self.kind == "model":
            text = prefix + self.name
        elif self.kind == "list":
            text = f"list[{self.args[0].render(prefix)}]"
        elif self.kind == "dict":
            text = f"dict[str, {self.args[0].render(prefix)}]"
        elif self.kind == "literal":
            text = "Literal[" + ", ".join(_literal_repr(v) for v in self.literals) + "]"
        elif self.kind == "union":
            text = " | ".join(_dedupe(a.with_nullable(False).render(prefix) for a in self.args))
        else:  # pragma: no cover - exhaustive
            raise ValueError(self.kind)
        kwargs = list(self.constraints)
        if self.discriminator:
            kwargs.append(("discriminator", repr(self.discriminator)))
        metadata = [f"Field({', '.join(f'{k}={v}' for k, v in kwargs)})"] if kwargs else []
        if self.excluded is not None:
            types, values = self.excluded
            metadata.append(f"AfterValidator({prefix}Excluding({types!r}, {values!r}))")
        if metadata:
            text = f"Annotated[{text}, {', '.join(metadata)}]"
        if self.is_nullable and self.kind != "any" and "None" not in text.split(" | "):
            text += " | None"
        return text

    def names(self) -> Iterable[str]:
        """Names this expression uses, for imports and dependency order."""
        if self.kind == "any":
            yield "Any"
        elif self.kind in ("builtin", "model"):
            yield self.name
        elif self.kind == "literal":
            yield "Literal"
        for arg in self.args:
            yield from arg.names()
        if self.constraints or self.discriminator:
            yield "Annotated"
            yield "Field"
        if self.excluded is not None:
            yield "Annotated"
            yield "AfterValidator"
            yield "Excluding"

    def model_names(self) -> Iterable[str]:
        """Names this expression takes from models.py (generated classes, `Excluding`)."""
        if self.kind == "model":
            yield self.name
        if self.excluded is not None:
            yield "Excluding"
        for arg in self.args:
            yield from arg.model_names()


def _dedupe(items: Iterable[str]) -> list[str]:
    seen: list[str] = []
    for item in items:
        if item not in seen:
            seen.append(item)
    return seen


def _literal_repr(value: object) -> str:
    return repr(value)


ANY = TypeRef("any")


@dataclass(frozen=True)
class FieldDef:
    """A model field."""

    name: str
    wire: str
    type: TypeRef
    required: bool
    default: str | None = None  # source text of the default, None when there is no spec default
    default_factory: str | None = None
    description: str | None = None

    @property
    def has_alias(self) -> bool:
        return self.name != self.wire

    @property
    def nullable(self) -> bool:
        return self.type.nullable

    @property
    def has_default(self) -> bool:
        return self.default is not None or self.default_factory is not None

    @property
    def rejects_null(self) -> bool:
        """Optional, not nullable, no default: may be absent, may not be `null`."""
        return (not self.required and not self.type.is_nullable and not self.has_default
                and not self.type.is_any)

    @property
    def omit_when_unset(self) -> bool:
        return not self.required and self.default is None and self.default_factory is None

    def annotation(self, prefix: str = "") -> str:
        kind = self.type if self.required or self.has_default else self.type.with_nullable()
        return kind.render(prefix)

    def field_call(self) -> str | None:
        """`Field(...)` source for the right-hand side, or None when a bare default will do."""
        kwargs: list[str] = []
        if self.required:
            pass
        elif self.default_factory is not None:
            kwargs.append(f"default_factory={self.default_factory}")
        else:
            kwargs.append(f"default={self.default if self.default is not None else 'None'}")
        if self.has_alias:
            kwargs.append(f"alias={self.wire!r}")
        if self.description:
            kwargs.append(f"description={self.description!r}")
        if not kwargs:
            return None
        if kwargs == [f"default={self.default if self.default is not None else 'None'}"]:
            return self.default if self.default is not None else "None"
        return f"Field({', '.join(kwargs)})"


@dataclass(frozen=True)
class ModelDef:
    """A pydantic model class for an object schema."""

    name: str
    description: str | None
    fields: tuple[FieldDef, ...]
    extra: str  # "allow" | "forbid"
    extra_type: TypeRef | None = None

    def dependencies(self) -> set[str]:
        deps = {n for f in self.fields for n in f.type.model_names()}
        if self.extra_type:
            deps.update(self.extra_type.model_names())
        return deps

    @property
    def non_nullable(self) -> tuple[str, ...]:
        return tuple(f.name for f in self.fields if f.rejects_null)

    @property
    def omit_unset(self) -> tuple[str, ...]:
        return tuple(f.name for f in self.fields if f.omit_when_unset)


@dataclass(frozen=True)
class EnumDef:
    """A named enum (`StrEnum` or `IntEnum`)."""

    name: str
    description: str | None
    base: str  # StrEnum | IntEnum
    members: tuple[tuple[str, str], ...]  # (member name, value source)

    def dependencies(self) -> set[str]:
        return set()


@dataclass(frozen=True)
class AliasDef:
    """A type alias for a schema that is not an object: a union, an array, a primitive.

    `adapter` names the `TypeAdapter` generated beside it; `recursive` aliases (that reach
    themselves through other aliases) are spelled with `TypeAliasType` and a forward reference.
    """

    name: str
    description: str | None
    type: TypeRef
    adapter: str = ""
    recursive: bool = False

    def dependencies(self) -> set[str]:
        return set(self.type.model_names())


Definition = ModelDef | EnumDef | AliasDef


@dataclass(frozen=True)
class Parameter:
    """A path, query, header or cookie parameter."""

    name: str
    wire: str
    location: str  # path | query | header | cookie
    type: TypeRef
    required: bool
    default: str | None = None
    description: str | None = None
    style: str = "form"  # form | deepObject | spaceDelimited | pipeDelimited | json | simple
    explode: bool = True
    shape: str = "scalar"  # scalar | array | object
    # form + explode objects: the query keys that are the object's (None: every key but `others`)
    keys: tuple[str, ...] | None = None
    others: tuple[str, ...] = ()

    @property
    def parsed(self) -> bool:
        """A query parameter FastAPI cannot read itself: the generated code (de)serializes it."""
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
    def fastapi_marker(self) -> str:
        if self.parsed:
            return "Depends"
        return {"path": "Path", "query": "Query", "header": "Header", "cookie": "Cookie"}[self.location]

    def annotation(self, prefix: str = "models.") -> str:
        kind = self.type if self.required or self.default is not None else self.type.with_nullable()
        return kind.bare().with_nullable(kind.nullable).render(prefix)

    @property
    def default_source(self) -> str | None:
        if self.required:
            return None
        return self.default if self.default is not None else "None"

    @property
    def marker_kwargs(self) -> str:
        if self.parsed:
            kind = self.type if self.required or self.default is not None else self.type.with_nullable()
            exploded = f", keys={self.keys!r}, others={self.others!r}" if self.exploded else ""
            return (f"query_parameter({self.wire!r}, {self.style!r}, {self.shape!r}, "
                    f"{kind.render('models.')}, {self.default_source}{exploded})")
        kwargs = [f"alias={self.wire!r}"] if self.name != self.wire or self.location == "header" else []
        kwargs.extend(f"{k}={v}" for k, v in self.type.constraints)
        return ", ".join(kwargs)


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


@dataclass(frozen=True)
class RequestBody:
    """An operation's request body, in the one media type the generated code speaks."""

    kind: str  # json | multipart | form | binary | text
    media_type: str
    required: bool
    type: TypeRef | None = None  # json
    form_class: str | None = None  # multipart/form
    form_fields: tuple[FormField, ...] = ()
    description: str | None = None

    @property
    def is_form(self) -> bool:
        return self.kind in ("multipart", "form")


@dataclass(frozen=True)
class Response:
    """A declared response: status, media kind and body type."""

    status: str
    kind: str  # json | binary | text | empty
    media_type: str | None
    type: TypeRef | None
    description: str | None = None

    @property
    def status_code(self) -> int | None:
        return int(self.status) if self.status.isdigit() else None


@dataclass(frozen=True)
class ErrorClass:
    """A typed exception for a declared non-2xx response."""

    name: str
    operation_id: str
    response: Response

    @property
    def status_code(self) -> int | None:
        return self.response.status_code

    @property
    def status_floor(self) -> int:
        """The code used when raising a range (`4XX`) or `default` error without one."""
        status = self.response.status
        if status.isdigit():
            return int(status)
        return int(status[0]) * 100 if status[0].isdigit() else 500


@dataclass(frozen=True)
class Operation:
    """One operation: what the server method, the route and the client method are made from."""

    id: str
    method_name: str
    class_prefix: str
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
    validation_status: int
    error_bodies: tuple[tuple[str, str], ...]  # (status or "*", source of a dict expression)
    optional: bool = False
    deprecated: bool = False
    extensions: tuple[tuple[str, str], ...] = ()

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
    def result_type(self) -> str:
        """The server method's and client method's return annotation."""
        rendered: list[str] = []
        for response in self.success:
            if response.kind == "json" and response.type is not None:
                text = response.type.render("models.")
            elif response.kind == "binary":
                text = "bytes"
            elif response.kind == "text":
                text = "str"
            else:
                text = "None"
            if text not in rendered:
                rendered.append(text)
        return " | ".join(rendered) if rendered else "None"

    @property
    def allows_anonymous(self) -> bool:
        return self.security is None or any(len(alt) == 0 for alt in self.security)

    @property
    def secured(self) -> bool:
        return self.security is not None and any(len(alt) > 0 for alt in self.security)


@dataclass(frozen=True)
class SecurityScheme:
    """A security scheme as the generated code checks it."""

    name: str
    kind: str  # bearer | basic | api_key | oauth2 | openid | other
    location: str | None = None  # api_key: header | query | cookie
    parameter: str | None = None  # api_key: the header/query/cookie name


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
class Api:
    """The whole contract, as the templates see it."""

    title: str
    version: str
    openapi_version: str
    description: str | None
    definitions: tuple[Definition, ...]
    operations: tuple[Operation, ...]
    security_schemes: tuple[SecurityScheme, ...]
    header: str
    spec_json: str
    parts: tuple[str, ...] = ("models", "server", "client")
    warnings: tuple[str, ...] = field(default=())
    servers: tuple[Server, ...] = ()

    @property
    def parses_query(self) -> bool:
        """True when some query parameter is (de)serialized by the generated code itself."""
        return any(p.parsed for op in self.operations for p in op.query_params)

    @property
    def uses_excluding(self) -> bool:
        """True when some schema has a `not`, so models.py needs its `Excluding` validator."""
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
            if ref.excluded is not None:
                return True
            refs.extend(ref.args)
        return False

    @property
    def error_classes(self) -> tuple[ErrorClass, ...]:
        return tuple(e for op in self.operations for e in op.errors)
