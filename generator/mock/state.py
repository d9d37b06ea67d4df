"""State for resource-shaped operations: collections recognised from paths and methods.

A collection is a path `/books` with an item path `/books/{bookId}` below it (nested ones too:
`/users/{userId}/books`), created by a POST on the collection or a PUT on an item, whose items
carry their id in a field (`id`, `bookId` or `book_id`). Each concrete collection path
(`/users/7/books`) holds its own items, in the order they were created. What is not recognised
is answered statelessly (`answers`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .answers import Answer, Call, Responder, overlaid, problem
from .contract import Op
from .jsonpatch import MEDIA as JSON_PATCH
from .jsonpatch import PatchError
from .jsonpatch import apply as json_patch
from .listing import listed

_ITEM = re.compile(r"\{[^{}/]+\}")  # an item path's last segment: one whole parameter
_ID_FIELDS = ("id", "{param}", "{snake}", "uuid", "key", "name")


@dataclass
class Collection:
    """A collection and the operations on it, by role."""

    path: str  # `/books`
    item_path: str  # `/books/{bookId}`
    param: str  # `bookId`
    id_field: str = ""
    item_pointer: str = ""  # the schema of an item as GET by id answers it
    ops: dict[str, Op] = field(default_factory=dict)  # "list", "create", "get", "put", ...


def _snake(name: str) -> str:
    return "".join(f"_{c.lower()}" if c.isupper() else c for c in name).lstrip("_")


def recognise(ops: Iterable[Op], responder: Responder,
              overrides: Iterable[tuple[str, str]] | None = None) -> list[Collection]:
    """The stateful collections among `ops` (or those `overrides` names: path -> item path)."""
    ops = list(ops)
    by_path: dict[str, dict[str, Op]] = {}
    for op in ops:
        by_path.setdefault(op.path, {})[op.method] = op
    pairs = list(overrides) if overrides is not None else [
        (path[: path.rindex("/")], path) for path in by_path
        if _ITEM.fullmatch(path.rsplit("/", 1)[-1]) and path[: path.rindex("/")] in by_path]
    found = []
    for path, item_path in pairs:
        outer, inner = by_path.get(path, {}), by_path.get(item_path, {})
        param = item_path.rsplit("{", 1)[-1].rstrip("}")
        collection = Collection(path, item_path, param)
        roles = {"list": outer.get("GET"), "create": outer.get("POST"), "get": inner.get("GET"),
                 "put": inner.get("PUT"), "patch": inner.get("PATCH"),
                 "delete": inner.get("DELETE")}
        collection.ops = {role: op for role, op in roles.items() if op is not None}
        if ("create" in collection.ops or "put" in collection.ops) and _identify(
                collection, responder):
            found.append(collection)
    return found


def _identify(collection: Collection, responder: Responder) -> bool:
    """Find the items' schema and their id field; False when there is none."""
    for role in ("get", "create", "put", "patch"):
        op = collection.ops.get(role)
        if op is None:
            continue
        pointer = responder.schema_pointer(op, responder.success(op))
        if pointer is None:
            continue
        props = responder.properties(pointer)
        names = [n.format(param=collection.param, snake=_snake(collection.param))
                 for n in _ID_FIELDS]
        chosen = next((n for n in names if n in props), None)
        if chosen is not None:
            collection.item_pointer, collection.id_field = pointer, chosen
            return True
    return False


