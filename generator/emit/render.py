"""Render the intermediate model through the Jinja2 templates, then format with black."""

from __future__ import annotations

import functools
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ..model.ir import AliasDef, Api, EnumDef, ErrorClass, FormField, ModelDef, Operation, TypeRef
from .imports import ImportSet, add_type_names, name_key

# Static modules: copied as they are (already black-formatted; a test keeps them so).
SERVER_RUNTIME = "_server_runtime.py"
VERBATIM = frozenset({SERVER_RUNTIME})

TEMPLATE_FILES = {
    "models.py": "models.py.jinja",
    "errors.py": "errors.py.jinja",
    "server.py": "server.py.jinja",
    "client.py": "client.py.jinja",
    "__init__.py": "__init__.py.jinja",
}


def templates_dir() -> Path:
    """Installed wheels carry the templates inside the package; a checkout keeps them beside."""
    package = Path(__file__).resolve().parent.parent  # contractgen/, or generator/ in a checkout
    for candidate in (package / "templates", package.parent / "templates"):
        if (candidate / "models.py.jinja").is_file():
            return candidate
    raise FileNotFoundError("contractgen templates not found")


@functools.cache
def _environment() -> Any:
    import jinja2

    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(templates_dir())),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        autoescape=False,
    )
    env.filters["pyrepr"] = repr
    env.filters["all_list"] = lambda names: repr(sorted(names, key=name_key))
    env.filters["docstring"] = _docstring
    env.filters["comment"] = lambda text: "\n".join(
        ("# " + line).rstrip() for line in str(text).splitlines()
    )
    env.filters["firstline"] = lambda text: _docstring(str(text).strip().splitlines()[0])
    return env


def _docstring(text: Any, indent: int = 4) -> str:
    body = str(text).strip().replace("\\", "\\\\").replace('"""', '\\"\\"\\"')
    if body.endswith('"'):
        body += " "
    pad = " " * indent
    lines = body.splitlines()
    return "\n".join([lines[0], *[(pad + line).rstrip() for line in lines[1:]]]) if lines else ""


def render_package(api: Api) -> dict[str, str]:
    """File name -> unformatted source, for every file of the generated package."""
    env = _environment()
    contexts = {
        "models.py": _models_context,
        "errors.py": _errors_context,
        "server.py": _server_context,
        "client.py": _client_context,
        "__init__.py": _init_context,
    }
    wanted = {"models.py", "errors.py", "__init__.py"}
    wanted |= {f"{part}.py" for part in api.parts if part in ("server", "client")}
    files: dict[str, str] = {}
    for name in sorted(wanted):
        template = env.get_template(TEMPLATE_FILES[name])
        files[name] = template.render(api=api, **contexts[name](api))
    if "server" in api.parts:
        runtime = (templates_dir() / SERVER_RUNTIME).read_text(encoding="utf-8")
        files[SERVER_RUNTIME] = f"{api.header}\n{runtime}"
    files["openapi.json"] = api.spec_json
    return files


# -- models ------------------------------------------------------------------------------------
def _ordered_aliases(aliases: list[AliasDef]) -> list[AliasDef]:
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


def _models_context(api: Api) -> dict[str, Any]:
    enums = [d for d in api.definitions if isinstance(d, EnumDef)]
    classes = [d for d in api.definitions if isinstance(d, ModelDef)]
    aliases = _ordered_aliases([d for d in api.definitions if isinstance(d, AliasDef)])
    imports = ImportSet()
    imports.name("__future__", "annotations")
    imports.name("typing", "Any", "ClassVar")
    imports.name("pydantic", "BaseModel", "ConfigDict", "SerializationInfo",
                 "SerializerFunctionWrapHandler", "model_serializer", "model_validator")
    if any(m.extra_type for m in classes) or any(
        f.field_call() and "Field(" in (f.field_call() or "") for m in classes for f in m.fields
    ):
        imports.name("pydantic", "Field")
    if aliases:
        imports.name("pydantic", "TypeAdapter")
    if any(not a.recursive for a in aliases):
        imports.name("typing", "TypeAlias")
    if any(a.recursive for a in aliases):
        imports.name("typing_extensions", "TypeAliasType")
    for enum in enums:
        imports.name("enum", enum.base.split(", ")[-1])  # `float, Enum` imports Enum
    for model in classes:
        for field in model.fields:
            add_type_names(imports, field.type.names())
        if model.extra_type:
            add_type_names(imports, model.extra_type.names())
    for alias in aliases:
        add_type_names(imports, alias.type.names())
    exported = sorted(d.name for d in api.definitions)
    return {
        "imports": imports.render(),
        "enums": enums,
        "classes": classes,
        "aliases": aliases,
        "exported_models": exported,
    }


