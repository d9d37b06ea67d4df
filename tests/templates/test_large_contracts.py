"""A contract of API-platform size (tests/corpus/large_synthetic.json, 336 operations, 204
schemas): every operation is routed, and importing the package and building its app build no
model's validator: pydantic builds a model's schema on its first use (`defer_build`), so an
import pays for class statements only (issue 28, "Large contracts")."""

from __future__ import annotations

import importlib
import json
import re
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
from gen_support import serve

CONTRACT = Path(__file__).parents[1] / "corpus" / "large_synthetic.json"
HTTP_METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")

# Run in a fresh interpreter, so that nothing built by another test counts.
PROBE = """
import json, re, sys
from pydantic import BaseModel
import {pkg}.models as models, {pkg}.client as client, {pkg}.server as server

class Service(server.ServiceBase):
    pass

app = server.create_app(Service(), insecure_no_auth=True)
with client.Client("http://127.0.0.1:9") as api:
    pass
# The parts of the models (issue 28) made so far (the base class's module aside): enums only,
# which operations' defaults use.
made = sorted(
    name for name, module in sys.modules.items()
    if name.startswith("{pkg}._models_") and name != "{pkg}._models_base" and any(
        isinstance(value, type) and issubclass(value, BaseModel) and value.__module__ == name
        for value in vars(module).values()
    )
)
values = [getattr(models, name) for name in models.__all__]
classes = sorted(
    value.__name__ for value in values
    if isinstance(value, type) and issubclass(value, BaseModel)
)
built = [name for name in classes if getattr(models, name).__pydantic_complete__]
routes = sorted(
    [method, re.sub(r"{{[^}}]*}}", "{{}}", route.path)] for route in app.routes for method in getattr(route, "methods", ())
    if not route.path.startswith(("/openapi.json", "/docs", "/redoc"))
)
first = getattr(models, sys.argv[1])
first.model_json_schema()  # its first use builds it (and what it refers to)
print(json.dumps({{"classes": classes, "built": built, "routes": routes, "made": made,
                  "built_on_use": first.__pydantic_complete__}}))
"""


def declared_operations(contract: dict[str, object]) -> list[list[str]]:
    paths = contract["paths"]
    assert isinstance(paths, dict)
    # Parameter names differ (the route's are Python's): compare the paths' shapes.
    return sorted([method.upper(), re.sub(r"{[^}]*}", "{}", path)] for path, item in paths.items()
                  for method in HTTP_METHODS if method in item)


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    import contractgen

    base = tmp_path_factory.mktemp("large")
    contractgen.generate(CONTRACT, base / "large_pkg")
    return base


@pytest.mark.slow
def test_a_large_contract_routes_everything_and_builds_no_model_on_import(generated: Path) -> None:
    contract = json.loads(CONTRACT.read_text(encoding="utf-8"))
    schema = sorted(contract["components"]["schemas"])[0]
    proc = subprocess.run([sys.executable, "-c", PROBE.format(pkg="large_pkg"), schema],
                          cwd=generated, capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr[-3000:]
    found = json.loads(proc.stdout)
    declared = declared_operations(contract)
    assert len(declared) >= 300
    # FastAPI answers HEAD on no GET route of ours (405 lists the methods as routed).
    assert found["routes"] == declared
    assert len(found["classes"]) >= 200
    # Importing the package and building its app made no model class (models.py is an index).
    assert found["made"] == []
    assert found["built"] == []
    assert found["built_on_use"] is True


@pytest.mark.slow
def test_the_docs_page_serves_the_contract_with_this_server_first(generated: Path) -> None:
    # The served text is made on the first request (not in create_app), then kept.
    sys.path.insert(0, str(generated))
    try:
        server = importlib.import_module("large_pkg.server")
    finally:
        sys.path.remove(str(generated))
    contract = json.loads(CONTRACT.read_text(encoding="utf-8"))
    app = server.create_app(server.ServiceBase(), insecure_no_auth=True)
    with serve(app) as base_url, httpx.Client(base_url=base_url) as http:
        first, again = (http.get("/docs/openapi.json") for _ in range(2))
    assert first.status_code == 200 and first.headers["content-type"] == "application/json"
    served = first.json()
    assert served["servers"] == [
        {"url": "/", "description": "This server (added by its docs page)"},
        *contract["servers"],
    ]
    assert {**served, "servers": contract["servers"]} == contract
    assert again.content == first.content
