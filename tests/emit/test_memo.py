"""server.py and client.py are rendered again only when what they are rendered from changed
(`emit/memo.py`): an edit to a model reuses their text, anything they read re-renders them, and
either way the package is byte for byte what a run without any cache writes."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from contractgen.api import load, render
from contractgen.emit import client_source, memo
from contractgen.emit import render as rendering
from contractgen.emit.environment import environment_of
from contractgen.model.parse import build_api
from gen_support import FEATURES, OTARI_SPEC, TPMJS_OVERLAY, TPMJS_SPEC

CORPUS = Path(__file__).parents[1] / "corpus"
CONTRACTS = [OTARI_SPEC, CORPUS / "webhooks_and_paths.yaml", CORPUS / "security_zoo.yaml",
             CORPUS / "media_types.yaml", CORPUS / "callbacks.yaml",
             CORPUS / "odds_and_ends.yaml", CORPUS / "formats_and_shapes.json"]


class Reading:
    """An Api that records which of its attributes are read, and who reads the definitions."""

    def __init__(self, api: Any) -> None:
        self._api = api
        self.read: set[str] = set()
        self.definitions_read_by: set[str] = set()

    def __getattr__(self, name: str) -> Any:
        self.read.add(name)
        if name == "definitions":
            self.definitions_read_by.add(sys._getframe(1).f_code.co_name)
        return getattr(self._api, name)


def _api(spec: Path, overlay: Path | None = None) -> Any:
    document, _ = load(spec, overlay=overlay)
    return build_api(document, spec_display=spec.name)


@pytest.mark.parametrize("spec", [*CONTRACTS, TPMJS_SPEC], ids=lambda p: p.name)
def test_the_server_and_client_read_of_the_contract_only_what_the_memo_keys(spec: Path) -> None:
    api = _api(spec, TPMJS_OVERLAY if spec == TPMJS_SPEC else None)
    env = environment_of()
    for name, context in (("server.py", rendering.server_context),
                          ("client.py", rendering.client_context)):
        reading = Reading(api)
        env.get_template(rendering.TEMPLATE_FILES[name]).render({"api": reading, "header": "", **context(reading)})
        assert reading.read - {"definitions"} <= set(memo.READ), name
        # Their looks at the models are keyed as `extra`: parameters' defaults, client facts.
        assert reading.definitions_read_by <= {"definition_facts", "parameter_defaults"}, name
    assert set(memo.READ) - set(memo.KEYED) == {"base_path"}


def _spec(tmp_path: Path, document: dict[str, Any]) -> Path:
    path = tmp_path / "api.json"
    path.write_text(json.dumps(document, indent=1), "utf-8")
    return path


def _renders(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The modules rendered from their templates from now on."""
    names: list[str] = []
    contexts = {"server.py": "server_context", "client.py": "client_context"}
    for module, attribute in contexts.items():
        original = getattr(rendering, attribute)

        def counted(api: Any, original: Any = original, module: str = module) -> Any:
            names.append(module)
            return original(api)

        monkeypatch.setattr(rendering, attribute, counted)
    return names


def _fresh(spec: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    with monkeypatch.context() as patch:
        patch.setenv("CONTRACTGEN_NO_CACHE", "1")
        return render(spec)[0]


def test_an_edited_model_reuses_the_server_and_client_and_the_output_is_the_same(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    document = json.loads(json.dumps(FEATURES))
    spec = _spec(tmp_path, document)
    render(spec)
    renders = _renders(monkeypatch)

    # A model's description: models.py changes; server.py and client.py are reused, with the
    # new contract's header.
    name = sorted(document["components"]["schemas"])[0]
    document["components"]["schemas"][name]["description"] = "Edited."
    spec = _spec(tmp_path, document)
    files, _ = render(spec)
    assert renders == []
    assert files == _fresh(spec, monkeypatch)
    assert "Edited." in files["models.py"]
    renders.clear()

    # An operation's summary: both are rendered again.
    path = sorted(document["paths"])[0]
    method = next(iter(document["paths"][path]))
    document["paths"][path][method]["summary"] = "A summary of its own."
    spec = _spec(tmp_path, document)
    files, _ = render(spec)
    assert sorted(renders) == ["client.py", "server.py"]
    assert files == _fresh(spec, monkeypatch)
    assert "A summary of its own." in files["client.py"]


def test_what_the_client_reads_of_the_models_is_part_of_its_key(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A response body that turns from a class into a union changes the client's parser (a
    cast), though no operation changed: the client is rendered again, the server reused."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    body = {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Pet"}}},
            "description": "the pet"}
    document = {"openapi": "3.1.0", "info": {"title": "t", "version": "1"},
                "paths": {"/pet": {"get": {"operationId": "getPet", "responses": {"200": body}}}},
                "components": {"schemas": {"Pet": {"type": "object", "properties": {
                    "name": {"type": "string"}}}}}}
    spec = _spec(tmp_path, document)
    first, _ = render(spec)
    renders = _renders(monkeypatch)
    document["components"]["schemas"]["Pet"] = {"anyOf": [{"type": "string"},
                                                          {"type": "integer"}]}
    spec = _spec(tmp_path, document)
    files, _ = render(spec)
    assert renders == ["client.py"]
    assert files == _fresh(spec, monkeypatch)
    assert "cast(" in files["client.py"] and "cast(" not in first["client.py"]


def test_a_parameter_default_spelled_by_an_enum_is_part_of_the_key(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The IR holds a parameter's default as its value (`"green"`); which enum member spells
    it is read from the models: another member name re-renders the server and the client."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    color = {"type": "string", "enum": ["red", "green"], "default": "green"}
    param = {"name": "color", "in": "query", "schema": {"$ref": "#/components/schemas/Color"}}
    document = {"openapi": "3.1.0", "info": {"title": "t", "version": "1"},
                "paths": {"/pet": {"get": {"operationId": "getPet", "parameters": [param],
                                           "responses": {"204": {"description": "none"}}}}},
                "components": {"schemas": {"Color": color}}}
    first, _ = render(_spec(tmp_path, document))
    renders = _renders(monkeypatch)
    color["enum"] = ["red", "Green", "green"]  # "Green" takes GREEN, "green" is GREEN_ now
    spec = _spec(tmp_path, document)
    files, _ = render(spec)
    assert sorted(renders) == ["client.py", "server.py"]
    assert files == _fresh(spec, monkeypatch)
    assert "= models.Color.GREEN)" in first["client.py"]
    assert "= models.Color.GREEN_)" in files["client.py"]


def test_template_overrides_are_never_served_from_the_memo(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    overrides = tmp_path / "templates"
    overrides.mkdir()
    (overrides / "models.py.jinja").write_text(
        (rendering.templates_dir() / "models.py.jinja").read_text("utf-8"), "utf-8")
    spec = _spec(tmp_path, json.loads(json.dumps(FEATURES)))
    render(spec, templates=overrides)
    renders = _renders(monkeypatch)
    render(_spec(tmp_path, {**FEATURES, "info": {**FEATURES["info"], "version": "2"}}),
           templates=overrides)
    assert sorted(renders) == ["client.py", "server.py"]


def test_definition_facts_are_what_parsed_directly_decides_by() -> None:
    api = _api(OTARI_SPEC)
    classes, aliases = client_source.definition_facts(api)
    assert classes and all(isinstance(name, str) for name in classes)
    assert all(not d.recursive for d in api.definitions if d.name in dict(aliases))
