"""Validate a spec against the OpenAPI 3.0 / 3.1 schema and report every problem, located.

openapi-spec-validator supplies the JSON Schema of OpenAPI and its semantic checks (path
parameters, defaults). Its schema errors arrive as one `oneOf` dump per top-level object; this
module descends into each error's `context` to the most specific failure, points at the node that
is wrong, phrases it briefly, and adds a hint for the usual 3.0/3.1 mix-ups. `lint` adds the
checks the validator does not make. The validator is imported on first use: it costs ~0.3 s.
A document openapi-spec-validator-rs (the same rules, ported to Rust) finds valid is not handed
to it at all (`_valid_by_port`): the verdict is the same, in a few hundredths of a second.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import Any

from ..problems import Level, Problem, has_errors, sorted_problems
from . import verdicts
from .defaults import default_problems
from .lint import lint_document
from .loader import Document
from .phrasing import UNKNOWN_KEYS, WEAK, hint, human
from .resolve import fetches
from .tree import Part, make_pointer, through_refs
from .verdicts import cached

_UNRESOLVED_PARAM = re.compile(r"Path parameter '(.+)' for '(\w+)' operation in '(.+)' was not")


@cached
def validate_document(doc: Document) -> list[Problem]:
    """Every problem in the spec, in file order: schema errors, semantic errors, lints."""
    version = doc.data.get("openapi")
    if not isinstance(version, str):
        if "swagger" in doc.data:
            return [doc.problem(Level.ERROR, "/swagger", "Swagger 2.0 is not supported",
                                "convert it to OpenAPI 3 first (for example with swagger2openapi)")]
        where = "/openapi" if "openapi" in doc.data else ""
        return [doc.problem(Level.ERROR, where, "no OpenAPI version string (`openapi`)",
                            "start the spec with `openapi: 3.0.3` or `openapi: 3.1.0`; quote it")]
    if not re.match(r"^3\.[01]\.\d+(-.+)?$", version):
        return [doc.problem(Level.ERROR, "/openapi", f"unsupported OpenAPI version {version!r}",
                            "contractgen reads OpenAPI 3.0.x and 3.1.x")]
    is_30 = version.startswith("3.0")
    lints = [*lint_document(doc, version), *default_problems(doc)]
    shape = verdicts.shape_key(doc)
    if verdicts.known_valid(shape):  # the same document but for its descriptions: valid
        return sorted_problems(lints)
    remote = fetches(doc)  # the port and the semantic checks would follow $refs to a URL
    if not remote and _valid_by_port(doc):
        verdicts.remember_valid(shape)
        return sorted_problems(lints)
    fast_check, schema_validator, spec_validator_cls = _validators(is_30)
    problems = []
    if not fast_check(doc.data):
        problems = _schema_problems(doc, list(schema_validator.iter_errors(doc.data)), is_30)
    # The semantic checks walk the spec as the schema describes it, following $refs.
    if not (problems or remote or has_errors(p for p in lints if p.pointer.endswith("/$ref"))):
        problems.extend(_semantic_problems(doc, spec_validator_cls))
        if not problems:
            verdicts.remember_valid(shape)
    problems.extend(lints)
    return sorted_problems(problems)


def _valid_by_port(doc: Document) -> bool:
    """True when openapi-spec-validator-rs, openapi-spec-validator's rules ported to Rust,
    finds `doc` valid: then openapi-spec-validator does too (tests/test_validator_port.py
    compares their verdicts on every contract the tests hold), and its import and walk
    (0.5-1.3 s on a large contract, most of a cold run's validation) are skipped. False when
    the port is not installed, finds a problem or stops: openapi-spec-validator then judges,
    and its errors are the ones reported, located as ever."""
    try:
        from openapi_spec_validator_rs.shortcuts import get_validator_cls
    except ImportError:
        return False
    try:
        validator = get_validator_cls(doc.data)(doc.data, base_uri=doc.path.resolve().as_uri())
        return bool(validator.is_valid())
    except Exception:  # a spec it cannot judge: the validator of record does
        return False


@functools.cache
def _validators(is_30: bool) -> tuple[Callable[[Any], bool], Any, type[Any]]:
    """For the OpenAPI version: a quick validity test, its JSON Schema validator, and a spec
    validator class whose errors carry the location they were found at."""
    from jsonschema_path import SchemaPath
    from openapi_spec_validator import OpenAPIV30SpecValidator, OpenAPIV31SpecValidator
    from openapi_spec_validator.schemas import schema_v30, schema_v31
    from openapi_spec_validator.schemas.backend.jsonschema import create_validator

    # The jsonschema backend rather than jsonschema-rs: only it keeps the `context` of oneOf
    # errors, which is where the real mistake is.
    schema = schema_v30 if is_30 else schema_v31
    base = OpenAPIV30SpecValidator if is_30 else OpenAPIV31SpecValidator

    def locating(cls: type[Any]) -> type[Any]:
        class Locating(cls):  # type: ignore[misc]
            def _get_schema_checker(self, *args: Any) -> Callable[[Any], None]:
                return _every_error(super()._get_schema_checker(*args))

            def __call__(self, *args: Any, **kwargs: Any) -> Any:
                where = next((a for a in args if isinstance(a, SchemaPath)), None)
                for error in super().__call__(*args, **kwargs):
                    if where is not None and not hasattr(error, "contractgen_parts"):
                        error.contractgen_parts = tuple(where.parts)
                        error.contractgen_value = cls.__name__.endswith("ValueValidator")
                    yield error

        return Locating

    keyword_validators = {k: locating(v) for k, v in base.keyword_validators.items()}
    spec_validator_cls = type("SpecValidator", (base,), {"keyword_validators": keyword_validators})
    validator = create_validator(schema)
    fast_check = validator.is_valid
    try:  # a hundred times faster on valid specs; only explains errors badly
        import jsonschema_rs

        fast_check = jsonschema_rs.validator_for(dict(schema)).is_valid
    except ImportError:
        pass
    return fast_check, validator, spec_validator_cls


def _every_error(check: Callable[[Any], None]) -> Callable[[Any], None]:
    """A schema checker raising one error that holds every problem of the schema, where
    jsonschema's `check_schema` raises only the first (two bad flags took two runs)."""
    from jsonschema.exceptions import SchemaError
    from jsonschema.validators import validator_for
    from openapi_schema_validator._specifications import REGISTRY

    func = getattr(check, "func", check)
    cls = getattr(func, "__self__", None)

    def every(value: Any) -> None:
        try:
            check(value)
        except SchemaError as first:
            if cls is None:
                raise
            meta = validator_for(cls.META_SCHEMA, default=cls)
            formats = getattr(check, "keywords", {}).get("format_checker", meta.FORMAT_CHECKER)
            errors = []
            try:
                checker = meta(cls.META_SCHEMA, format_checker=formats, registry=REGISTRY)
                errors.extend(checker.iter_errors(value))
            except Exception:  # a part of the meta-schema it cannot reach: keep what was found
                pass
            if len(errors) <= 1:
                raise
            raise SchemaError(f"{len(errors)} problems", validator="allOf", context=errors,
                              validator_value=None, instance=value,
                              schema=cls.META_SCHEMA) from first

    return every


def _semantic_problems(doc: Document, spec_validator_cls: type[Any]) -> list[Problem]:
    problems = []
    try:
        validator = spec_validator_cls(doc.data, base_uri=doc.path.resolve().as_uri())
        for error in validator.root_validator(validator.schema_path):
            problems.extend(_semantic_problems_of(doc, error))
    except Exception as exc:  # the checks walk $refs and may fail on a spec they did not expect
        problems.append(doc.problem(Level.WARNING, "",
                                    f"openapi-spec-validator could not finish its checks: {exc}"))
    return problems


def _semantic_problems_of(doc: Document, error: Any) -> list[Problem]:
    name = type(error).__name__
    if name == "DuplicateOperationIDError":
        return []  # lint reports it, with both places
    parts: tuple[Part, ...] = getattr(error, "contractgen_parts", ())
    if doc.origins:  # a part from another file is reported where it is written, not per use
        parts = through_refs(doc.data, parts)
    message = error.message
    if getattr(error, "contractgen_value", False):
        return []  # `defaults` reports it, at the default itself and once, with its repair
    if isinstance(error.validator, str):  # a schema checked against its JSON Schema dialect
        return _schema_problems(doc, [error], is_30=False, prefix=parts)
    hint = None
    if name == "UnresolvableParameterError":
        match = _UNRESOLVED_PARAM.match(message)
        if match:
            param, _, url = match.groups()
            in_url = "{" + param + "}" in url
            message = (f"path parameter {param!r} is not declared (`in: path`)" if in_url else
                       f"path parameter {param!r} does not appear in the path {url}")
            other = [n for n in re.findall(r"\{([^}]+)\}", url) if n.lower() == param.lower()]
            if not in_url and other:
                hint = f"names are case-sensitive: the path says {{{other[0]}}}"
    elif name == "ExtraParametersError":
        message = message.replace("Required list has not defined properties",
                                  "`required` names properties that are not defined")
    return [doc.problem(Level.ERROR, make_pointer(parts), message[:1].lower() + message[1:], hint)]


def _schema_problems(doc: Document, errors: list[Any], is_30: bool, prefix: tuple[Part, ...] = ()
                     ) -> list[Problem]:
    problems = []
    chains = [chain for error in errors for chain in _chains(error)]
    # A value of the wrong type also fails the enum or pattern beside it: say only the first.
    mistyped = {tuple(c[-1].absolute_path) for c in chains if c[-1].validator == "type"}
    # An unknown key (`20x:` among responses) also leaves a conditional requirement unmet
    # (3.1: no status code, so `default` is required): say only the unknown key.
    unknown = {tuple(c[-1].absolute_path) for c in chains if c[-1].validator in UNKNOWN_KEYS}
    for chain in chains:
        leaf = chain[-1]
        if leaf.validator != "type" and tuple(leaf.absolute_path) in mistyped:
            continue
        if _regex_format(leaf):  # patterns are ECMA-262, not Python's `re`: lint judges them
            continue
        if (leaf.validator == "required" and "then" in leaf.relative_schema_path
                and tuple(leaf.absolute_path) in unknown):
            continue
        path: tuple[Part, ...] = tuple(leaf.absolute_path)
        subject = ""
        # A scalar that made its object fail every alternative (Schema or Reference): the object
        # is what is wrong, so point at it and name the key.
        if path and isinstance(path[-1], str) and not isinstance(leaf.instance, dict | list):
            parent = path[:-1]
            if any(tuple(e.absolute_path) == parent and e.validator in WEAK for e in chain):
                subject = f"`{path[-1]}` "
                path = parent
        problems.append(doc.problem(Level.ERROR, make_pointer((*prefix, *path)), subject + human(leaf),
                                    hint(leaf, is_30)))
    return problems


def _regex_format(error: Any) -> bool:
    return bool(error.validator == "format" and error.validator_value == "regex")


def _chains(error: Any) -> list[list[Any]]:
    """Paths from the error down to each of its most specific causes.

    Of a oneOf/anyOf's alternatives only the one the author most likely meant is followed, and
    every failure inside it is reported.
    """
    if not error.context:
        return [[error]]
    context = list(error.context)
    if error.validator in WEAK:
        branches: dict[Any, list[Any]] = {}
        for cause in context:
            branches.setdefault(cause.relative_schema_path[0], []).append(cause)
        # A plain object fails the Reference alternative with "'$ref' is required": never the
        # meant one unless the object has a `$ref`.
        meant = [b for b in branches.values() if not all(_misses_ref(e) for e in b)]
        depth = len(error.absolute_path)
        context = max(meant or branches.values(), key=lambda b: _branch_score(b, depth))
    return [[error, *chain] for cause in context for chain in _chains(cause)]


def _branch_score(causes: list[Any], depth: int) -> tuple[bool, int, int]:
    # A branch whose own selecting key (`in: query` for a query parameter) has another value
    # was not meant; otherwise the branch the object went deepest into, then the fewest errors.
    selects_other = any(e.validator in ("enum", "const") and len(e.absolute_path) == depth + 1
                        for e in causes)
    return (not selects_other, max(len(e.absolute_path) for e in causes), -len(causes))


def _misses_ref(error: Any) -> bool:
    return error.validator == "required" and list(error.validator_value) == ["$ref"]
