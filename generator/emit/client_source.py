"""Python source of the client's request builders: the entries of their dict literals."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from ..model.ir import AliasDef, Api, EnumDef, FormField, ModelDef, Operation, Response
from ..model.literal import literal
from ..model.typeref import TypeRef
from .defaults import Spell
from .signatures import accept_header, method_params
from .source import type_source


def parsed_directly(api: Api) -> Callable[[Response], bool]:
    """Whether `_parse_<op>` returns `_json(<type>, response)` for a success response as it is,
    without a `cast`: when mypy reads what comes back from the runtime's typed overload
    (`type[K] -> K`), i.e. the body's type is a class, a builtin, a `list`/`dict`/`tuple` or an
    alias of one (constrained or not); a union, a `Literal`, `Any`, a nullable type or an
    inline constrained one (`Annotated[...]`) is cast."""
    names, typed = definition_facts(api)
    classes = set(names)
    aliases = dict(typed)

    def inferred(ref: TypeRef, seen: frozenset[str] = frozenset()) -> bool:
        # mypy reads through an alias's `Annotated[...]` (not an inline one): `seen` is set
        # behind an alias.
        if ref.is_nullable or (not seen and (ref.constraints or ref.checks or ref.discriminator
                                             or ref.excluded is not None)):
            return False
        if ref.kind == "model":
            if ref.name in aliases and ref.name not in seen:
                return inferred(aliases[ref.name], seen | {ref.name})
            return ref.name in classes
        return (ref.kind == "builtin" and ref.name != "None") or ref.kind in (
            "list", "dict", "tuple")

    def direct(response: Response) -> bool:
        return (response.kind == "json" and len(response.representations) <= 1
                and response.type is not None and inferred(response.type))

    return direct


def definition_facts(api: Api) -> tuple[tuple[str, ...], tuple[tuple[str, TypeRef], ...]]:
    """All the client reads of the definitions (`parsed_directly`): the names of the classes,
    and each alias that is not recursive with its type. The client's rendered text is reused
    while these (and the operations) stay the same (`memo`)."""
    classes = tuple(d.name for d in api.definitions if isinstance(d, (ModelDef, EnumDef)))
    aliases = tuple((d.name, d.type) for d in api.definitions
                    if isinstance(d, AliasDef) and not d.recursive)
    return classes, aliases


def header_entries(op: Operation) -> list[str]:
    """`_texts({...})`'s entries: the Accept header the client sends, then header parameters."""
    entries = [f'"Accept": {accept_header(op)}'] if op.negotiates or op.streams_events else []
    return entries + [f"{literal(p.wire)}: {p.name}" for p in op.header_params]


def query_entries(op: Operation) -> list[str]:
    return [f"{literal(p.wire)}: {p.name}" for p in op.query_params]


def styled_entries(op: Operation) -> list[str]:
    """Each styled query parameter's (style, shape, exploded)."""
    return [f"{literal(p.wire)}: ({literal(p.style)}, {literal(p.shape)}, {p.exploded})"
            for p in op.query_params if p.styled]


def form_entries(fields: Iterable[FormField]) -> list[str]:
    return [f"{literal(f.wire)}: {f.name}" for f in fields]


def form_styles(fields: Iterable[FormField]) -> list[str]:
    """Each deepObject form field's (style, shape, exploded), as `_queries` reads them."""
    return [f'{literal(f.wire)}: ("deepObject", "object", True)' for f in fields if f.deep]


def iter_params(op: Operation, spell: Spell) -> list[str]:
    """A paged operation's `<method>_iter` parameters: the method's, then `page_size` and
    `max_items` (keyword-only) unless the operation has a parameter so named (Twilio's
    `PageSize` is `page_size`: the same thing)."""
    params = method_params(op, spell)
    taken = {p.split(":")[0].split("=")[0].strip() for p in params}
    extra = [f"{n}: int | None = None" for n in ("page_size", "max_items") if n not in taken]
    return [*params, *([] if "*" in params or not extra else ["*"]), *extra]


def item_types(op: Operation) -> tuple[TypeRef, ...]:
    """The type of the items `<method>_iter` yields, as its annotation reads it: without the
    constraints and metadata a model's field carries (none where it is not known)."""
    item = op.paging.item if op.paging is not None else None
    if item is None:
        return ()
    return (TypeRef(item.kind, item.name, item.args, item.literals, nullable=item.nullable),)


def item_annotation(op: Operation) -> str:
    """`<method>_iter`'s item type (`Iterator[...]`): `Any` where the contract does not show
    it; an open union's `UnknownMember` included."""
    item = op.paging.item if op.paging is not None else None
    if item is None:
        return "Any"
    text = type_source(item_types(op)[0], "models.")
    return f"{text} | UnknownMember" if item.open else text


# What the client template calls these.
ENTRIES: dict[str, Callable[..., list[str]]] = {
    "header_entries": header_entries, "query_entries": query_entries,
    "styled_entries": styled_entries, "form_entries": form_entries,
    "form_styles": form_styles}