# -- errors ------------------------------------------------------------------------------------
def _errors_context(api: Api) -> dict[str, Any]:
    errors = api.error_classes
    imports = ImportSet()
    imports.name("__future__", "annotations")
    imports.name("collections.abc", "Mapping")
    imports.name("typing", "Any", "ClassVar", "Generic", "TypeVar")
    uses_models = False
    for error in errors:
        if error.response.type is not None:
            add_type_names(imports, error.response.type.names())
            uses_models = uses_models or any(True for _ in error.response.type.model_names())
    if uses_models:
        imports.name(".", "models")
    example = errors[0].name if errors else "GetItemNotFound"
    return {
        "imports": imports.render(),
        "errors": errors,
        "uses_models": uses_models,
        "example_error": example,
        "exported_errors": sorted(["ApiError", "DeclaredError", "UnexpectedStatus", "ERRORS",
                                   "error_class", *(e.name for e in errors)]),
        "error_body_type": _error_body_type,
    }


def _error_body_type(error: ErrorClass) -> str:
    """The `body` type of a declared error: the JSON model, None when empty, else Any."""
    if error.response.type is not None:
        return error.response.type.render("models.")
    return "None" if error.response.kind == "empty" else "Any"


# -- shared by server and client ------------------------------------------------------------------
def _op_types(op: Operation) -> Iterable[TypeRef]:
    for param in (*op.path_params, *op.keyword_params):
        yield param.type.bare()
    if op.body is not None:
        if op.body.type is not None:
            yield op.body.type
        for field in op.body.form_fields:
            yield field.type.bare()
    for response in op.success:
        if response.type is not None:
            yield response.type


def _uses_models(api: Api) -> bool:
    return any(any(True for _ in t.model_names()) for op in api.operations for t in _op_types(op))


def _body_annotation(op: Operation) -> str:
    assert op.body is not None
    if op.body.kind == "json":
        assert op.body.type is not None
        text = op.body.type.render("models.")
    elif op.body.is_form:
        text = op.body.form_class or "Any"
    elif op.body.kind == "text":
        text = "str"
    else:
        text = "bytes"
    return text if op.body.required else f"{text} | None"


def _keyword_part(op: Operation) -> list[str]:
    parts: list[str] = []
    for param in op.keyword_params:
        default = param.default_source
        suffix = f" = {default}" if default is not None else ""
        parts.append(f"{param.name}: {param.annotation()}{suffix}")
    return parts


def _positional_part(op: Operation, body: bool = True) -> list[str]:
    parts = [f"{p.name}: {p.annotation()}" for p in op.path_params]
    if body and op.body is not None:
        default = "" if op.body.required else " = None"
        parts.append(f"body: {_body_annotation(op)}{default}")
    return parts


def _join(positional: list[str], keyword: list[str]) -> str:
    if keyword:
        return ", ".join([*positional, "*", *keyword])
    return ", ".join(positional)


# -- server ------------------------------------------------------------------------------------
def _form_field_type(field: FormField) -> str:
    if field.is_file_list:
        return "list[UploadFile]"
    if field.is_file:
        return "UploadFile"
    return field.type.bare().render("models.")


def _server_signature(op: Operation) -> str:
    return _join(["self", *_positional_part(op)], _keyword_part(op))


def _server_result(op: Operation) -> str:
    parts = [("Binary" if p == "bytes" else p) for p in op.result_type.split(" | ")]
    return " | ".join(dict.fromkeys(parts))


def _route_path(op: Operation) -> str:
    path = op.path
    for param in op.path_params:
        path = path.replace("{" + param.wire + "}", "{" + param.name + "}")
    return path


