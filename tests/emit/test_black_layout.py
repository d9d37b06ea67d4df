"""The emitter writes black's layout (emit/vouch.py, emit/blackstyle.py).

Every module the built-in templates render, once black has run on the blocks emit/vouch.py
marks UNSURE (and on nothing else), is byte for byte black's output for the whole module: on the
seeds (with and without their overlays), the contracts the tests generate from, the corpus and
bench/synthetic.py's contract. `python -m tests.black_layout SPEC` shows the blocks that differ.
"""

from __future__ import annotations

import gzip
import json
import sys
import tarfile
from pathlib import Path

import pytest
from black_layout import CORPUS, ROOT, Case, black, fast_cases, raw_sources, static_modules
from contractgen.emit.vouch import unsure_lines, vouched
from shared_corpus import NOT_HERE, corpus_file, corpus_files


def _assert_blacks(case: Case) -> None:
    sources = raw_sources(case)
    if sources is None:
        pytest.skip(f"{case.name} does not generate")
    for name, text in sources.items():
        assert vouched(text, black) == black(text), f"{case.name}: {name}"


@pytest.mark.parametrize("case", fast_cases(), ids=lambda case: case.name)
def test_each_rendered_module_is_blacks_output(case: Case) -> None:
    _assert_blacks(case)


def test_the_static_modules_are_blacks_output() -> None:
    from contractgen.emit.templates import templates_dir

    for name in sorted(static_modules()):
        text = (templates_dir() / name).read_text(encoding="utf-8")
        assert black(text) == text, name


def test_the_seeds_leave_black_almost_nothing() -> None:
    """The seeds' modules are written in black's layout as rendered: black runs on at most one
    block (a long error-body expression)."""
    for case in fast_cases()[:2]:
        sources = raw_sources(case)
        assert sources is not None
        unsure = {name: lines for name, text in sources.items() if (lines := unsure_lines(text))}
        assert sum(map(len, unsure.values())) <= 1, unsure


def test_a_block_black_would_change_is_marked_unsure_and_formatted() -> None:
    long_call = "x = " + "f(" + ", ".join(f"argument_{i}" for i in range(12)) + ")\n"
    source = ('"""A module."""\n\nimport os\n\n\n' + long_call
              + "\n\ndef g() -> None:\n    pass\n")
    assert unsure_lines(source) == [5]
    assert black(source) != source
    assert vouched(source, black) == black(source)


def test_lines_black_leaves_long_are_not_unsure() -> None:
    words = " ".join(["word"] * 30)
    source = (f'class A:\n    """{words}\n\n    {words}\n    """\n\n    # {words}\n'
              f'    x: int = Field(\n        description="{words}",\n    )\n\n\n'
              f'y = {{\n    "{words}": name,\n}}\n')
    assert black(source) == source
    assert unsure_lines(source) == []
    assert vouched(source, black) is source


def test_parameters_and_dict_heads_black_leaves_long_are_not_unsure() -> None:
    """A parameter annotated with a long name, a split annotation's closing line with its
    default, a dict entry's opening line: black cannot split them (GitHub's server and client
    once went to black whole, a 40,000-line class, for such lines)."""
    name, member = "VeryLong" * 12, "Member" * 14
    source = (f"def f(\n    x: int,\n    body: models.{name},\n    state: Annotated[\n"
              f"        models.{name},\n        Query(),\n    ] = models.{member}.ACTIVE,\n"
              f") -> None:\n    pass\n\n\ny = {{\n    \"{name}\": {{\n        \"a\": 1,\n    }},\n}}\n")
    assert max(map(len, source.splitlines())) > 88
    assert black(source) == source
    assert unsure_lines(source) == []


def _corpus(name: str, tmp_path: Path) -> Path:
    source = corpus_file(f"{name}.openapi.json.gz")
    spec = tmp_path / f"{name}.openapi.json"
    spec.write_bytes(gzip.decompress(source.read_bytes()))
    return spec


@pytest.mark.slow
@pytest.mark.corpus
@pytest.mark.parametrize("name", ["box", "twilio-api-v2010", "twilio-conversations-v1"])
def test_corpus_modules_are_blacks_output(name: str, tmp_path: Path) -> None:
    _assert_blacks(Case(_corpus(name, tmp_path)))


@pytest.mark.slow
@pytest.mark.corpus
@pytest.mark.parametrize("name", ["github-api.json", "stripe-spec3.yaml"])
def test_black_formats_no_large_block_of_the_largest_contracts(name: str, tmp_path: Path) -> None:
    """One long line the templates do not lay out sends its whole top-level block to black:
    GitHub's Client and AsyncClient (40,000 lines each) for a deprecation warning, ServiceBase
    and `_add_routes` for a parameter, 26 s of CPU in a 29 s generate (issue 37, docs/benchmarks.md).
    The blocks left to black stay small."""
    spec = tmp_path / name
    spec.write_bytes(gzip.decompress(corpus_file(f"{name}.gz").read_bytes()))
    sources = raw_sources(Case(spec))
    assert sources is not None
    sent: dict[str, list[int]] = {}
    for module, text in sources.items():
        vouched(text, lambda block, module=module: sent.setdefault(module, []).append(
            block.count("\n")) or block)
    assert sent, "nothing left to black: this test no longer guards anything"
    assert max(max(sizes) for sizes in sent.values()) <= 1000, sent  # Stripe: a 323-line model


@pytest.mark.slow
@pytest.mark.corpus
def test_digitalocean_modules_are_blacks_output(tmp_path: Path) -> None:
    source = corpus_file("digitalocean-public-v2.tar.gz")
    with tarfile.open(source) as archive:
        archive.extractall(tmp_path, filter="data")
    _assert_blacks(Case(tmp_path / "specification" / "DigitalOcean-public.v2.yaml",
                        lenient=True))


@pytest.mark.slow
@pytest.mark.corpus
def test_synthetic_modules_are_blacks_output(tmp_path: Path) -> None:
    if not corpus_files("*.json.gz"):
        pytest.skip(NOT_HERE)
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        import synthetic
    finally:
        sys.path.remove(str(ROOT / "bench"))
    spec = tmp_path / "synthetic.json"
    spec.write_text(json.dumps(synthetic.build(synthetic.corpus_sources(CORPUS), 1000)))
    _assert_blacks(Case(spec))
