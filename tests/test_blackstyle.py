"""Statements and literals written in black's layout (`emit/blackstyle.py`, `model/literal.py`).

What must hold: a laid-out statement is the same program as its one-line spelling, and it is
black's fixed point (black's first pass leaves it as it is, so black skips its second pass).
The shapes are drawn at random around the 88-column edge, where the layout decisions flip.
"""

from __future__ import annotations

import ast
import keyword
import random
import string

import black
import pytest

from contractgen.emit import blackstyle
from contractgen.emit.blackstyle import call
from contractgen.emit.formatting import _mode
from contractgen.model.literal import literal

MODE = _mode()
TEXTS = ["plain", "it's", 'say "hi"', "both ' and \"", "two '' one \"", "back\\slash", "tab\there",
         "new\nline", "ünïcødé", "\x00\x7f", "trailing quote'", "\\'", "'\"'\"", "", "\\\"x"]


def _word(rng: random.Random, low: int, high: int) -> str:
    word = rng.choice(string.ascii_lowercase) + "".join(
        rng.choice(string.ascii_lowercase + "_") for _ in range(rng.randint(low, high)))
    return word + "_" if keyword.iskeyword(word) or keyword.issoftkeyword(word) else word


def _black(source: str) -> str:
    return black.format_str(source, mode=MODE)


@pytest.mark.parametrize("text", TEXTS)
def test_a_string_literal_is_the_text_in_blacks_quotes(text: str) -> None:
    source = f"x = {literal(text)}\n"
    assert ast.literal_eval(literal(text)) == text
    assert _black(source) == source


def test_containers_keep_their_values_in_blacks_spelling() -> None:
    value = {"a": [1, 2.5, None, True], "it's": ("x",), "b": (), "c": {"d": "e\"f"}}
    source = f"x = {literal(value)}\n"
    assert ast.literal_eval(literal(value)) == value
    assert _black(source) == source


def _same_program(laid: str, flat: str) -> None:
    assert ast.dump(ast.parse(laid)) == ast.dump(ast.parse(flat))


def _field(rng: random.Random) -> tuple[str, str, blackstyle.Expr]:
    annotation = rng.choice(["str", "int | None", "list[str] | None", "models.Thing | None",
                             "Annotated[str, Field(max_length=3)]", "dict[str, Any]"])
    description = " ".join(_word(rng, 1, 9) for _ in range(rng.randint(0, 16)))
    kwargs = rng.choice([["default=None"], [], ["default_factory=list"]])
    if rng.random() < 0.3:
        kwargs.append(f"alias={literal(_word(rng, 2, 30))}")
    kwargs.append(f"description={literal(description + rng.choice(TEXTS))}")
    return f"{_word(rng, 1, 30)}: {annotation} = ", "Field(", call("Field(", kwargs)


def test_model_fields_are_blacks_fixed_points() -> None:
    rng = random.Random(7)
    laid_out = 0
    for _ in range(400):
        head, _, value = _field(rng)
        text = blackstyle.statement("    ", head, value)
        flat = "    " + head + blackstyle.flat(value)
        source = f"class A:\n{text}\n"
        _same_program(source, f"class A:\n{flat}\n")
        if "\n" in text or len(text) <= 88:
            laid_out += 1
            assert _black(source) == source, text
    assert laid_out > 350  # the shape is nearly always one this module lays out


def test_nested_brackets_split_like_black() -> None:
    rng = random.Random(11)
    for _ in range(300):
        items = [literal(_word(rng, 0, 20)) for _ in range(rng.randint(1, 12))]
        inner = call("[", items, "]")
        value = call(rng.choice(["frozenset(", "tuple(", "f("]), [inner])
        head = f"{_word(rng, 1, 40)}: ClassVar[frozenset[str]] = "
        text = blackstyle.statement("    ", head, value)
        source = f"class A:\n{text}\n"
        _same_program(source, f"class A:\n    {head}{blackstyle.flat(value)}\n")
        if "\n" in text or len(text) <= 88:
            assert _black(source) == source, text


def test_class_statements_are_blacks_fixed_points() -> None:
    rng = random.Random(3)
    for _ in range(300):
        bases = [f"Base{_word(rng, 0, 12)}[models.{_word(rng, 1, 20)}]",
                 *(f"{_word(rng, 1, 12)}={literal(_word(rng, 1, 25))}"
                   for _ in range(rng.randint(0, 3)))]
        line = blackstyle.class_line("C" + _word(rng, 5, 70), bases)
        source = f"{line}\n    pass\n"
        assert _black(source) == source, line


@pytest.mark.parametrize("indent", [4, 8])
def test_docstrings_close_where_black_closes_them(indent: int) -> None:
    rng = random.Random(indent)
    pad = " " * indent
    for _ in range(200):
        lines = [" ".join(_word(rng, 1, 8) for _ in range(rng.randint(1, 12)))
                 for _ in range(rng.randint(1, 4))]
        text = "\n".join(lines) + rng.choice(["", '"', "\\"])
        body = f'{pad}"""{blackstyle.docstring(text, indent)}"""\n'
        source = f"class A:\n{body}" if indent == 4 else f"class A:\n    def f(self):\n{body}"
        assert _black(source) == source
