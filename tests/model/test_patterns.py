"""`pattern` is ECMA-262: the generated models, FastAPI's parameters and the TypeAdapters
accept exactly the strings an ECMA-262 engine (`regress`, the judge) accepts, for patterns whose
reading differs in Python's `re` or Rust's `regex` (`[\\w-./:]`, `\\d`, `$`, `.`, `\\u{...}`...);
what cannot be translated is a located warning, not a wrong check."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import contractgen
import httpx
import pytest
import regress
import yaml
from contractgen.spec import ecma
from gen_support import Generated, generate_package, serve
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import TypeAdapter, ValidationError

SPEC = Path(__file__).parents[1] / "corpus" / "ecma_patterns.yaml"
STRINGS = ["", "a", "b", "ab", "a b", "a\tb", "a\u00a0b", "a\u3000b", "a\nb", "a\n", "aa",
           "a-b/c:d", "a.b", "a+b", "3", "123", "\u0663", "\u00e9", "_", "\n", "\r", "\u2028",
           "\U0001f600", "x\U0001f600", "{", "a{", "ab c", "cab", "ab_", "b1c2"]
TRICKY = [r"^(?:[\w-./:]+)$", r"^\d+$", r"^\w+$", r"^a\sb$", r"^.$", r"\bab\b", r"^a{$",
          r"^\u{1F600}$", r"^\uD83D\uDE00$", r"^(?<n>a)b$", r"^[\D]$", r"^[^]$", r"^[]$",
          r"^\cJ$", r"^[a-c\d]+$", r"a$", r"^[^\d\s]+$", r"[\b]", r"^\x41?a$", r"^[\w.]*\.$"]


def _judge(pattern: str) -> regress.Regex:
    return regress.Regex(pattern, ecma.ecma_mode(pattern) or "")


@pytest.fixture(scope="module")
def package(tmp_path_factory: pytest.TempPathFactory) -> Generated:
    return generate_package(SPEC, tmp_path_factory.mktemp("ecma"))


def _patterns() -> dict[str, str]:
    schema = yaml.safe_load(SPEC.read_text(encoding="utf-8"))["components"]["schemas"]["Patterns"]
    return {name: prop["pattern"] for name, prop in schema["properties"].items()
            if name != "lookahead"}


@pytest.mark.parametrize("name", sorted(_patterns()))
def test_model_accepts_what_ecma_accepts(package: Generated, name: str) -> None:
    pattern = _patterns()[name]
    judge = _judge(pattern)
    for text in STRINGS:
        try:
            package.models.Patterns(**{name: text})
            accepted = True
        except ValidationError:
            accepted = False
        assert accepted == (judge.find(text) is not None), (pattern, text)


@pytest.mark.parametrize("pattern", TRICKY)
def test_translation_matches_the_judge(pattern: str) -> None:
    from pydantic_core import SchemaValidator, core_schema

    check = SchemaValidator(core_schema.str_schema(pattern=ecma.translate(pattern)))
    judge = _judge(pattern)
    for text in STRINGS:
        try:
            check.validate_python(text)
            accepted = True
        except ValidationError:
            accepted = False
        assert accepted == (judge.find(text) is not None), (pattern, text)


def test_alias_and_parameters_check_the_same_way(package: Generated) -> None:
    ref = TypeAdapter(package.models.Ref)
    assert ref.validate_python("a-b/c:d.e") == "a-b/c:d.e"
    with pytest.raises(ValidationError):
        ref.validate_python("a b")

    class Impl(package.server.ServiceBase):  # type: ignore[name-defined,misc]
        async def get_ref(self, ref: str, *, code: str | None = None) -> Any:
            return package.models.Patterns(ref=ref)

    with serve(package.server.create_app(Impl())) as base:
        assert httpx.get(f"{base}/refs/a-b.c:d").status_code == 200
        assert httpx.get(f"{base}/refs/a-b.c:d", params={"code": "123"}).status_code == 200
        # `\d` is ASCII in ECMA-262: an Arabic-Indic digit is no digit; `$` ends the text
        assert httpx.get(f"{base}/refs/a-b", params={"code": "\u0663\u0663\u0663"}).status_code == 422
        assert httpx.get(f"{base}/refs/a-b", params={"code": "123\n"}).status_code == 422
        assert httpx.get(f"{base}/refs/a%20b").status_code == 422


def test_untranslatable_pattern_is_a_located_warning(tmp_path: Path) -> None:
    problems = contractgen.validate(SPEC)
    said = [p for p in problems if "lookahead" in p.pointer]
    assert said and "lookaround" in said[0].message and said[0].line == 47


def test_invalid_pattern_is_a_warning_naming_it() -> None:
    assert ecma.pattern_problem(r"^(?:[\w-./:]+)$") is None
    assert ecma.pattern_problem("(?P<n>a)") is not None  # Python's spelling, not ECMA-262's
    assert "a{2,1}" in (ecma.pattern_problem("a{2,1}") or "")
    with pytest.raises(ecma.Untranslatable):
        ecma.translate("a{2,1}")
    with pytest.raises(ecma.Untranslatable, match="size limit"):
        ecma.translate(r"^\w{1,100000}$")  # valid, but past the Rust engine's size limit


@settings(max_examples=300, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(text=st.text(alphabet="aAb09_-./: \t\n\r\u00a0\u2028\u0663\u00e9{}\U0001f600", max_size=8),
       pattern=st.sampled_from(TRICKY))
def test_any_string_is_judged_alike(text: str, pattern: str) -> None:
    from pydantic_core import SchemaValidator, core_schema

    check = SchemaValidator(core_schema.str_schema(pattern=ecma.translate(pattern)))
    try:
        check.validate_python(text)
        accepted = True
    except ValidationError:
        accepted = False
    assert accepted == (_judge(pattern).find(text) is not None)
