"""spec/jsonpos.py answers, for any pointer, what the composed position tree answers."""

from __future__ import annotations

import gzip
import json
import random
from pathlib import Path
from typing import Any

import pytest
from contractgen.spec import jsonpos
from contractgen.spec.loader import load_document
from contractgen.spec.tree import make_pointer

CORPUS = next((p / "shared" / "corpus" for p in Path(__file__).resolve().parents
               if (p / "shared" / "corpus").is_dir()), None)


def _paths(node: Any, path: tuple[str | int, ...] = ()) -> list[tuple[str | int, ...]]:
    found = [path]
    if isinstance(node, dict):
        for key, value in node.items():
            found += _paths(value, (*path, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            found += _paths(value, (*path, index))
    return found


def _compare(spec: Path, sample: int | None = None) -> int:
    """Quick and composed answers for every pointer (and pointers below each that do not
    exist); returns how many the quick path answered."""
    quick_doc, tree_doc = load_document(spec), load_document(spec)
    quick = quick_doc.quick_position
    assert quick is not None
    paths = _paths(quick_doc.data)
    if sample is not None:
        paths = random.Random(10).sample(paths, min(sample, len(paths)))
    paths += [(*p, "missing") for p in paths[:50]] + [(*p, "7") for p in paths[:50]]
    assert tree_doc.positions is not None  # composed now: position() reads the tree
    answered = 0
    for path in paths:
        tokens = [str(t) for t in path]
        fast = quick(tokens)
        if fast is not None:
            answered += 1
            assert fast == tree_doc.position(make_pointer(path)), path
    return answered


TEXTS = {
    "pretty": json.dumps({"a": {"b": [1, {"c": None}], "d": "x\u2028y"}, "e": []}, indent=2),
    "compact": json.dumps({"a": {"b": [1, {"c": None}]}, "é": {"ü": [[], {}]}},
                          ensure_ascii=False),
    "crlf": json.dumps({"a": {"b": [1, 2, 3]}, "z": 1}, indent=1).replace("\n", "\r\n"),
    "breaks in strings": '{"a": "x\u0085y\u2029z",\n "b": {"c": [true,\r false]}}',
    "escaped keys": '{"a\\/b": {"c": 1}, "d": {"\\u00e9": 2}}',
}


@pytest.fixture(autouse=True)
def _uncapped(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(jsonpos, "_QUICK_ANSWERS", 10**9)


@pytest.mark.parametrize("name", TEXTS)
def test_small_documents(name: str, tmp_path: Path) -> None:
    spec = tmp_path / "spec.json"
    spec.write_text(TEXTS[name], encoding="utf-8")
    answered = _compare(spec)
    if name != "escaped keys":
        assert answered > 0


def test_many_questions_go_to_the_composed_tree(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(jsonpos, "_QUICK_ANSWERS", 2)
    spec = tmp_path / "spec.json"
    spec.write_text(TEXTS["pretty"], encoding="utf-8")
    doc = load_document(spec)
    answers = [doc.position("/a/b/1/c") for _ in range(4)]
    assert answers == [(6, 9)] * 4
    assert "positions" in doc.__dict__  # the third question composed the tree


def test_tabs_are_left_to_the_composer(tmp_path: Path) -> None:
    spec = tmp_path / "spec.json"
    spec.write_text('{\t"a": 1}', encoding="utf-8")
    assert load_document(spec).quick_position is None
    assert load_document(spec).position("/a") == (1, 3)


@pytest.mark.corpus
@pytest.mark.skipif(CORPUS is None, reason="no ../shared/corpus")
@pytest.mark.parametrize("compact", [False, True])
def test_corpus_contracts(compact: bool, tmp_path: Path) -> None:
    assert CORPUS is not None
    for packed in sorted(CORPUS.glob("*.json.gz")):
        text = gzip.decompress(packed.read_bytes()).decode()
        if compact:
            text = json.dumps(json.loads(text))
        spec = tmp_path / packed.name.removesuffix(".gz")
        spec.write_text(text, encoding="utf-8")
        assert _compare(spec, sample=600) > 500, packed.name
