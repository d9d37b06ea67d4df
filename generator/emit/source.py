"""Python source of the model's pieces: type expressions, annotations, defaults, signatures.

The templates print what these return; nothing else turns the model into Python text, and
nothing here decides from text it has already produced.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from ..model.ir import (
    ErrorClass,
    FieldDef,
    FormField,
    ModelDef,
    Operation,
    Parameter,
    Representation,
    Response,
)
from ..model.literal import literal
from ..model.typeref import TypeRef
from . import blackstyle
from .defaults import Defaults, Spell, fresh

# An enum's base classes by its values' type (the last one is what `enum` exports).
ENUM_BASES: dict[str, tuple[str, ...]] = {"str": ("StrEnum",), "int": ("IntEnum",),
                                          "float": ("float", "Enum")}

def type_source(ref: TypeRef, prefix: str = "") -> str:
    """A type expression, with `prefix` before generated model names (`models.` outside models.py)."""
    if ref.kind == "any":
        text = "Any"
    elif ref.kind == "builtin":
        text = ref.name
    elif ref.kind == "model":
        text = prefix + ref.name
    elif ref.kind == "list":
        text = f"list[{type_source(ref.args[0], prefix)}]"
    elif ref.kind == "tuple":
        text = "tuple[" + (", ".join(type_source(a, prefix) for a in ref.args) or "()") + "]"
    elif ref.kind == "dict":
        text = f"dict[str, {type_source(ref.args[0], prefix)}]"
    elif ref.kind == "literal":
        text = "Literal[" + ", ".join(literal(v) for v in ref.literals) + "]"
    else:  # a union
        text = " | ".join(dict.fromkeys(type_source(a, prefix) for a in _merge_literals(ref.args)))
    kwargs = [(key, literal(value)) for key, value in ref.constraints]
    if ref.discriminator and not ref.open:
        kwargs.append(("discriminator", literal(ref.discriminator)))
    metadata = [f"Field({', '.join(f'{k}={v}' for k, v in kwargs)})"] if kwargs else []
    if ref.open:  # `_enums.OpenUnion`: in a response, what no member takes is kept
        text += " | UnknownMember"
        metadata.insert(0, f"OpenUnion({literal(ref.discriminator) if ref.discriminator else ''})")
    if ref.excluded is not None:
        types, values = ref.excluded
        metadata.append(f"AfterValidator({prefix}Excluding({literal(types)}, {literal(values)}))")
    metadata.extend(f"AfterValidator({prefix}check_{check})" for check in ref.checks)
    if metadata:
        text = f"Annotated[{text}, {', '.join(metadata)}]"
    if ref.is_nullable and ref.kind != "any" and not _names_none(ref):
        text += " | None"
    return text


def _merge_literals(args: tuple[TypeRef, ...]) -> list[TypeRef]:
    """Union members, not nullable, with plain literals as one (`Literal[1, 2]`, not ruff's
    PYI030 `Literal[1] | Literal[2]`), where the first of them stood."""
    members = [a.with_nullable(False) for a in args]
    plain = [i for i, m in enumerate(members) if m.kind == "literal" and m.bare() is m]
    if len(plain) < 2:
        return members
    values = {(type(v), v): v for i in plain for v in members[i].literals}  # 1 is not True
    merged = TypeRef("literal", literals=tuple(values.values()))
    return [merged if i == plain[0] else m for i, m in enumerate(members)
            if i == plain[0] or i not in plain]


def _names_none(ref: TypeRef) -> bool:
    """The expression already spells `None` as a member (`None`, or a union holding it)."""
    if ref.constraints or ref.discriminator or ref.excluded is not None or ref.checks or ref.open:
        return False
    if ref.kind == "builtin":
        return ref.name == "None"
    return ref.kind == "union" and any(_names_none(a.with_nullable(False)) for a in ref.args)


# -- models ------------------------------------------------------------------------------------
def field_annotation(field: FieldDef, prefix: str = "") -> str:
    kind = field.type if field.required or field.has_default else field.type.with_nullable()
    return type_source(kind, prefix)


def _bound_names(ref: TypeRef) -> set[str]:
    """Names a type expression's source looks up when evaluated (`datetime` for datetime.date)."""
    found = {name.split(".")[0] for name in ref.names()}
    stack = [ref]
    while stack:
        item = stack.pop()
        if item.kind in ("list", "tuple", "dict"):
            found.add(item.kind)
        stack.extend(item.args)
    return found


