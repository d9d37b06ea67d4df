"""Render the intermediate model through the Jinja2 templates: each module's Python source,
unformatted (black's layout comes after, from `emit.formatting`, which `api.render` calls).
Each template declares the imports and `__all__` of what it writes (`imports.ImportSet`); the
contexts here give it facts and helpers."""

from __future__ import annotations

import functools
import keyword
import re
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from ..model.ir import AliasDef, Api, EnumDef, ModelDef, Operation
from ..model.naming import snake_case
from ..model.paths import content_types, narrowed
from ..problems import Level, Problem, SpecError
from ..version import generated_header
from . import (
    client_source,
    error_shapes,
    hooks,
    matching,
    media,
    model_groups,
    routes,
    signatures,
    source,
    vouch,
)
from .defaults import Defaults, Spell, parameter_defaults
from .environment import builtin_templates, environment_of
from .error_tree import errors_context
from .imports import all_key, operation_types
from .memo import RenderMemo
from .templates import templates_dir

# Static modules: copied as they are (already black-formatted; a test keeps them so).
SERVER_RUNTIME = "_server_runtime.py"
SERVER_AUTH = "_server_auth.py"
SERVING = "_serving.py"
VERBATIM = frozenset({SERVER_RUNTIME, SERVER_AUTH, SERVING, "_server_media.py",
                      "_server_requests.py"})
CLIENT_VERBATIM = frozenset({"_client_streams.py", "_client_runtime.py", "_client_retry.py",
                             "_client_pages.py"})
MODELS_VERBATIM = frozenset({"_enums.py", "_json_types.py"})
HOOKS_VERBATIM = frozenset({"_webhook_signing.py"})

TEMPLATE_FILES = {
    "models.py": "models.py.jinja",
    "errors.py": "errors.py.jinja",
    "server.py": "server.py.jinja",
    "client.py": "client.py.jinja",
    "__init__.py": "__init__.py.jinja",
}


def template_names() -> list[str]:
    """The built-in templates a `templates` folder may replace, by file name: the Jinja ones and
    the runtime modules copied as they are."""
    verbatim = [name for name in VERBATIM | CLIENT_VERBATIM | MODELS_VERBATIM | HOOKS_VERBATIM
                if (templates_dir() / name).is_file()]
    return sorted([*builtin_templates(), *verbatim])


def check_overrides(folder: Path) -> None:
    """SpecError if a template override folder is missing or one of its files replaces nothing.

    A file named like a built-in template replaces it; other files must start with `_` (partials
    the overrides include), so a misspelt name is an error, not an override silently ignored.
    """
    if not folder.is_dir():
        raise SpecError.at("the templates folder does not exist", str(folder),
                           hint="point `templates` at a folder of overrides")
    known = set(template_names())
    problems = []
    for path in sorted(folder.rglob("*")):
        name = path.relative_to(folder).as_posix()
        if path.is_file() and name not in known and not name.startswith("_"):
            problems.append(Problem(
                Level.ERROR, f"{name} replaces no built-in template", str(path), None, None, "",
                f"name it after one of {', '.join(sorted(known))} (partials start with `_`)"))
    if problems:
        raise SpecError(problems)


def render_package(api: Api, templates: Path | None = None) -> dict[str, str]:
    """File name -> unformatted source, for every file of the generated package.

    Templates in the folder `templates` replace the built-in ones of the same name; a mistake
    in one (a name it does not define, a syntax error) is a SpecError located in its file.
    Every template reads `api` and `header` (the header comment, `version.generated_header`).
    """
    import jinja2

    try:
        return _render_package(api, templates)
    except jinja2.TemplateError as exc:
        if templates is None:
            raise
        raise SpecError([_template_problem(exc, templates)]) from None


