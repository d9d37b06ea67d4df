"""A synthetic large contract for `bench/generate.py`, built deterministically from the corpus.

Copies of the source documents (in the order given, round-robin) are merged into one OpenAPI 3.0
document until it has at least `operations` operations; the last copy stops at the first path item
that reaches the count, and brings only the schemas its paths reach. Every copy's path keys
(`/c2/...`), operationIds (`c2_...`), tags and component schema names (`c2_...`) carry the copy's
prefix, and its `$ref`s are rewritten to match, so no two copies collide. Security schemes keep
their names (renamed per copy only if two sources define one name differently), and every
operation states its security explicitly, as its source declared it (globally or its own).
Run alone, `python bench/synthetic.py OUT.json [OPERATIONS]` writes it from `../shared/corpus`.
"""

from __future__ import annotations

import copy
import gzip
import json
import sys
from itertools import cycle
from pathlib import Path
from typing import Any

HTTP_METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
SCHEMA_REF = "#/components/schemas/"


def operations_in(path_item: Any) -> int:
    return sum(1 for method in HTTP_METHODS if method in path_item) if isinstance(path_item,
                                                                                  dict) else 0


def _refs(node: Any) -> list[str]:
    """The component schema names `node` refers to, in document order."""
    found: list[str] = []
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            ref = item.get("$ref")
            if isinstance(ref, str) and ref.startswith(SCHEMA_REF):
                found.append(ref.removeprefix(SCHEMA_REF))
            stack.extend(reversed(list(item.values())))
        elif isinstance(item, list):
            stack.extend(reversed(item))
    return found


def _reachable(schemas: dict[str, Any], roots: list[Any]) -> set[str]:
    names: set[str] = set()
    pending = [name for root in roots for name in _refs(root)]
    while pending:
        name = pending.pop()
        if name in names or name not in schemas:
            continue
        names.add(name)
        pending.extend(_refs(schemas[name]))
    return names


def _rename_refs(node: Any, prefix: str) -> Any:
    """`node` (a deep copy) with every component schema `$ref` pointing at its prefixed name."""
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith(SCHEMA_REF):
            node["$ref"] = SCHEMA_REF + prefix + ref.removeprefix(SCHEMA_REF)
        for value in node.values():
            _rename_refs(value, prefix)
    elif isinstance(node, list):
        for value in node:
            _rename_refs(value, prefix)
    return node


def build(sources: list[dict[str, Any]], operations: int = 1000) -> dict[str, Any]:
    """One OpenAPI 3.0 document of >= `operations` operations, from copies of `sources`."""
    if not sources or not any(operations_in(item) for source in sources
                              for item in (source.get("paths") or {}).values()):
        raise ValueError("no source with operations")
    paths: dict[str, Any] = {}
    schemas: dict[str, Any] = {}
    schemes: dict[str, Any] = {}
    tags: dict[str, Any] = {}
    count = 0
    for number, source in enumerate(cycle(sources), start=1):
        if count >= operations:
            break
        prefix = f"c{number}_"
        components = source.get("components") or {}
        renamed: dict[str, str] = {}
        for name, scheme in (components.get("securitySchemes") or {}).items():
            target = name if schemes.get(name, scheme) == scheme else prefix + name
            schemes[target] = copy.deepcopy(scheme)
            renamed[name] = target
        taken: list[Any] = []
        for key, item in (source.get("paths") or {}).items():
            if count >= operations:
                break
            if not isinstance(item, dict):
                continue
            item = _rename_refs(copy.deepcopy(item), prefix)
            for method in HTTP_METHODS:
                operation = item.get(method)
                if not isinstance(operation, dict):
                    continue
                if "operationId" in operation:
                    operation["operationId"] = prefix + str(operation["operationId"])
                if isinstance(operation.get("tags"), list):
                    operation["tags"] = [prefix + str(tag) for tag in operation["tags"]]
                    for tag in operation["tags"]:
                        tags.setdefault(tag, {"name": tag})
                security = operation.get("security", source.get("security"))
                if isinstance(security, list):
                    operation["security"] = [
                        {renamed.get(name, name): scopes for name, scopes in requirement.items()}
                        if isinstance(requirement, dict) else requirement
                        for requirement in security]
                count += 1
            paths[f"/c{number}{key}"] = item
            taken.append(item)
        copied = {prefix + name: _rename_refs(copy.deepcopy(schema), prefix)
                  for name, schema in (components.get("schemas") or {}).items()}
        # Whole copies bring every schema; the last, cut short, only what its paths reach.
        whole = len(taken) == sum(isinstance(item, dict)
                                  for item in (source.get("paths") or {}).values())
        kept = set(copied) if whole else _reachable(copied, taken)
        schemas.update((name, schema) for name, schema in copied.items() if name in kept)
        for tag in source.get("tags") or []:
            if isinstance(tag, dict) and prefix + str(tag.get("name")) in tags:
                tags[prefix + str(tag["name"])] = {**copy.deepcopy(tag),
                                                    "name": prefix + str(tag["name"])}
    first = sources[0]
    document: dict[str, Any] = {
        "openapi": "3.0.3",
        "info": {"title": "Synthetic contract", "version": "1.0.0",
                 "description": f"{count} operations: copies of "
                                + ", ".join(str((s.get("info") or {}).get("title", "?"))
                                            for s in sources) + "."},
    }
    if first.get("servers"):
        document["servers"] = copy.deepcopy(first["servers"])
    document["tags"] = list(tags.values())
    document["paths"] = paths
    document["components"] = {"schemas": schemas, "securitySchemes": schemes}
    return document


def corpus_sources(corpus: Path) -> list[dict[str, Any]]:
    """The corpus documents, by file name (Box, then Twilio's api v2010, then conversations)."""
    return [json.loads(gzip.decompress(packed.read_bytes()))
            for packed in sorted(corpus.glob("*.json.gz"))]


def main() -> None:
    here = Path(__file__).resolve().parent.parent
    corpus = next(p / "shared" / "corpus" for p in here.parents
                  if (p / "shared" / "corpus").is_dir())
    document = build(corpus_sources(corpus), int(sys.argv[2]) if len(sys.argv) > 2 else 1000)
    Path(sys.argv[1]).write_text(json.dumps(document))


if __name__ == "__main__":
    main()
