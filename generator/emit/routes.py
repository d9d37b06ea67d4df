"""The server's route functions in `_add_routes`: their parameters, FastAPI markers and the
module-level aliases of the annotations several routes declare alike."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

from ..model.ir import Operation
from ..model.literal import literal
from . import blackstyle
from .source import (
    body_annotation,
    form_field_type,
    param_annotation,
    param_default,
    param_marker_arguments,
)


def route_path(op: Operation) -> str:
    path = op.path
    for param in op.path_params:
        path = path.replace("{" + param.wire + "}", "{" + param.name + "}")
    return path


def route_signature(op: Operation) -> str:
    return ", ".join(blackstyle.flat(param) for param in _route_params(op))


def route_def(op: Operation, aliases: Mapping[str, tuple[str, str]] | None = None) -> str:
    """The route function's `async def` line(s), inside `_add_routes`; a parameter whose
    annotation is one of `aliases` (`route_aliases`) is annotated with the alias's name."""
    return blackstyle.define("    ", f"async def {op.method_name}(", _route_params(op, aliases),
                             ") -> Response:")


# A route parameter: name, type, FastAPI marker, the marker's arguments, default (None: required).
_RouteParam = tuple[str, str, str, list[blackstyle.Expr], str | None]


def _annotation(kind: str, marker: str, arguments: Sequence[blackstyle.Expr]) -> blackstyle.Group:
    return blackstyle.call("Annotated[", [kind, blackstyle.call(f"{marker}(", arguments)], "]")


def route_aliases(operations: Iterable[Operation]) -> dict[str, tuple[str, str]]:
    """Route parameter annotations that more than one parameter declares alike (Twilio 2010:
    the account SID's pattern in 195 routes), each written once at module level: annotation
    text -> (alias, its definition). The alias is named after the marker and the parameter
    that declares it most often (the first of those: `_PathAccountSid`), numbered when two
    annotations would get one name (`_QueryStatus2`)."""
    uses: dict[str, list[_RouteParam]] = {}
    for op in operations:
        for param in _route_parts(op):
            if not isinstance(param, str):
                uses.setdefault(_annotation(*param[1:4]).text, []).append(param)
    aliases: dict[str, tuple[str, str]] = {}
    taken: set[str] = set()
    for text, params in uses.items():
        if len(params) < 2:
            continue
        _, kind, marker, arguments, _ = params[0]
        name = Counter(param[0] for param in params).most_common(1)[0][0]
        base = "_" + marker + "".join(word[:1].upper() + word[1:] for word in name.split("_"))
        alias, number = base, 1
        while alias in taken:
            number += 1
            alias = f"{base}{number}"
        taken.add(alias)
        aliases[text] = (alias, blackstyle.statement("", f"{alias} = ",
                                                     _annotation(kind, marker, arguments)))
    return aliases


def _annotated(param: _RouteParam, aliases: Mapping[str, tuple[str, str]] | None
               ) -> blackstyle.Expr:
    """`name: Annotated[kind, marker(arguments)]` (or `name: alias`), then ` = default`."""
    name, kind, marker, arguments, default = param
    closer = "]" if default is None else f"] = {default}"
    if aliases and (alias := aliases.get(_annotation(kind, marker, arguments).text)):
        return f"{name}: {alias[0]}" + ("" if default is None else f" = {default}")
    return blackstyle.Group(f"{name}: Annotated[",
                            (kind, blackstyle.call(f"{marker}(", arguments)), closer)


def _route_params(op: Operation, aliases: Mapping[str, tuple[str, str]] | None = None
                  ) -> list[blackstyle.Expr]:
    return [param if isinstance(param, str) else _annotated(param, aliases)
            for param in _route_parts(op)]


def _route_parts(op: Operation) -> list[_RouteParam | str]:
    required: list[_RouteParam | str] = []
    optional: list[_RouteParam | str] = []
    for param in op.path_params:
        kwargs: list[blackstyle.Expr] = [f"{k}={v}" for k, v in param.type.constraints]
        required.append((param.name, param_annotation(param), "Path", kwargs, None))
    if op.body is not None and op.body.kind == "json":
        if op.body.required:
            required.append(("body", body_annotation(op), "Body", [], None))
        else:
            optional.append(("body", body_annotation(op), "Body", [], "None"))
    elif op.body is not None and op.body.is_form:
        for field in op.body.form_fields:
            marker = "File" if field.is_file or field.is_file_list else "Form"
            alias: list[blackstyle.Expr] = (
                [f"alias={literal(field.wire)}"] if field.name != field.wire else [])
            kind = form_field_type(field)
            if field.required:
                required.append((field.name, kind, marker, alias, None))
            else:
                optional.append((field.name, f"{kind} | None", marker, alias, "None"))
    elif op.body is not None:
        required.append("request: Request")
    for param in op.keyword_params:
        default = param_default(param)
        annotated = (param.name, param_annotation(param), param.fastapi_marker,
                     param_marker_arguments(param), default)
        (required if default is None else optional).append(annotated)
    return required + optional


def call_arguments(op: Operation) -> str:
    return ", ".join(call_argument_list(op))


def call_argument_list(op: Operation) -> list[str]:
    """The route's arguments to its service method."""
    args = [p.name for p in op.path_params]
    if op.body is not None:
        args.append("form" if op.body.is_form else "body")
    args.extend(f"{p.name}={p.name}" for p in op.keyword_params)
    return args
