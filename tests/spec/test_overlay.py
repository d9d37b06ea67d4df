"""Overlays: JSONPath targets, update and remove, positions kept, problems in the overlay."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import pytest
from contractgen.problems import Level, Problem, SpecError
from contractgen.spec import jsonpath
from contractgen.spec.loader import Document, load_document
from contractgen.spec.overlay import apply_overlay
from contractgen.spec.validate import validate_document

REPO = Path(__file__).resolve().parents[2]
TPMJS = REPO / "specs" / "tpmjs-executor.openapi.yaml"
TPMJS_OVERLAY = REPO / "specs" / "tpmjs-executor.overlay.yaml"

SPEC = """\
openapi: 3.0.3
info: {title: t, version: '1'}
tags:
  - name: keep
  - name: drop
  - name: last
paths:
  /pets:
    get:
      operationId: listPets
      x-internal: true
      parameters:
        - {name: limit, in: query, schema: {type: integer}}
        - {name: debug, in: query, schema: {type: boolean}}
      responses:
        '200': {description: ok}
    post:
      operationId: createPet
      responses:
        '201': {description: made}
components:
  schemas:
    Pet:
      type: object
      required: [name]
      properties:
        name: {type: string}
        status: {type: string, enum: [a, b, gone]}
"""


def apply_text(tmp_path: Path, overlay_text: str, spec: str = SPEC
               ) -> tuple[Document, Document, list[Problem]]:
    """Write the spec and the overlay, apply one to the other."""
    spec_path = tmp_path / "spec.yaml"
    spec_path.write_text(spec, encoding="utf-8")
    overlay_path = tmp_path / "spec.overlay.yaml"
    overlay_path.write_text(overlay_text, encoding="utf-8")
    doc = load_document(spec_path)
    result, problems = apply_overlay(doc, overlay_path)
    return doc, result, problems


def run(tmp_path: Path, actions: str, spec: str = SPEC) -> tuple[Document, Document, list[Problem]]:
    """Apply a well-formed overlay with these actions."""
    return apply_text(tmp_path, "overlay: 1.0.0\ninfo: {title: o, version: '1'}\nactions:\n" + actions,
                      spec)


def test_update_merges_objects_appends_arrays_and_replaces_scalars(tmp_path: Path) -> None:
    doc, result, problems = run(tmp_path, """\
  - target: $.components.schemas.Pet
    update:
      description: A pet
      required: [status]
      properties:
        status: {enum: [c]}
        age: {type: integer}
  - target: $.tags
    update: {name: appended}
""")
    assert problems == []
    pet = result.data["components"]["schemas"]["Pet"]
    assert pet["description"] == "A pet"
    assert pet["required"] == ["name", "status"]
    assert pet["properties"]["status"] == {"type": "string", "enum": ["a", "b", "gone", "c"]}
    assert pet["properties"]["age"] == {"type": "integer"}
    assert [t["name"] for t in result.data["tags"]] == ["keep", "drop", "last", "appended"]
    assert doc.data["components"]["schemas"]["Pet"]["required"] == ["name"]  # input untouched


def test_remove_with_filters_in_three_spellings(tmp_path: Path) -> None:
    _, result, problems = run(tmp_path, """\
  - target: $.tags[?(@.name == 'drop')]
    remove: true
  - target: $.paths['/pets'].get.parameters[?@.name == "debug"]
    remove: true
  - target: $.paths.*[?(@.x-internal)]
    remove: true
  - target: $.components.schemas.Pet.properties.status.enum[?@ == 'gone']
    remove: true
""")
    assert problems == []
    assert [t["name"] for t in result.data["tags"]] == ["keep", "last"]
    assert list(result.data["paths"]["/pets"]) == ["post"]
    assert result.data["components"]["schemas"]["Pet"]["properties"]["status"]["enum"] == ["a", "b"]


def test_wildcards_descendants_indices_and_unions(tmp_path: Path) -> None:
    _, result, problems = run(tmp_path, """\
  - target: $.paths[*][*].responses
    update: {'500': {description: oops}}
  - target: $..[?(@.type == 'string')]
    update: {minLength: 1}
  - target: $.tags[-1]
    update: {description: the last}
  - target: $.paths['/pets']['get', 'post']
    update: {tags: [keep]}
