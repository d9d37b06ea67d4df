"""Bundle `$ref`s to other files (`./common.yaml#/components/schemas/X`, `other.yaml`) and to
http(s) URLs (fetched by `remote`) into the spec, as `openapi.json` serves it and the generator
reads it.

References inside the document (`#/components/...`) stay references: they name the models.
A schema another file holds is copied once into `components/schemas` (under its own name) and
every use refers to that copy, so it becomes one shared model, not a copy per use site. Other
objects (path items, parameters, responses, examples) are copied where they are used.

- Every file (and fetched document) is read by `loader` first, so keys, timestamps and errors (with file and line) are
  the same as for the spec itself.
- A `#/...` inside `common.yaml` means common.yaml's node, and references inside copied parts
  are followed from the file that holds them.
- The bundled document remembers where each copied part came from (`Document.origins`), so a
  problem inside it is reported once, at its line in the other file.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from ..problems import Level, SpecError
from .lint import Loaded, check_ref, ref_target
from .loader import Document
from .remote import is_remote, stem
from .tree import Part, copy_data, escape, holds_data, make_pointer, resolve_pointer, split_pointer


def bundle(doc: Document) -> tuple[dict[str, Any], tuple[tuple[str, Document, str], ...]]:
    """The spec's data with other files bundled in, and where each copied part came from."""
    sites = external_sites(doc)
    if not sites:
        return doc.data, ()
    bundler = _Bundler(doc, _load_all(doc, sites))
    data = bundler.run(sites)
    return data, tuple(bundler.origins)


def fetches(doc: Document) -> bool:
    """True when `doc` as written (not bundled: the resolver failed) still refers to an
    http(s) URL, which openapi-spec-validator would fetch by itself, without our timeout."""
    return not doc.origins and any(is_remote(ref) for _, ref in external_sites(doc))


# Where the text may hold a reference to another file: a `$` before `r` or an escape that is
# not `$ref` with a value starting `#` (`"$ref": "#/...`, `$ref: '#/...'`), or an escaped `$`.
# A `$ref` key is spelt with `$` and `r` or with escapes, so a text without a match refers to
# no other file (a match, even in a description, only means the document is walked). Two
# patterns, each led by a literal: ~1 ms over a 1 MB contract (one alternation took 9 ms).
_MAYBE_EXTERNAL = (re.compile(r"""\$(?!ref["']?[ \t]*:[ \t]*["']?#)(?:r|\\)"""),
                   re.compile(r"\\(?:[xX]24|u0024|U00000024)"))


def may_refer_elsewhere(text: str) -> bool:
    """Whether a document's text may hold a `$ref` to another file; False: it holds none."""
    return any(pattern.search(text) for pattern in _MAYBE_EXTERNAL)


def external_sites(doc: Document) -> list[tuple[tuple[Part, ...], str]]:
    """Every `$ref` to another file, with its path; without walking a document whose text
    (the spec's, and its overlay's) has only references inside it (a walk is ~15 ms on a
    large contract)."""
    if not may_refer_elsewhere(doc.text):
        return []
    return [(path, ref) for path, ref in _refs(doc.data) if not ref.startswith("#")]


def _refs(data: Any) -> list[tuple[tuple[Part, ...], str]]:
    """Every `$ref` as the bundler follows it (`_Bundler.rewrite`): in any object outside
    example data and extensions, a name map's too (DigitalOcean writes `properties: {$ref:
    attributes.yml#/x}`, a reference to the whole map)."""
    found: list[tuple[tuple[Part, ...], str]] = []
    stack: list[tuple[tuple[Part, ...], Any]] = [((), data)]
    while stack:  # depth first, in document order (the order hoisted names are taken in)
        path, node = stack.pop()
        items = enumerate(node) if isinstance(node, list) else node.items()
        if isinstance(node, dict) and isinstance(node.get("$ref"), str):
            found.append((path, node["$ref"]))
        stack.extend(reversed([((*path, k), v) for k, v in items
                               if isinstance(v, (dict, list)) and not holds_data(path, k)]))
    return found


def _load_all(doc: Document, sites: list[tuple[tuple[Part, ...], str]]
              ) -> dict[Path | str, Document]:
    """Every file (and URL) reachable through references, each checked for references it
    cannot keep."""
    loaded: Loaded = {}
    problems = []
    queue = [(doc, make_pointer(path), ref) for path, ref in sites]
    seen: set[Path | str] = set()
    while queue:
        source, pointer, ref = queue.pop(0)
        problems.extend(check_ref(source, pointer, ref, loaded))
        for file, other in list(loaded.items()):
            if isinstance(other, Document) and file not in seen:
                seen.add(file)
                queue.extend((other, make_pointer(path), ref) for path, ref in _refs(other.data))
    if problems:
        raise SpecError(problems)
    return {file: other for file, other in loaded.items() if isinstance(other, Document)}


_SCHEMA_PARENTS = frozenset({"properties", "patternProperties", "allOf", "anyOf", "oneOf",
                             "schemas", "prefixItems", "$defs", "definitions", "dependentSchemas"})
_SCHEMA_KEYS = frozenset({"schema", "items", "additionalProperties", "not", "contains",
                          "propertyNames", "if", "then", "else", "unevaluatedProperties",
                          "unevaluatedItems", "additionalItems"})