def _template_problem(exc: Exception, templates: Path) -> Problem:
    """The override's line the Jinja error points at (Jinja writes template lines into the
    traceback), else the folder."""
    where, line = str(templates), getattr(exc, "lineno", None)
    frame = exc.__traceback__
    while frame is not None:
        name = frame.tb_frame.f_code.co_filename
        if Path(name).is_relative_to(templates.resolve()):
            where, line = name, frame.tb_lineno
        frame = frame.tb_next
    hint = ("an override that replaces a template whole declares its imports and `__all__` "
            "itself (docs/templates.md)") if "undefined" in str(exc) else None
    return Problem(Level.ERROR, f"template error: {exc}", where, line, None, "", hint)


def _render_package(api: Api, templates: Path | None) -> dict[str, str]:
    env = environment_of(str(templates.resolve()) if templates is not None else None)
    header = generated_header(api.spec, api.overlay, api.templates)
    contexts = {"models.py": _models_context, "errors.py": errors_context,
                "server.py": server_context, "client.py": client_context,
                "__init__.py": _init_context}
    wanted = {"models.py", "errors.py", "__init__.py"}
    wanted |= {f"{part}.py" for part in api.parts if part in ("server", "client")}
    # server.py and client.py read no model (`memo`): reused after an edit to one.
    memo = RenderMemo(api, header) if templates is None else None
    # What both read of the models besides the operations: the parameters' defaults as spelled
    # (and the client a few facts, below).
    spell = parameter_defaults(api)
    spelled = [spell(p) for op in api.operations for p in op.keyword_params
               if p.default is not None] if memo is not None else []
    files: dict[str, str] = {}
    if model_groups.is_lazy(api):
        wanted.discard("models.py")
        files.update(_lazy_models(api, env, header))
    for name in sorted(wanted):
        template = env.get_template(TEMPLATE_FILES[name])

        def rendered(template: Any = template, name: str = name) -> str:
            return str(template.render({"api": api, "header": header, **contexts[name](api)}))

        if memo is not None and name in ("server.py", "client.py"):
            facts = client_source.definition_facts(api) if name == "client.py" else None
            files[name] = memo.text(name, (facts, spelled), rendered)
        else:
            files[name] = rendered()
    for part, name in (("server", hooks.RECEIVER), ("client", hooks.SENDER)):
        if api.hooks and part in api.parts:
            template = env.get_template(hooks.TEMPLATES[name])
            files[name] = template.render(api=api, header=header,
                                          **hooks.hooks_context(api, name))
    for name, text in files.items():
        files[name] = vouch.blank_lines(text)
    verbatim = MODELS_VERBATIM | (VERBATIM if "server" in api.parts else frozenset()) | (
        CLIENT_VERBATIM if "client" in api.parts else frozenset()) | (
        HOOKS_VERBATIM if api.hooks else frozenset())
    texts = {}
    for static in sorted(verbatim):
        path = templates_dir() / static
        if templates is not None and (templates / static).is_file():
            path = templates / static
        texts[static] = path.read_text(encoding="utf-8")
    # `_serving.py` is the hand-written app's (`serve()`), which no generated module imports.
    for static in used_runtime(list(files.values()), texts, kept=(SERVING,)):
        files[static] = f"{header}\n{texts[static]}"
    files["openapi.json"] = api.spec_json
    return files


_RELATIVE_IMPORT = re.compile(r"^[ \t]*from \.(_\w+) import ", re.MULTILINE)


def used_runtime(sources: Sequence[str], runtime: dict[str, str],
                 kept: Sequence[str] = ()) -> list[str]:
    """The runtime modules (`runtime`: file name -> text) that `sources` import, directly or
    through each other, and those `kept` that `runtime` holds: a package carries only the
    runtime it uses (issue 38)."""
    used = {name for name in kept if name in runtime}
    pending = [*sources, *(runtime[name] for name in used)]
    while pending:
        for module in _RELATIVE_IMPORT.findall(pending.pop()):
            name = f"{module}.py"
            if name in runtime and name not in used:
                used.add(name)
                pending.append(runtime[name])
    return sorted(used)