""")
    assert problems == []
    pets = result.data["paths"]["/pets"]
    assert pets["get"]["responses"]["500"] == {"description": "oops"}
    assert pets["post"]["responses"]["500"] == {"description": "oops"}
    props = result.data["components"]["schemas"]["Pet"]["properties"]
    assert props["name"]["minLength"] == 1 and props["status"]["minLength"] == 1
    assert result.data["tags"][2] == {"name": "last", "description": "the last"}
    assert pets["get"]["tags"] == pets["post"]["tags"] == ["keep"]


def test_positions_of_spec_nodes_survive_removals(tmp_path: Path) -> None:
    doc, result, _ = run(tmp_path, """\
  - target: $.tags[0]
    remove: true
  - target: $.components.schemas.Pet
    update: {properties: {age: {type: integer}}}
""")
    assert doc.position("/tags/2") == (6, 5)
    assert result.position("/tags/1") == (6, 5)  # was /tags/2: the item moved, its line did not
    assert result.position("/components/schemas/Pet/properties/name") == (27, 9)
    # A node the overlay added: its nearest ancestor from the spec.
    assert result.position("/components/schemas/Pet/properties/age") == (26, 7)
    assert result.path == doc.path and result.overlay_path == tmp_path / "spec.overlay.yaml"


def test_combined_text_and_hash(tmp_path: Path) -> None:
    doc, result, _ = run(tmp_path, "  - target: $.info\n    update: {description: d}\n")
    overlay_bytes = (tmp_path / "spec.overlay.yaml").read_bytes()
    both = (tmp_path / "spec.yaml").read_bytes() + overlay_bytes
    assert result.text == doc.text + overlay_bytes.decode()
    assert result.sha256 == hashlib.sha256(both).hexdigest() != doc.sha256


def test_target_matching_nothing_is_a_warning_with_its_line(tmp_path: Path) -> None:
    _, result, problems = run(tmp_path, """\
  - target: $.info
    update: {description: fine}
  - target: $.paths['/nope'].get
    update: {summary: x}
""")
    overlay = str(tmp_path / "spec.overlay.yaml")
    assert [p.format() for p in problems] == [
        f"{overlay}:6:5: warning: /actions/1/target: target \"$.paths['/nope'].get\" matches "
        "nothing; the action does nothing"
    ]
    assert result.data["info"]["description"] == "fine"


@pytest.mark.parametrize(
    ("target", "reason"),
    [
        ("$.paths[0:2]", "slices are not supported at character 10"),
        ("$.paths[?length(@) > 1]", "a filter test starts with '@' at character 10"),
        ("paths.x", "a query starts with '$' at character 1"),
        ("$.tags[?@.name == $.info.title]", "comparisons between two paths are not supported at character 19"),
        ("$.tags[?$.info]", "absolute paths ('$') inside filters are not supported at character 9"),
        ("$.a[", "expected a quoted name, an index, '*' or a '?' filter at character 5"),
    ],
)
def test_unsupported_jsonpath_is_an_error_naming_it(tmp_path: Path, target: str, reason: str) -> None:
    _, _, problems = run(tmp_path, f"  - target: \"{target}\"\n    remove: true\n")
    [problem] = problems
    assert problem.level is Level.ERROR
    assert problem.message == f"unsupported JSONPath {target!r}: {reason}"
    assert (problem.line, problem.pointer) == (4, "/actions/0/target")


def test_overlay_shape_problems(tmp_path: Path) -> None:
    _, _, problems = apply_text(
        tmp_path,
        "overlay: 2.0.0\nextra: 1\nactions:\n  - description: no target\n    remove: true\n"
        "  - target: $.info\n  - target: $.info\n    copy: $.paths\n  - target: $.info\n"
        "    remove: yes please\n  - just a string\n",
    )
    lines = [p.format().replace(f"{tmp_path / 'spec.overlay.yaml'}:", "") for p in problems]
    assert lines == [
        "1:1: warning: /: `info` needs a `title` and a `version` (strings)",
        "1:1: error: /overlay: unsupported overlay version '2.0.0' (hint: contractgen applies "
        "Overlay 1.0.x; write `overlay: 1.0.0`)",
        "2:1: warning: /extra: unknown field 'extra' is ignored",
        "4:5: error: /actions/0: the action has no `target` (a JSONPath string) "
        "(hint: for example `target: $.paths['/users'].get`)",
        "6:5: warning: /actions/1: the action has neither `update` nor `remove: true`; it does nothing",
        "7:5: warning: /actions/2: the action has neither `update` nor `remove: true`; it does nothing",
        "8:5: error: /actions/2/copy: `copy` is Overlay 1.1 and not supported "
        "(hint: write the copied value out in `update`)",
        "10:5: error: /actions/3/remove: `remove` must be true or false, not 'yes please'",
        "11:5: error: /actions/4: an action must be a mapping with a `target`",
    ]


def test_missing_actions_and_bad_update_type(tmp_path: Path) -> None:
    _, _, problems = apply_text(tmp_path, "overlay: 1.0.0\ninfo: {title: o, version: '1'}\n")
    assert [p.message for p in problems] == ["`actions` must be a non-empty list"]
    _, _, problems = run(tmp_path, """\
  - target: $.info.title
    update: {x: 1}
  - target: $.info
    update: [1]
  - target: $
    remove: true
