"""spec/jsonpos.py answers, for any pointer, what the composed position tree answers."""

from __future__ import annotations

import gzip
import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from contractgen.spec import jsonpos
from contractgen.spec.loader import load_document
from contractgen.spec.tree import make_pointer
from shared_corpus import corpus_files, needs_corpus


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
    assert quick_doc.quick_position is not None  # the loader's, capped: this one is not
    quick = jsonpos.locator(quick_doc.text)
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
    "lone cr": '{"a": {"b": 1},\r "c": [1,\r\n 2, {"d": [3]}],\r"e": "x"}',
    "one long line": json.dumps({f"k{i}": {"v": [i, {"w": i}], "s": "x" * i}
                                 for i in range(60)}),
}


@pytest.mark.parametrize("name", TEXTS)
def test_small_documents(name: str, tmp_path: Path) -> None:
    spec = tmp_path / "spec.json"
    spec.write_text(TEXTS[name], encoding="utf-8")
    answered = _compare(spec)
    if name != "escaped keys":
        assert answered > 0


def test_many_questions_never_compose_the_tree(tmp_path: Path) -> None:
    spec = tmp_path / "spec.json"
    spec.write_text(TEXTS["pretty"], encoding="utf-8")
    doc = load_document(spec)
    answers = [doc.position("/a/b/1/c") for _ in range(10_000)]
    assert answers == [(6, 9)] * 10_000
    assert "positions" not in doc.__dict__  # every one answered by the locator


def test_tabs_are_left_to_the_composer(tmp_path: Path) -> None:
    spec = tmp_path / "spec.json"
    spec.write_text('{\t"a": 1}', encoding="utf-8")
    assert load_document(spec).quick_position is None
    assert load_document(spec).position("/a") == (1, 3)


@pytest.mark.corpus
@needs_corpus
@pytest.mark.parametrize("compact", [False, True])
def test_corpus_contracts(compact: bool, tmp_path: Path) -> None:
    for packed in corpus_files("*.json.gz"):
        text = gzip.decompress(packed.read_bytes()).decode()
        if compact:
            text = json.dumps(json.loads(text))
        spec = tmp_path / packed.name.removesuffix(".gz")
        spec.write_text(text, encoding="utf-8")
        assert _compare(spec, sample=600) > 500, packed.name


class _Pairs(list[tuple[str, Any]]):
    """An object as written, duplicated keys and all."""


def _questions(text: str) -> list[list[str]]:
    """Tokens of every node (duplicated keys too), and of keys and indexes that are not there
    below and beside each."""
    def walk(node: Any, path: list[str]) -> list[list[str]]:
        found = [path, [*path, "missing"], [*path, "0"], [*path, "7"], [*path, "-1"], [*path, ""]]
        if isinstance(node, _Pairs):
            for key, value in node:
                found += walk(value, [*path, key])
        elif isinstance(node, list):
            for index, value in enumerate(node):
                found += walk(value, [*path, str(index)])
            found += [[*path, str(len(node))], [*path, "999999999999"]]
        return found

    try:
        data = json.loads(text, object_pairs_hook=_Pairs)
    except json.JSONDecodeError:
        data = None  # a text json refuses: ask about a few plausible keys only
    return [*walk(data, []), ["a"], ["a", "b"], ["a", "2", "b"], ["c"], ["z"]]


def _orders(questions: list[list[str]], seed: int) -> list[list[str]]:
    """The questions shuffled, then in reverse document order (a pointer after those below it,
    the keys of an object last to first), then shuffled again."""
    shuffled = questions[:]
    random.Random(seed).shuffle(shuffled)
    again = questions[:]
    random.Random(seed + 1).shuffle(again)
    return shuffled + questions[::-1] + again


ODD_TEXTS = {
    **TEXTS,
    "duplicated keys": '{"a": {"x": 1}, "b": [1, 2], "a": {"y": 2},\n'
                       ' "c": {"k": 1, "k": [3, 4], "m": {"k": 0}, "m": 5}}',
    "escape mid-object": '{"a": 1, "b\\u0041": {"c": 2}, "d": [3], "e": 4}',
    "long key": '{"a": {"b": 1}, "' + "k" * 1001 + '": 2, "z": 3}',
    "not JSON: number key": '{"a": {"b": 1}, 5: 2, "c": 3}',
    "not JSON: cut short": '{"a": [1, 2, {"b": 3, "c": [4',
    "not JSON: no commas": '{"a": {"b": 1} "c": [1 2] "z": 0}',
    "nested": json.dumps({f"k{i}": [{f"j{j}": [j, {"x": j}] for j in range(i % 5)}, i, []]
                          for i in range(25)}, indent=1),
}


