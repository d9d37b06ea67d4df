"""A loaded document to the intermediate model (`ir.Api`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ..options import ContractSettings
from ..problems import Level, sorted_problems
from ..spec.loader import Document
from .account import account
from .account import warnings as account_warnings
from .hooks import hook_models
from .ir import Api, SchemeKind, SecurityScheme, Server
from .jsontext import dumps_indented
from .operations import OperationBuilder
from .paging import typed_items
from .paths import fragment_notes, same_shape_notes
from .schemas import SchemaConverter
from .servers import servers_of
from .settings import applied
from .unions import closed_unions, open_unions

PARTS = ("models", "server", "client")


def build_api(document: Document, *, spec_display: str, overlay_display: str | None = None,
              parts: tuple[str, ...] = PARTS, extension_notes: Mapping[str, str] | None = None,
              templates: str | None = None, spec_json: Callable[[], str] | None = None,
              settings: ContractSettings | None = None) -> Api:
    """The intermediate model of `document` (already validated, external refs resolved).

    `extension_notes` maps a vendor extension (`x-...`) to a sentence added to the documentation
    of every operation where it is set (truthy); the generator gives extensions no other meaning.
    `spec_display`, `overlay_display` and `templates` (the override folder) are the paths as the
    generated modules' header shows them.
    `spec_json` gives the bundled document's `openapi.json` text when another process wrote it
    (`verdict.start_validation`); by default it is written here. `settings` (the configuration's
    `x-pagination` and `x-enum-closed`) are read as if the contract said them.
    """
    data = applied(document.data, settings)
    converter = SchemaConverter(data, discriminated=document.may_spell("discriminator"))
    converter.convert_components()
    builder = OperationBuilder(data, converter, extension_notes)
    operations = builder.build()
    hooks = hook_models(data, builder, converter.notes)
    notes = [*converter.notes.found, *(fragment_notes(operations) if "server" in parts else ()),
             *same_shape_notes(operations)]
    notes += account_warnings(account(data, notes), notes)
    problems = tuple(sorted_problems(document.problem(Level.WARNING, pointer, message)
                                     for pointer, message in notes))
    info = data.get("info") or {}
    definitions = converter.finished()
    definitions, operations = open_unions(definitions, typed_items(definitions, operations),
                                          closed_unions(data, converter.component_name))
    return Api(
        title=str(info.get("title") or "API"),
        version=str(info.get("version") or ""),
        description=info.get("description") if isinstance(info.get("description"), str) else None,
        definitions=tuple(definitions),
        operations=tuple(operations),
        security_schemes=_security_schemes(data),
        spec=spec_display,
        spec_json=spec_json() if spec_json is not None else dumps_indented(document.data) + "\n",
        parts=tuple(p for p in PARTS if p in parts or p == "models"),
        servers=_servers(data),
        problems=problems,
        hooks=tuple(hooks),
        overlay=overlay_display,
        templates=templates,
    )


def _servers(data: dict[str, Any]) -> tuple[Server, ...]:
    return servers_of(data.get("servers"))


def _security_schemes(data: dict[str, Any]) -> tuple[SecurityScheme, ...]:
    raw = ((data.get("components") or {}).get("securitySchemes")) or {}
    schemes: list[SecurityScheme] = []
    for name, scheme in raw.items():
        if not isinstance(scheme, dict):
            continue
        kind = scheme.get("type")
        if kind == "http":
            http = str(scheme.get("scheme", "")).lower()
            checked: SchemeKind = (
                "basic" if http == "basic" else "bearer" if http == "bearer" else "other")
            schemes.append(SecurityScheme(name, checked, http_scheme=http))
        elif kind == "apiKey":
            schemes.append(SecurityScheme(name, "api_key", scheme.get("in"), scheme.get("name")))
        elif kind == "oauth2":
            schemes.append(SecurityScheme(name, "oauth2"))
        elif kind == "openIdConnect":
            schemes.append(SecurityScheme(name, "openid"))
        else:
            schemes.append(SecurityScheme(name, "other"))
    return tuple(schemes)