def quoted_fields(classes: Sequence[ModelDef], aliases: Iterable[str]) -> dict[str, frozenset[str]]:
    """Per class, the fields whose annotations models.py writes as strings.

    models.py does not defer annotations (`from __future__ import annotations`): pydantic
    would compile every string at import. Python evaluates the others in the class body, so a
    string is needed where a name is not bound yet: a class defined further on (or this one),
    an alias (they follow the classes); and for every field of a class where a field's name
    would shadow a name its annotations use (`list: list[str] | None = None`).
    """
    pending = {*(m.name for m in classes), *aliases}
    done: set[str] = set()
    quoted: dict[str, frozenset[str]] = {}
    for model in classes:
        names = {f.name: _bound_names(f.type) for f in model.fields}
        if model.extra_type is not None:
            names["__pydantic_extra__"] = _bound_names(model.extra_type)
        if set(names) & set().union(*names.values()):
            quoted[model.name] = frozenset(names)
        else:
            quoted[model.name] = frozenset(k for k, n in names.items() if n & (pending - done))
        done.add(model.name)
    return quoted


def _field_value(field: FieldDef, defaults: Defaults) -> blackstyle.Expr | None:
    """The right-hand side of a model field: `Field(...)`, a bare default, or None for neither."""
    default = defaults.source(field.default, field.type)
    kwargs: list[str] = []
    if fresh(field):  # a list, a dict, a model: built afresh per use
        factory = {"[]": "list", "{}": "dict"}.get(default, f"lambda: {default}")
        kwargs.append(f"default_factory={factory}")
    elif not field.required:
        kwargs.append(f"default={default}")
    if field.has_alias:
        kwargs.append(f"alias={literal(field.wire)}")
    if field.description:
        kwargs.append(f"description={literal(field.description)}")
    if not kwargs:
        return None
    if not uses_field_call(field):
        return default
    return blackstyle.call("Field(", kwargs)


def field_statement(field: FieldDef, annotation: str, defaults: Defaults) -> str:
    """A model field's line(s) in its class body: `name: annotation = Field(...)`."""
    return blackstyle.annotated("    ", field.name, annotation, _field_value(field, defaults))


def class_constant(name: str, annotation: str, function: str, items: Sequence[str]) -> str:
    """`name: annotation = function([items...])` in a class body (`frozenset([...])`)."""
    listed = blackstyle.call("[", [literal(item) for item in items], "]")
    return blackstyle.statement("    ", f"{name}: {annotation} = ", blackstyle.call(f"{function}(", [listed]))


def uses_field_call(field: FieldDef) -> bool:
    """The field's value is a `Field(...)` call (it needs one for an alias, a factory, a text)."""
    return field.has_alias or bool(field.description) or fresh(field)


# -- parameters, bodies, results ---------------------------------------------------------------
def param_annotation(param: Parameter, prefix: str = "models.") -> str:
    kind = param.effective_type
    return type_source(kind.bare().with_nullable(kind.nullable), prefix)


def param_default(param: Parameter, spell: Spell) -> str | None:
    """Source of the parameter's default (`spell`: `defaults.parameter_defaults`); None when
    it is required."""
    if param.required:
        return None
    return spell(param) if param.default is not None else "None"


def param_marker_arguments(param: Parameter,
                           spell: Spell) -> list[blackstyle.Expr]:
    """The arguments of the parameter's FastAPI marker (`Query(...)`, `Depends(...)`)."""
    if param.from_text and param.location != "query":
        key = param.name if param.location == "path" else param.wire  # the route's path: names
        shaped = [f"shape={literal(param.shape)}", f"exploded={param.explode}"] if (
            param.shape == "object") else []
        return [blackstyle.call("text_parameter(", [
            literal(param.location), literal(key), type_source(param.effective_type, "models."),
            str(param_default(param, spell)), *shaped])]
    if param.parsed:
        exploded = ([f"keys={literal(param.keys)}", f"others={literal(param.others)}"]
                    if param.exploded else ["repeated=True"] if param.from_text and (
                        param.shape == "array") else [])
        return [blackstyle.call("query_parameter(", [
            literal(param.wire), literal(param.style), literal(param.shape),
            type_source(param.effective_type, "models."), str(param_default(param, spell)), *exploded])]
    kwargs: list[blackstyle.Expr] = [f"alias={literal(param.wire)}"] if param.name != param.wire or param.location == "header" else []
    kwargs.extend(f"{k}={literal(v)}" for k, v in param.type.constraints)
    return kwargs


