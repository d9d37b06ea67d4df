"""The models of a large contract in parts imported on first use (issue 28, "Large contracts").

A contract past the threshold (docs/generated-api.md) gets models.py as an index of parts:
importing the package, the client, the server and building the app make no model class;
using a model imports its part and the parts it refers to, and nothing else. A cycle of
references, a discriminated union, allOf, enums and aliases work across parts, over HTTP
between the generated server and client, pickled, and under `mypy --strict` and ruff.
"""

from __future__ import annotations

import inspect
import json
import os
import pickle
import re
import statistics
import subprocess
import sys
import tarfile
import typing
from pathlib import Path
from typing import Any

import httpx
import pytest
from gen_support import Generated, generate_package, mypy_strict, openapi, serve
from shared_corpus import corpus_file

FILLERS = 170  # independent schemas, past the threshold of one models.py


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _json(schema: dict[str, Any]) -> dict[str, Any]:
    return {"content": {"application/json": {"schema": schema}}}


SCHEMAS: dict[str, Any] = {
    **{f"Filler{n:03d}": {"type": "object", "properties": {"n": {"type": "integer"}}}
       for n in range(FILLERS)},
    # A cycle of references: Tree -> Node -> Node, Node -> Tree.
    "Tree": {"type": "object", "required": ["root"],
             "properties": {"root": _ref("Node"), "label": _ref("Label")}},
    "Node": {"type": "object", "required": ["name"], "properties": {
        "name": {"type": "string"}, "children": {"type": "array", "items": _ref("Node")},
        "tree": _ref("Tree"), "colour": _ref("Colour")}},
    "Label": {"type": "string", "maxLength": 20},
    "Colour": {"type": "string", "enum": ["red", "green"]},
    # A discriminated union over allOf-extended members.
    "PetBase": {"type": "object", "required": ["name"], "properties": {"name": {"type": "string"}}},
    "Cat": {"allOf": [_ref("PetBase"), {"type": "object", "required": ["kind"], "properties": {
        "kind": {"type": "string", "enum": ["cat"]}, "lives": {"type": "integer"}}}]},
    "Dog": {"allOf": [_ref("PetBase"), {"type": "object", "required": ["kind"], "properties": {
        "kind": {"type": "string", "enum": ["dog"]}, "friend": _ref("Pet")}}]},
    "Pet": {"oneOf": [_ref("Cat"), _ref("Dog")],
            "discriminator": {"propertyName": "kind",
                              "mapping": {"cat": "#/components/schemas/Cat",
                                          "dog": "#/components/schemas/Dog"}}},
    "Pets": {"type": "array", "items": _ref("Pet")},
    "Error": {"type": "object", "required": ["message"],
              "properties": {"message": {"type": "string"}}},
}
PATHS: dict[str, Any] = {
    "/pets": {"post": {
        "operationId": "addPet", "requestBody": {"required": True, **_json(_ref("Pet"))},
        "responses": {"200": {"description": "the pets", **_json(_ref("Pets"))}}}},
    "/trees/{id}": {"get": {
        "operationId": "getTree",
        "parameters": [{"name": "id", "in": "path", "required": True,
                        "schema": {"type": "string"}},
                       {"name": "colour", "in": "query", "schema": _ref("Colour")}],
        "responses": {"200": {"description": "a tree", **_json(_ref("Tree"))},
                      "404": {"description": "no such tree", **_json(_ref("Error"))}}}},
}
CONTRACT = openapi(PATHS, SCHEMAS)

