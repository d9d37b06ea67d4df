"""Statements and literals written in black's layout (`emit/blackstyle.py`, `model/literal.py`).

What must hold: a laid-out statement is exactly what black makes of its one-line spelling (so
the generated output does not depend on these helpers), and so black's first pass leaves it as
it is and black skips its second. Whatever a helper does not lay out stays on one line. The
shapes are drawn at random around the 88-column edge, where the layout decisions flip.
"""

from __future__ import annotations

import ast
import keyword
import random
import string
from pathlib import Path

import black
import pytest
from contractgen.api import load
from contractgen.emit import blackstyle, blocks
from contractgen.emit.blackstyle import call
from contractgen.emit.formatting import black_mode
from contractgen.emit.render import render_package
from contractgen.model.literal import literal
from contractgen.model.parse import build_api
from gen_support import OTARI_SPEC, TPMJS_OVERLAY, TPMJS_SPEC, openapi

MODE = black_mode()
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


def _as_black(laid: str, flat: str) -> bool:
    """`laid` is black's output for `flat` (when it is not `flat` itself); whether it is laid out."""
    assert ast.dump(ast.parse(laid)) == ast.dump(ast.parse(flat))
    if laid == flat and max(map(len, flat.splitlines())) > 88:
        return False  # left on one line for black
    assert _black(flat) == laid
    return True


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
        laid_out += _as_black(f"class A:\n{text}\n", f"class A:\n{flat}\n")
    assert laid_out > 350  # the shape is nearly always one this module lays out


def test_nested_brackets_split_like_black() -> None:
    rng = random.Random(11)
    for _ in range(300):
        items = [literal(_word(rng, 0, 20)) for _ in range(rng.randint(1, 12))]
        inner = call("[", items, "]")
        value = call(rng.choice(["frozenset(", "tuple(", "f("]), [inner])
        head = f"{_word(rng, 1, 40)}: ClassVar[frozenset[str]] = "
        text = blackstyle.statement("    ", head, value)
        assert _as_black(f"class A:\n{text}\n", f"class A:\n    {head}{blackstyle.flat(value)}\n")



def test_a_method_body_with_long_names_splits_like_black() -> None:
    # A client method's body (issue 38): an empty call too long for its line stays on a line
    # of its own, as black leaves it, so the client class is not handed to black whole.
    from contractgen.emit import vouch

    rng = random.Random(38)
    for _ in range(200):
        name = _word(rng, 10, 95)
        args = [_word(rng, 1, 12) for _ in range(rng.randint(0, 2))]
        build = call(f"_build_{name}(", args) if args else f"_build_{name}()"
        send = call(rng.choice(["self._send(", "await self._send("]), [build])
        for head, value in ((f"_parse_{name}(", [send]), ("_answer(", [send, f"_parse_{name}",
                                                                        "None"])):
            text = blackstyle.laid("        ", "return ", head, value)
            flat = f"        return {blackstyle.flat(call(head, value))}"
            wrap = "class A:\n    async def m(self):\n"
            assert _as_black(wrap + text + "\n", wrap + flat + "\n"), text
            assert vouch.unsure_lines(wrap + text + "\n") == [], text

def test_class_statements_are_blacks_fixed_points() -> None:
    rng = random.Random(3)
    for _ in range(300):
        bases = [f"Base{_word(rng, 0, 12)}[models.{_word(rng, 1, 20)}]",
                 *(f"{_word(rng, 1, 12)}={literal(_word(rng, 1, 25))}"
                   for _ in range(rng.randint(0, 3)))]
        name = "C" + _word(rng, 5, 70)
        line = blackstyle.class_line(name, bases)
        assert _as_black(f"{line}\n    pass\n", f"class {name}({', '.join(bases)}):\n    pass\n")


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


def _type(rng: random.Random) -> str:
    name = f"models.{_word(rng, 3, 60)}"
    return rng.choice([name, f"{name} | Reply[{name}, {_word(rng, 3, 40)}Headers]", "None",
                       literal(f"{name} | None"), f"Literal[{literal(_word(rng, 3, 40) + ' | x')}]",
                       f"list[{name}]", f"Answer[{name}, {_word(rng, 3, 40)}Headers]",
                       f"Iterator[Event[{name}]]"])


@pytest.mark.parametrize("indent", ["", "    "])
def test_defs_split_like_black(indent: str) -> None:
    rng = random.Random(len(indent))
    laid_out = 0
    for _ in range(300):
        params = [f"{_word(rng, 0, 25)}: {rng.choice(['str', 'int | None', _type(rng)])}"
                  + rng.choice(["", "", " = None", f" = models.{_word(rng, 5, 30)}.{_word(rng, 5, 30)}"])
                  for _ in range(rng.randint(0, 7))]
        params.sort(key=lambda param: " = " in param)  # defaults last
        if rng.random() < 0.4:
            params.insert(0, "self")
        if rng.random() < 0.3 and len(params) > 1:
            params.insert(rng.randint(1, len(params) - 1), "*")
        head, tail = f"def {_word(rng, 3, 90)}(", f") -> {_type(rng)}:"
        text = blackstyle.define(indent, head, params, tail)
        wrap = "class A:\n" if indent else ""
        flat = f"{wrap}{indent}{head}{', '.join(params)}{tail}\n{indent}    pass\n"
        laid_out += _as_black(f"{wrap}{text}\n{indent}    pass\n", flat)
    assert laid_out > 180


