"""The formatted blocks contractgen ships (emit/shipped.py): current, used
by a cold run, and the same output as black's."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import shipped_blocks as builder
from contractgen import api
from contractgen.emit import formatting, shipped
from gen_support import OTARI_SPEC, TPMJS_OVERLAY, TPMJS_SPEC


def test_the_shipped_blocks_are_current() -> None:
    assert builder.target().read_text(encoding="utf-8") == builder.text_of(builder.build()), (
        "templates/_compiled/blocks.json is stale: run `make regen`")


def test_each_shipped_block_is_blacks_output_for_its_key() -> None:
    """The shipped outputs are black's fixed points (black's output formats to itself), and the
    namespace is the block cache's."""
    content = json.loads(builder.target().read_text(encoding="utf-8"))
    assert content["namespace"] == formatting.block_cache().namespace
    assert len(content["blocks"]) > 100
    for formatted in content["blocks"].values():
        assert formatting.format_source(formatted) == formatted


@pytest.mark.parametrize(("spec", "overlay"), [(OTARI_SPEC, None), (TPMJS_SPEC, TPMJS_OVERLAY)])
def test_a_cold_run_formats_fewer_blocks_and_writes_the_same(
        spec: Path, overlay: Path | None, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "with"))
    before = formatting.BLACK_RUNS
    served, _ = api.render(spec, overlay=overlay)
    with_shipped = formatting.BLACK_RUNS - before

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "without"))
    monkeypatch.setattr(shipped, "blocks", lambda namespace: {})
    before = formatting.BLACK_RUNS
    plain, _ = api.render(spec, overlay=overlay)
    without = formatting.BLACK_RUNS - before
    assert served == plain
    # about half of a seed's blocks are the templates' own, the same for every contract
    assert with_shipped < 0.7 * without


def test_a_file_for_another_black_or_contractgen_serves_nothing(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    (tmp_path / "_compiled").mkdir()
    monkeypatch.setattr(shipped, "templates_dir", lambda: tmp_path)
    namespace = formatting.block_cache().namespace
    target = tmp_path / shipped.SHIPPED_BLOCKS
    for text in ("not json", json.dumps([1]), json.dumps({"namespace": "black-0.0-x",
                                                          "blocks": {"k": "v"}})):
        target.write_text(text, encoding="utf-8")
        shipped.blocks.cache_clear()
        assert shipped.blocks(namespace) == {}
    target.write_text(json.dumps({"namespace": namespace, "blocks": {"k": "v"}}), encoding="utf-8")
    shipped.blocks.cache_clear()
    assert shipped.blocks(namespace) == {"k": "v"}
    shipped.blocks.cache_clear()
