"""The server's route functions in `_add_routes`: their parameters, FastAPI markers and the
module-level aliases of the annotations several routes declare alike."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from urllib.parse import urlsplit

from ..model.ir import Operation
from ..model.literal import literal
from ..model.paths import bare
from . import blackstyle
from .defaults import Spell
from .source import (
    body_annotation,
    param_annotation,
    param_default,
    param_marker_arguments,
    type_source,
)


def route_path(op: Operation) -> str:
    """The path the route is added at: parameters by their Python names, no `#fragment`."""
    path = bare(op.path)
    for param in op.path_params:
        path = path.replace("{" + param.wire + "}", "{" + param.name + "}")
    return path


def server_path(op: Operation) -> str:
    """The path of the operation's own server: where the stub routes it instead of the API's."""
    return urlsplit(op.server or "").path.rstrip("/")


def route_signature(op: Operation, spell: Spell) -> str:
    return ", ".join(blackstyle.flat(param) for param in _route_params(op, spell))


def route_def(op: Operation, spell: Spell) -> str:
    """The route function's `async def` line(s), every parameter annotated inline (for template
    overrides; the built-in template uses `RouteParams.define`)."""
    return _define(op, _route_params(op, spell))


def _define(op: Operation, params: list[blackstyle.Expr]) -> str:
    return blackstyle.define("    ", f"async def {op.method_name}(", params, ") -> Response:")


# A route parameter: name, type, FastAPI marker, the marker's arguments, default (None: required).
_RouteParam = tuple[str, str, str, list[blackstyle.Expr], str | None]


def _annotation(param: _RouteParam) -> blackstyle.Group:
    """`Annotated[kind, marker(arguments)]`."""
    _, kind, marker, arguments, _ = param
    return blackstyle.call("Annotated[", [kind, blackstyle.call(f"{marker}(", arguments)], "]")


class RouteParams:
    """Every route's parameters, read once, and the annotations that more than one parameter
    declares alike (Twilio 2010: the account SID's pattern in 195 routes), each written once at
    module level (`definitions`) and named there by the routes (`define`). An alias is named
    after its marker and the parameter that declares it most often (the first of those:
    `_PathAccountSid`), numbered when two annotations would get one name (`_QueryStatus2`).
    A form body's reader always has one, after its form class (`_CreateRoleFormBody`)."""

    def __init__(self, operations: Sequence[Operation], spell: Spell) -> None:
        # Per route (by its method name): a parameter written as it is (`request: Request`),
        # or one with its annotation.
        self.parts: dict[str, list[str | tuple[_RouteParam, blackstyle.Group]]] = {
            op.method_name: [param if isinstance(param, str) else (param, _annotation(param))
                             for param in _route_parts(op, spell)] for op in operations}
        uses: dict[str, list[tuple[_RouteParam, blackstyle.Group]]] = {}
        # A form body's reader is always an alias (`_CreateRoleFormBody`): written in the route,
        # its wire names would make the signature one black must lay out itself.
        bodies: dict[str, str] = {}
        for op in operations:
            for part in self.parts[op.method_name]:
                if not isinstance(part, str):
                    uses.setdefault(part[1].text, []).append(part)
                    if op.body is not None and op.body.is_form and part[0][0] == "form":
                        bodies[part[1].text] = f"_{op.body.form_class}Body"
        self.aliases: dict[str, str] = {}  # annotation text -> alias
        self.definitions: list[str] = []
        taken: set[str] = set()
        for text, found in uses.items():
            # An alias is evaluated at import, a route's annotation when FastAPI analyses
            # the route (server.py defers annotations): one naming models stays in the
            # routes, so that importing the server builds no model (issue 28).
            if text not in bodies and (len(found) < 2 or "models." in text):
                continue
            name = Counter(param[0] for param, _ in found).most_common(1)[0][0]
            base = bodies.get(text) or "_" + found[0][0][2] + "".join(
                word[:1].upper() + word[1:] for word in name.split("_"))
            alias, number = base, 1
            while alias in taken:
                number += 1
                alias = f"{base}{number}"
            taken.add(alias)
            self.aliases[text] = alias
            self.definitions.append(blackstyle.statement("", f"{alias} = ", found[0][1]))

    def define(self, op: Operation) -> str:
        """The route function's `async def` line(s), inside `_add_routes`; a parameter whose
        annotation has an alias is annotated with its name."""
        return _define(op, [part if isinstance(part, str)
                            else _annotated(*part, self.aliases.get(part[1].text))
                            for part in self.parts[op.method_name]])


def _annotated(param: _RouteParam, annotation: blackstyle.Group | None = None,
               alias: str | None = None) -> blackstyle.Expr:
    """`name: Annotated[kind, marker(arguments)]` (or `name: alias`), then ` = default`."""
    name, default = param[0], param[4]
    if alias is not None:
        return f"{name}: {alias}" + ("" if default is None else f" = {default}")
    items = (annotation or _annotation(param)).items
    return blackstyle.Group(f"{name}: Annotated[", items,
                            "]" if default is None else f"] = {default}")


def _route_params(op: Operation, spell: Spell) -> list[blackstyle.Expr]:
    return [param if isinstance(param, str) else _annotated(param)
            for param in _route_parts(op, spell)]


def _route_parts(op: Operation, spell: Spell) -> list[_RouteParam | str]:
    required: list[_RouteParam | str] = []
    optional: list[_RouteParam | str] = []
    for param in op.path_params:
        kwargs: list[blackstyle.Expr] = (param_marker_arguments(param, spell) if param.parsed else
                                         [f"{k}={literal(v)}" for k, v in param.type.constraints])
        required.append((param.name, param_annotation(param), param.fastapi_marker, kwargs, None))
    if op.body is not None and op.body.also_form:
        # JSON or a form, read into the same model by the runtime's `json_or_form`.
        assert op.body.type is not None
        either = [type_source(op.body.type, "models."), str(op.body.required)]
        required.append(("body", body_annotation(op), "Depends",
                         [blackstyle.call("json_or_form(", either)], None))
    elif op.body is not None and op.body.kind == "json":
        # Validated as JSON, with JSON Schema's types (FastAPI's Body() reads it as Python).
        typed = f"Annotated[{body_annotation(op)}, JsonTyped()]"
        if op.body.required:
            required.append(("body", typed, "Body", [], None))
        else:
            optional.append(("body", typed, "Body", [], "None"))
    elif op.body is not None and op.body.is_form:
        # Read by the runtime's `form_body`, which keeps `a=` as "" (FastAPI's Form() drops it).
        form_class = op.body.form_class or ""
        renamed = {f.name: f.wire for f in op.body.form_fields if f.name != f.wire}
        parts = tuple(f.name for f in op.body.form_fields if f.json)
        deep = tuple(f.name for f in op.body.form_fields if f.deep)
        names = blackstyle.call("{", [f"{literal(k)}: {literal(v)}" for k, v in renamed.items()],
                                "}")
        reader: list[blackstyle.Expr] = [
            form_class, *([names] if renamed else []),
            *([f"json={literal(parts)}"] if parts else []),
            *([f"deep={literal(deep)}"] if deep else []),
            *([] if op.body.required else ["required=False"])]
        kind = form_class if op.body.required else f"{form_class} | None"
        required.append(("form", kind, "Depends", [blackstyle.call("form_body(", reader)], None))
    elif op.body is not None:
        required.append("request: Request")
    for param in op.keyword_params:
        default = param_default(param, spell)
        annotated = (param.name, param_annotation(param), param.fastapi_marker,
                     param_marker_arguments(param, spell), default)
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
