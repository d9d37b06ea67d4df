"""Checks openapi-spec-validator does not make, on a loaded spec: what a generator trips on."""

from __future__ import annotations

import difflib
import os
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from ..problems import Level, Problem, SpecError
from .ecma import pattern_problem
from .loader import Document, load_document
from .media import media_problems
from .paths import iter_operations
from .remote import is_remote, join, load_remote
from .tree import Part, escape, make_pointer, resolve_pointer, split_pointer, walk_objects

NULLABLE_31_HINT = "OpenAPI 3.1 ignores `nullable`; write `type: [X, 'null']` (or add {type: 'null'} to a oneOf)"


def lint_document(doc: Document, version: str) -> list[Problem]:
    """WARNINGs and ERRORs for `$ref`s, operationIds and 3.0/3.1 mix-ups the validator misses."""
    is_30 = version.startswith("3.0")
    problems: list[Problem] = []
    loaded: Loaded = {}
    with_id: list[tuple[Part, ...]] = []
    # allOf member path -> property names its sibling members (and their parent) define
    shared: dict[tuple[Part, ...], set[str]] = {}
    for path, obj in walk_objects(doc.data):
        pointer = make_pointer(path)
        members = obj.get("allOf")
        if isinstance(members, list):
            names = _property_names(doc.data, obj, set())
            shared.update({(*path, "allOf", i): names for i in range(len(members))})
        if isinstance(obj.get("$id"), str):
            with_id.append(path)
        ref = obj.get("$ref")
        if isinstance(ref, str):
            # Under a JSON Schema `$id`, references are relative to that schema, not this file.
            if not any(path[: len(base)] == base for base in with_id):
                problems.extend(check_ref(doc, pointer, ref, loaded))
                problems.extend(_ref_cycle(doc, pointer, ref))
            siblings = sorted(k for k in obj if k != "$ref" and not k.startswith("x-"))
            if is_30 and siblings:
                problems.append(doc.problem(
                    Level.WARNING, pointer,
                    f"{_list(siblings)} beside `$ref` {'is' if len(siblings) == 1 else 'are'} "
                    "ignored in OpenAPI 3.0",
                    "for a schema, write `allOf: [{$ref: ...}]` beside them; otherwise move them "
                    "into the referenced object"))
            continue
        if is_30 and obj.get("type") == "array" and "items" not in obj:
            problems.append(doc.problem(
                Level.WARNING, pointer, "`type: array` without `items` (OpenAPI 3.0 requires it); "
                "items are taken as any value",
                "add `items: {}` for any item, or the item schema"))
        undefined = [n for n in _undefined_required(obj) if n not in shared.get(path, ())]
        if undefined:
            problems.append(doc.problem(
                Level.WARNING, f"{pointer}/required",
                f"`required` names {_list(undefined)}, not among `properties`",
                "define the property, or drop it from `required`"))
        # (`validate` leaves the meta-schemas' `format: regex`, Python's `re`, to this check)
        wrong = pattern_problem(obj["pattern"]) if isinstance(obj.get("pattern"), str) else None
        if wrong and _looks_like_schema(obj):
            problems.append(doc.problem(Level.WARNING, f"{pointer}/pattern", wrong,
                                        "write it as an ECMA-262 (JavaScript) regular expression"))
        if not is_30 and "nullable" in obj and _looks_like_schema(obj):
            problems.append(doc.problem(Level.WARNING, f"{pointer}/nullable",
                                        "`nullable` is not an OpenAPI 3.1 keyword", NULLABLE_31_HINT))
    problems.extend(_operation_ids(doc))
    problems.extend(_unchecked_schemes(doc))
    problems.extend(media_problems(doc))
    return problems


def _unchecked_schemes(doc: Document) -> list[Problem]:
    """Security schemes the generated server cannot read a credential of by itself."""
    problems = []
    schemes = (doc.data.get("components") or {}).get("securitySchemes") or {}
    for name, scheme in schemes.items() if isinstance(schemes, dict) else ():
        if not isinstance(scheme, dict):
            continue
        http = str(scheme.get("scheme", "")).lower()
        if scheme.get("type") == "http" and http not in ("basic", "bearer"):
            what = f"http scheme `{http}`"
        elif scheme.get("type") == "mutualTLS":
            what = "`mutualTLS`"
        else:
            continue
        problems.append(doc.problem(
            Level.WARNING, make_pointer(("components", "securitySchemes", name)),
            f"{what} is not parsed by the generated code: the server's verifier receives the raw "
            "Authorization header and the client sends no credential for it",
            "check it in the verifier (and send it with the client's `headers=`)"))
    return problems


def _ref_cycle(doc: Document, pointer: str, ref: str) -> list[Problem]:
    """A `$ref` whose chain of references comes back to itself without reaching an object
    (a requestBody or parameter that refers to itself): nothing could be generated from it."""
    chain = [pointer]
    while ref.startswith("#"):
        target = "/" + "/".join(escape(t) for t in split_pointer(ref)) if ref != "#" else ""
        if target in chain:
            hops = " -> ".join([*chain[chain.index(target):], target])
            return [doc.problem(Level.ERROR, f"{pointer}/$ref", f"circular $ref: {hops} never "
                                "reaches a definition", "point one of them at the object itself")]
        try:
            node = resolve_pointer(doc.data, ref)
        except (LookupError, ValueError):
            return []
        if not (isinstance(node, dict) and isinstance(node.get("$ref"), str)):
            return []
        chain.append(target)
        ref = node["$ref"]
    return []