""")
    assert [p.message for p in problems] == [
        "the target /info/title is a str value; only objects and arrays can be updated",
        "the target /info is an object, so `update` must be an object",
        "cannot remove the whole document",
    ]


def test_overlay_syntax_error_raises(tmp_path: Path) -> None:
    with pytest.raises(SpecError) as exc:
        apply_text(tmp_path, "overlay: 1.0.0\nactions: [\n")
    assert exc.value.problems[0].file == str(tmp_path / "spec.overlay.yaml")


def test_tpmjs_with_its_overlay_is_clean_and_means_the_same() -> None:
    from openapi_schema_validator import OAS30Validator

    result, problems = apply_overlay(load_document(TPMJS), TPMJS_OVERLAY)
    assert problems == []
    assert validate_document(result) == []
    output = result.data["components"]["schemas"]["ExecuteToolSuccessResponse"]["properties"]["output"]
    assert output["nullable"] is True
    assert output["description"] == "Return value from tool.execute()"
    assert [m["type"] for m in output["oneOf"]] == ["object", "array", "string", "number", "boolean"]
    assert output["oneOf"][1]["items"] == {}
    validator = OAS30Validator(output)
    for value in [None, {}, {"a": [1]}, [], [None, "x"], "s", 0, 1.5, True, False]:
        assert validator.is_valid(value), value


# --- the JSONPath subset on its own ---------------------------------------------------------

DATA: dict[str, Any] = {
    "a": {"b": [{"n": 1, "k": "x"}, {"n": 2}, {"n": 2.0, "k": True}], "c": {"b": 5}},
    "d": [1, "1", None, True],
}


@pytest.mark.parametrize(
    ("query", "paths"),
    [
        ("$", [()]),
        ("$.a.b[1].n", [("a", "b", 1, "n")]),
        ("$['a'][\"c\"]", [("a", "c")]),
        ("$.a.b[-1]", [("a", "b", 2)]),
        ("$.a.b[5]", []),
        ("$.a.*", [("a", "b"), ("a", "c")]),
        ("$..b", [("a", "b"), ("a", "c", "b")]),
        ("$.a.b[?(@.n == 2)]", [("a", "b", 1), ("a", "b", 2)]),
        ("$.a.b[?@.n > 1 && !@.k]", [("a", "b", 1)]),
        ("$.a.b[?@.k == true || @.n < 2]", [("a", "b", 0), ("a", "b", 2)]),
        ("$.a.b[?(@.k)]", [("a", "b", 0), ("a", "b", 2)]),
        ("$.a.b[?@.k != 'x']", [("a", "b", 1), ("a", "b", 2)]),
        ("$.d[?@ == 1]", [("d", 0)]),
        ("$.d[?@ == null]", [("d", 2)]),
        ("$.d[?@ == true]", [("d", 3)]),
        ("$.a.b[0,2].n", [("a", "b", 0, "n"), ("a", "b", 2, "n")]),
    ],
)
def test_jsonpath_subset(query: str, paths: list[tuple[Any, ...]]) -> None:
    assert jsonpath.find(DATA, query) == paths


def test_a_reference_to_another_file_that_an_overlay_adds_is_bundled(tmp_path: Path) -> None:
    """The spec refers only inside itself; the overlay's reference to another file is found
    (the spec's text alone would say there is none) and bundled."""
    import json

    from contractgen.spec import load

    spec = tmp_path / "spec.json"
    spec.write_text(json.dumps({
        "openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {},
        "components": {"schemas": {"A": {"$ref": "#/components/schemas/B"},
                                   "B": {"type": "string"}}}}), "utf-8")
    (tmp_path / "count.yaml").write_text("type: integer\n", "utf-8")
    overlay = tmp_path / "overlay.yaml"
    overlay.write_text("overlay: 1.0.0\ninfo: {title: o, version: '1'}\nactions:\n"
                       "  - target: $.components.schemas.B\n"
                       "    update: {properties: {n: {$ref: count.yaml}}}\n", "utf-8")
    document, _ = load(spec, overlay)
    schemas = document.data["components"]["schemas"]
    assert schemas["B"]["properties"]["n"] == {"$ref": "#/components/schemas/count"}
    assert schemas["count"] == {"type": "integer"}