# -- models ------------------------------------------------------------------------------------
def _models_context(api: Api, lazy: bool = False) -> dict[str, Any]:
    """models.py's context; `lazy`: that of `_models_base.py` (model_groups), with no class."""
    enums = [] if lazy else [d for d in api.definitions if isinstance(d, EnumDef)]
    classes = [] if lazy else [d for d in api.definitions if isinstance(d, ModelDef)]
    every_alias = [d for d in api.definitions if isinstance(d, AliasDef)]
    aliases = [] if lazy else model_groups.ordered_aliases(every_alias)
    return {
        "enums": enums,
        "classes": classes,
        "aliases": aliases,
        "quoted": source.quoted_fields(classes, (a.name for a in aliases)),
        "defaults": Defaults(api.definitions),
        "deferred_helper": any(not a.recursive for a in every_alias),
    }


def _model_helpers(api: Api) -> list[str]:
    """The public names besides enums that `_models_base.py` defines for the others."""
    checks = [f"check_{check}" for check in sorted(api.checks)]
    return [*(["Excluding"] if api.uses_excluding else []), *checks, "undefer_models"]


def _lazy_models(api: Api, env: Any, header: str) -> dict[str, str]:
    """models.py as an index, `_models_base.py` and the parts (model_groups)."""
    files = {f"{model_groups.BASE}.py": str(env.get_template(TEMPLATE_FILES["models.py"]).render(
        {"api": api, "header": header, **_models_context(api, lazy=True)}))}
    index = model_groups.index_context(api, _model_helpers(api))
    files["models.py"] = str(env.get_template("models_index.py.jinja").render(
        api=api, header=header, **index))
    part = env.get_template("models_part.py.jinja")
    contexts = model_groups.part_contexts(api)
    for number, (module, context) in enumerate(contexts.items(), 1):
        files[f"{module}.py"] = str(part.render(api=api, header=header, part=number,
                                                parts=len(contexts), **context))
    return files


# -- shared by server and client ------------------------------------------------------------------
def _uses_models(api: Api) -> bool:
    return any(any(True for _ in t.model_names()) for op in api.operations for t in operation_types(op))


def _success_media(op: Operation) -> str | None:
    return op.success[0].media_type if op.success else None


def _shared_requirements(api: Api) -> dict[Any, str]:
    """The security requirements more than one operation has, most used first, and the name
    each is written once under, after its alternatives (`_REQUIRES_NONE_OR_BEARER_AUTH`)."""
    counts = Counter(op.requirements for op in api.operations if op.secured)
    names: dict[Any, str] = {}
    for found, count in counts.most_common():
        if count > 1:
            name = "_REQUIRES_" + "_OR_".join("_AND_".join(_constant(scheme) for scheme, _ in needed)
                                     or "NONE" for needed in found)
            names[found] = error_shapes.unique(name, set(names.values()))
    return names


def _constant(name: str) -> str:
    return re.sub(r"\W+", "_", snake_case(name)).strip("_").upper() or "SCHEME"


def server_context(api: Api) -> dict[str, Any]:
    """What server.py's template reads besides `api` (`emit.memo` keys all of it)."""
    paths = {op.path for op in api.operations}
    serve_docs = not any(p == "/docs" or p.startswith("/docs/") for p in paths)
    builders, per_op = error_shapes.error_builders(api)
    spell = parameter_defaults(api)
    routed = matching.routed(api.operations)
    return {
        "uses_models": _uses_models(api),
        "negotiates": any(op.media_types for op in api.operations),
        "narrowed": narrowed(api.operations),
        "content_types": content_types(api.operations),
        "json_bodies": any(op.body is not None and op.body.kind == "json"
                           and not op.body.also_form for op in api.operations),
        "forms": [op.body for op in api.operations if op.body is not None and op.body.is_form],
        "error_builders": builders,
        "op_error_builders": per_op,
        # Requirements that several operations share are written once, named.
        "shared_requirements": _shared_requirements(api),
        "serve_spec": "/openapi.json" not in paths,
        "serve_docs": serve_docs,
        "redoc_url": None if "/redoc" in paths else "/redoc",
        "server_result": source.server_result,
        "route_path": routes.route_path,
        "server_path": routes.server_path,
        "call_arguments": routes.call_arguments,
        "call_argument_list": routes.call_argument_list,
        # Only the routed operations' parameters: one another route answers (OpenAI's
        # `/responses?beta=true`) has no route to name an alias in, nor its marker imported.
        "route_params": routes.RouteParams(routed, spell),
        "routed_operations": routed,
        **_bound(spell, signatures.server_signature, routes.route_signature, routes.route_def,
                 signatures.service_def),
        "challenge": signatures.challenge,
        "headers_source": source.headers_sources(),
        "error_media": error_shapes.error_media,
        "declared_error_media": error_shapes.declared_error_media(api),
        "wire_names": error_shapes.wire_names(api),
        "success_kind": media.success_kind,
        "success_media": _success_media,
        "form_field_type": source.form_field_type,
    }