_COMPONENTS = ("components", "schemas")


def _is_schema_site(path: tuple[Part, ...]) -> bool:
    if not path:
        return False
    if path[-1] in _SCHEMA_KEYS:
        return True
    return len(path) >= 2 and path[-2] in _SCHEMA_PARENTS


def _key(where: Path | str) -> Path | str:
    """One key per document: a file by its real path, a fetched document by its URL."""
    return where.resolve() if isinstance(where, Path) else where


class _Bundler:
    def __init__(self, doc: Document, loaded: dict[Path | str, Document]) -> None:
        self.doc = doc
        self.files = {_key(where): other for where, other in loaded.items()}
        self.main = _key(doc.path)
        self.files[self.main] = doc
        schemas = doc.data.get("components", {}).get("schemas", {})
        self.taken = set(schemas) if isinstance(schemas, dict) else set()
        self.hoisted: dict[tuple[Path | str, str], str] = {}
        self.pending: list[tuple[str, Path | str, str]] = []
        self.origins: list[tuple[str, Document, str]] = []

    def run(self, sites: list[tuple[tuple[Part, ...], str]]) -> dict[str, Any]:
        data: dict[str, Any] = copy_data(self.doc.data)
        for path, ref in sites:
            _set(data, path, self.replacement({"$ref": ref}, self.doc, path, 0))
        schemas = data.setdefault("components", {}).setdefault("schemas", {})
        while self.pending:
            name, file, pointer = self.pending.pop(0)
            source = self.files[file]
            path = (*_COMPONENTS, name)
            schemas[name] = self.rewrite(resolve_pointer(source.data, pointer), source, path, 0)
            self.origins.append((make_pointer(path), source, pointer.lstrip("#")))
        return data

    def target(self, ref: str, source: Document) -> tuple[Path | str, str]:
        url = urlsplit(ref)
        here = source.url if source.url is not None else source.path
        file = _key(ref_target(source, ref) if url.path or url.netloc else here)
        return file, "#" + url.fragment if "#" in ref else ""

    def replacement(self, obj: dict[str, Any], source: Document, path: tuple[Part, ...],
                    depth: int) -> Any:
        """What a `$ref` object of `source` becomes at `path` of the bundled document."""
        file, pointer = self.target(obj["$ref"], source)
        siblings = {k: v for k, v in obj.items() if k != "$ref"}
        if file == self.main:
            return {**siblings, "$ref": pointer or "#"}
        if _is_schema_site(path):
            if path[:-1] == _COMPONENTS and not siblings and (file, pointer) not in self.hoisted:
                self.hoisted[(file, pointer)] = str(path[-1])  # `X: {$ref: other#/X}` is X
                self.pending.append((str(path[-1]), file, pointer))
                return {}
            return {**siblings, "$ref": "#/components/schemas/" + escape(self.hoist(file, pointer))}
        if depth > 50:
            raise SpecError([source.problem(Level.ERROR, make_pointer(path),
                                            f"$ref {obj['$ref']!r} refers to itself")])
        other = self.files[file]
        self.origins.append((make_pointer(path), other, pointer.lstrip("#")))
        return self.rewrite(resolve_pointer(other.data, pointer), other, path, depth + 1)

    def hoist(self, file: Path | str, pointer: str) -> str:
        key = (file, pointer)
        if key not in self.hoisted:
            tokens = split_pointer(pointer)
            # From the pointer or the file's name, never the host: the same names whatever
            # server (and port) a fetched document came from.
            base = tokens[-1] if tokens else file.stem if isinstance(file, Path) else stem(file)
            name, n = base, 1
            while name in self.taken:
                n += 1
                name = f"{base}{n}"
            self.taken.add(name)
            self.hoisted[key] = name
            self.pending.append((name, file, pointer))
        return self.hoisted[key]

    def rewrite(self, node: Any, source: Document, path: tuple[Part, ...], depth: int) -> Any:
        """A copy of `node` (a part of `source`) with its references made the bundle's."""
        if isinstance(node, list):
            return [self.rewrite(v, source, (*path, i), depth) for i, v in enumerate(node)]
        if not isinstance(node, dict):
            return node
        if isinstance(node.get("$ref"), str):
            return self.replacement(node, source, path, depth)
        if path and path[-1] == "discriminator" and isinstance(node.get("mapping"), dict):
            node = {**node, "mapping": {k: self.mapped(v, source) if isinstance(v, str) else v
                                        for k, v in node["mapping"].items()}}
        return {k: copy_data(v) if holds_data(path, k) else
                self.rewrite(v, source, (*path, k), depth) for k, v in node.items()}

    def mapped(self, value: str, source: Document) -> str:
        """A discriminator mapping's value copied from `source`: a reference to a schema of
        another file (`models/x.yml`, or `#/x` inside another file) refers to the schema as
        bundled, as the members' `$ref`s do; a schema's name, or a reference inside the spec
        itself, stays."""
        if "/" not in value and "#" not in value:
            return value  # a component schema's name
        file, pointer = self.target(value, source)
        if file == self.main:
            return pointer or "#"
        return "#/components/schemas/" + escape(self.hoist(file, pointer))


def _set(data: Any, path: tuple[Part, ...], value: Any) -> None:
    node = data
    for part in path[:-1]:
        node = node[part]
    node[path[-1]] = value
