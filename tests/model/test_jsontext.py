"""model/jsontext.py writes what json.dumps(indent=2, ensure_ascii=False) writes, or defers to it."""

from __future__ import annotations

import datetime
import gzip
import json
import random

import pytest
from contractgen.model.jsontext import dumps_indented
from shared_corpus import corpus_files, needs_corpus


def _expected(data: object) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False)


EDGES: list[object] = [
    {}, [], "", 0, -1, 10**40, 1.5, 1e300, -0.0, float("inf"), float("-inf"), float("nan"), None,
    True, False, (1, 2), {"a": ()}, {"é\u2028\x00\"\\/": ["\ud800", "ü", "\t\n"]},
    {3: "int key", 2.5: "float key", True: "bool", None: "none", False: []},
    {"nested": {"deep": [[{}], [[]], {"x": [1, {"y": None}]}]}},
]


@pytest.mark.parametrize("data", EDGES, ids=range(len(EDGES)))
def test_edge_values(data: object) -> None:
    assert dumps_indented(data) == _expected(data)


def _random_value(rng: random.Random, depth: int) -> object:
    kind = rng.randrange(9 if depth < 5 else 6)
    scalars: list[object] = [rng.choice(["", "a b", "\u00e9t\u00e9", "q\"\\", "\x7f"]),
                             rng.randint(-10**6, 10**6), rng.uniform(-1e9, 1e9), None, True,
                             False]
    if kind < 6:
        return scalars[kind]
    if kind == 6:
        return [_random_value(rng, depth + 1) for _ in range(rng.randrange(4))]
    return {rng.choice(["k", "ключ", "x-y", 7, 1.25]): _random_value(rng, depth + 1)
            for _ in range(rng.randrange(4))}


def test_random_documents() -> None:
    rng = random.Random(10)
    for _ in range(500):
        data = _random_value(rng, 0)
        assert dumps_indented(data) == _expected(data)


def test_what_json_refuses_it_refuses_the_same_way() -> None:
    when = {"example": datetime.date(2026, 12, 1)}
    with pytest.raises(TypeError, match="not JSON serializable"):
        dumps_indented(when)
    looped: list[object] = []
    looped.append(looped)
    with pytest.raises(ValueError, match="Circular reference"):
        dumps_indented(looped)


@pytest.mark.corpus
@needs_corpus
def test_corpus_contracts() -> None:
    for packed in corpus_files("*.json.gz"):
        data = json.loads(gzip.decompress(packed.read_bytes()))
        assert dumps_indented(data) == _expected(data), packed.name
