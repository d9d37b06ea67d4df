"""Generate a package from every spec in tests/corpus and check what comes out.

Every spec is generated once per test session into one shared folder (guarded by a file
lock, so xdist workers share it); each test then imports and inspects the packages. mypy
and ruff run once over all of them together. Two specs are also served over real HTTP on
loopback and called with the generated client.
"""

from __future__ import annotations

import fcntl
import importlib
import importlib.util
import inspect
import json
import keyword
import os
import re
import subprocess
import sys
import traceback
import types
from collections.abc import Iterator
from http import HTTPStatus
from pathlib import Path
from typing import Any

import pytest
import yaml
from gen_support import serve

ROOT = Path(__file__).resolve().parents[2]
CORPUS = Path(__file__).resolve().parents[1] / "corpus"
PYTHON = sys.executable
SPECS = {p.stem: p for p in sorted(CORPUS.iterdir()) if p.suffix in {".yaml", ".json"}}
GENERATED_FILES = {"__init__.py", "models.py", "errors.py", "server.py", "client.py", "openapi.json"}
HTTP_METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
_WORD = re.compile(r"[A-Z]+(?=[A-Z][a-z0-9])|[A-Z]?[a-z0-9]+|[A-Z]+|[0-9]+")
# Builtins a scalar alias may legitimately resolve to (`coordinate = int`).
_ALIAS_MODULES = {"builtins", "datetime", "uuid", "ipaddress", "decimal"}

# Slow: generating the corpus once, shared by every test here, takes well over 5 s.
pytestmark = pytest.mark.slow


