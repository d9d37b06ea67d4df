"""The tests `generate --sdk` writes beside the client (`tests/test_mock.py`): the client against
`contractgen mock` of the contract it ships (`<import name>/openapi.json`), no backend needed.

- One test per operation whose lowest 2xx answers JSON: called with made-up valid arguments
  (`contractgen.mock.requests.MadeUp`: required parameters and body only) against a stateless
  mock; its answer must come back typed (`isinstance` of the declared model).
- One CRUD test per collection the mock keeps (`Crud`, recognised by `mock.state`): create,
  read it back, find it in the list, update it, delete it, then the declared 404.

Operations the tests cannot call with made-up values (a form, file or text body) are named in the
module's docstring, with why.
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

from ..model.definitions import AliasDef, Definition, ModelDef
from ..model.ir import Api, Operation, Parameter
from ..model.literal import literal
from ..model.paths import answered_by
from ..model.typeref import TypeRef
from .source import param_annotation, type_source


@dataclass(frozen=True)
class Crud:
    """A collection the mock keeps: its path, the item's id field (wire name) and the operation
    ids by role (`create`, `get`, `list`, `put`, `patch`, `delete`)."""

    path: str
    item_path: str
    id_field: str
    roles: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class _Context:
    api: Api
    import_name: str
    by_id: Mapping[str, Operation]
    definitions: Mapping[str, Definition] = field(default_factory=dict)
    # operations the server routes no request to (`model.paths.answered_by`): id -> the other
    shadowed: Mapping[str, Operation] = field(default_factory=dict)

    def skipped(self, op: Operation) -> str | None:
        """Why the tests do not call `op`; None when they do."""
        other = self.shadowed.get(op.id)
        if other is not None:
            return f"its requests are {other.id}'s, at the same method and path"
        return uncallable(op)

    def model(self, kind: TypeRef | None) -> ModelDef | None:
        """The class `kind` names (through aliases of one), None when it is no model class."""
        for _ in range(10):
            if kind is None or kind.kind != "model" or kind.is_nullable:
                return None
            found = self.definitions.get(kind.name)
            if isinstance(found, ModelDef):
                return found
            if not isinstance(found, AliasDef) or found.recursive:
                return None
            kind = found.type
        return None


def _answer_type(op: Operation) -> TypeRef | None:
    """The JSON type of the lowest declared 2xx, None when it is not JSON."""
    coded = sorted((r for r in op.success if r.status_code is not None),
                   key=lambda r: r.status_code or 0)
    first = coded[0] if coded else (op.success[0] if op.success else None)
    if first is None or first.kind != "json" or first.primary.type is None:
        return None
    return first.primary.type


def uncallable(op: Operation) -> str | None:
    """Why the tests do not call `op` with made-up values; None when they do."""
    if op.body is not None and op.body.kind != "json" and (
            op.body.required or any(f.required for f in op.body.form_fields)):
        return f"its {op.body.media_type} body is not made up"
    if op.body is not None and op.body.required and "json-patch" in op.body.media_type:
        return "a JSON Patch is not made up"
    if any(p.location == "cookie" and p.required for p in op.keyword_params):
        return "a required cookie is not made up"
    return None


def _argument(op: Operation, param: Parameter) -> str:
    return f"{param.name}=made.parameter({literal(op.id)}, {literal(param.location)}, " \
           f"{literal(param.wire)})"


def _arguments(ctx: _Context, op: Operation, given: Mapping[str, str] | None = None) -> str:
    """The call's arguments: required parameters made up (or `given`: Python name -> source),
    and a required JSON body, validated into its model (or its alias's adapter)."""
    given = given or {}
    parts = [f"{p.name}={given[p.name]}" if p.name in given else _argument(op, p)
             for p in (*op.path_params, *op.keyword_params) if p.required or p.name in given]
    if op.body is not None and op.body.required and op.body.type is not None:
        made = f"made.body({literal(op.id)})"
        kind = op.body.type
        alias = ctx.definitions.get(kind.name) if kind.kind == "model" else None
        if ctx.model(kind) is not None and not isinstance(alias, AliasDef):
            made = f"models.{kind.name}.model_validate({made})"
        elif isinstance(alias, AliasDef) and alias.adapter and not kind.is_nullable:
            made = f"models.{alias.adapter}.validate_python({made})"
        parts.append(f"body={made}")
    return ", ".join(parts)


def _typed_check(ctx: _Context, name: str, kind: TypeRef) -> list[str]:
    """Asserts that `name` came back as `kind` says (its model classes, lists, builtins)."""
    model = ctx.model(kind)
    if model is not None:
        return [f"assert isinstance({name}, models.{model.name})"]
    if kind.kind == "model" and isinstance(ctx.definitions.get(kind.name), AliasDef):
        alias = ctx.definitions[kind.name]
        assert isinstance(alias, AliasDef)
        if not alias.recursive and not kind.is_nullable:
            return _typed_check(ctx, name, alias.type)
    kind = kind.bare() if not kind.is_nullable else kind
    if kind.kind == "list" and kind.args and ctx.model(kind.args[0]) is not None:
        item = ctx.model(kind.args[0])
        assert item is not None
        return [f"assert isinstance({name}, list)",
                f"assert all(isinstance(item, models.{item.name}) for item in {name})"]
    if kind.kind == "list":
        return [f"assert isinstance({name}, list)"]
    if kind.kind == "dict":
        return [f"assert isinstance({name}, dict)"]
    if kind.kind == "builtin" and kind.name in ("str", "int", "float", "bool"):
        return [f"assert isinstance({name}, {kind.name})"]
    return [f"# {type_source(kind, 'models.')}: validated by the client as it read the answer"]


def _operation_test(ctx: _Context, op: Operation) -> list[str] | None:
    kind = _answer_type(op)
    if kind is None or ctx.skipped(op) is not None:
        return None
    arguments = _arguments(ctx, op)
    uses = ", made: MadeUp" if "made." in arguments else ""
    return [
        "",
        "",
        f"def test_{op.method_name}(stateless: Client{uses}) -> None:",
        f'    """{op.id}: {op.http_method.upper()} {op.path} answers as declared."""',
        f"    result = stateless.{op.method_name}({arguments})",
        *(f"    {line}" for line in _typed_check(ctx, "result", kind)),
    ]


def _id_field(kind: TypeRef | None, ctx: _Context, wire: str) -> tuple[str, TypeRef] | None:
    """The attribute holding `wire` in the model class `kind`, and its type."""
    model = ctx.model(kind)
    found = next((f for f in model.fields if f.wire == wire), None) if model else None
    return (found.name, found.type) if found is not None else None


def _call(ctx: _Context, crud: Crud, role: str, parents: Mapping[str, str],
          ident: tuple[str, str] | None = None) -> tuple[Operation, str] | None:
    """The client call of the collection's `role`, its path parameters given: the parents' by
    wire name, and the item's (`ident`: wire name, variable)."""
    op = ctx.by_id.get(crud.roles.get(role, ""))
    if op is None or ctx.skipped(op) is not None:
        return None
    wanted = {**parents, **dict([ident] if ident else [])}
    given = {p.name: wanted[p.wire] for p in op.path_params if p.wire in wanted}
    return op, f"stateful.{op.method_name}({_arguments(ctx, op, given)})"


def _listed_ids(ctx: _Context, crud: Crud, parents: Mapping[str, str],
                attr: str) -> str | None:
    """An expression of the ids the collection lists (every page), None when it cannot say."""
    op = ctx.by_id.get(crud.roles.get("list", ""))
    if op is None or ctx.skipped(op) is not None or any(p.required for p in op.keyword_params):
        return None
    given = {p.name: parents[p.wire] for p in op.path_params if p.wire in parents}
    arguments = ", ".join(f"{k}={v}" for k, v in given.items())
    item = op.paging.item if op.paging is not None else None
    if op.paging is not None and item is not None and _id_field(item, ctx, crud.id_field):
        return f"[item.{attr} for item in stateful.{op.method_name}_iter({arguments})]"
    answer = _answer_type(op)
    if op.paging is None and answer is not None and answer.kind == "list" and _id_field(
            answer.args[0], ctx, crud.id_field):
        return f"[item.{attr} for item in stateful.{op.method_name}({arguments})]"
    return None


@dataclass(frozen=True)
class _Item:
    """What the CRUD test of a collection reads: its read, the item's path parameter, the
    create's and read's answer types, the id's attribute and type."""

    get: Operation
    param: Parameter
    created: TypeRef
    got: TypeRef
    attr: str
    id_type: TypeRef


def _item(ctx: _Context, crud: Crud) -> _Item | None:
    """None when the create or the read cannot be called so, or the id the create answers is
    typed apart from the read's path parameter."""
    create, get = (ctx.by_id.get(crud.roles.get(role, "")) for role in ("create", "get"))
    if create is None or get is None or ctx.skipped(create) or ctx.skipped(get):
        return None
    wire = crud.item_path.rsplit("{", 1)[-1].rstrip("}")
    param = next((p for p in get.path_params if p.wire == wire), None)
    created, got = _answer_type(create), _answer_type(get)
    found = _id_field(created, ctx, crud.id_field)
    if param is None or found is None or created is None or got is None:
        return None
    if type_source(found[1].bare()) != type_source(param.effective_type.bare()) \
            or param_annotation(param).endswith("| None"):
        return None
    return _Item(get, param, created, got, *found)


def _crud_test(ctx: _Context, crud: Crud) -> list[str] | None:
    """The CRUD of one collection (`_item`), each step where the contract has it."""
    item = _item(ctx, crud)
    create = ctx.by_id.get(crud.roles.get("create", ""))
    if item is None or create is None:
        return None
    lines: list[str] = []
    parents: dict[str, str] = {}
    for p in create.path_params:
        parents[p.wire] = p.name
        lines.append(f"{p.name} = made.parameter({literal(create.id)}, \"path\", "
                     f"{literal(p.wire)})")
    made = _call(ctx, crud, "create", parents)
    read = _call(ctx, crud, "get", parents, (item.param.wire, item.param.name))
    assert made is not None and read is not None
    var, ident = item.param.name, (item.param.wire, item.param.name)
    lines += [f"created = {made[1]}", *_typed_check(ctx, "created", item.created),
              f"{var} = created.{item.attr}"]
    if item.id_type.is_nullable or not _required(ctx, item.created, crud.id_field):
        lines.append(f"assert {var} is not None")
    if type_source(item.got) == type_source(item.created):
        lines.append(f"assert {read[1]} == created")
    else:
        lines += [f"read = {read[1]}", *_typed_check(ctx, "read", item.got)]
    listed = _listed_ids(ctx, crud, parents, item.attr)
    lines += [f"assert {var} in {listed}"] if listed is not None else []
    lines += _update(ctx, crud, parents, ident, item.attr)
    removed = _call(ctx, crud, "delete", parents, ident)
    if removed is not None:
        lines.append(removed[1])
        if any(e.response.status in ("404", "4XX", "4xx", "default") for e in item.get.errors):
            lines += ["with pytest.raises(errors.ApiError) as gone:", f"    {read[1]}",
                      "assert gone.value.status_code == 404"]
    steps = ", ".join(s for s, done in (
        ("create", True), ("read", True), ("list", listed is not None),
        ("update", any(line.startswith("updated = ") for line in lines)),
        ("delete", removed is not None), ("then the 404", "gone" in lines[-1])) if done)
    name = "_".join("".join(c if c.isalnum() else " " for c in crud.path).lower().split())
    return ["", "", f"def test_crud_{name or 'root'}(stateful: Client, made: MadeUp) -> None:",
            f'    """The collection {crud.path} the mock keeps: {steps}."""',
            *(f"    {line}" for line in lines)]


def _required(ctx: _Context, kind: TypeRef, wire: str) -> bool:
    model = ctx.model(kind)
    return model is not None and any(f.wire == wire and f.required for f in model.fields)


def _update(ctx: _Context, crud: Crud, parents: Mapping[str, str], ident: tuple[str, str],
            attr: str) -> list[str]:
    for role in ("patch", "put"):
        call = _call(ctx, crud, role, parents, ident)
        if call is None:
            continue
        answer = _answer_type(call[0])
        if answer is None:
            return [call[1]]
        if _id_field(answer, ctx, crud.id_field) is not None:
            return [f"updated = {call[1]}", *_typed_check(ctx, "updated", answer),
                    f"assert updated.{attr} == {ident[1]}"]
        return [f"updated = {call[1]}", *_typed_check(ctx, "updated", answer)]
    return []


def _credentials(api: Api) -> str | None:
    """A credential of the right form for each declared scheme (the mock checks no value)."""
    given = []
    for scheme in api.security_schemes:
        if scheme.kind == "basic":
            value = '("mock-user", "mock-password")'
        elif scheme.kind == "other":  # the whole Authorization header's value
            value = literal(f"{scheme.http_scheme or 'Custom'} mock-credential")
        else:
            value = literal("mock-credential")
        given.append(f"{literal(scheme.name)}: {value}")
    return "{" + ", ".join(given) + "}" if given else None


def _fixtures(name: str, stateful: bool, client: str) -> Iterator[str]:
    options = "" if stateful else ", MockOptions(stateless=True)"
    doc = ("A mock keeping what is created in the collections it recognises." if stateful
           else "A mock answering every call by the contract, keeping nothing.")
    yield from ["", "", '@pytest.fixture(scope="module")',
                f"def {name}() -> Iterator[Client]:", f'    """{doc}"""',
                f"    with serving(CONTRACT{options}) as url, {client} as client:",
                "        yield client"]


def sdk_tests(api: Api, import_name: str, cruds: list[Crud], header: str) -> str:
    """The source of the SDK's `tests/test_mock.py` (black's layout is the caller's)."""
    ctx = _Context(api, import_name, {op.id: op for op in api.operations},
                   {d.name: d for d in api.definitions}, answered_by(api.operations))
    tests = [line for op in api.operations for line in _operation_test(ctx, op) or ()]
    crud_tests = [line for crud in cruds for line in _crud_test(ctx, crud) or ()]
    skipped = [f"{op.id} ({reason})" for op in api.operations
               if _answer_type(op) is not None and (reason := ctx.skipped(op))]
    auth = _credentials(api)
    client = "Client(url, auth=AUTH)" if auth else "Client(url)"
    body = "\n".join(tests + crud_tests)
    imports = ["from __future__ import annotations", "",
               "from collections.abc import Iterator", "from importlib.resources import files",
               "from pathlib import Path", "", "import pytest",
               f"from contractgen.mock import {'MockOptions, ' if tests else ''}serving",
               "from contractgen.mock.requests import MadeUp", "",
               f"from {import_name} import {'errors, ' if 'errors.' in body else ''}models",
               f"from {import_name}.client import {'Auth, ' if auth else ''}Client"]
    about = (f"The client against `contractgen mock` of the contract it ships "
             f"(`{import_name}/openapi.json`), no backend needed: every operation answering "
             "JSON called with made-up valid arguments, its answer typed; then the CRUD of "
             "each collection the mock keeps. `pip install '.[test]'`, then `pytest`.")
    notes = [about] + (["Not called: "
                        + "; ".join(skipped) + "."] if skipped else [])
    text = "\n\n".join(textwrap.fill(n, 88, break_on_hyphens=False, break_long_words=False)
                        for n in notes)
    lines = [header, f'"""{text}', '"""', "", *imports, "",
             f'CONTRACT = Path(str(files("{import_name}") / "openapi.json"))',
             *([f"AUTH: Auth = {auth}"] if auth else []), "", "",
             '@pytest.fixture(scope="module")', "def made() -> MadeUp:",
             '    """Valid request values made up from the contract (the same on every run)."""',
             "    return MadeUp(CONTRACT)"]
    if tests:
        lines += _fixtures("stateless", False, client)
    if crud_tests:
        lines += _fixtures("stateful", True, client)
    return "\n".join(lines + tests + crud_tests) + "\n"