def response_source(response: Response, binary: str = "bytes") -> str:
    """The Python type of one success response's body: the union of its media types' types
    (`binary="Binary"`: the server's, whose text may also be streamed and events are an
    async iterable)."""
    kinds = response.representations or (response.primary,)
    return " | ".join(dict.fromkeys(m for r in kinds for m in representation_source(r, binary)))


def representation_source(rep: Representation, binary: str) -> tuple[str, ...]:
    if rep.kind == "json" and rep.type is not None:  # the server's unions closed (`model.unions`)
        return (type_source(rep.type.closed() if binary == "Binary" else rep.type, "models."),)
    if rep.kind == "events":
        data = event_data_source(rep)
        return (f"AsyncIterable[{data} | ServerEvent]" if binary == "Binary"
                else f"Iterator[Event[{data}]]",)
    if rep.kind == "text" and binary == "Binary":
        return ("str", "Binary")
    return ({"binary": binary, "text": "str"}.get(rep.kind, "None"),)


def event_data_source(rep: Representation) -> str:
    """The type of an event's `data`: the declared event schema's, else the text as sent."""
    return type_source(rep.type, "models.") if rep.type is not None else "str"


def events_of(op: Operation) -> Representation:
    """The `text/event-stream` media type of an operation that streams events."""
    if op.also_events is not None:
        return op.also_events
    return next(r for s in op.success for r in s.representations if r.kind == "events")


def result_annotation(op: Operation, binary: str = "bytes") -> str:
    """The return annotation of the operation's server and client methods."""
    return _union(response_source(r, binary) for r in op.success)


def server_result(op: Operation) -> str:
    """The server method's return annotation: a `Reply` too when the operation declares headers."""
    members = [response_source(r, "Binary") for r in op.success]
    base = _union(members)
    if not op.headers_class:
        return base
    return _union([*members, f"Reply[{base}, {op.headers_class}]"])


def _union(members: Iterable[str]) -> str:
    """`A | B`, each member once, `None` last (ruff RUF036); `None` for no member."""
    unique = dict.fromkeys(members)
    ordered = [m for m in unique if m != "None"] + (["None"] if "None" in unique else [])
    return " | ".join(ordered) or "None"


def headers_class_source(op: Operation) -> str:
    """The dataclass of an operation's declared response headers (server and client)."""
    return headers_sources()(op)


def headers_sources() -> Callable[[Operation], str]:
    """`headers_class_source` for one module's operations in order: an operation declaring the
    same headers as an earlier one gets a subclass of that one's class (its own name, type and
    repr, a few lines instead of a dozen per header; Twilio declares the same five on all)."""
    first: dict[tuple[tuple[str, str, bool, str], ...], str] = {}

    def source(op: Operation) -> str:
        headers = tuple((h.name, type_source(h.type, "models."), h.required, h.wire)
                        for h in sorted(op.response_headers, key=lambda h: not h.required))
        base = first.setdefault(headers, str(op.headers_class))
        if base != op.headers_class:
            return (blackstyle.class_line(str(op.headers_class), [base]) + "\n"
                    f'    """Response headers of {op.id}: the fields of {base}."""')
        lines = []
        for name, kind, required, wire_name in headers:
            wire = blackstyle.call("metadata={", [f'"wire": {literal(wire_name)}'], "}")
            field = blackstyle.call("dataclasses.field(", [
                *([] if required else ["default=None"]), wire])
            lines.append(blackstyle.annotated(
                "    ", name, kind if required else f"{kind} | None", field))
        return "\n".join(["@dataclasses.dataclass(frozen=True)", f"class {op.headers_class}:",
                          f'    """Response headers of {op.id} (field: wire name)."""', "",
                          *lines])

    return source


def error_body_type(error: ErrorClass) -> str:
    """The `body` type of a declared error: the JSON model, None when empty, else Any."""
    if error.response.type is not None:
        return type_source(error.response.type, "models.")
    return "None" if error.response.kind == "empty" else "Any"


def body_annotation(op: Operation) -> str:
    assert op.body is not None
    if op.body.kind == "json":
        assert op.body.type is not None
        text = type_source(op.body.type, "models.")
    elif op.body.is_form:
        text = op.body.form_class or "Any"
    elif op.body.kind == "text":
        text = "str"
    else:
        text = "bytes"
    return text if op.body.required else f"{text} | None"


def form_field_type(field: FormField) -> str:
    if field.is_file_list:
        return "list[UploadFile]"
    if field.is_file:
        return "UploadFile"
    return type_source(field.type.bare(), "models.")