def test_route_parameters_split_like_black() -> None:
    rng = random.Random(5)
    laid_out = 0
    for _ in range(300):
        params: list[blackstyle.Group] = []
        for _ in range(rng.randint(1, 6)):
            marker = call(rng.choice(["Query(", "Path(", "Form("]),
                          [f"{_word(rng, 1, 12)}={literal(_word(rng, 0, 30))}"
                           for _ in range(rng.randint(0, 3))])
            closer = "] = None" if params and params[-1].closer != "]" else rng.choice(["]", "] = None"])
            params.append(blackstyle.Group(f"{_word(rng, 1, 20)}: Annotated[",
                                           (_type(rng), marker), closer))
        text = blackstyle.define("    ", "async def route(", params, ") -> Response:")
        flat = ", ".join(blackstyle.flat(p) for p in params)
        laid_out += _as_black(f"class A:\n{text}\n        pass\n",
                         f"class A:\n    async def route({flat}) -> Response:\n        pass\n")
    assert laid_out > 100  # long member types are left to black


def test_parameters_with_a_long_default_after_their_annotation_split_like_black() -> None:
    """`name: Annotated[T, Query()] = models.E.MEMBER,`: black splits the annotation and leaves
    the default after its closing bracket, however long that line (GitHub's packages routes)."""
    rng = random.Random(11)
    long_last = 0
    for _ in range(200):
        default = rng.choice([f"models.{_word(rng, 20, 80)}.{_word(rng, 2, 20).upper()}",
                              literal(_word(rng, 30, 90)), "None"])
        param = blackstyle.Group(f"{_word(rng, 1, 20)}: Annotated[",
                                 (f"models.{_word(rng, 10, 80)}", "Query()"), f"] = {default}")
        for params in ([param], ["x: int", param]):
            text = blackstyle.define("    ", "async def route(", params, ") -> Response:")
            flat = ", ".join(blackstyle.flat(p) for p in params)
            # Laid out (not left on one line for black), and as black lays it out.
            assert _as_black(f"class A:\n{text}\n        pass\n",
                             f"class A:\n    async def route({flat}) -> Response:\n        pass\n")
            long_last += len(text.splitlines()[-2]) > 88
    assert long_last > 50


def test_calls_in_statements_split_like_black() -> None:
    rng = random.Random(9)
    laid_out = 0
    for _ in range(300):
        entries = [f"{literal(_word(rng, 1, 20))}: {_word(rng, 1, 20)}"
                   for _ in range(rng.randint(0, 8))]
        head = rng.choice(["return ", "_headers = ", "result = await ", "await ", "",
                           f"{_word(rng, 10, 70)}_detailed = "])
        value = rng.choice([
            call(f"{_word(rng, 1, 30)}(", [call("{", entries, "}")]),
            call(f"service.{_word(rng, 1, 90)}(", entries and [e.split(": ")[1] for e in entries]),
            call("_call_detailed(", [f"_build_{_word(rng, 10, 70)}", f"_parse_{_word(rng, 10, 70)}"]),
            call("cast(", [literal(f"models.{_word(rng, 5, 50)}"),
                           call("_json(", [f"models.{_word(rng, 5, 50)}", "response"])]),
        ])
        text = blackstyle.statement("        ", head, value)
        flat = f"        {head}{blackstyle.flat(value)}"
        laid_out += _as_black(f"def f():\n    if x:\n{text}\n", f"def f():\n    if x:\n{flat}\n")
    assert laid_out > 250


def test_annotated_fields_split_like_black() -> None:
    rng = random.Random(13)
    laid_out = 0
    for _ in range(400):
        name = _word(rng, 1, 40)
        annotation = rng.choice([
            f"models.{_word(rng, 10, 80)} | None", f"list[{_word(rng, 10, 80)}] | None",
            f"{_word(rng, 10, 80)}", f"Annotated[str, Field(max_length={rng.randint(1, 99)})] | None",
            f"Annotated[str, Field(min_length=34, pattern={literal(_word(rng, 5, 40))})] | None",
            literal(f"Annotated[list[{_word(rng, 5, 40)}], AfterValidator(check)] | None"),
            f"{literal(_word(rng, 20, 60))} | None"])
        value = rng.choice(["None", literal(_word(rng, 0, 30)), None, literal(_word(rng, 40, 90)),
                            call("Field(", ["default=None", f"description={literal(_word(rng, 0, 70))}"])])
        text = blackstyle.annotated("    ", name, annotation, value)
        flat = f"    {name}: {annotation}" + ("" if value is None else f" = {blackstyle.flat(value)}")
        laid_out += _as_black(f"class A:\n{text}\n", f"class A:\n{flat}\n")
    assert laid_out > 300


