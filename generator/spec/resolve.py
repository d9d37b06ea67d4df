"""Inline `$ref`s to other files (`./common.yaml#/components/schemas/X`, `other.yaml`).

References inside the document (`#/components/...`) stay references: they name the models.
prance does the inlining. Two things are done around it:

- Every file is read by `loader` first and handed to prance through its reference cache, so
  keys, timestamps and errors (with file and line) are the same as for the spec itself.
- Each external reference is resolved on its own, with internal references resolved too, so a
  `#/...` inside `common.yaml` means common.yaml's node (prance's RESOLVE_FILES alone would leave
  it pointing into the spec). A schema that refers to itself through another file cannot be
  inlined: it is copied once into `components/schemas` under its own name and referred to there.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import ParseResult

from ..problems import Level, SpecError
from .lint import check_ref
from .loader import Document
from .tree import Part, copy_data, make_pointer, split_pointer, walk_objects


def resolve_external_refs(doc: Document) -> dict[str, Any]:
    """The spec's data with references to other files inlined; SpecError if one cannot be."""
    sites = _external_sites(doc)
    if not sites:
        return doc.data
    loaded = _load_all(doc, sites)
    return _Inliner(doc, loaded).run(sites)


def _external_sites(doc: Document) -> list[tuple[tuple[Part, ...], str]]:
    sites = []
    for path, obj in walk_objects(doc.data):
        ref = obj.get("$ref")
        if isinstance(ref, str) and not ref.startswith("#"):
            sites.append((path, ref))
    return sites


def _load_all(doc: Document, sites: list[tuple[tuple[Part, ...], str]]) -> dict[Path, Document]:
    """Every file reachable through references, each checked for references it cannot keep."""
    loaded: dict[Path, Document | SpecError] = {}
    problems = []
    queue = [(doc, make_pointer(path), ref) for path, ref in sites]
    seen: set[Path] = set()
    while queue:
        source, pointer, ref = queue.pop(0)
        problems.extend(check_ref(source, pointer, ref, loaded))
        for file, other in list(loaded.items()):
            if isinstance(other, Document) and file not in seen:
                seen.add(file)
                queue.extend(
                    (other, make_pointer(path), obj["$ref"])
                    for path, obj in walk_objects(other.data)
                    if isinstance(obj.get("$ref"), str)
                )
    if problems:
        raise SpecError(problems)
    return {file: other for file, other in loaded.items() if isinstance(other, Document)}


class _Inliner:
    def __init__(self, doc: Document, loaded: dict[Path, Document]) -> None:
        import prance.util.url as prance_url

        self.doc = doc
        self.url = doc.path.resolve().as_uri()
        self.urls = prance_url
        # prance's cache, keyed as prance keys it: (URL without fragment, strict)
        self.cache: dict[Any, Any] = {
            self.key(file.resolve().as_uri()): other.data for file, other in loaded.items()
        }
        self.cache[self.key(self.url)] = doc.data
        self.hoisted: dict[tuple[str, tuple[str, ...]], str] = {}
        schemas = doc.data.get("components", {}).get("schemas", {})
        self.taken = set(schemas) if isinstance(schemas, dict) else set()

    def key(self, url: str) -> tuple[str, bool]:
        return (self.urls.urlresource(self.urls.absurl(url)), True)

    def run(self, sites: list[tuple[tuple[Part, ...], str]]) -> dict[str, Any]:
        data: dict[str, Any] = copy_data(self.doc.data)
        for path, ref in sites:
            value = self.inline(ref, path)
            target = self.target_key(ref)
            if target in self.hoisted:  # recursive: refer to the hoisted copy
                value = {"$ref": f"#/components/schemas/{self.hoisted[target]}"}
            _set(data, path, value)
        done: set[str] = set()
        while len(done) < len(self.hoisted):
            for (resource, tokens), name in list(self.hoisted.items()):
                if name not in done:
                    done.add(name)
                    ref = resource + "#" + make_pointer(tokens)
                    value = self.inline(ref, ("components", "schemas", name))
                    data.setdefault("components", {}).setdefault("schemas", {})[name] = value
        return data

    def target_key(self, ref: str) -> tuple[str, tuple[str, ...]]:
        url, tokens = self.urls.split_url_reference(self.urls.absurl(self.url), ref)
        return (self.urls.urlresource(url), tuple(tokens))

    def inline(self, ref: str, path: tuple[Part, ...]) -> Any:
        from prance.util.resolver import RESOLVE_FILES, RESOLVE_INTERNAL, RefResolver

        resolver = RefResolver(
            {"value": {"$ref": ref}},
            self.url,
            reference_cache=self.cache,
            resolve_types=RESOLVE_FILES | RESOLVE_INTERNAL,
            recursion_limit_handler=self.on_recursion,
        )
        self.cache[self.key(self.url)] = self.doc.data  # the resolver put its input there
        try:
            resolver.resolve_references()
        except Exception as exc:  # prance raises ResolutionError, and others on odd input
            pointer = make_pointer((*path, "$ref"))
            raise SpecError([self.doc.problem(Level.ERROR, pointer,
                                              f"cannot resolve $ref {ref!r}: {exc}")]) from exc
        return resolver.specs["value"]

    def on_recursion(self, _limit: int, url: ParseResult, _recursions: Any) -> dict[str, str]:
        resource = self.urls.urlresource(url)
        tokens = tuple(split_pointer("#" + url.fragment))
        if resource == self.key(self.url)[0]:
            return {"$ref": "#" + make_pointer(tokens)}  # the spec's own node: keep the reference
        key = (resource, tokens)
        if key not in self.hoisted:
            base = tokens[-1] if tokens else Path(url.path).stem
            name, n = base, 1
            while name in self.taken:
                n += 1
                name = f"{base}{n}"
            self.taken.add(name)
            self.hoisted[key] = name
        return {"$ref": f"#/components/schemas/{self.hoisted[key]}"}


def _set(data: Any, path: tuple[Part, ...], value: Any) -> None:
    node = data
    for part in path[:-1]:
        node = node[part]
    node[path[-1]] = value
