"""Loading specs with positions, loader errors, and inlining references to other files."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest
from contractgen.problems import Level, Problem, SpecError
from contractgen.spec.loader import document_from_data, load_document
from contractgen.spec.resolve import bundle

REPO = Path(__file__).resolve().parents[2]
TPMJS = REPO / "specs" / "tpmjs-executor.openapi.yaml"


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def only_problem(exc: pytest.ExceptionInfo[SpecError]) -> Problem:
    assert len(exc.value.problems) == 1, exc.value
    return exc.value.problems[0]


def load_error(path: Path) -> Problem:
    """The one problem that loading `path` raises."""
    with pytest.raises(SpecError) as exc:
        load_document(path)
    assert str(exc.value) == exc.value.problems[0].format()
    return only_problem(exc)


YAML = """\
openapi: 3.0.3
info:
  title: t
  version: '1'
paths:
  /a:
    get:
      responses:
        200:
          description: ok
tags:
  - name: one
  - name: two
    x-date: 2024-01-02
    x-when: 2024-01-02T03:04:05Z
"""


def test_yaml_positions_of_keys_items_and_missing_nodes(tmp_path: Path) -> None:
    doc = load_document(write(tmp_path, "s.yaml", YAML))
    assert doc.position("") == (1, 1)
    assert doc.position("/info/title") == (3, 3)
    assert doc.position("/paths/~1a/get/responses/200/description") == (10, 11)
    assert doc.position("/tags/1") == (13, 5)
    assert doc.position("/tags/1/name") == (13, 5)
    # A pointer that does not exist: its deepest existing ancestor.
    assert doc.position("/paths/~1a/get/parameters/0") == (7, 5)
    assert doc.position("/tags/7") == (11, 1)


def test_yaml_keys_are_strings_as_written_and_dates_stay_strings(tmp_path: Path) -> None:
    doc = load_document(write(tmp_path, "s.yaml", YAML))
    assert list(doc.data["paths"]["/a"]["get"]["responses"]) == ["200"]
    assert doc.data["tags"][1]["x-date"] == "2024-01-02"
    assert doc.data["tags"][1]["x-when"] == "2024-01-02T03:04:05Z"
    assert list(doc.data) == ["openapi", "info", "paths", "tags"]  # order as written


def test_document_identity_text_and_hash(tmp_path: Path) -> None:
    path = write(tmp_path, "s.yaml", YAML)
    doc = load_document(path)
    assert doc.path == path
    assert doc.text == YAML
    assert doc.sha256 == hashlib.sha256(path.read_bytes()).hexdigest()


def test_yaml_aliases_and_merge_keys(tmp_path: Path) -> None:
    text = "base: &b {type: string, maxLength: 3}\nuse: *b\nmerged:\n  <<: *b\n  maxLength: 9\n"
    doc = load_document(write(tmp_path, "s.yaml", text))
    assert doc.data["use"] == {"type": "string", "maxLength": 3}
    assert doc.data["merged"] == {"maxLength": 9, "type": "string"}
    assert doc.position("/merged/maxLength") == (5, 3)


def test_yaml_syntax_error_has_line_column_and_hint(tmp_path: Path) -> None:
    path = write(tmp_path, "s.yaml", "openapi: 3.0.3\ninfo:\n  title: a: b\n")
    problem = load_error(path)
    assert (problem.level, problem.file, problem.line, problem.col) == (Level.ERROR, str(path), 3, 11)
    assert "mapping values are not allowed" in problem.message
    assert problem.hint and "quote the value" in problem.hint


def test_yaml_tab_indentation_hint(tmp_path: Path) -> None:
    problem = load_error(write(tmp_path, "s.yaml", "info:\n\ttitle: x\n"))
    assert problem.line == 2
    assert problem.hint == "indent with spaces; YAML does not allow tabs for indentation"


def test_yaml_duplicate_key_is_an_error(tmp_path: Path) -> None:
    problem = load_error(write(tmp_path, "s.yaml", "a: 1\nb:\n  c: 1\n  c: 2\n"))
    assert (problem.line, problem.col) == (4, 3)
    assert problem.message == "duplicate key 'c' (first at line 3)"


@pytest.mark.parametrize(
    ("text", "found"),
    [("- a\n- b\n", "a list"), ("just text\n", "a string"), ("", "nothing")],
)
def test_top_level_must_be_a_mapping(tmp_path: Path, text: str, found: str) -> None:
    problem = load_error(write(tmp_path, "s.yaml", text))
    assert problem.message == f"the document must be a mapping (an OpenAPI object), found {found}"
    assert problem.line == 1
    assert problem.hint


def test_unreadable_and_undecodable_files(tmp_path: Path) -> None:
    assert load_error(tmp_path / "missing.yaml").format() == (
        f"{tmp_path / 'missing.yaml'}: error: /: cannot read the file: No such file or directory "
        "(hint: check the path)"
    )
    path = tmp_path / "latin1.yaml"
    path.write_bytes(b"info:\n  title: caf\xe9\n")
    problem = load_error(path)
    assert (problem.line, problem.col) == (2, 13)


def test_json_positions_and_data(tmp_path: Path) -> None:
    text = '{\n  "openapi": "3.1.0",\n  "paths": {\n    "/a": {"get": {"x": "\\ud83d\\ude00"}}\n  }\n}\n'
    doc = load_document(write(tmp_path, "s.json", text))
    assert doc.data["paths"]["/a"]["get"]["x"] == "\U0001f600"
    assert doc.position("/paths/~1a/get/x") == (4, 20)
    assert doc.position("/openapi") == (2, 3)


def test_json_syntax_error_has_line_and_hint(tmp_path: Path) -> None:
    problem = load_error(write(tmp_path, "s.json", '{\n  "a": 1,\n  "b": [1, 2,],\n}\n'))
    assert (problem.line, problem.col) == (3, 14)
    assert problem.message == "JSON syntax error: Expecting value"
    assert problem.hint == "JSON allows no trailing commas, comments or single quotes"


def test_json_duplicate_keys_are_an_error(tmp_path: Path) -> None:
    assert load_error(write(tmp_path, "s.json", '{"a": 1,\n "a": 2}')).line == 2


def test_tpmjs_position_of_the_null_member() -> None:
    doc = load_document(TPMJS)
    pointer = "/components/schemas/ExecuteToolSuccessResponse/properties/output/oneOf/5"
    assert doc.position(pointer) == (417, 15)
    assert doc.data["paths"]["/health"]["get"]["responses"]["200"]["description"]


def test_document_from_data_and_problem_helper(tmp_path: Path) -> None:
    doc = document_from_data({"a": 1}, tmp_path / "x.json", text='{"a": 1}')
    assert doc.sha256 == hashlib.sha256(b'{"a": 1}').hexdigest()
    assert doc.position("/a") is None
    problem = doc.problem(Level.WARNING, "/a", "odd")
    assert problem.format() == f"{tmp_path / 'x.json'}: warning: /a: odd"


def test_problem_format() -> None:
    problem = Problem(Level.ERROR, "bad", "s.yaml", 3, 7, "/a~1b", "fix it")
    assert problem.format() == "s.yaml:3:7: error: /a~1b: bad (hint: fix it)"
    assert Problem(Level.WARNING, "m", "s.yaml", 3, None, "").format() == "s.yaml:3: warning: /: m"


# --- references to other files -----------------------------------------------------------

MAIN = """\
openapi: 3.0.3
info: {title: t, version: '1'}
paths:
  /a:
    get:
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema:
                $ref: './common.yaml#/components/schemas/Pet'