def _route_signature(op: Operation) -> str:
    required: list[str] = []
    optional: list[str] = []
    for param in op.path_params:
        kwargs = ", ".join(f"{k}={v}" for k, v in param.type.constraints)
        required.append(f"{param.name}: Annotated[{param.annotation()}, Path({kwargs})]")
    if op.body is not None and op.body.kind == "json":
        if op.body.required:
            required.append(f"body: Annotated[{_body_annotation(op)}, Body()]")
        else:
            optional.append(f"body: Annotated[{_body_annotation(op)}, Body()] = None")
    elif op.body is not None and op.body.is_form:
        for field in op.body.form_fields:
            marker = "File" if field.is_file or field.is_file_list else "Form"
            alias = f"alias={field.wire!r}" if field.name != field.wire else ""
            kind = _form_field_type(field)
            if field.required:
                required.append(f"{field.name}: Annotated[{kind}, {marker}({alias})]")
            else:
                optional.append(f"{field.name}: Annotated[{kind} | None, {marker}({alias})] = None")
    elif op.body is not None:
        required.append("request: Request")
    for param in op.keyword_params:
        text = f"{param.name}: Annotated[{param.annotation()}, {param.fastapi_marker}({param.marker_kwargs})]"
        if param.default_source is None:
            required.append(text)
        else:
            optional.append(f"{text} = {param.default_source}")
    return ", ".join(required + optional)


def _call_arguments(op: Operation) -> str:
    args = [p.name for p in op.path_params]
    if op.body is not None:
        args.append("form" if op.body.is_form else "body")
    args.extend(f"{p.name}={p.name}" for p in op.keyword_params)
    return ", ".join(args)


def _schemes_of(op: Operation) -> tuple[str, ...]:
    names = {name for alternative in op.security or () for name in alternative}
    return tuple(sorted(names))


def _success_kind(op: Operation) -> str:
    return op.success[0].kind if op.success else "empty"


def _success_media(op: Operation) -> str | None:
    return op.success[0].media_type if op.success else None


def _error_builders(api: Api) -> tuple[list[tuple[str, str]], dict[str, list[tuple[str, str]]]]:
    names: dict[str, str] = {}
    per_op: dict[str, list[tuple[str, str]]] = {}
    for op in api.operations:
        entries = per_op.setdefault(op.id, [])
        for status, expression in op.error_bodies:
            if expression not in names:
                names[expression] = f"_error_body_{len(names)}"
            entries.append((status, names[expression]))
    return [(name, expr) for expr, name in names.items()], per_op


def _server_context(api: Api) -> dict[str, Any]:
    imports = ImportSet()
    imports.name("collections.abc", "Awaitable", "Callable")
    imports.name("importlib", "resources")
    imports.name("typing", "Any")
    imports.name("fastapi", "APIRouter", "FastAPI", "Request")
    imports.name("fastapi.responses", "Response")
    imports.name(".", "errors")
    runtime = ["BearerVerifier", "Binary", "ErrorBodyBuilder", "default_error_body",
               "install_handlers", "security"]
    if api.operations:
        runtime.append("respond")
    if any(scheme.kind != "api_key" for scheme in api.security_schemes):
        runtime.append("authorization")
    if api.parses_query:
        runtime.append("query_parameter")
    paths = {op.path for op in api.operations}
    if "/docs" not in paths:
        imports.module("json")
        imports.name("fastapi.responses", "HTMLResponse")
        runtime.append("docs_html")
    imports.names("._server_runtime", runtime)
    forms = []
    for op in api.operations:
        for type_ref in _op_types(op):
            add_type_names(imports, type_ref.names())
        if op.secured:
            imports.name("fastapi", "Depends")
        if op.path_params or op.keyword_params or (
            op.body is not None and (op.body.kind == "json" or op.body.is_form)
        ):
            imports.name("typing", "Annotated")  # route parameters are Annotated[..., Marker()]
        if op.path_params:
            imports.name("fastapi", "Path")
        for param in op.keyword_params:
            imports.name("fastapi", param.fastapi_marker)
            if param.parsed:  # its dependency validates the full type, constraints included
                add_type_names(imports, param.type.names())
        if op.body is not None and op.body.kind == "json":
            imports.name("fastapi", "Body")
        if op.body is not None and op.body.is_form:
            forms.append(op.body)
            imports.name("dataclasses", "dataclass")
            for field in op.body.form_fields:
                if field.is_file or field.is_file_list:
                    imports.name("fastapi", "File", "UploadFile")
                else:
                    imports.name("fastapi", "Form")
    uses_models = _uses_models(api)
    if uses_models:
        imports.name(".", "models")
    builders, per_op = _error_builders(api)
    exported = ["Binary", "BearerVerifier", "ServiceBase", "contract", "create_app",
                "create_router", "install_error_handlers", *(f.form_class or "" for f in forms)]
    return {
        "imports": imports.render(),
        "uses_models": uses_models,
        "forms": forms,
        "error_builders": builders,
        "op_error_builders": per_op,
        "serve_spec": "/openapi.json" not in paths,
        "serve_docs": "/docs" not in paths,
        "exported_server": sorted(exported),
        "server_signature": _server_signature,
        "server_result": _server_result,
        "route_path": _route_path,
        "route_signature": _route_signature,
        "call_arguments": _call_arguments,
        "schemes_of": _schemes_of,
        "success_kind": _success_kind,
        "success_media": _success_media,
        "form_field_type": _form_field_type,
    }


