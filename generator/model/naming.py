"""Identifiers, derived once: every name a template prints comes through here."""

from __future__ import annotations

import builtins
import functools
import keyword
import re

from ..spec.paths import words

_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")

# Attribute names a pydantic model or our base class already uses; a field by such a name
# would shadow it, so it gets a suffix and keeps its wire name as an alias.
_RESERVED_FIELD_NAMES = frozenset({
    "copy", "dict", "json", "schema", "schema_json", "construct", "validate", "fields",
    "parse_obj", "parse_raw", "parse_file", "from_orm", "update_forward_refs",
    "contractgen_non_nullable", "contractgen_omit_unset", "contractgen_dropped",
    "contractgen_required_extra"})
# Names the generated modules bind themselves; a class by such a name would clash.
_RESERVED_CLASS_NAMES = frozenset({
    "Any", "Annotated", "BaseModel", "ClassVar", "ConfigDict", "Enum", "Field", "IntEnum",
    "Literal", "RootModel", "StrEnum", "TypeAdapter", "Union", "datetime", "date", "time", "uuid",
    "models", "errors", "ApiError", "UnexpectedStatus", "ServiceBase", "Client", "AsyncClient",
    "Binary", "FileContent", "AfterValidator", "Excluding", "TypeAliasType", "TypeAlias",
    "SerializationInfo", "AnyUrl", "SerializerFunctionWrapHandler", "Decimal", "ipaddress",
    "JsonTyped", "GetCoreSchemaHandler", "core_schema", "ValidationError"})


# Both are pure and asked again and again for the same names (every schema, property and
# parameter name several times over): remembered, they cost a tenth of building a large model
# less.
@functools.cache
def snake_case(name: str) -> str:
    """`executeTool` -> `execute_tool`; `X-TPMJS-Protocol-Version` -> `x_tpmjs_protocol_version`."""
    return "_".join(w.lower() for w in words(name))


@functools.cache
def pascal_case(name: str) -> str:
    """`text_editor` -> `TextEditor`; keeps an existing PascalCase spelling's capitals."""
    return "".join(w[:1].upper() + w[1:] for w in words(name))


def is_identifier(name: str) -> bool:
    """A name usable as-is: an identifier, not a keyword."""
    return bool(_IDENTIFIER.match(name)) and not keyword.iskeyword(name)


def _dodge(name: str, reserved: frozenset[str] = frozenset()) -> str:
    if not name:
        name = "value"
    if name[0].isdigit():
        name = "n" + name if name.isdigit() else "field_" + name
    # E741: `l`, `O` and `I` read as digits.
    if keyword.iskeyword(name) or keyword.issoftkeyword(name) or name in reserved or name in (
            "l", "O", "I"):
        name += "_"
    return name


class PythonIdentifier(str):
    """A field or parameter name: the wire name when it is a fine identifier, else snake_case."""

    __slots__ = ()

    def __new__(cls, wire_name: str) -> PythonIdentifier:
        if is_identifier(wire_name) and not wire_name.startswith("_"):
            candidate = wire_name
        else:
            candidate = snake_case(wire_name)
        if candidate.startswith("model_"):
            candidate += "_"
        return super().__new__(cls, _dodge(candidate, _RESERVED_FIELD_NAMES))


def method_name(wire_name: str) -> str:
    """Operation method names: always snake_case."""
    return _dodge(snake_case(wire_name), frozenset({"close", "self"}))


def parameter_name(wire_name: str) -> str:
    """Python parameter names: always snake_case."""
    return _dodge(snake_case(wire_name), frozenset({"self", "body", "request", "response"}))


# A class by a builtin's name would shadow it in the module that defines it (`int`, `ValueError`).
_BUILTIN_NAMES = frozenset(name for name in dir(builtins) if not name.startswith("_"))


class ClassName(str):
    """A class name: component names as written when they are identifiers, else PascalCase;
    capitalised (ruff's PYI042 wants type aliases CamelCase), never a keyword or builtin."""

    __slots__ = ()

    def __new__(cls, raw: str) -> ClassName:
        name = raw if is_identifier(raw) and not raw.startswith("_") else pascal_case(raw)
        if not name or name[0].isdigit():
            name = "Model" + name
        name = name[0].upper() + name[1:]
        if (name in _RESERVED_CLASS_NAMES or name in _BUILTIN_NAMES or keyword.iskeyword(name)
                or name in ("O", "I")):  # E742
            name += "Model"
        return super().__new__(cls, name)


def enum_member(value: object) -> str:
    """`"str_replace"` -> `STR_REPLACE`; `1` -> `VALUE_1`; `""` -> `EMPTY`."""
    text = str(value)
    if text == "":
        return "EMPTY"
    name = "_".join(w.upper() for w in words(text))
    if not name:
        name = "VALUE"
    if name[0].isdigit() or (isinstance(value, int | float) and not isinstance(value, bool)):
        name = "VALUE_" + name
    return _dodge(name)


# Phrases fixed here rather than taken from http.HTTPStatus: its wording changed in Python 3.13
# (413, 422), and generated names must not depend on the interpreter that ran the generator.
_STATUS_PHRASES = {
    200: "Ok", 201: "Created", 202: "Accepted", 203: "NonAuthoritativeInformation",
    204: "NoContent", 205: "ResetContent", 206: "PartialContent", 207: "MultiStatus",
    300: "MultipleChoices", 301: "MovedPermanently", 302: "Found", 303: "SeeOther",
    304: "NotModified", 307: "TemporaryRedirect", 308: "PermanentRedirect",
    400: "BadRequest", 401: "Unauthorized", 402: "PaymentRequired", 403: "Forbidden",
    404: "NotFound", 405: "MethodNotAllowed", 406: "NotAcceptable", 407: "ProxyAuthenticationRequired",
    408: "RequestTimeout", 409: "Conflict", 410: "Gone", 411: "LengthRequired",
    412: "PreconditionFailed", 413: "ContentTooLarge", 414: "UriTooLong",
    415: "UnsupportedMediaType", 416: "RangeNotSatisfiable", 417: "ExpectationFailed",
    418: "ImATeapot", 421: "MisdirectedRequest", 422: "UnprocessableContent", 423: "Locked",
    424: "FailedDependency", 425: "TooEarly", 426: "UpgradeRequired", 428: "PreconditionRequired",
    429: "TooManyRequests", 431: "RequestHeaderFieldsTooLarge", 451: "UnavailableForLegalReasons",
    500: "InternalServerError", 501: "NotImplemented", 502: "BadGateway",
    503: "ServiceUnavailable", 504: "GatewayTimeout", 505: "HttpVersionNotSupported",
    507: "InsufficientStorage", 511: "NetworkAuthenticationRequired",
}
_RANGE_PHRASES = {"1XX": "Informational", "2XX": "Success", "3XX": "Redirection",
                  "4XX": "ClientError", "5XX": "ServerError", "default": "Default"}


def status_phrase(status: str) -> str:
    """`"404"` -> `NotFound`, `"4XX"` -> `ClientError`, `"default"` -> `Default`."""
    key = status.upper() if status != "default" else status
    if key in _RANGE_PHRASES:
        return _RANGE_PHRASES[key]
    code = int(status)
    return _STATUS_PHRASES.get(code, f"Status{code}")
