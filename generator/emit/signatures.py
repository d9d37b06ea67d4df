"""Python source of signatures: the service's methods, the client's methods and their
parameters, the `Accept` overloads, the client's path expressions, security challenges."""

from __future__ import annotations

from dataclasses import replace

from ..model.ir import Operation, Parameter, SecurityScheme
from ..model.literal import literal
from . import blackstyle
from .defaults import Spell
from .source import (
    body_annotation,
    param_default,
    representation_source,
    result_annotation,
    server_result,
    type_source,
)


def _signature_annotation(param: Parameter) -> str:
    """A parameter's annotation in a function signature: `int | float` as `float`, which takes
    an int too (PEP 484's numeric tower; ruff's PYI041). Only the typing: the routes read the
    value with `param_annotation`, so 5 still arrives as the int 5."""
    kind = param.effective_type.bare().with_nullable(param.effective_type.nullable)
    if kind.kind == "union":
        plain = {a.name for a in kind.args if a.kind == "builtin" and a.bare() is a}
        if {"int", "float"} <= plain:
            kind = replace(kind, args=tuple(a for a in kind.args
                                            if not (a.kind == "builtin" and a.name == "int")))
    return type_source(kind, "models.")


def _keyword_part(op: Operation, spell: Spell) -> list[str]:
    parts: list[str] = []
    for param in op.keyword_params:
        default = param_default(param, spell)
        suffix = f" = {default}" if default is not None else ""
        parts.append(f"{param.name}: {_signature_annotation(param)}{suffix}")
    return parts


def _positional_part(op: Operation, body: bool = True) -> list[str]:
    parts = [f"{p.name}: {_signature_annotation(p)}" for p in op.path_params]
    if body and op.body is not None:
        default = "" if op.body.required else " = None"
        parts.append(f"body: {body_annotation(op)}{default}")
    return parts


def _listed(positional: list[str], keyword: list[str]) -> list[str]:
    return [*positional, "*", *keyword] if keyword else positional


def server_signature(op: Operation, spell: Spell) -> str:
    """The service method's parameters on one line (templates overriding `service_def`'s
    place may still use it; the built-in one lays them out with `service_def`)."""
    return ", ".join(_listed(["self", *_positional_part(op)], _keyword_part(op, spell)))


def service_def(op: Operation, spell: Spell) -> str:
    """The service method's `async def` line(s), in `ServiceBase`."""
    params = _listed(["self", *_positional_part(op)], _keyword_part(op, spell))
    return blackstyle.define("    ", f"async def {op.method_name}(", params,
                             f") -> {server_result(op)}:")


def accept_overloads(op: Operation, spell: Spell) -> list[tuple[list[str], str]]:
    """(signature, result) of a client method per media type its `accept` may choose, then
    the one without a choice (any declared type may come back): for `typing.overload`s."""
    if not op.negotiates:
        return []
    form = op.body is not None and op.body.is_form
    positional = ["self", *_positional_part(op, body=not form)]
    overloads = []
    for media in op.media_types:
        kinds = [r for s in op.success for r in s.representations if r.media_type == media]
        result = " | ".join(dict.fromkeys(m for r in kinds for m in representation_source(r, "bytes")))
        overloads.append((_listed(positional, _client_keyword_part(op, spell, f"Literal[{literal(media)}]")), result))
    overloads.append((_listed(positional, _client_keyword_part(op, spell, "None = None")),
                      result_annotation(op)))
    return overloads


def _client_keyword_part(op: Operation, spell: Spell, accept: str | None = None) -> list[str]:
    parts = _keyword_part(op, spell)
    if op.body is not None and op.body.is_form:
        for field in op.body.form_fields:
            kind = "FileContent" if field.is_file else (
                "list[FileContent]" if field.is_file_list
                else type_source(field.type.bare(), "models."))
            if field.required:
                parts.insert(0, f"{field.name}: {kind}")
            else:
                parts.append(f"{field.name}: {kind} | None = None")
    if op.negotiates:
        choices = ", ".join(literal(m) for m in op.media_types)
        parts.append(f"{accept_name(op)}: {accept or f'Literal[{choices}] | None = None'}")
    if op.body is not None and op.body.kind in ("binary", "text") and "*" in op.body.media_type:
        default = _RANGE_DEFAULTS.get(op.body.media_type.split(";")[0].strip())
        parts.append(f"{content_type_name(op)}: str" + (f" = {literal(default)}" if default else ""))
    if op.body is not None and op.body.also_form:
        json_media = literal(op.body.media_type)
        parts.append(f"{content_type_name(op)}: Literal[{json_media}, "
                     f"{literal(op.body.also_form)}] = {json_media}")
    return parts


