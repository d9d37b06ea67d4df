"""Rewrite the formatted blocks contractgen ships: `python -m tests.shipped_blocks` (`make regen`).

The templates write some top-level definitions the same for every contract (the runtime helpers
and base classes of models.py, server.py and client.py). black's output for them goes into
`templates/_compiled/blocks.json`, as entries of the block cache (emit/shipped.py), so a run
with an empty cache does not format them again.

Which blocks: those a cold `generate` hands to black, identical in at least two of the small
contracts of tests/corpus (`TRAINING`; the seeds and ../shared/corpus stay out, so what the bench
measures on them is not trained on them). Each is formatted here by black itself.
tests/emit/test_shipped_blocks.py checks the file is current.
"""

from __future__ import annotations

import json
import os
import sys
from collections import Counter
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
TRAINING = ("api_with_examples.yaml", "callbacks.yaml", "composition.yaml", "links.yaml",
            "media_types.yaml", "non_oauth_scopes.yaml", "petstore.yaml", "security_zoo.yaml",
            "tictactoe.yaml", "webhooks_and_paths.yaml")


class _Seen(Exception):
    def __init__(self, texts: list[str]) -> None:
        self.texts = texts


def _blocks_of(spec: Path) -> set[str]:
    """The blocks a cold run of `spec` hands to black (the run stops there)."""
    from contractgen import api
    from contractgen.emit import formatting

    def recording(texts: Any) -> list[str | None]:
        raise _Seen(list(texts))

    original = formatting._format_many
    formatting._format_many = recording
    try:
        api.render(spec, validate_spec=False)
    except _Seen as seen:
        return set(seen.texts)
    finally:
        formatting._format_many = original
    raise AssertionError(f"{spec}: no block reached black")


def build() -> dict[str, Any]:
    """The file's content: the block cache's namespace and its entries."""
    from contractgen.emit import formatting

    saved = os.environ.get("CONTRACTGEN_NO_CACHE")
    os.environ["CONTRACTGEN_NO_CACHE"] = "1"  # every block reaches black, none is shipped
    try:
        counts: Counter[str] = Counter()
        for name in TRAINING:
            counts.update(_blocks_of(HERE / "corpus" / name))
    finally:
        if saved is None:
            del os.environ["CONTRACTGEN_NO_CACHE"]
        else:
            os.environ["CONTRACTGEN_NO_CACHE"] = saved
    cache = formatting.block_cache()
    shared = sorted(text for text, count in counts.items() if count >= 2)
    return {"namespace": cache.namespace,
            "blocks": {cache.key(text): formatting.format_source(text) for text in shared}}


def text_of(content: dict[str, Any]) -> str:
    return json.dumps(content, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def target() -> Path:
    from contractgen.emit.shipped import SHIPPED_BLOCKS
    from contractgen.emit.templates import templates_dir

    return templates_dir() / SHIPPED_BLOCKS


def main() -> int:
    content = build()
    target().parent.mkdir(exist_ok=True)
    target().write_text(text_of(content), encoding="utf-8")
    print(f"wrote {target()}: {len(content['blocks'])} blocks", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
