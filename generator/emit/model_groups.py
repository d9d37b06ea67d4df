"""The models of a large contract in parts imported on first use (issue 28, "Large contracts").

A pydantic class statement costs about 0.4 ms even with `defer_build`: a contract of 2,000
schemas would spend most of a second making classes nobody uses. Past `LAZY_THRESHOLD`
definitions, models.py is an index (PEP 562 `__getattr__`, with `TYPE_CHECKING` imports so
type checkers read every name); `_models_base.py` holds the base class and the validators;
`_models_NN.py` each hold enums, or a run of the strongly connected components of the
reference graph, dependencies first, so a part imports only earlier parts (no import cycle)
and a cycle of references never spans two parts.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..model.ir import AliasDef, Api, Definition, EnumDef, ModelDef
from . import source
from .defaults import Defaults
from .imports import ImportSet

# Definitions (classes and aliases) up to which models.py stays one module.
LAZY_THRESHOLD = 150
# Definitions a part holds at least (a component is never split): smaller parts build less
# that was not asked for, larger ones import fewer modules.
PART_SIZE = 25
BASE = "_models_base"


def is_lazy(api: Api) -> bool:
    """True when the models are split into parts imported on first use."""
    return sum(not isinstance(d, EnumDef) for d in api.definitions) > LAZY_THRESHOLD


def ordered_aliases(aliases: list[AliasDef]) -> list[AliasDef]:
    """Aliases are runtime expressions: each must follow the aliases it uses."""
    by_name = {a.name: a for a in aliases}
    done: list[AliasDef] = []
    state: dict[str, int] = {}

    def visit(alias: AliasDef) -> None:
        if state.get(alias.name):
            return
        state[alias.name] = 1
        for dep in sorted(alias.dependencies()):
            if dep in by_name:
                visit(by_name[dep])
        state[alias.name] = 2
        done.append(alias)

    for alias in aliases:
        visit(alias)
    return done


def components(definitions: Sequence[Definition]) -> list[list[Definition]]:
    """Strongly connected components of the references (Tarjan), each after those it uses."""
    by_name = {d.name: d for d in definitions}
    edges = {d.name: sorted(n for n in d.dependencies() if n in by_name) for d in definitions}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[Definition]] = []
    for root in sorted(by_name):
        if root in index:
            continue
        work = [(root, 0)]
        while work:  # iterative: a chain of thousands of schemas would overflow recursion
            name, at = work.pop()
            if at == 0:
                index[name] = low[name] = len(index)
                stack.append(name)
                on_stack.add(name)
            if at < len(edges[name]):
                work.append((name, at + 1))
                dep = edges[name][at]
                if dep not in index:
                    work.append((dep, 0))
                elif dep in on_stack:
                    low[name] = min(low[name], index[dep])
                continue
            if work and work[-1][0] != name:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[name])
            if low[name] == index[name]:
                members: list[str] = []
                while not members or members[-1] != name:
                    members.append(stack.pop())
                    on_stack.discard(members[-1])
                found.append([by_name[n] for n in sorted(members)])
    return found


def parts(api: Api) -> list[list[Definition]]:
    """The definitions in parts, each importing only parts before it: the enums first, by
    name; then each component, dependencies first, joins the last part it uses (so that a
    part imports few others), else a new part where that one is full; components that use
    no other fill parts of their own."""
    enums = sorted((d for d in api.definitions if isinstance(d, EnumDef)), key=lambda d: d.name)
    out: list[list[Definition]] = [list(enums[at:at + PART_SIZE])
                                   for at in range(0, len(enums), PART_SIZE)]
    first, leaves = len(out), -1
    home: dict[str, int] = {}
    for component in components([d for d in api.definitions if not isinstance(d, EnumDef)]):
        used = [home[n] for d in component for n in d.dependencies() if n in home]
        target = max(used, default=leaves)
        if target < first or len(out[target]) >= PART_SIZE:
            out.append([])
            target = len(out) - 1
            leaves = leaves if used else target
        out[target].extend(component)
        home.update((d.name, target) for d in component)
    return out


def part_module(number: int, count: int) -> str:
    """`_models_07`: numbered with as many digits as the last part needs."""
    return f"_models_{number:0{len(str(count))}d}"


def definition_imports(imports: ImportSet, enums: Sequence[EnumDef], classes: Sequence[ModelDef],
                       aliases: Sequence[AliasDef]) -> ImportSet:
    """Adds what the enum and class statements and alias assignments of the definitions name
    (their types, by `add_type_names`): the models templates call it."""
    for enum in enums:
        imports.name("enum", source.ENUM_BASES[enum.value_type][-1])
    if any(not enum.closed for enum in enums):
        imports.name("._enums", "unknown_member")
    if any(m.extra_type for m in classes) or any(
        source.uses_field_call(f) for m in classes for f in m.fields
    ):
        imports.name("pydantic", "Field")
    if any(m.non_nullable or m.dropped or m.required_extra for m in classes):
        imports.name("typing", "ClassVar")
    if any(m.extra != "allow" for m in classes):
        imports.name("pydantic", "ConfigDict")
    if aliases:
        imports.name("pydantic", "TypeAdapter")
    if any(not a.recursive for a in aliases):
        imports.name("typing", "TypeAlias")
    if any(a.recursive for a in aliases):
        imports.name("typing_extensions", "TypeAliasType")
    imports.types(field.type for model in classes for field in model.fields)
    imports.types(model.extra_type for model in classes if model.extra_type)
    return imports.types(alias.type for alias in aliases)


def part_contexts(api: Api) -> dict[str, dict[str, object]]:
    """Module name -> context of `models_part.py.jinja`, for each part."""
    split = parts(api)
    names = [part_module(n, len(split)) for n in range(1, len(split) + 1)]
    home = {d.name: names[n] for n, part in enumerate(split) for d in part}
    defaults = Defaults(api.definitions)
    out: dict[str, dict[str, object]] = {}
    for module, part in zip(names, split, strict=True):
        classes = [d for d in part if isinstance(d, ModelDef)]
        aliases = ordered_aliases([d for d in part if isinstance(d, AliasDef)])
        own = {d.name for d in part}
        out[module] = {
            "enums": [d for d in part if isinstance(d, EnumDef)], "classes": classes,
            "aliases": aliases, "quoted": source.quoted_fields(classes, (a.name for a in aliases)),
            "defaults": defaults,
            # the names it refers to, by the module that defines them
            "refers": [(name, home.get(name, BASE))
                       for name in sorted({n for d in part for n in d.dependencies()} - own)],
        }
    return out


def index_context(api: Api, helpers: Iterable[str]) -> dict[str, object]:
    """The context of `models_index.py.jinja`: where each name lives."""
    split = parts(api)
    where = dict.fromkeys(helpers, BASE)
    for number, part in enumerate(split, 1):
        module = part_module(number, len(split))
        for d in part:
            where[d.name] = module
            if isinstance(d, AliasDef):
                where[d.adapter] = module
    every = definition_imports(ImportSet(), [], [d for d in api.definitions if isinstance(d, ModelDef)],
                               [d for d in api.definitions if isinstance(d, AliasDef)])
    if every.has("._enums", "UnknownMember"):  # an open union's (`model.unions`)
        where["UnknownMember"] = "_enums"
    # The validators too (`models.check_uri`...): a name a type checker reads from an import is
    # exported when `__all__` lists it.
    return {"where": sorted(where.items()), "parts": len(split)}