def _looks_like_schema(obj: dict[str, Any]) -> bool:
    return any(k in obj for k in ("type", "properties", "items", "oneOf", "anyOf", "allOf", "enum"))


def _undefined_required(obj: dict[str, Any]) -> list[str]:
    """Required names a closed object schema does not define (the validator checks only allOf)."""
    required, properties = obj.get("required"), obj.get("properties")
    if not isinstance(required, list) or not isinstance(properties, dict):
        return []
    if any(k in obj for k in ("allOf", "anyOf", "oneOf", "patternProperties")):
        return []
    if obj.get("additionalProperties", False) is not False:
        return []
    # A name that is not a string is the validator's to report.
    return [name for name in required if isinstance(name, str) and name not in properties]


def _property_names(data: Any, obj: Any, seen: set[int]) -> set[str]:
    """Names of the properties a schema defines, through its allOf members and local `$ref`s."""
    for _ in range(50):
        ref = obj.get("$ref") if isinstance(obj, dict) else None
        if not isinstance(ref, str) or not ref.startswith("#"):
            break
        try:
            obj = resolve_pointer(data, ref)
        except (LookupError, ValueError):
            return set()
    if not isinstance(obj, dict) or id(obj) in seen:
        return set()
    seen.add(id(obj))
    properties = obj.get("properties")
    names = {str(k) for k in properties} if isinstance(properties, dict) else set()
    for member in obj.get("allOf") or []:
        names |= _property_names(data, member, seen)
    return names


def _list(keys: list[str]) -> str:
    return ", ".join(f"`{k}`" for k in keys)


Loaded = dict[Path | str, Document | SpecError]


def check_ref(doc: Document, pointer: str, ref: str, loaded: Loaded) -> list[Problem]:
    """Problems with the `$ref` of the object at `pointer`; files and URLs it names are read
    into `loaded` (a URL fetched: `remote`)."""
    where = f"{pointer}/$ref"
    url = urlsplit(ref)
    if (url.scheme or url.netloc) and not is_remote(ref):
        return [doc.problem(Level.ERROR, where, f"unsupported $ref {ref!r}",
                            "refer to a file by relative path, or to an http(s) URL")]
    fragment = "#" + url.fragment if "#" in ref else ""
    if not url.path and not url.netloc:
        target_doc = doc
    else:
        file = ref_target(doc, ref)
        if file not in loaded:
            loaded[file] = _read(file)
        target = loaded[file]
        if isinstance(target, SpecError):
            first = target.problems[0]
            problems = [doc.problem(Level.ERROR, where, f"cannot resolve $ref {ref!r}: "
                                    f"{first.message}", first.hint)]
            if first.line is not None:  # a syntax error inside the other file: say where
                problems.extend(target.problems)
            return problems
        target_doc = target
    try:
        resolve_pointer(target_doc.data, fragment)
    except LookupError:
        return [doc.problem(Level.ERROR, where, f"cannot resolve $ref {ref!r}",
                            _did_you_mean(target_doc.data, fragment))]
    except ValueError:
        return [doc.problem(Level.ERROR, where, f"$ref {ref!r} has a fragment that is not a JSON "
                            "pointer", "write it as `#/components/schemas/Name`")]
    return []


def _read(target: Path | str) -> Document | SpecError:
    try:
        return load_remote(target) if isinstance(target, str) else load_document(target)
    except SpecError as exc:
        return exc


def ref_target(doc: Document, ref: str) -> Path | str:
    """The file, or the http(s) URL, a `$ref` names (without its fragment), relative to the
    document holding it (a URL, for a fetched document)."""
    if doc.url is not None or is_remote(ref):
        return join(doc.url or "", ref)
    return ref_file(doc, urlsplit(ref).path)


def ref_file(doc: Document, relative: str) -> Path:
    """The file a `$ref` path names, relative to the document holding it."""
    return Path(os.path.normpath(doc.path.parent / unquote(relative)))


def _did_you_mean(data: Any, fragment: str) -> str | None:
    """Names near the first missing token, from the deepest node that exists."""
    node = data
    for token in split_pointer(fragment):
        if isinstance(node, dict) and token in node:
            node = node[token]
            continue
        if isinstance(node, dict):
            close = difflib.get_close_matches(token, [str(k) for k in node], n=1)
            if close:
                return f"did you mean {close[0]!r}?"
        return None
    return None


def _operation_ids(doc: Document) -> list[Problem]:
    problems = []
    seen: dict[str, str] = {}
    for site in iter_operations(doc.data):
        op_id = site.operation.get("operationId")
        if op_id is None:
            problems.append(doc.problem(
                Level.WARNING, site.pointer,
                f"{site.method.upper()} {site.path} has no operationId; its method will be "
                f"`{site.operation_id}`",
                "add `operationId:` to choose the name"))
            continue
        pointer = f"{site.pointer}/operationId"
        if not isinstance(op_id, str):
            continue  # not a string: the validator reports it, located
        if op_id in seen:
            line = doc.position(seen[op_id])
            first = f" (line {line[0]})" if line else ""
            problems.append(doc.problem(
                Level.ERROR, pointer,
                f"duplicate operationId {op_id!r}: also used at {seen[op_id]}{first}",
                "operationIds name the generated methods and must be unique"))
        else:
            seen[str(op_id)] = pointer
    return problems
