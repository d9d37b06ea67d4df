"""black's output for the blocks the templates write alike for every contract (the runtime
helpers, base classes and imports of models.py, server.py and client.py: half of a small
contract's formatting), shipped with contractgen as entries of the block cache
(emit/formatting.py), so a run with an empty cache does not format them.

`templates/_compiled/blocks.json` holds the cache's namespace (black's version and settings,
contractgen's version) and its entries, keyed as `TextCache.key` keys them: they serve only the
black, settings and contractgen that made them, and the block text they were made from.
`make regen` writes the file (tests/shipped_blocks.py, with black); a test keeps it current.
"""

from __future__ import annotations

import functools
import json

from .templates import templates_dir

SHIPPED_BLOCKS = "_compiled/blocks.json"


@functools.cache
def blocks(namespace: str) -> dict[str, str]:
    """The shipped entries of the block cache `namespace` (none for another namespace, or when
    the file is missing or damaged)."""
    try:
        shipped = json.loads((templates_dir() / SHIPPED_BLOCKS).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(shipped, dict) or shipped.get("namespace") != namespace:
        return {}
    entries = shipped.get("blocks")
    return dict(entries) if isinstance(entries, dict) else {}