# Run in a fresh interpreter: which parts each step imports, and which hold model classes.
PROBE = """
import json, sys
from pydantic import BaseModel

def parts():
    return sorted(name.rsplit(".", 1)[1] for name, module in list(sys.modules.items())
                  if name.startswith("{pkg}._models_") and not name.endswith("_base")
                  and any(isinstance(v, type) and issubclass(v, BaseModel)
                          for v in vars(module).values()))

import {pkg}, {pkg}.models, {pkg}.errors, {pkg}.client, {pkg}.server as server
server.create_app(server.ServiceBase(), insecure_no_auth=True)
steps = {{"import": parts()}}
from {pkg}.models import Pet
steps["Pet"] = parts()
m = {pkg}.models
steps["homes"] = sorted({{c.__module__.rsplit(".", 1)[1] for c in (m.Cat, m.Dog)}})
print(json.dumps(steps))
"""


@pytest.fixture(scope="module")
def lazy(tmp_path_factory: pytest.TempPathFactory) -> Generated:
    return generate_package(CONTRACT, tmp_path_factory.mktemp("lazy"))


def _probe(generated: Generated) -> dict[str, list[str]]:
    proc = subprocess.run([sys.executable, "-c", PROBE.format(pkg=generated.name)],
                          cwd=generated.dir.parent, capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr[-3000:]
    found: dict[str, list[str]] = json.loads(proc.stdout)
    return found


def test_models_py_is_an_index_of_parts(lazy: Generated) -> None:
    index = (lazy.dir / "models.py").read_text(encoding="utf-8")
    assert not re.search(r"^class ", index, re.M)
    parts = sorted(p.stem for p in lazy.dir.glob("_models_*.py"))
    assert "_models_base" in parts and len(parts) >= 5
    # Every name is where the index says, and the index names every definition.
    names = set(SCHEMAS) | {"PetsAdapter", "LabelAdapter", "PetAdapter"}
    assert names <= set(lazy.models.__all__)
    for name in sorted(names):
        value = getattr(lazy.models, name)
        assert not isinstance(value, type) or value.__module__.startswith(f"{lazy.name}._models_")
        assert name in dir(lazy.models)
    with pytest.raises(AttributeError, match="Nope"):
        _ = lazy.models.Nope


def test_importing_builds_no_model_and_a_model_builds_what_it_uses(lazy: Generated) -> None:
    found = _probe(lazy)
    assert found["import"] == []  # nothing but the base class made
    # The parts of Pet and of what it refers to (Cat, Dog: allOf copies PetBase's fields), only.
    assert found["Pet"] == found["homes"]
    assert len(found["Pet"]) < len(list(lazy.dir.glob("_models_*.py"))) - 3


def test_cycles_unions_and_enums_validate_and_round_trip(lazy: Generated) -> None:
    models = lazy.models
    data = {"root": {"name": "a", "colour": "red", "children": [{"name": "b", "tree": {
        "root": {"name": "c"}}}]}, "label": "x"}
    tree = models.Tree.model_validate(data)
    assert tree.root.children[0].tree.root.name == "c"
    assert tree.root.colour is models.Colour.RED
    assert tree.model_dump(mode="json", by_alias=True) == data
    assert pickle.loads(pickle.dumps(tree)) == tree
    pets = models.PetsAdapter.validate_python(
        [{"kind": "dog", "name": "d", "friend": {"kind": "cat", "name": "c", "lives": 9}}])
    assert isinstance(pets[0], models.Dog) and isinstance(pets[0].friend, models.Cat)
    with pytest.raises(ValueError, match="kind"):
        models.PetAdapter.validate_python({"kind": "fish", "name": "f"})
    assert models.Tree.model_rebuild(force=True) is not False


def test_server_and_client_over_http(lazy: Generated) -> None:
    models, errors = lazy.models, lazy.errors

    class Service(lazy.server.ServiceBase):  # type: ignore[name-defined,misc]
        async def add_pet(self, body: Any) -> Any:
            return [body, models.Cat(kind="cat", name="echo")]

        async def get_tree(self, id: str, colour: Any = None) -> Any:
            if id == "none":
                raise errors.GetTreeNotFound(models.Error(message="no tree none"))
            return models.Tree(root=models.Node(name=id, colour=colour))

    app = lazy.server.create_app(Service(), insecure_no_auth=True)
    with serve(app) as base_url, lazy.client.Client(base_url) as api:
        pets = api.add_pet(models.Dog(kind="dog", name="rex"))
        assert [type(p) for p in pets] == [models.Dog, models.Cat]
        assert api.get_tree("oak", colour=models.Colour.GREEN).root.colour is models.Colour.GREEN
        with pytest.raises(errors.GetTreeNotFound) as caught:
            api.get_tree("none")
        assert caught.value.body == models.Error(message="no tree none")
        wrong = httpx.post(f"{base_url}/pets", json={"kind": "fish", "name": "f"})
        assert wrong.status_code == 422
        bad = httpx.get(f"{base_url}/trees/oak", params={"colour": "blue"})
        assert bad.status_code == 422


@pytest.mark.slow
def test_the_parts_pass_mypy_strict_and_ruff(lazy: Generated) -> None:
    result = mypy_strict(lazy.dir)
    assert result.returncode == 0, result.stdout + result.stderr
    ruff = subprocess.run([sys.executable, "-m", "ruff", "check", "--isolated", str(lazy.dir)],
                          capture_output=True, text=True, check=False)
    assert ruff.returncode == 0, ruff.stdout + ruff.stderr


TIMING = """
import time
t0 = time.perf_counter()
import pydantic, fastapi, httpx
t1 = time.perf_counter()
import {pkg}.models, {pkg}.errors, {pkg}.client, {pkg}.server as server
t2 = time.perf_counter()
server.create_app(server.ServiceBase(), insecure_no_auth=True)
t3 = time.perf_counter()
print(t1 - t0, t2 - t1, t3 - t2)
"""


@pytest.mark.slow
@pytest.mark.corpus
def test_a_large_contract_imports_and_builds_its_app_in_time(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """DigitalOcean (1,950 model classes): importing models, errors, client and server, and
    create_app, in fresh interpreters with bytecode kept (as installed packages have it),
    median of 5. The goal is import < 1 s in all (a quiet machine's floor, `import pydantic,
    fastapi, httpx`, is 0.33 s; measured here apart) and create_app < 0.5 s; asserted: the
    package's share of the import < 0.65 s and create_app < 0.5 s (measured 0.15-0.31 s and
    0.06-0.19 s with a load of 4-8 on two cores)."""
    import contractgen

    with tarfile.open(corpus_file("digitalocean-public-v2.tar.gz")) as archive:
        archive.extractall(tmp_path / "do", filter="data")
    spec = tmp_path / "do" / "specification" / "DigitalOcean-public.v2.yaml"
    contractgen.generate(spec, tmp_path / "do_api", lenient=True)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    runs = []
    for _ in range(6):  # the first compiles the bytecode
        proc = subprocess.run([sys.executable, "-c", TIMING.format(pkg="do_api")], env=env,
                              cwd=tmp_path, capture_output=True, text=True, check=True)
        runs.append([float(x) for x in proc.stdout.split()])
    floor, imported, built = (statistics.median(r[k] for r in runs[1:]) for k in range(3))
    with capsys.disabled():
        print(f"\nDigitalOcean: floor {floor:.3f} s, import {imported:.3f} s, create_app "
              f"{built:.3f} s (load {os.getloadavg()[0]:.1f})")
    assert imported < 0.65 and built < 0.5


def test_client_methods_read_their_types(lazy: Generated) -> None:
    # client.py defers its annotations (so that importing it makes no model): typing reads
    # them in client.py, for the methods it writes out and those `_call` makes alike.
    models, client = lazy.models, lazy.client
    for method in (client.Client.get_tree, client.AsyncClient.get_tree):
        hints = typing.get_type_hints(method)
        assert hints["return"] is models.Tree
        assert hints["colour"] == models.Colour | None
    detailed = typing.get_type_hints(client.Client.get_tree_detailed)["return"]
    assert typing.get_args(detailed)[0] is models.Tree
    assert "colour" in inspect.signature(client.Client.get_tree).parameters
