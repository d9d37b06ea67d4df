"""Valid requests made up from a contract, for the tests `generate --sdk` writes: each
operation's parameters and body, drawn as the mock draws its answers (seeded, the same on every
run) and judged against their schema (jsonschema) before they are handed out.

    made = MadeUp("src/acme_client/openapi.json")
    made.parameter("GetBook", "path", "bookId")   # a JSON value the parameter's schema takes
    made.body("CreateBook")                        # a JSON body the request's schema takes
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..emit.sdk_tests import Crud
from ..model.schema_facts import deref
from ..spec.tree import escape
from .answers import Responder
from .contract import Op, operations


class MadeUp:
    """Made-up request values of one contract, by operation id and the parameters' wire names."""

    def __init__(self, spec: str | Path | Mapping[str, Any], seed: int = 0) -> None:
        data = spec if isinstance(spec, Mapping) else json.loads(Path(spec).read_bytes())
        self.responder = Responder(data, seed)
        self.ops = {op.id: op for op in operations(data)}

    def _op(self, operation_id: str) -> Op:
        try:
            return self.ops[operation_id]
        except KeyError:
            raise KeyError(f"the contract has no operation {operation_id!r}") from None

    def parameter(self, operation_id: str, location: str, name: str) -> Any:
        """A value of the parameter `name` (its wire name) `in: location` of the operation."""
        op = self._op(operation_id)
        for index, param in enumerate(op.raw.get("parameters") or ()):
            found = deref(self.responder.spec, param)
            if (found.get("in"), found.get("name")) == (location, name) and "schema" in found:
                pointer = f"{op.pointer}/parameters/{index}/schema"
                return self._made(found["schema"], pointer, f"{operation_id}|{location}|{name}")
        for param in op.params:  # the path item's (no pointer of the operation's own)
            if (param.get("in"), param.get("name")) == (location, name):
                return self._made(param.get("schema") or {}, None,
                                  f"{operation_id}|{location}|{name}")
        raise KeyError(f"{operation_id} has no {location} parameter {name!r}")

    def body(self, operation_id: str, media: str | None = None) -> Any:
        """A request body of the operation (of `media`, else its first JSON media type)."""
        op = self._op(operation_id)
        request = deref(self.responder.spec, op.raw.get("requestBody") or {})
        content = request.get("content") or {}
        chosen = media or next((str(m) for m in content if "json" in m), None)
        if chosen is None or chosen not in content:
            raise KeyError(f"{operation_id} takes no {media or 'JSON'} body")
        raw = op.raw.get("requestBody") or {}
        where = raw["$ref"][1:] if isinstance(raw.get("$ref"), str) else f"{op.pointer}/requestBody"
        pointer = f"{where}/content/{escape(chosen)}/schema"
        schema = deref(self.responder.spec, content[chosen]).get("schema") or {}
        return self._made(schema, pointer, f"{operation_id}|body|{chosen}")

    def _made(self, schema: Any, pointer: str | None, key: str) -> Any:
        """A value of `schema` as a request carries it (readOnly members left out), valid at
        `pointer` when there is one (drawn again, as the mock's answers are)."""
        return _request_value(self.responder, schema, pointer, key)


def _request_value(responder: Responder, schema: Any, pointer: str | None, key: str) -> Any:
    import random

    made: Any = None
    for attempt in range(25):
        rng = random.Random(f"{responder.seed}|request|{key}|{attempt}")
        made = responder.faker.value(schema, rng, reading=False)
        if pointer is None or responder.judge.valid(pointer, made):
            return made
    return made


def collections_kept(spec: Mapping[str, Any]) -> list[Crud]:
    """The collections the mock of `spec` keeps (`state.recognise`), as the SDK's generated
    CRUD tests read them."""
    from .state import recognise

    responder = Responder(spec, 0)
    return [Crud(c.path, c.item_path, c.id_field, {role: op.id for role, op in c.ops.items()})
            for c in recognise(operations(spec), responder)]