@pytest.mark.parametrize("name", ODD_TEXTS)
def test_one_locator_answers_any_order_as_a_fresh_one(name: str) -> None:
    text = ODD_TEXTS[name]
    quick = jsonpos.locator(text)
    assert quick is not None
    questions = _questions(text)
    answered = 0
    for tokens in _orders(questions, seed=len(text)):
        fresh = jsonpos.locator(text)
        assert fresh is not None
        expected = fresh(tokens)
        assert quick(tokens) == expected, tokens
        answered += expected is not None
    assert answered > 0


def test_duplicated_keys_answer_the_first() -> None:
    text = ODD_TEXTS["duplicated keys"]
    quick = jsonpos.locator(text)
    assert quick is not None
    # Asked first about what only the second occurrence has, then about the first's.
    assert quick(["a", "y"]) == (1, 2)  # the first "a" has no "y": the first "a" is the answer
    assert quick(["a", "x"]) == (1, 8)
    assert quick(["c", "k", "1"]) == (2, 8)  # the first "k" is a number
    assert quick(["c", "m", "k"]) == (2, 35)
    assert quick(["c", "m"]) == (2, 29)
    assert quick(["c", "k"]) == (2, 8)


def test_unsure_keys_stay_unsure() -> None:
    quick = jsonpos.locator(ODD_TEXTS["escape mid-object"])
    assert quick is not None
    assert quick(["e"]) is None  # past the escaped key
    assert quick(["a"]) == (1, 2)  # before it
    assert quick(["d", "0"]) is None
    assert quick(["bA"]) is None
    assert quick(["missing"]) is None


@pytest.mark.parametrize("name", [n for n in TEXTS if n != "escaped keys"])
def test_one_locator_answers_any_order_as_the_composer(name: str, tmp_path: Path) -> None:
    spec = tmp_path / "spec.json"
    spec.write_text(TEXTS[name], encoding="utf-8")
    quick_doc, tree_doc = load_document(spec), load_document(spec)
    quick = jsonpos.locator(quick_doc.text)
    assert quick is not None and tree_doc.positions is not None
    questions = _questions(TEXTS[name])
    answered = 0
    for tokens in _orders(questions, seed=7):
        fast = quick(tokens)
        if fast is not None:
            answered += 1
            assert fast == tree_doc.position(make_pointer(tokens)), tokens
    assert answered > len(questions)


class _Counting(json.JSONDecoder):
    offsets: list[int]

    def raw_decode(self, s: str, idx: int = 0) -> tuple[Any, int]:
        _Counting.offsets.append(idx)
        return super().raw_decode(s, idx)


@pytest.mark.parametrize("indent", [None, 2])
def test_each_sibling_is_read_once(indent: int | None) -> None:
    keys = [f"key{i}" for i in range(50)]
    text = json.dumps({"info": {"a": [1, 2]}, "outer": {
        "items": {k: {"type": "object", "list": list(range(i % 7))} for i, k in enumerate(keys)},
        "array": [{"n": i} for i in range(50)],
    }}, indent=indent)
    questions = [["outer", "items", k] for k in keys] + [
        ["outer", "items", k, "list", str(i % 9)] for i, k in enumerate(keys)] + [
        ["outer", "array", str(i)] for i in range(55)] + [
        ["outer", "items", "missing"], ["outer", "array", "0", "n"], ["outer", "missing"]]
    random.Random(3).shuffle(questions)
    questions += questions[::-1]

    _Counting.offsets = []
    quick = jsonpos.locator(text, decoder=_Counting)
    assert quick is not None
    answers = [quick(tokens) for tokens in questions]
    memo_reads = _Counting.offsets

    _Counting.offsets = []
    for tokens, answer in zip(questions, answers, strict=True):
        fresh = jsonpos.locator(text, decoder=_Counting)
        assert fresh is not None
        assert fresh(tokens) == answer, tokens
    fresh_reads = _Counting.offsets

    assert None not in answers
    assert max(Counter(memo_reads).values()) == 1  # no key nor value decoded twice
    assert max(Counter(fresh_reads).values()) > 50  # what the memo saves
    assert len(memo_reads) * 10 < len(fresh_reads), (len(memo_reads), len(fresh_reads))


def test_the_ascii_check_for_characters_yaml_refuses_is_pyyaml_s() -> None:
    import yaml
    from contractgen.spec import jsonpos

    for code in [*range(128), 0x85, 0xA0, 0xD7FF, 0xE000, 0xFFFE, 0x10000]:
        text = f"ab{chr(code)}c"
        assert jsonpos.printable(text) is (yaml.reader.Reader.NON_PRINTABLE.search(text) is None)