# The Content-Type a body declared as a media range is sent with unless the caller says
# (GitHub's asset upload: `*/*`); another range has no default: the caller names one.
_RANGE_DEFAULTS = {"*/*": "application/octet-stream", "text/*": "text/plain"}


def body_content_type(op: Operation) -> str:
    """The source of the Content-Type of a binary or text body: the declared media type, or
    the caller's `content_type` where the contract declares a range (`*/*`, `image/*`)."""
    assert op.body is not None
    return content_type_name(op) if "*" in op.body.media_type else literal(op.body.media_type)


def accept_name(op: Operation, name: str = "accept") -> str:
    """The client's keyword choosing the media type of an operation answering several."""
    taken = {p.name for p in (*op.path_params, *op.keyword_params)}
    taken |= {f.name for f in op.body.form_fields} if op.body is not None else set()
    while name in taken:
        name += "_"
    return name


def content_type_name(op: Operation) -> str:
    """The client's keyword choosing the media type of a body declared as JSON and a form."""
    return accept_name(op, "content_type")


def accept_header(op: Operation) -> str:
    """The source of the client's `Accept` value: the chosen media type, else all declared."""
    every = literal("text/event-stream" if op.streams_events else ", ".join(op.media_types))
    return f"{accept_name(op)} or {every}" if op.negotiates else every


def client_signature(op: Operation, spell: Spell) -> str:
    return ", ".join(client_params(op, spell))


def client_params(op: Operation, spell: Spell) -> list[str]:
    """The request builder's parameters."""
    form = op.body is not None and op.body.is_form
    return _listed(_positional_part(op, body=not form), _client_keyword_part(op, spell))


def method_signature(op: Operation, spell: Spell) -> str:
    return ", ".join(method_params(op, spell))


def method_params(op: Operation, spell: Spell) -> list[str]:
    """A client method's parameters: the request builder's, after `self`."""
    return ["self", *client_params(op, spell)]


def build_call(op: Operation, spell: Spell) -> blackstyle.Expr:
    """A client method's call of its request builder, each argument passed as it came
    (`_build_execute(session_id, body)`, keyword parameters by keyword)."""
    arguments, keyword = [], False
    for param in client_params(op, spell):
        name = str(param).split(":", 1)[0].strip()
        if name == "*":
            keyword = True
        else:
            arguments.append(f"{name}={name}" if keyword else name)
    if not arguments:  # `()`: nothing black could split
        return f"_build_{op.method_name}()"
    return blackstyle.call(f"_build_{op.method_name}(", arguments)


def client_path(op: Operation) -> str:
    """The request's URL: its path, whole (an absolute URL) under the operation's own server."""
    whole = (op.server or "") + op.path
    if not op.path_params:
        return literal(whole)
    path = whole.replace("{", "{{").replace("}", "}}")
    for param in op.path_params:
        exploded = ", True" if param.shape == "object" and param.explode else ""
        path = path.replace("{{" + param.wire + "}}", "{_path(" + param.name + exploded + ")}")
    return "f" + literal(path)


def challenge(scheme: SecurityScheme, title: str) -> str:
    """The WWW-Authenticate challenge a 401 of `scheme` carries."""
    if scheme.kind == "basic":
        return f'Basic realm="{_quoted(title)}"'
    if scheme.kind == "api_key":
        return f'APIKey in="{scheme.location}", name="{_quoted(scheme.parameter or "")}"'
    if scheme.kind == "other" and scheme.http_scheme:
        return scheme.http_scheme.capitalize()
    return "Bearer"


def _quoted(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"')
