"""The contract as the mock reads it: its operations, their declared responses, and a judge of
answers (jsonschema, through openapi-schema-validator) so that nothing undeclared goes out."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from referencing.exceptions import Unresolvable

from ..model.schema_facts import deref
from ..model.servers import own_server
from ..spec.paths import iter_operations
from ..spec.tree import escape

_SPEC_URI = "urn:contractgen:mock"
_REMEMBERED = 10_000


@dataclass(frozen=True)
class Op:
    """One operation: where it is served and what it declares."""

    id: str
    method: str  # upper case
    path: str  # the template below the base path, `/books/{bookId}`
    pointer: str  # of the operation object
    raw: Mapping[str, Any]
    params: tuple[Mapping[str, Any], ...]  # path item's and operation's, dereferenced
    pattern: re.Pattern[str] = field(compare=False)
    # the path of the server it declares of its own (Box's upload.box.com/api/2.0), where the
    # generated server routes it instead of the API's base path; None: the API's
    server_path: str | None = None

    @property
    def responses(self) -> Mapping[str, Any]:
        found = self.raw.get("responses")
        return found if isinstance(found, Mapping) else {}

    def match(self, path: str) -> dict[str, str] | None:
        found = self.pattern.fullmatch(path)
        return found.groupdict() if found else None

    def param_names(self, where: str) -> list[str]:
        return [str(p.get("name")) for p in self.params if p.get("in") == where]


def _pattern(template: str) -> re.Pattern[str]:
    names: list[str] = []

    def group(match: re.Match[str]) -> str:
        names.append(match.group(1))
        return f"(?P<p{len(names) - 1}>[^/]+)"

    text = re.sub(r"\\\{([^}]+)\\\}", group, re.escape(template.split("#", maxsplit=1)[0]))
    return re.compile(text)


def _path_item(spec: Mapping[str, Any]) -> Any:
    """A resolver for `iter_operations`: a path item's local `$ref`s followed (3.1's
    `components/pathItems`), with the pointer of the item they lead to."""

    def resolve(item: Any, pointer: str) -> tuple[Any, str]:
        for _ in range(50):
            if not (isinstance(item, Mapping) and isinstance(item.get("$ref"), str)
                    and item["$ref"].startswith("#")):
                break
            pointer = item["$ref"][1:]
            item = deref(spec, {"$ref": item["$ref"]})
        return item, pointer

    return resolve


def operations(spec: Mapping[str, Any]) -> list[Op]:
    """Every operation of `spec` (through path items' `$ref`s), templated paths after concrete
    ones (as servers match)."""
    ops = []
    for site in iter_operations(spec, _path_item(spec)):
        params: dict[tuple[str, str], Mapping[str, Any]] = {}
        for raw in [*(site.item.get("parameters") or ()), *(site.operation.get("parameters") or ())]:
            param = deref(spec, raw)
            params[(str(param.get("in")), str(param.get("name")))] = param
        own = own_server(spec, site.item, site.operation, site.pointer, lambda *_: None)
        ops.append(Op(site.operation_id, site.method.upper(), site.path, site.pointer,
                      site.operation, tuple(params.values()), _pattern(site.path),
                      urlsplit(own).path.rstrip("/") if own is not None else None))
    return ops


def path_params(op: Op, path: str) -> dict[str, str] | None:
    """The path parameters of `path` by wire name, when it is `op`'s path."""
    found = op.match(path)
    if found is None:
        return None
    names = re.findall(r"\{([^}]+)\}", op.path.split("#")[0])
    return {names[int(k[1:])]: v for k, v in found.items()}


_URI = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:[^\s]*")


def _format_checker(base: Any) -> Any:
    """The validator's format checks, and `uri` (which jsonschema checks only with rfc3987
    installed, and schemathesis always): a scheme, then no spaces."""
    from jsonschema import FormatChecker

    checker = FormatChecker(())
    checker.checkers = {**base.checkers, "uri": (lambda value: not isinstance(value, str) or
                                                  bool(_URI.fullmatch(value)), ())}
    return checker


class Judge:
    """Says whether a value is valid against a schema of the contract, by JSON pointer."""

    def __init__(self, spec: Mapping[str, Any]) -> None:
        from openapi_schema_validator import OAS30Validator, OAS31Validator
        from referencing import Registry, Resource
        from referencing.jsonschema import DRAFT4, DRAFT202012

        is_31 = str(spec.get("openapi", "")).startswith("3.1")
        self._registry: Any = Registry().with_resource(
            _SPEC_URI, Resource.from_contents(dict(spec), default_specification=DRAFT202012
                                              if is_31 else DRAFT4))
        self._class: Any = OAS31Validator if is_31 else OAS30Validator
        self._formats = _format_checker(self._class.FORMAT_CHECKER)
        self._validators: dict[str, Any] = {}
        self._verdicts: dict[tuple[str, int], tuple[Any, bool]] = {}

    def problems(self, pointer: str, value: Any) -> list[str]:
        validator = self._validators.get(pointer)
        if validator is None:
            validator = self._class({"$ref": f"{_SPEC_URI}#{pointer}"}, registry=self._registry,
                                    format_checker=self._formats)
            self._validators[pointer] = validator
        try:
            return [f"/{'/'.join(escape(p) for p in e.absolute_path)}: {e.message}"
                    for e in validator.iter_errors(value)]
        except UnicodeEncodeError as exc:  # the ECMA-262 engine of `pattern` reads UTF-8
            return [f"/: a string with a lone surrogate, which no JSON text carries ({exc})"]
        except Unresolvable as exc:  # `$dynamicRef: '#node'` beside an `$id` that has none
            return [f"/: not judged, a reference of the schema leads nowhere ({exc!r:.200})"]

    def valid(self, pointer: str, value: Any) -> bool:
        """Whether `value` is valid at `pointer`; a stored item's verdict is remembered (by
        identity: the store replaces items, never changes them), since a large schema takes
        tens of milliseconds to check (Box's folder: ~40 ms) and a read must take ~1 ms."""
        if not isinstance(value, dict | list):
            return not self.problems(pointer, value)
        key = (pointer, id(value))
        known = self._verdicts.get(key)
        if known is not None and known[0] is value:
            return known[1]
        verdict = not self.problems(pointer, value)
        if len(self._verdicts) > _REMEMBERED:
            self._verdicts.clear()
        self._verdicts[key] = (value, verdict)  # the value kept: its id stays its own
        return verdict