# -- client ------------------------------------------------------------------------------------
def _client_keyword_part(op: Operation) -> list[str]:
    parts = _keyword_part(op)
    if op.body is not None and op.body.is_form:
        for field in op.body.form_fields:
            kind = "FileContent" if field.is_file else (
                "list[FileContent]" if field.is_file_list else field.type.bare().render("models."))
            if field.required:
                parts.insert(0, f"{field.name}: {kind}")
            else:
                parts.append(f"{field.name}: {kind} | None = None")
    return parts


def _client_signature(op: Operation) -> str:
    form = op.body is not None and op.body.is_form
    return _join(_positional_part(op, body=not form), _client_keyword_part(op))


def _method_signature(op: Operation) -> str:
    form = op.body is not None and op.body.is_form
    return _join(["self", *_positional_part(op, body=not form)], _client_keyword_part(op))


def _forward_arguments(op: Operation) -> str:
    args = [p.name for p in op.path_params]
    if op.body is not None and not op.body.is_form:
        args.append("body")
    names = [p.name for p in op.keyword_params]
    if op.body is not None and op.body.is_form:
        names.extend(f.name for f in op.body.form_fields)
    args.extend(f"{n}={n}" for n in names)
    return ", ".join(args)


def _client_path(op: Operation) -> str:
    if not op.path_params:
        return repr(op.path)
    path = op.path.replace("{", "{{").replace("}", "}}")
    for param in op.path_params:
        path = path.replace("{{" + param.wire + "}}", "{_path(" + param.name + ")}")
    return "f" + repr(path)


def _client_context(api: Api) -> dict[str, Any]:
    imports = ImportSet()
    imports.module("datetime", "enum", "functools", "httpx")
    imports.name("collections.abc", "Mapping")
    imports.name("types", "TracebackType")
    imports.name("typing", "IO", "Any", "NamedTuple", "TypeAlias")
    if any(r.kind == "json" for op in api.operations for r in op.success):
        imports.name("typing", "cast")
    imports.name("urllib.parse", "quote")
    imports.name("pydantic", "BaseModel", "TypeAdapter", "ValidationError")
    imports.name(".", "errors")
    for op in api.operations:
        for type_ref in _op_types(op):
            add_type_names(imports, type_ref.names())
    if _uses_models(api):
        imports.name(".", "models")
    return {
        "imports": imports.render(),
        "client_signature": _client_signature,
        "method_signature": _method_signature,
        "forward_arguments": _forward_arguments,
        "client_path": _client_path,
    }


def _init_context(api: Api) -> dict[str, Any]:
    imports = ImportSet().name(".", "errors", "models")
    imports.name(".errors", "ApiError", "UnexpectedStatus")
    exported = ["ApiError", "UnexpectedStatus", "errors", "models"]
    if "client" in api.parts:
        imports.name(".client", "AsyncClient", "Client")
        exported += ["AsyncClient", "Client"]
    if "server" in api.parts:
        imports.name(".server", "ServiceBase", "create_app", "create_router")
        exported += ["ServiceBase", "create_app", "create_router"]
    return {"imports": imports.render(), "exported_package": sorted(exported)}