@pytest.mark.parametrize(("spec", "overlay"), [(OTARI_SPEC, None), (TPMJS_SPEC, TPMJS_OVERLAY)])
def test_seed_modules_are_mostly_blacks_fixed_points(spec: Path, overlay: Path | None) -> None:
    """What the helpers are for: most of each module comes out of black's first pass as the
    templates wrote it (the rest is one-off template text and shapes left to black)."""
    document, _ = load(spec, overlay=overlay)
    sources = render_package(build_api(document, spec_display=spec.name))
    floors = {"models.py": 0.95, "errors.py": 0.95, "server.py": 0.75, "client.py": 0.95}
    for name, floor in floors.items():
        found = blocks.split(sources[name])
        assert found is not None
        fixed = sum(len(b.text) for b in found if _black(b.text) == b.text)
        assert fixed / sum(len(b.text) for b in found) >= floor, name


def test_displays_split_one_item_per_line_like_black() -> None:
    """A dict or list display that black splits gets one item per line, even when its items
    would fit on one line (a call's arguments would stay together)."""
    rng = random.Random(17)
    for _ in range(400):
        entries = [f"{literal(_word(rng, 1, 12))}: {_word(rng, 1, 12)}"
                   for _ in range(rng.randint(1, 4))]
        value = rng.choice([call("{", entries, "}"), call("[", [e.split(": ")[0] for e in entries], "]"),
                            call("f(", [call("{", entries, "}")]), call("g(", entries and [
                                e.split(": ")[1] for e in entries])])
        head = f"{literal(_word(rng, 30, 70))}: " if rng.random() < 0.5 else f"{_word(rng, 20, 70)} = "
        tail = "," if head.endswith(": ") else ""
        text = blackstyle.statement("    ", head, value, tail)
        flat = f"    {head}{blackstyle.flat(value)}{tail}"
        wrap_open, wrap_close = ("x = {\n", "}\n") if tail else ("if x:\n", "")
        _as_black(f"{wrap_open}{text}\n{wrap_close}", f"{wrap_open}{flat}\n{wrap_close}")


def test_long_enum_members_split_like_black() -> None:
    rng = random.Random(19)
    for _ in range(300):
        target = _word(rng, 5, 60).upper()
        value = rng.choice([literal(_word(rng, 5, 80)), str(rng.randint(0, 10**30))])
        text = blackstyle.assignment("    ", target, value)
        _as_black(f"class E:\n{text}\n", f"class E:\n    {target} = {value}\n")


def test_form_routes_are_blacks_fixed_points(tmp_path: Path) -> None:
    """A form body's reader names its wire names (`AutoCreation.Enabled`): written in the route
    it made the whole `_add_routes` (every route of a contract) one block black laid out again,
    its second pass. It is an alias, laid out on its own."""
    import json

    role = {"type": "object", "required": ["FriendlyName"], "properties": {
        "FriendlyName": {"type": "string"}, "Permission": {"type": "array", "items": {}},
        "AutoCreation.Enabled": {"type": "boolean"}}}
    body = {"required": True, "content": {"application/x-www-form-urlencoded": {"schema": role}}}
    answer = {"200": {"description": "echo", "content": {"application/json": {"schema": {}}}}}
    spec = openapi({"/roles": {"post": {"operationId": "createRole", "requestBody": body,
                                        "responses": answer}}})
    path = tmp_path / "forms.json"
    path.write_text(json.dumps(spec), encoding="utf-8")
    document, _ = load(path)
    server = render_package(build_api(document, spec_display=path.name))["server.py"]
    found = blocks.split(server)
    assert found is not None
    (routes,) = [b for b in found if b.text.startswith("def _add_routes(")]
    assert _black(routes.text) == routes.text
    assert "form: _CreateRoleFormBody" in routes.text


def test_fields_annotated_with_a_name_too_long_for_any_line_split_like_black() -> None:
    """A model named past column 88 even alone on its line: black still puts it in parentheses
    when `) = Field(...)` fits on one line, else splits the value (left to black)."""
    rng = random.Random(23)
    laid_out = 0
    for _ in range(200):
        annotation = rng.choice(["", "models."]) + _word(rng, 76, 95)
        value = call("Field(", [f"description={literal(_word(rng, 0, 80))}"][:rng.randint(0, 1)]
                     + ["default=None"][:rng.randint(0, 1)])
        text = blackstyle.annotated("    ", _word(rng, 1, 30), annotation, value)
        flat = f"    {text.split(':')[0].strip()}: {annotation} = {blackstyle.flat(value)}"
        laid_out += _as_black(f"class A:\n{text}\n", f"class A:\n{flat}\n")
    assert laid_out > 50