class Store:
    """The items of every concrete collection, and the answers that read and change them."""

    def __init__(self, responder: Responder, ops: Iterable[Op], *, enabled: bool = True,
                 overrides: Iterable[tuple[str, str]] | None = None) -> None:
        self.responder = responder
        self.collections = recognise(ops, responder, overrides) if enabled else []
        self.roles: dict[str, tuple[Collection, str]] = {
            op.pointer: (c, role) for c in self.collections for role, op in c.ops.items()}
        self.items: dict[str, dict[str, Any]] = {}
        self.created = 0

    def reset(self) -> None:
        self.items.clear()
        self.created = 0

    def seed_from(self, path: Path) -> None:
        """`--data FILE`: `{"/books": [{...}, ...]}`, concrete collection paths to items."""
        from ..spec.loader import load_document

        data = load_document(path, kind="mock data").data
        for where, items in (data or {}).items():
            collection = self._collection_at(str(where))
            if collection is None or not isinstance(items, list):
                raise ValueError(f"{path}: {where} is not a collection the mock recognised "
                                 f"({', '.join(c.path for c in self.collections) or 'none'})")
            for item in items:
                self.items.setdefault(str(where), {})[str(item[collection.id_field])] = item

    def _collection_at(self, path: str) -> Collection | None:
        from .contract import _pattern

        return next((c for c in self.collections if _pattern(c.path).fullmatch(path)), None)

    def handle(self, call: Call) -> Answer | None:
        """The stateful answer to `call`, or None when it is answered statelessly."""
        found = self.roles.get(call.op.pointer)
        if found is None:
            return None
        collection, role = found
        if role == "list":
            return listed(self, call)
        if role == "create":
            return self.create(collection, call, call.path)
        where, _, ident = call.path.rpartition("/")
        items = self.items.setdefault(where, {})
        if role == "put" and ident not in items and "create" not in collection.ops:
            return self.create(collection, call, where, ident)
        if ident not in items:
            if self.responder.declared_key(call.op, 404) is None:
                return None  # no declared 404: answered as if it were there
            return self.responder.answer(call, 404, message=f"{where}/{ident} is not there: "
                                         "never created, or deleted")
        if role == "delete":
            del items[ident]
            return self.responder.answer(call, self.responder.success(call.op))
        if role in ("put", "patch"):
            updated = self._updated(collection, call, items[ident], role)
            if isinstance(updated, Answer):
                return updated
            items[ident] = updated
        return self._reply(call, items[ident])

    def create(self, collection: Collection, call: Call, where: str,
               ident: str | None = None) -> Answer:
        self.created += 1
        items = self.items.setdefault(where, {})
        given = self._readable(collection, call.body)
        new_id = ident if ident is not None else self._new_id(collection, call, items, given)

        id_schema = self.responder.faker.merged(
            self.responder.properties(collection.item_pointer)[collection.id_field])
        new_id = _typed(new_id, id_schema)

        def fix(made: Any) -> Any:
            if not isinstance(made, dict):
                return made
            return {**overlaid(made, given), collection.id_field: new_id}

        item = self.responder.made_up(None, collection.item_pointer, f"create|{call.key}",
                                      fix, pointer_schema=True)
        items[str(item.get(collection.id_field, new_id))] = item
        return self._reply(call, item)

    def _readable(self, collection: Collection, body: Any) -> dict[str, Any]:
        """What a client sent that an item answers: its schema's members (all, when it lists
        none), not the `writeOnly` ones (a password is taken, never answered)."""
        props = self.responder.properties(collection.item_pointer)
        merged = self.responder.faker.merged
        return {k: v for k, v in (body if isinstance(body, dict) else {}).items()
                if (k in props or not props)
                and not (k in props and merged(props[k]).get("writeOnly"))}

    def _new_id(self, collection: Collection, call: Call, items: Mapping[str, Any],
                given: Mapping[str, Any]) -> Any:
        if collection.id_field in given:
            return given[collection.id_field]
        schema = self.responder.faker.merged(
            self.responder.properties(collection.item_pointer)[collection.id_field])
        if schema.get("type") in ("integer", "number"):
            return max([int(k) for k in items if k.lstrip("-").isdigit()] + [0]) + 1
        for salt in range(100):
            made = self.responder.made_up(schema, None, f"id|{call.key}|{self.created}|{salt}")
            if str(made) not in items:
                return made
        return f"{self.created}"

    def _updated(self, collection: Collection, call: Call, old: dict[str, Any],
                 role: str) -> dict[str, Any] | Answer:
        media = call.headers.get("content-type", "").split(";")[0].strip().lower()
        if media == JSON_PATCH:  # on PATCH, and on PUT as Box sends it (its metadata)
            return self._json_patched(collection, call, old)
        body = self._readable(collection, call.body)
        if role == "patch":
            new = dict(merge_patch(old, body))
        else:  # PUT: what is sent replaces those members, the others stay (Box's PUT updates)
            new = {**old, **body}
        new[collection.id_field] = old[collection.id_field]
        if self.responder.judge.valid(collection.item_pointer, new):
            return new
        made = self.responder.made_up(None, collection.item_pointer, f"update|{call.key}",
                                      lambda made: overlaid(made, new), pointer_schema=True)
        return dict(made) if isinstance(made, dict) else new

    def _json_patched(self, collection: Collection, call: Call,
                      old: dict[str, Any]) -> dict[str, Any] | Answer:
        """RFC 6902 applied whole, or refused: a failing `test` is the declared 409 (else 422,
        else 400); a patch that cannot apply, or whose result is not an item, the declared 422
        (else 409, else 400). The id stays."""
        try:
            new = json_patch(old, call.body)
        except PatchError as exc:
            statuses = (409, 422, 400) if exc.failed_test else (422, 409, 400)
            return self._refused(call, statuses, str(exc))
        if not isinstance(new, dict) or new.get(collection.id_field) != old[
                collection.id_field]:
            return self._refused(call, (422, 409, 400),
                                 f"the patch changes the item's {collection.id_field} or "
                                 "replaces it with a non-object")
        problems = self.responder.judge.problems(collection.item_pointer, new)
        if problems:
            return self._refused(call, (422, 409, 400),
                                 f"the patched item does not fit its schema: {problems[0]}")
        return new

    def _refused(self, call: Call, statuses: tuple[int, ...], message: str) -> Answer:
        """The first of `statuses` the operation declares (exactly, then by `4XX` or
        `default`); a mock problem of the first when it declares none of them."""
        exact = [s for s in statuses if str(s) in call.op.responses]
        ranged = [s for s in statuses if self.responder.declared_key(call.op, s) is not None]
        chosen = next(iter(exact or ranged), None)
        if chosen is None:
            return problem(statuses[0], "PATCH_NOT_APPLIED",
                           f"{message} (the operation declares none of {statuses})")
        return self.responder.answer(call, chosen, message=message)

    def _reply(self, call: Call, item: dict[str, Any]) -> Answer:
        status = self.responder.success(call.op)
        pointer = self.responder.schema_pointer(call.op, status)
        if pointer is not None and not self.responder.judge.valid(pointer, item):
            item = self.responder.made_up(None, pointer, f"reply|{call.key}",
                                          lambda made: overlaid(made, item),
                                          pointer_schema=True)
        return self.responder.answer(call, status, value=item)


def _typed(ident: Any, schema: Mapping[str, Any]) -> Any:
    """A path's id as its field is typed (`7` for an integer id)."""
    if isinstance(ident, str) and schema.get("type") == "integer" and ident.lstrip("-").isdigit():
        return int(ident)
    return ident


def merge_patch(target: Any, patch: Any) -> Any:
    """RFC 7396: `patch` applied to `target` (null removes a member)."""
    if not isinstance(patch, dict):
        return patch
    out = dict(target) if isinstance(target, dict) else {}
    for key, value in patch.items():
        if value is None:
            out.pop(key, None)
        else:
            out[key] = merge_patch(out.get(key), value)
    return out