def _import_corpus_gen() -> types.ModuleType:
    # By path: `tests` may or may not be a package depending on pytest's import mode.
    spec = importlib.util.spec_from_file_location("corpus_gen", CORPUS.parent / "corpus_gen.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _load(path: Path) -> dict[str, Any]:
    text = path.read_text(encoding="utf-8")
    doc = json.loads(text) if path.suffix == ".json" else yaml.safe_load(text)
    assert isinstance(doc, dict)
    return doc


DOCS = {name: _load(path) for name, path in SPECS.items()}


# --- names the contract in docs/generated-api.md promises -------------------------------


def _snake(name: str) -> str:
    return "_".join(w.lower() for w in _WORD.findall(name))


def _pascal(name: str) -> str:
    return "".join(w[:1].upper() + w[1:] for w in _WORD.findall(name))


def _with_dodges(name: str) -> list[str]:
    return [name, name + "_", name + "Model", "Model" + name]


def method_candidates(method: str, path: str, operation: dict[str, Any]) -> list[str]:
    """Acceptable method names: snake_case(operationId), else `<method>_<path words>`."""
    if "operationId" in operation:
        name = _snake(operation["operationId"])
        return [name, name + "_"] if keyword.iskeyword(name) or name in {"self", "close"} else [name]
    path_words = [w.lower() for w in _WORD.findall(path)]
    if not path_words:
        return [method, f"{method}_root", f"{method}_index"]
    return ["_".join([method, *path_words])]


def class_candidates(schema_name: str) -> list[str]:
    """The component's name as written when Python allows it, else a PascalCase spelling."""
    names = []
    if schema_name.isidentifier() and not keyword.iskeyword(schema_name):
        names.append(schema_name)
    pascal = _pascal(schema_name)
    if pascal:
        names.extend(_with_dodges(pascal))
    names.extend(_with_dodges(schema_name))
    return list(dict.fromkeys(n for n in names if n.isidentifier()))


def operations(doc: dict[str, Any]) -> Iterator[tuple[str, str, dict[str, Any]]]:
    """(method, path, operation) for every served operation, resolving `$ref`'d path items."""
    for path, raw in sorted(doc.get("paths", {}).items()):
        item = resolve(doc, raw["$ref"]) if "$ref" in raw else raw
        for method in HTTP_METHODS:
            if method in item:
                yield method, path, item[method]


def resolve(doc: dict[str, Any], ref: str) -> Any:
    """Follow a local JSON pointer."""
    node: Any = doc
    for part in ref.removeprefix("#/").split("/"):
        node = node[part.replace("~1", "/").replace("~0", "~")]
    return node


# --- examples, collected at import so each is its own test ------------------------------


def _component_ref(schema: Any) -> str | None:
    if isinstance(schema, dict) and isinstance(schema.get("$ref"), str):
        ref: str = schema["$ref"]
        prefix = "#/components/schemas/"
        if ref.startswith(prefix) and "/" not in ref.removeprefix(prefix):
            return ref.removeprefix(prefix)
    return None


def _media_examples(doc: dict[str, Any]) -> Iterator[tuple[str, Any]]:
    """Examples on media types whose schema is a component."""
    def walk(node: Any) -> Iterator[tuple[str, Any]]:
        if isinstance(node, dict):
            target = _component_ref(node.get("schema"))
            if target is not None:
                if "example" in node:
                    yield target, node["example"]
                for raw in node.get("examples", {}).values():
                    example = resolve(doc, raw["$ref"]) if "$ref" in raw else raw
                    if "value" in example:
                        yield target, example["value"]
            for value in node.values():
                yield from walk(value)
        elif isinstance(node, list):
            for value in node:
                yield from walk(value)

    yield from walk(doc.get("paths", {}))


def collect_examples(*, invalid: bool) -> list[Any]:
    """pytest params (spec, schema, example) for every valid or `x-corpus-invalid` example."""
    params = []
    for spec, doc in DOCS.items():
        found: list[tuple[str, Any]] = []
        for name, schema in sorted(doc.get("components", {}).get("schemas", {}).items()):
            if invalid:
                found.extend((name, ex) for ex in schema.get("x-corpus-invalid", []))
                continue
            if "example" in schema:
                found.append((name, schema["example"]))
            found.extend((name, ex) for ex in schema.get("examples", []))
        if not invalid:
            found.extend(_media_examples(doc))
        counts: dict[str, int] = {}
        for name, example in found:
            counts[name] = counts.get(name, 0) + 1
            params.append(pytest.param(spec, name, example, id=f"{spec}:{name}:{counts[name]}"))
    return params


# --- generation, once per session, shared between xdist workers -------------------------


def _generate_one(name: str, out: Path) -> dict[str, Any]:
    import contractgen

    package = f"{name}_api"
    try:
        files = contractgen.generate(SPECS[name], out / package, package=package)
        result: dict[str, Any] = {"files": [str(f) for f in files], "error": None}
    except Exception:
        result = {"files": [], "error": traceback.format_exc()}
    return result


def _generate_shared(out: Path) -> dict[str, Any]:
    """Generate every spec once between all xdist workers: each takes the specs whose lock it
    gets, then waits on the locks of the others' (released once their result is written)."""
    results = out.parent / "corpus_results"
    results.mkdir(parents=True, exist_ok=True)
    locks = {name: os.open(results / f"{name}.lock", os.O_CREAT | os.O_RDWR) for name in SPECS}
    try:
        # The largest spec first, so one worker takes it while the other does the rest.
        for name in sorted(SPECS, key=lambda n: -SPECS[n].stat().st_size):
            try:
                fcntl.flock(locks[name], fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                continue  # another worker is generating it
            try:
                if not (results / f"{name}.json").exists():
                    partial = results / f"{name}.part"
                    partial.write_text(json.dumps(_generate_one(name, out)))
                    partial.rename(results / f"{name}.json")
            finally:
                fcntl.flock(locks[name], fcntl.LOCK_UN)
        for name in SPECS:
            fcntl.flock(locks[name], fcntl.LOCK_SH)  # waits while another worker generates it
            fcntl.flock(locks[name], fcntl.LOCK_UN)
    finally:
        for fd in locks.values():
            os.close(fd)
    return {name: json.loads((results / f"{name}.json").read_text()) for name in SPECS}


@pytest.fixture(scope="session")
def generated(tmp_path_factory: pytest.TempPathFactory, worker_id: str) -> dict[str, Any]:
    """Every corpus spec generated into `<shared tmp>/corpus_out/<name>_api`."""
    base = tmp_path_factory.getbasetemp()
    if worker_id != "master":
        base = base.parent
    out = base / "corpus_out"
    out.mkdir(exist_ok=True)
    results = _generate_shared(out)
    if str(out) not in sys.path:
        sys.path.insert(0, str(out))
    return {"out": out, "results": results}


def package(generated: dict[str, Any], name: str) -> types.SimpleNamespace:
    """The generated package's modules, failing with the generator's traceback if it broke."""
    error = generated["results"][name]["error"]
    if error:
        pytest.fail(f"contractgen.generate failed for {name}:\n{error}", pytrace=False)
    modules = {
        part: importlib.import_module(f"{name}_api.{part}")
        for part in ("models", "errors", "server", "client")
    }
    return types.SimpleNamespace(dir=generated["out"] / f"{name}_api", **modules)


def model_for(models: types.ModuleType, schema_name: str) -> Any:
    """The class or alias generated for a component schema, or None."""
    for candidate in class_candidates(schema_name):
        obj = getattr(models, candidate, None)
        if obj is None or inspect.isfunction(obj) or inspect.ismodule(obj):
            continue
        if isinstance(obj, type) and not (obj.__module__ in _ALIAS_MODULES or generated_class(
                models, obj)):
            continue  # e.g. pydantic's own `Field` or `BaseModel` re-exported
        return obj
    return None


def generated_class(models: types.ModuleType, obj: type) -> bool:
    """True for a class defined in models.py, or in one of its parts (a large contract)."""
    return obj.__module__.startswith(
        (models.__name__, models.__name__.rpartition(".")[0] + "._models_"))


# --- the corpus itself ------------------------------------------------------------------


def test_corpus_covers_both_versions_and_both_formats() -> None:
    versions = {doc["openapi"][:3] for doc in DOCS.values()}
    assert versions == {"3.0", "3.1"}
    assert {p.suffix for p in SPECS.values()} == {".yaml", ".json"}


# openapi-spec-validator checks `format: regex` with Python's `re`; the pattern dialect OpenAPI
# names is ECMA-262, and these contracts hold patterns only ECMA-262 reads (`[\w-./:]`).
# `contractgen validate` judges patterns with an ECMA-262 engine (regress) instead.
ECMA_ONLY = {"ecma_patterns"}


@pytest.mark.parametrize("name", sorted(SPECS))
def test_spec_is_valid_openapi(name: str) -> None:
    from openapi_spec_validator import validate

    if name in ECMA_ONLY:
        import contractgen

        assert [p for p in contractgen.validate(SPECS[name]) if p.level.name == "ERROR"] == []
        return
    validate(DOCS[name], base_uri=SPECS[name].as_uri())


def test_large_synthetic_is_current_and_large() -> None:
    assert (CORPUS / "large_synthetic.json").read_text(encoding="utf-8") == _import_corpus_gen().render()
    doc = DOCS["large_synthetic"]
    assert len(list(operations(doc))) >= 300
    assert len(doc["components"]["schemas"]) >= 200


@pytest.mark.parametrize("name", sorted(SPECS))
def test_corpus_examples_agree_with_their_schemas(name: str) -> None:
    """The corpus is right before the generator is judged on it (by an independent validator)."""
    from openapi_schema_validator import OAS30Validator, OAS31Validator

    doc = DOCS[name]
    validator = OAS31Validator if doc["openapi"].startswith("3.1") else OAS30Validator
    wrong = []
    for invalid in (False, True):
        for param in collect_examples(invalid=invalid):
            spec, schema, example = param.values
            if spec != name:
                continue
            root = {"$ref": f"#/components/schemas/{schema}", "components": doc["components"]}
            errors = list(validator(root, format_checker=validator.FORMAT_CHECKER)
                          .iter_errors(example))
            if bool(errors) != invalid:
                wrong.append((param.id, [e.message for e in errors]))
    assert not wrong


# --- generation and structure -----------------------------------------------------------


@pytest.mark.parametrize("name", sorted(SPECS))
def test_generates_the_package_files(generated: dict[str, Any], name: str) -> None:
    pkg = package(generated, name)
    written = {Path(f).name for f in generated["results"][name]["files"]}
    assert written >= GENERATED_FILES
    for file in GENERATED_FILES - {"openapi.json"}:
        first = (pkg.dir / file).read_text(encoding="utf-8").splitlines()[0]
        assert first.startswith("# Generated by contractgen "), (file, first)
        assert first.endswith("DO NOT EDIT."), (file, first)


@pytest.mark.parametrize("name", sorted(SPECS))
def test_openapi_json_is_the_contract(generated: dict[str, Any], name: str) -> None:
    pkg = package(generated, name)
    served = json.loads((pkg.dir / "openapi.json").read_text(encoding="utf-8"))
    if _has_external_refs(DOCS[name]):
        # Bundled: whatever the shape, it must stand alone.
        from openapi_spec_validator import validate

        assert not _has_external_refs(served)
        validate(served)
    else:
        assert served == DOCS[name]


def _has_external_refs(node: Any) -> bool:
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str) and not ref.startswith("#"):
            return True
        return any(_has_external_refs(v) for v in node.values())
    return isinstance(node, list) and any(_has_external_refs(v) for v in node)


@pytest.mark.parametrize("name", sorted(SPECS))
def test_every_component_schema_has_a_model(generated: dict[str, Any], name: str) -> None:
    models = package(generated, name).models
    schemas = DOCS[name].get("components", {}).get("schemas", {})
    missing = [s for s in schemas if model_for(models, s) is None]
    assert not missing, f"no class or alias in models for {missing}"
    # Two components must not collapse into one class (`GetItemResponse` vs an inline body).
    classes = [model_for(models, s) for s in schemas]
    merged = [s for s, c in zip(schemas, classes, strict=True) if isinstance(c, type)
              and generated_class(models, c) and classes.count(c) > 1]
    assert not merged, f"components sharing one class: {merged}"


@pytest.mark.parametrize("name", sorted(SPECS))
def test_every_operation_has_methods(generated: dict[str, Any], name: str) -> None:
    pkg = package(generated, name)
    problems = []
    for method, path, op in operations(DOCS[name]):
        candidates = method_candidates(method, path, op)
        found = next((c for c in candidates if hasattr(pkg.server.ServiceBase, c)), None)
        if found is None:
            problems.append(f"{method.upper()} {path}: none of {candidates} on ServiceBase")
            continue
        if not inspect.iscoroutinefunction(getattr(pkg.server.ServiceBase, found)):
            problems.append(f"ServiceBase.{found} is not async")
        if inspect.iscoroutinefunction(getattr(pkg.client.Client, found, None)) or not callable(
            getattr(pkg.client.Client, found, None)
        ):
            problems.append(f"Client.{found} missing or async")
        if not inspect.iscoroutinefunction(getattr(pkg.client.AsyncClient, found, None)):
            problems.append(f"AsyncClient.{found} missing or not async")
    assert not problems, "\n".join(problems)


def _status_phrases(status: str) -> list[str]:
    ranges = {"1XX": "Informational", "3XX": "Redirection", "4XX": "ClientError",
              "5XX": "ServerError", "DEFAULT": "Default"}
    if status.upper() in ranges:
        return [ranges[status.upper()]]
    code = int(status)
    # RFC 9110 renamed a few (413, 414, 422); accept either wording.
    rfc9110 = {413: "ContentTooLarge", 414: "UriTooLong", 422: "UnprocessableContent"}
    phrase = "".join(w.capitalize() for w in re.findall(r"[A-Za-z0-9]+", HTTPStatus(code).phrase))
    return [phrase, rfc9110.get(code, phrase)]


@pytest.mark.parametrize("name", sorted(SPECS))
def test_declared_errors_have_typed_exceptions(generated: dict[str, Any], name: str) -> None:
    errors = package(generated, name).errors
    missing = []
    for method, path, op in operations(DOCS[name]):
        stems = {_pascal(c) for c in method_candidates(method, path, op)}
        stems |= {"".join(w.capitalize() for w in _WORD.findall(stem)) for stem in stems}
        declared = [str(status) for status in op.get("responses", {})]
        redirects = not any(status.startswith("2") for status in declared)
        for status in declared:
            if status.startswith("2") or (redirects and status.startswith("3")):
                continue  # a success (3xx ones where no 2xx is declared), no exception
            names = [s + p for s in sorted(stems) for p in _status_phrases(status)]
            cls = next((getattr(errors, n) for n in names if hasattr(errors, n)), None)
            if not (isinstance(cls, type) and issubclass(cls, errors.ApiError)):
                missing.append(f"{method.upper()} {path} {status}: none of {names}")
            elif status.isdigit() and getattr(cls, "status_code", None) != int(status):
                missing.append(f"{cls.__name__}.status_code != {status}")
    assert not missing, "\n".join(missing)


def _route_key(method: str, path: str) -> tuple[str, str]:
    # Parameter names may be renamed in routes (`{user-id}`); compare the path's shape.
    return method.upper(), re.sub(r"\{[^}]*\}", "{}", path)


@pytest.mark.parametrize("name", sorted(SPECS))
def test_app_builds_with_a_route_per_operation(generated: dict[str, Any], name: str) -> None:
    from fastapi import FastAPI

    pkg = package(generated, name)
    app = pkg.server.create_app(pkg.server.ServiceBase(), insecure_no_auth=True)
    assert isinstance(app, FastAPI)
    routes = {
        _route_key(m, route.path)
        for route in app.routes
        for m in getattr(route, "methods", None) or ()
    }
    base = pkg.server.BASE_PATH  # servers[0]'s path: the operations are mounted under it
    expected = {_route_key(m, base + p) for m, p, _ in operations(DOCS[name])}
    assert not expected - routes, f"operations without a route: {sorted(expected - routes)}"
    assert ("GET", "/openapi.json") in routes


# --- examples ---------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "schema", "example"), collect_examples(invalid=False))
def test_example_round_trips(
    generated: dict[str, Any], name: str, schema: str, example: Any
) -> None:
    from pydantic import TypeAdapter

    target = model_for(package(generated, name).models, schema)
    assert target is not None, f"no model for {schema}"
    adapter: TypeAdapter[Any] = TypeAdapter(target)
    value = adapter.validate_python(example)
    assert adapter.dump_python(value, mode="json", by_alias=True) == example
    assert adapter.validate_json(json.dumps(example)) == value


@pytest.mark.parametrize(("name", "schema", "example"), collect_examples(invalid=True))
def test_invalid_example_is_rejected(
    generated: dict[str, Any], name: str, schema: str, example: Any
) -> None:
    from pydantic import TypeAdapter, ValidationError

    target = model_for(package(generated, name).models, schema)
    assert target is not None, f"no model for {schema}"
    with pytest.raises(ValidationError):
        TypeAdapter(target).validate_python(example)


# --- static checks, once over everything ------------------------------------------------


def _generated_packages(generated: dict[str, Any]) -> list[str]:
    # Specs that failed to generate fail test_generates_the_package_files; check the rest.
    ok = [f"{name}_api" for name, r in sorted(generated["results"].items()) if not r["error"]]
    assert ok, "nothing generated"
    return ok


@pytest.mark.timeout(240)
def test_mypy_strict_over_all_generated(generated: dict[str, Any]) -> None:
    packages = _generated_packages(generated)
    config = generated["out"].parent / "corpus_mypy.ini"
    config.write_text("[mypy]\nstrict = True\nplugins = pydantic.mypy\n")
    args = [PYTHON, "-m", "mypy", "--config-file", str(config), "--no-error-summary",
            "--cache-dir", str(generated["out"].parent / "corpus_mypy_cache")]
    for pkg in packages:
        args += ["-p", pkg]
    proc = subprocess.run(args, cwd=generated["out"], capture_output=True, text=True,
                          check=False)
    assert proc.returncode == 0, proc.stdout[-20000:] + proc.stderr[-5000:]


def test_ruff_over_all_generated(generated: dict[str, Any]) -> None:
    packages = _generated_packages(generated)
    proc = subprocess.run(
        [PYTHON, "-m", "ruff", "check", "--no-cache", "--config", str(ROOT / "pyproject.toml"),
         *packages],
        cwd=generated["out"], capture_output=True, text=True, check=False,
    )
    assert proc.returncode == 0, proc.stdout[-20000:] + proc.stderr[-5000:]


# --- over real HTTP ---------------------------------------------------------------------




def test_petstore_expanded_over_http(generated: dict[str, Any]) -> None:
    pkg = package(generated, "petstore_expanded")
    models, calls = pkg.models, []

    class Service(pkg.server.ServiceBase):  # type: ignore[misc,name-defined]
        async def find_pets(self, *args: Any, **kwargs: Any) -> Any:
            calls.append(("find_pets", args, kwargs))
            return [models.Pet(id=1, name="Tom", tag="cat")]

        async def add_pet(self, *args: Any, **kwargs: Any) -> Any:
            calls.append(("add_pet", args, kwargs))
            return models.Pet(id=2, name=args[0].name)

        async def delete_pet(self, *args: Any, **kwargs: Any) -> None:
            calls.append(("delete_pet", args, kwargs))

    with serve(pkg.server.create_app(Service())) as url, \
            pkg.client.Client(url + pkg.server.BASE_PATH) as client:  # servers[0]: .../v2
        pets = client.find_pets(tags=["cat", "dog"], limit=5)
        assert [p.model_dump(mode="json", by_alias=True) for p in pets] == [
            {"id": 1, "name": "Tom", "tag": "cat"}
        ]
        assert client.add_pet(models.NewPet(name="Rex")).id == 2
        assert client.delete_pet(3) is None
        with pytest.raises(pkg.errors.ApiError) as raised:
            client.find_pet_by_id(1)  # not overridden
        assert raised.value.status_code == 501
    assert calls[0] == ("find_pets", (), {"tags": ["cat", "dog"], "limit": 5})
    assert calls[2] == ("delete_pet", (3,), {})


def test_media_types_over_http(generated: dict[str, Any]) -> None:
    pkg = package(generated, "media_types")
    models = pkg.models
    received: dict[str, Any] = {}

    class Service(pkg.server.ServiceBase):  # type: ignore[misc,name-defined]
        async def upload_file(self, form: Any) -> Any:
            content = await form.file.read()
            received["upload"] = (form.file.filename, content, form.description, form.tags)
            return models.FileInfo(id="f1", size=len(content))

        async def download_file(self, file_id: str) -> bytes:
            return b"\x00\x01bytes of " + file_id.encode()

        async def replace_file(self, file_id: str, body: bytes) -> None:
            received["replace"] = (file_id, body)

        async def create_note(self, body: str) -> str:
            return body.upper()

    with serve(pkg.server.create_app(Service())) as url, pkg.client.Client(url) as client:
        info = client.upload_file(file=("a.txt", b"hello", "text/plain"), description="d",
                                  tags=["x", "y"])
        assert (info.id, info.size) == ("f1", 5)
        assert client.download_file("f1") == b"\x00\x01bytes of f1"
        assert client.replace_file("f2", b"\xff\xfe") is None
        assert client.create_note("hi there") == "HI THERE"
        with pytest.raises(pkg.errors.ApiError) as raised:
            client.delete_file("f1")  # not overridden
        assert raised.value.status_code == 501
    assert received["upload"] == ("a.txt", b"hello", "d", ["x", "y"])
    assert received["replace"] == ("f2", b"\xff\xfe")


def test_awkward_names_over_http(generated: dict[str, Any]) -> None:
    import datetime
    import uuid

    pkg = package(generated, "awkward_names")
    models, calls = pkg.models, []
    keywords = DOCS["awkward_names"]["components"]["schemas"]["Keywords"]["example"]

    class Service(pkg.server.ServiceBase):  # type: ignore[misc,name-defined]
        async def get_users_user_id_repos(self, *args: Any, **kwargs: Any) -> Any:
            calls.append((args, kwargs))
            return [models.IoExampleV1Item(name="w")]

        async def post_users_user_id_repos(self, *args: Any, **kwargs: Any) -> Any:
            calls.append((args, kwargs))
            return args[1]

    request_id = uuid.UUID("0b6f3a52-7b7e-4a42-a4d6-4f6c2b1f0c8e")
    with serve(pkg.server.create_app(Service())) as url, pkg.client.Client(url) as client:
        items = client.get_users_user_id_repos(
            "u 1é", from_=datetime.date(2024, 1, 31), page_size=5, x_request_id=request_id,
            session="s1",
        )
        assert [i.name for i in items] == ["w"]
        echoed = client.post_users_user_id_repos(
            "u2", models.Keywords.model_validate(keywords), if_match='"v1"'
        )
        assert echoed.model_dump(mode="json", by_alias=True) == keywords
    assert calls[0] == (("u 1é",), {"from_": datetime.date(2024, 1, 31), "page_size": 5,
                                    "x_request_id": request_id, "session": "s1"})
    assert calls[1][0][0] == "u2"
    assert calls[1][1] == {"x_request_id": None, "if_match": '"v1"'}


class _QueryRecorder:
    """A service for odds_and_ends that records what `search_items` received."""

    @staticmethod
    def app(pkg: types.SimpleNamespace, calls: list[dict[str, Any]]) -> Any:
        class Service(pkg.server.ServiceBase):  # type: ignore[misc,name-defined]
            async def search_items(self, *args: Any, **kwargs: Any) -> Any:
                calls.append(kwargs)
                return []

            async def get_report_file(self, *args: Any, **kwargs: Any) -> Any:
                calls.append({"args": args})
                return b"%PDF-"

        return pkg.server.create_app(Service())

    @staticmethod
    def check(received: dict[str, Any]) -> None:
        assert received["filter"].model_dump(mode="json", by_alias=True, exclude_none=True) == {
            "name": "x y", "minPrice": 5}
        assert (received["ids"], received["in_stock"], received["level"]) == ([1, 2, 3], False, 2)
        assert received["where"] == {"a": [1]}


def test_odds_and_ends_server_parses_query_styles(generated: dict[str, Any]) -> None:
    """deepObject, form with explode=false, and a JSON `content` parameter, as written on the wire."""
    import httpx

    pkg = package(generated, "odds_and_ends")
    calls: list[dict[str, Any]] = []
    query = ("filter%5Bname%5D=x%20y&filter%5BminPrice%5D=5&ids=1,2,3&inStock=false&level=2"
             "&where=%7B%22a%22%3A%5B1%5D%7D")
    with serve(_QueryRecorder.app(pkg, calls)) as url:
        assert httpx.get(f"{url}/reports/AB-1234.pdf").content == b"%PDF-"
        response = httpx.get(f"{url}/items?{query}")
        assert response.status_code == 200, response.text
    assert calls[0] == {"args": ("AB-1234", "pdf")}
    _QueryRecorder.check(calls[1])


def test_odds_and_ends_client_round_trip(generated: dict[str, Any]) -> None:
    pkg = package(generated, "odds_and_ends")
    calls: list[dict[str, Any]] = []
    with serve(_QueryRecorder.app(pkg, calls)) as url, pkg.client.Client(url) as client:
        assert client.get_report_file("AB-1234", "pdf") == b"%PDF-"
        assert client.search_items(
            filter={"name": "x y", "minPrice": 5}, ids=[1, 2, 3], in_stock=False, level=2,
            where={"a": [1]},
        ) == []
    _QueryRecorder.check(calls[1])


def test_bearer_scopes_over_http(generated: dict[str, Any]) -> None:
    """non_oauth_scopes: bearer-or-anonymous on getUser, bearer only on GET /users."""
    pkg = package(generated, "non_oauth_scopes")
    tokens: list[str | None] = []

    def verify(token: str | None) -> bool:
        tokens.append(token)
        return token in {"good", None}

    class Service(pkg.server.ServiceBase):  # type: ignore[misc,name-defined]
        async def get_user(self, user_id: int) -> Any:
            return pkg.models.User(id=user_id, roles=["admin"])

    app = pkg.server.create_app(Service(), verify_bearer=verify)
    with serve(app) as url:
        with pkg.client.Client(url, token="good") as client:
            assert client.get_user(7).id == 7
        with pkg.client.Client(url) as anonymous:
            assert anonymous.get_user(8).id == 8
        with pkg.client.Client(url, token="bad") as client:
            with pytest.raises(pkg.errors.ApiError) as raised:
                client.get_user(9)
            assert raised.value.status_code == 401
            assert isinstance(raised.value.body, pkg.models.Unauthorized)
            with pytest.raises(pkg.errors.ApiError) as raised:
                client.get_users()
            assert raised.value.status_code == 401
    assert tokens == ["good", None, "bad", "bad"]


def test_generation_is_deterministic(generated: dict[str, Any], tmp_path: Path) -> None:
    """Regenerating under another hash seed gives the same bytes (names, sets, collisions)."""
    names = ["awkward_names", "composition", "formats_and_shapes", "recursive"]
    script = (
        "import sys, contractgen\n"
        "for name, spec in zip(sys.argv[2::2], sys.argv[3::2]):\n"
        "    contractgen.generate(spec, f'{sys.argv[1]}/{name}_api', package=f'{name}_api')\n"
    )
    args = [a for n in names for a in (n, str(SPECS[n]))]
    subprocess.run([PYTHON, "-c", script, str(tmp_path), *args], cwd=Path.cwd(), check=True,
                   env={**os.environ, "PYTHONHASHSEED": "12345"}, timeout=240)
    differing = [
        f"{name}_api/{file}"
        for name in names
        for file in sorted(GENERATED_FILES)
        if (tmp_path / f"{name}_api" / file).read_bytes()
        != (generated["out"] / f"{name}_api" / file).read_bytes()
    ]
    assert not differing


def test_petstore_async_client_over_http(generated: dict[str, Any]) -> None:
    import asyncio

    pkg = package(generated, "petstore")
    models = pkg.models

    class Service(pkg.server.ServiceBase):  # type: ignore[misc,name-defined]
        async def show_pet_by_id(self, pet_id: str) -> Any:
            return models.Pet(id=int(pet_id), name="Rex")

        async def create_pets(self, body: Any) -> None:
            assert body.name == "Tom"

    async def calls(url: str) -> None:
        async with pkg.client.AsyncClient(url) as client:
            pet = await client.show_pet_by_id("7")
            assert pet.model_dump(mode="json", by_alias=True) == {"id": 7, "name": "Rex"}
            assert await client.create_pets(models.Pet(id=1, name="Tom")) is None
            with pytest.raises(pkg.errors.ApiError) as raised:
                await client.list_pets(limit=1)  # not overridden
            assert raised.value.status_code == 501

    with serve(pkg.server.create_app(Service())) as url:
        asyncio.run(calls(url + pkg.server.BASE_PATH))  # servers[0]: .../v1
