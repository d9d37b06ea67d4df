"""`Paging`: how an operation pages, as the IR carries it (its detection is `paging`)."""

from __future__ import annotations

from dataclasses import dataclass

from .typeref import TypeRef


@dataclass(frozen=True)
class Paging:
    """How an operation pages (its client's `<method>_iter`): response fields by wire name,
    request parameters by Python name, "" where it does not apply (`items` "": the body)."""

    items: str = ""
    next_url: str = ""
    link: bool = False
    cursor: str = ""
    next_cursor: str = ""
    offset: str = ""
    page: str = ""
    limit: str = ""
    before: str = ""  # the parameter taking the smallest item `id` of the page...
    after: str = ""  # ...or the largest (Discord's snowflakes)
    item_id: str = ""  # the items' field holding that id, dotted ("user.id"); "": `id`
    item: TypeRef | None = None  # the items' type (`paging.typed_items`); None: unknown

    @property
    def arguments(self) -> list[str]:
        """The runtime's `Paging(...)` arguments for it."""
        return [f"{k}={v!r}".replace("'", '"') for k, v in vars(self).items()
                if v and k != "item"]