components:
  schemas:
    Local:
      type: object
      properties:
        self: {$ref: '#/components/schemas/Local'}
        node: {$ref: 'common.yaml#/components/schemas/Node'}
        count: {$ref: 'count.yaml'}
"""
COMMON = """\
components:
  schemas:
    Pet:
      type: object
      properties:
        name: {$ref: '#/components/schemas/Name'}
        born: {type: string, example: 2020-01-01}
    Name: {type: string}
    Node:
      type: object
      properties:
        next: {$ref: '#/components/schemas/Node'}
"""


def test_external_schemas_are_bundled_once_and_local_refs_kept(tmp_path: Path) -> None:
    write(tmp_path, "common.yaml", COMMON)
    write(tmp_path, "count.yaml", "type: integer\nminimum: 0\n")
    doc = load_document(write(tmp_path, "main.yaml", MAIN))
    data = bundle(doc)[0]
    schema = data["paths"]["/a"]["get"]["responses"]["200"]["content"]["application/json"]["schema"]
    # A schema of another file is copied once into components, under its name, and referred to;
    # common.yaml's own `#/...` reference means common.yaml's node, so it is bundled too.
    assert schema == {"$ref": "#/components/schemas/Pet"}
    schemas = data["components"]["schemas"]
    assert schemas["Pet"] == {
        "type": "object",
        "properties": {"name": {"$ref": "#/components/schemas/Name"},
                       "born": {"type": "string", "example": "2020-01-01"}},
    }
    assert schemas["Name"] == {"type": "string"}
    local = schemas["Local"]["properties"]
    assert local["self"] == {"$ref": "#/components/schemas/Local"}
    assert local["count"] == {"$ref": "#/components/schemas/count"}
    assert schemas["count"] == {"type": "integer", "minimum": 0}
    assert local["node"] == {"$ref": "#/components/schemas/Node"}
    assert data["components"]["schemas"]["Node"] == {
        "type": "object",
        "properties": {"next": {"$ref": "#/components/schemas/Node"}},
    }
    assert "$ref" in doc.data["components"]["schemas"]["Local"]["properties"]["count"]  # untouched


def test_missing_external_file_is_reported_at_the_ref(tmp_path: Path) -> None:
    path = write(tmp_path, "main.yaml", MAIN)
    write(tmp_path, "common.yaml", COMMON)
    with pytest.raises(SpecError) as exc:
        bundle(load_document(path))[0]
    problem = only_problem(exc)
    assert problem.pointer == "/components/schemas/Local/properties/count/$ref"
    assert (problem.line, problem.col) == (20, 17)
    assert problem.message == (
        "cannot resolve $ref 'count.yaml': cannot read the file: No such file or directory"
    )


def test_bad_pointer_inside_an_external_file_is_reported_there(tmp_path: Path) -> None:
    write(tmp_path, "count.yaml", "type: integer\n")
    write(tmp_path, "common.yaml", COMMON.replace("schemas/Name'", "schemas/Nme'"))
    with pytest.raises(SpecError) as exc:
        bundle(load_document(write(tmp_path, "main.yaml", MAIN)))[0]
    problem = only_problem(exc)
    assert problem.file == str(tmp_path / "common.yaml")
    assert (problem.line, problem.pointer) == (6, "/components/schemas/Pet/properties/name/$ref")
    assert problem.hint == "did you mean 'Name'?"


def test_no_external_refs_is_a_fast_path_without_prance() -> None:
    code = (
        "import sys\nfrom contractgen.spec.loader import load_document\n"
        "from contractgen.spec.resolve import bundle\n"
        f"doc = load_document({str(TPMJS)!r})\n"
        "assert bundle(doc)[0] is doc.data\n"
        "assert not any(m.startswith(('prance', 'openapi_spec_validator')) for m in sys.modules)\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


@pytest.mark.parametrize(("suffix", "text", "sites"), [
    # Only references inside the document: no walk.
    (".json", '{"a": {"$ref": "#/b"}, "b": {"$ref" : "#/c"}, "c": {}}', None),
    (".yaml", "a: {$ref: '#/b'}\nb:\n  $ref: \"#/c\"\nc: {}\nd: costs $5\n", None),
    # Anything that may spell another file's reference is walked, and found exactly.
    (".json", '{"a": {"$ref": "#/b"}, "b": {"$ref": "x.json"}}', ["x.json"]),
    (".json", '{"a": {"\\u0024ref": "x.json"}}', ["x.json"]),
    (".json", '{"a": {"$\\u0072ef": "x.json"}}', ["x.json"]),
    (".json", '{"a": {"$ref": "\\u0023/b"}, "b": {}}', []),  # `#` escaped: walked, internal
    (".yaml", "a: {$ref: x.yaml}\n", ["x.yaml"]),
    (".yaml", "a:\n  $ref:\n    x.yaml\n", ["x.yaml"]),
    (".yaml", 'a: {"\\x24ref": x.yaml}\n', ["x.yaml"]),
    (".yaml", "b: &b {$ref: x.yaml}\na: *b\n", ["x.yaml", "x.yaml"]),
    (".yaml", "a: {description: see $refs, x: 1}\n", []),  # a mention: walked, nothing found
])
def test_a_document_is_walked_for_references_to_other_files_only_when_it_may_hold_one(
        tmp_path: Path, suffix: str, text: str, sites: list[str] | None) -> None:
    from contractgen.spec import resolve

    doc = load_document(write(tmp_path, f"main{suffix}", text))
    found = [ref for _, ref in resolve.external_sites(doc)]
    assert found == (sites or [])
    assert resolve.may_refer_elsewhere(doc.text) is (sites is not None)  # walked, or not


@pytest.mark.parametrize(("text", "may"), [
    ('{"a": {"type": "string", "description": "no such word"}}', False),
    ('{"a": {"discriminator": {"propertyName": "k"}}}', True),
    ('{"a": {"\\u0064iscriminator": {"propertyName": "k"}}}', True),  # an escaped letter
    ('{"a": {"description": "caf\\u00e9 \\u2019"}}', False),  # escapes of other characters
    ('a: {"\\x64iscriminator": {propertyName: k}}\n', True),
    ('a:\n  ? "discrim\\\n    inator"\n  : {propertyName: k}\n', True),  # a line fold joins
    ("a: {Discriminator: 1}\n", True),  # any case: the cautious side
])
def test_a_document_may_spell_a_word_unless_no_text_of_it_can(
        tmp_path: Path, text: str, may: bool) -> None:
    suffix = ".json" if text.startswith("{") else ".yaml"
    doc = load_document(write(tmp_path, f"main{suffix}", text))
    assert doc.may_spell("discriminator") is may
    assert may or "discriminator" not in json.dumps(doc.data).lower()  # never a miss


def test_the_files_bundled_into_a_document_are_read_for_a_word_too(tmp_path: Path) -> None:
    from contractgen.spec import load

    write(tmp_path, "pets.yaml", "Pet:\n  oneOf: [{$ref: '#/Cat'}]\n  discriminator: {propertyName: kind}\n"
          "Cat: {type: object, properties: {kind: {type: string}}}\n")
    main = write(tmp_path, "main.yaml", "openapi: 3.1.0\ninfo: {title: t, version: '1'}\n"
                 "paths: {}\ncomponents:\n  schemas:\n    Pet: {$ref: 'pets.yaml#/Pet'}\n")
    document, _ = load(main)
    assert "discriminator" not in document.text and document.may_spell("discriminator")


def test_a_ref_standing_for_a_whole_name_map_in_a_referenced_file_is_bundled(
        tmp_path: Path) -> None:
    # DigitalOcean's contract: `properties: {$ref: attributes.yml#/x}` in a file that only a
    # referenced file refers to (a KeyError in the bundler, #28), and a property called
    # `default` whose schema is in another file.
    (tmp_path / "models").mkdir()
    write(tmp_path, "models/attributes.yml",
          "ids:\n  droplet_ids: {type: array, items: {type: integer}}\nword: {type: string}\n")
    write(tmp_path, "remove.yml", """\
requestBody:
  content:
    application/json:
      schema:
        properties:
          $ref: 'models/attributes.yml#/ids'
responses:
  '204': {description: gone}
""")
    main = write(tmp_path, "main.yaml", """\
openapi: 3.0.3
info: {title: t, version: '1'}
paths:
  /a:
    delete: {$ref: 'remove.yml'}
components:
  schemas:
    Settings:
      properties:
        default: {$ref: 'models/attributes.yml#/word'}
""")
    data = bundle(load_document(main))[0]
    body = data["paths"]["/a"]["delete"]["requestBody"]["content"]["application/json"]["schema"]
    assert body == {"properties": {"droplet_ids": {"type": "array", "items": {"type": "integer"}}}}
    assert data["components"]["schemas"]["Settings"]["properties"]["default"] == {
        "$ref": "#/components/schemas/word"}
    assert data["components"]["schemas"]["word"] == {"type": "string"}