def _bound(spell: Spell, *functions: Callable[..., Any]) -> dict[str, Callable[..., Any]]:
    """Context entries: `functions` by name, spelling parameters' defaults with `spell`."""
    return {f.__name__: functools.partial(f, spell=spell) for f in functions}


def _once_per_operation(entries: dict[str, Callable[..., Any]]) -> dict[str, Callable[..., Any]]:
    """`entries` (functions of an operation alone) computing each operation's value once: the
    client's four methods of an operation share its parameters."""
    def once(function: Callable[..., Any]) -> Callable[..., Any]:
        seen: dict[int, Any] = {}  # by id: the operations outlive the render

        def value(op: Operation) -> Any:
            if id(op) not in seen:
                seen[id(op)] = function(op)
            return seen[id(op)]
        return value
    return {name: once(function) for name, function in entries.items()}


# -- client ------------------------------------------------------------------------------------
def client_context(api: Api) -> dict[str, Any]:
    """What client.py's template reads besides `api` (`emit.memo` keys all of it)."""
    api = media.client_api(api)
    spell = parameter_defaults(api)
    return {
        **media.client_media(),
        "api": api,
        "uses_models": _uses_models(api),
        "item_types": client_source.item_types,
        "auth_fields": [(s.name, "tuple[str, str]" if s.kind == "basic" else "str")
                        for s in api.security_schemes],
        "headers_source": source.headers_sources(),
        "auth_class": all(s.name.isidentifier() and not keyword.iskeyword(s.name)
                          for s in api.security_schemes),
        **_once_per_operation(_bound(
            spell, signatures.client_signature, signatures.method_signature,
            signatures.client_params, signatures.method_params, signatures.accept_overloads,
            signatures.build_call, client_source.iter_params)),
        **client_source.ENTRIES,
        "client_path": signatures.client_path,
        "result_annotation": source.result_annotation,
        "item_annotation": client_source.item_annotation,
        "content_type_name": signatures.content_type_name,
        "body_content_type": signatures.body_content_type,
        "parsed_directly": client_source.parsed_directly(api),
    }


def _init_context(api: Api) -> dict[str, Any]:
    # The names the package exports, by the module that defines them: imported for type
    # checkers only, and at run time on first use (the template's `__getattr__`).
    modules = {"errors": ".errors", "models": ".models", "ApiError": ".errors",
               "UnexpectedStatus": ".errors", "UnknownMember": "._enums",
               "is_unknown": "._enums"}
    if "client" in api.parts:
        modules |= {"AsyncClient": ".client", "Client": ".client", "Retry": "._client_retry",
                    "NO_RETRY": "._client_retry"}
    if api.hooks:
        modules |= {"StandardWebhooks": "._webhook_signing",
                    "SignatureError": "._webhook_signing"}
    if "server" in api.parts:
        modules |= {name: ".server" for name in ("ServiceBase", "create_app", "create_router")}
    return {"lazy_modules": sorted(modules.items(), key=lambda item: all_key(item[0]))}
