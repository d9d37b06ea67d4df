"""Paths and operations to `Operation`s: parameters, bodies, responses, security."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any, cast, get_args

from ..spec.media import (
    also_form,
    is_json,
)
from ..spec.paths import derived_operation_id, iter_operations
from ..spec.tree import escape
from .access import access
from .encoding import deep_fields, unspellable_empties
from .ir import (
    AliasDef,
    BodyKind,
    EnumDef,
    FormField,
    ModelDef,
    Operation,
    Parameter,
    ParameterLocation,
    ParameterShape,
    ParameterStyle,
    RequestBody,
)
from .naming import PythonIdentifier, method_name, parameter_name, pascal_case
from .paging import paging_of
from .responses import ANY_ANSWER, ResponseReader, success_note
from .schema_facts import example_json, required_names
from .schema_facts import text as _plain
from .schemas import SchemaConverter
from .servers import own_server
from .typeref import ANY, TypeRef

# OpenAPI: header parameters by these names are ignored (they are owned by the protocol).
_IGNORED_HEADERS = frozenset({"accept", "content-type", "authorization"})


class OperationBuilder(ResponseReader):
    """Builds operations, creating inline definitions through the shared schema converter."""

    def __init__(self, document: Mapping[str, Any], schemas: SchemaConverter,
                 extension_notes: Mapping[str, str] | None = None) -> None:
        super().__init__(document, schemas)
        self.extension_notes = dict(extension_notes or {})
        self._ids: set[str] = set()
        self._global_security = document.get("security")

    def build(self) -> list[Operation]:
        sites = iter_operations(self.document, lambda item, at: (self._deref(item), at))
        operations = []
        for site in sites:
            operation = self._operation(site.path, site.method, dict(site.operation),
                                        site.item.get("parameters") or [])
            at = f"/paths/{escape(site.path)}/{site.method}"
            server = own_server(self.document, site.item, site.operation, at,
                                self.schemas.notes.warn)
            if note := success_note(site.operation.get("responses")):
                self.schemas.notes.warn(note, at)
            operations.append(replace(operation, server=server) if server else operation)
        return operations

    def model_only(self, path: str, method: str, raw: dict[str, Any], shared: list[Any],
                   name: str) -> Operation:
        """Build an operation that is not served (a webhook, a callback) and its models; `name`
        stands for a missing operationId."""
        op_id = raw.get("operationId")
        operation = self._operation(path, method, {**raw, "operationId": op_id if isinstance(
            op_id, str) and op_id.strip() else name}, shared)
        # a hook declaring no success answers nothing the receiver or sender types (as before)
        return replace(operation, success=tuple(r for r in operation.success if r != ANY_ANSWER))

    def _operation(self, path: str, method: str, raw: dict[str, Any], shared: list[Any]) -> Operation:
        op_id = raw.get("operationId")
        if not isinstance(op_id, str) or not op_id.strip():
            op_id = derived_operation_id(method, path)
        base_id = op_id
        suffix = 2
        while method_name(op_id) in self._ids:
            op_id = f"{base_id}_{suffix}"
            suffix += 1
        self._ids.add(method_name(op_id))
        prefix = pascal_case(op_id)
        params = self._parameters(shared, raw.get("parameters") or [], prefix)
        body = self._request_body(raw.get("requestBody"), prefix,
                                  f"/paths/{escape(path)}/{method}/requestBody")
        success, errors, error_schemas = self._responses(raw.get("responses") or {}, prefix, op_id)
        security = raw.get("security", self._global_security)
        alternatives: tuple[tuple[str, ...], ...] | None = None
        requirements = _requirements(security)
        if isinstance(security, list):
            alternatives = tuple(
                tuple(sorted(req)) for req in security if isinstance(req, dict)
            )
            if not alternatives:
                alternatives = None
        declared = {e.response.status for e in errors}
        validation_status = 422 if "422" in declared else 400 if "400" in declared else 422
        too_large_status = 413 if "413" in declared else 400 if "400" in declared else 413
        extensions = tuple((k, v) for k, v in sorted(raw.items()) if k.startswith("x-"))
        notes = tuple(note for name, note in self.extension_notes.items() if raw.get(name))
        return Operation(
            id=op_id,
            method_name=method_name(op_id),
            http_method=method.upper(),
            path=path,
            summary=_plain(raw.get("summary")),
            description=_plain(raw.get("description")),
            path_params=tuple(p for p in params if p.location == "path"),
            query_params=tuple(p for p in params if p.location == "query"),
            header_params=tuple(p for p in params if p.location == "header"),
            cookie_params=tuple(p for p in params if p.location == "cookie"),
            body=body,
            success=tuple(success),
            errors=tuple(errors),
            security=alternatives,
            validation_status=validation_status,
            unknown_tag_status=400 if "400" in declared else validation_status,
            too_large_status=too_large_status,
            error_bodies=self._error_bodies(errors, error_schemas,
                                            f"/paths/{escape(path)}/{method}/responses"),
            extensions=extensions,
            notes=notes,
            requirements=requirements,
            deprecated=raw.get("deprecated") is True,
            headers_class=prefix + "Headers" if any(r.headers for r in success) else None,
            examples=self._examples(params, [*shared, *(raw.get("parameters") or [])], raw),
            links=self._links(raw.get("responses")),
            paging=paging_of(self.document, raw, method, params,
                             pointer=f"/paths/{escape(path)}/{method}",
                             warn=self.schemas.notes.warn),
        )

    # -- what docstrings show: examples and links ---------------------------------------------
    def _examples(self, params: list[Parameter], declared: list[Any],
                  raw: dict[str, Any]) -> tuple[tuple[str, str], ...]:
        found: dict[str, str] = {}
        by_wire: dict[tuple[Any, Any], str] = {(p.location, p.wire): p.name for p in params}
        for node in declared:
            param = self._deref(node)
            name = by_wire.get((param.get("in"), param.get("name")))
            example = example_json(self.document, param)
            if name is not None and example is not None:
                found[name] = example
        body = self._deref(raw.get("requestBody") or {})
        for media in (body.get("content") or {}).values():
            example = example_json(self.document, media) if isinstance(media, dict) else None
            if example is not None:
                found["body"] = example
                break
        return tuple(found.items())

    def _links(self, responses: Any) -> tuple[str, ...]:
        lines: list[str] = []
        for status, response in (responses or {}).items():
            links = self._deref(response).get("links") if str(status).startswith("2") else None
            for name, link in (links or {}).items() if isinstance(links, dict) else ():
                link = self._deref(link)
                target = link.get("operationId") or link.get("operationRef")
                params = link.get("parameters")
                text = f"{name} ({status}): {target}" if target else f"{name} ({status})"
                if isinstance(params, dict) and params:
                    text += " with " + ", ".join(f"{k}={v}" for k, v in params.items())
                lines.append(text)
        return tuple(lines)

    # -- parameters --------------------------------------------------------------------------
    def _parameters(self, shared: list[Any], own: list[Any], prefix: str) -> list[Parameter]:
        merged: dict[tuple[ParameterLocation, str], dict[str, Any]] = {}
        for raw in [*shared, *own]:
            param = self._deref(raw)
            name, location = param.get("name"), param.get("in")
            if isinstance(name, str) and location in get_args(ParameterLocation):
                merged[(cast(ParameterLocation, location), name)] = param
        result: list[Parameter] = []
        used: set[str] = set()
        for (location, wire), param in merged.items():
            if location == "header" and wire.lower() in _IGNORED_HEADERS:
                continue
            schema = param.get("schema")
            content = param.get("content")
            style: ParameterStyle = "form" if location in ("query", "cookie") else "simple"
            if param.get("style") in get_args(ParameterStyle):
                style = param["style"]
            if schema is None and isinstance(content, dict) and content:
                media_type, media = next(iter(content.items()))
                schema = media.get("schema") if isinstance(media, dict) else None
                style = "json" if is_json(media_type) else style
            explode = bool(param.get("explode", style == "form"))
            type_ref = self.schemas.convert(schema or {}, prefix + pascal_case(wire))
            shape = self._shape(type_ref)
            if location == "query" and shape == "array" and style not in (
                    "json", "deepObject") and self._shape(type_ref.args[0]) == "object":
                # OpenAPI defines no query form for a list of objects: they travel as one JSON
                # array, as Box's `mdfilters` does (docs/generated-api.md); in deepObject style
                # by index, as Stripe's `lines[0][amount]=1` (its encoder writes them so).
                style = "json"
            from_text = self._read_by_runtime(type_ref, location, shape, style, explode)
            parsed = Parameter(wire, wire, location, type_ref, False, style=style,
                               explode=explode, shape=shape, from_text=from_text).parsed
            if not parsed and type_ref.kind not in ("builtin", "model", "list", "literal", "any"):
                type_ref = TypeRef("builtin", "str")
            required = location == "path" or bool(param.get("required"))
            target = self._deref(schema) if isinstance(schema, dict) else {}
            if style == "deepObject" and location == "query":
                self._deep_empties(param, target, wire, required)
            default = None
            if not required and isinstance(target, dict) and "default" in target:
                definition = self.schemas.definitions.get(type_ref.name)
                if type_ref.kind != "model" or isinstance(definition, EnumDef):
                    default = target["default"]
            name = parameter_name(wire)
            while name in used:
                name += "_"
            used.add(name)
            result.append(Parameter(name, wire, location, type_ref, required, default,
                                    _plain(param.get("description")), style, explode, shape,
                                    keys=self._object_keys(type_ref),
                                    deprecated=param.get("deprecated") is True,
                                    from_text=from_text))
        query = tuple(p.wire for p in result if p.location == "query")
        return [replace(p, others=tuple(w for w in query if w != p.wire))
                if p.style == "form" and p.shape == "object" and p.location == "query" else p
                for p in result]

    def _deep_empties(self, param: dict[str, Any], schema: dict[str, Any], wire: str,
                      required: bool) -> None:
        """Warn, at the parameter, of the lists and objects its deepObject value may hold
        empty (`encoding.unspellable_empties`): once, wherever the parameter is used."""
        notes = self.schemas.notes
        notes.enter(param)
        try:
            unspellable_empties(self.document, schema, f"query parameter `{wire}`", wire,
                                required=required, warn=notes.warn)
        finally:
            notes.leave()

    def _read_by_runtime(self, type_ref: TypeRef, location: str, shape: str, style: str,
                         explode: bool) -> bool:
        """Whether the server's runtime reads the parameter from its text (`from_text`): a
        scalar FastAPI cannot read (`_from_text`), a path or header array or object (one text,
        `a,b`), any cookie but a JSON one (the client percent-encodes its text), and an
        exploded query array of such scalars."""
        if location == "cookie" and style != "json":
            return True
        if shape == "scalar" and style in ("form", "simple"):
            return self._from_text(type_ref)
        if location != "query":
            return shape != "scalar"
        return self._from_text_items(type_ref, style, explode)

    def _from_text(self, type_ref: TypeRef) -> bool:
        """Whether FastAPI cannot read a parameter of this type from its text: a union, or a
        Literal of other values than strings (`?k=1` is the text "1", never the integer 1)."""
        definition = self.schemas.definitions.get(type_ref.name) if type_ref.kind == "model" else None
        if isinstance(definition, AliasDef):
            return self._from_text(definition.type)
        if type_ref.kind == "literal":
            return not all(isinstance(v, str) for v in type_ref.literals)
        return type_ref.kind == "union" and all(
            self._shape(arg) == "scalar" for arg in type_ref.args)

    def _from_text_items(self, type_ref: TypeRef, style: str, explode: bool) -> bool:
        """An exploded query array (`?id=1&id=a`) whose items FastAPI cannot read from their
        text: read by the runtime (`query_parameter(..., repeated=True)`)."""
        return type_ref.kind == "list" and style == "form" and explode and bool(
            type_ref.args) and self._from_text(type_ref.args[0])

    def _object_keys(self, type_ref: TypeRef) -> tuple[str, ...] | None:
        """The wire names of an object parameter's fields; None for a free-form object."""
        definition = self.schemas.definitions.get(type_ref.name) if type_ref.kind == "model" else None
        if isinstance(definition, AliasDef):
            return self._object_keys(definition.type)
        if isinstance(definition, ModelDef) and definition.extra_type is None and definition.fields:
            return tuple(f.wire for f in definition.fields)
        return None

    def _shape(self, type_ref: TypeRef) -> ParameterShape:
        if type_ref.kind == "list":
            return "array"
        if type_ref.kind == "dict":
            return "object"
        definition = self.schemas.definitions.get(type_ref.name) if type_ref.kind == "model" else None
        if isinstance(definition, ModelDef):
            return "object"
        if isinstance(definition, AliasDef):
            return self._shape(definition.type)
        return "scalar"

    # -- request bodies ----------------------------------------------------------------------
    def _request_body(self, raw: Any, prefix: str, at: str) -> RequestBody | None:
        body = self._deref(raw)
        content = body.get("content")
        if not isinstance(content, dict) or not content:
            return None
        required = bool(body.get("required"))
        description = _plain(body.get("description"))
        media_types = list(content)
        for media in media_types:
            if is_json(media):
                schema = (content[media] or {}).get("schema")
                with self.schemas.on_side("write"):
                    type_ref = self.schemas.named_union(schema, prefix + "Request") if schema else ANY
                return RequestBody("json", media, required, type_ref, description=description,
                                   also_form=also_form(content))
        forms: tuple[tuple[str, BodyKind], ...] = (
            ("multipart/form-data", "multipart"), ("application/x-www-form-urlencoded", "form"))
        for media, kind in forms:
            if media in content:
                schema = self._deref((content[media] or {}).get("schema") or {})
                deep = deep_fields(content[media], kind, f"{at}/content/{escape(media)}",
                                   self.schemas.notes.warn, self.document)
                fields = self._form_fields(schema, prefix, kind,
                                           f"{at}/content/{escape(media)}/schema", deep)
                return RequestBody(kind, media, required, None, prefix + "Form", fields,
                                   description)
        media = media_types[0]
        return RequestBody("text" if media.startswith("text/") else "binary", media, required,
                           description=description)

    def _form_fields(self, schema: dict[str, Any], prefix: str, kind: BodyKind, at: str,
                     deep: frozenset[str] = frozenset()) -> tuple[FormField, ...]:
        """The fields of a form body. A field whose `encoding` says deepObject (`deep`: their
        wire names) is in that style; else a structured field (an object, an array of objects,
        a union) of a multipart body is a JSON part, OpenAPI's default for it, and of a
        urlencoded one is read as its text, with a warning."""
        required = set(required_names(schema))
        fields: list[FormField] = []
        for wire, prop in (schema.get("properties") or {}).items():
            if access(self.document, prop) == "read":
                continue  # readOnly: never part of a request
            prop = self._deref(prop)
            is_file = prop.get("format") == "binary" or prop.get("contentMediaType") is not None
            items = self._deref(prop.get("items") or {})
            is_list = prop.get("type") == "array" and (
                items.get("format") == "binary" or "contentMediaType" in items)
            json_part = False
            if is_file or is_list:
                type_ref = TypeRef("builtin", "bytes")
            else:
                with self.schemas.on_side("write"):
                    type_ref = self.schemas.convert(prop, prefix + "Form" + pascal_case(wire))
                structured = "" if wire in deep else self._structured(type_ref)
                json_part = kind == "multipart" and bool(structured)
                if structured and not json_part:
                    self.schemas.notes.warn(
                        f"form field `{wire}` is structured ({structured}): read and sent as "
                        "its text, not validated as its schema (hint: a multipart body carries "
                        "it as a JSON part)", at)
                if not json_part and wire not in deep and not self._from_text(type_ref) and (
                        type_ref.kind not in ("builtin", "literal", "model", "list")
                        or (type_ref.kind == "model" and not self._is_enum(type_ref))):
                    type_ref = TypeRef("builtin", "str")  # its text (any, an object)
            fields.append(FormField(PythonIdentifier(wire), wire, type_ref, wire in required,
                                    is_file, is_list, _plain(prop.get("description")),
                                    json=json_part, deep=wire in deep))
        return tuple(fields)

    def _structured(self, type_ref: TypeRef) -> str:
        """What makes a form field's type more than a value, a list of values, an enum or a
        union of those ("" when nothing does)."""
        if type_ref.kind in ("list", "union"):
            return next(filter(None, map(self._structured, type_ref.args)), "")
        if type_ref.kind == "model" and not self._is_enum(type_ref):
            return "an object"
        return {"dict": "a map", "tuple": "a tuple"}.get(type_ref.kind, "")

    def _is_enum(self, type_ref: TypeRef) -> bool:
        return isinstance(self.schemas.definitions.get(type_ref.name), EnumDef)


def _requirements(security: Any) -> tuple[tuple[tuple[str, tuple[str, ...]], ...], ...]:
    """`security` as alternatives of (scheme, scopes) pairs, in the declared order."""
    if not isinstance(security, list):
        return ()
    return tuple(
        tuple(
            (str(name), tuple(str(s) for s in scopes) if isinstance(scopes, list) else ())
            for name, scopes in sorted(requirement.items())
        )
        for requirement in security
        if isinstance(requirement, dict)
    )
