"""A contract of API-platform size (tests/corpus/large_synthetic.json, 336 operations, 204
schemas): every operation is routed, and importing the package and building its app build no
model's validator: pydantic builds a model's schema on its first use (`defer_build`), so an
import pays for class statements only (issue 28, "Large contracts")."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

CONTRACT = Path(__file__).parent / "corpus" / "large_synthetic.json"
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
classes = sorted(
    name for name, value in vars(models).items()
    if isinstance(value, type) and issubclass(value, BaseModel) and value.__module__ == models.__name__
)
built = [name for name in classes if getattr(models, name).__pydantic_complete__]
routes = sorted(
    [method, re.sub(r"{{[^}}]*}}", "{{}}", route.path)] for route in app.routes for method in getattr(route, "methods", ())
    if not route.path.startswith(("/openapi.json", "/docs", "/redoc"))
)
first = getattr(models, sys.argv[1])
first.model_json_schema()  # its first use builds it (and what it refers to)
print(json.dumps({{"classes": classes, "built": built, "routes": routes,
                  "built_on_use": first.__pydantic_complete__}}))
"""


def declared_operations(contract: dict[str, object]) -> list[list[str]]:
    paths = contract["paths"]
    assert isinstance(paths, dict)
    # Parameter names differ (the route's are Python's): compare the paths' shapes.
    return sorted([method.upper(), re.sub(r"{[^}]*}", "{}", path)] for path, item in paths.items()
                  for method in HTTP_METHODS if method in item)


@pytest.mark.slow
def test_a_large_contract_routes_everything_and_builds_no_model_on_import(tmp_path: Path) -> None:
    import contractgen

    contractgen.generate(CONTRACT, tmp_path / "large_pkg")
    contract = json.loads(CONTRACT.read_text(encoding="utf-8"))
    schema = sorted(contract["components"]["schemas"])[0]
    proc = subprocess.run([sys.executable, "-c", PROBE.format(pkg="large_pkg"), schema],
                          cwd=tmp_path, capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr[-3000:]
    found = json.loads(proc.stdout)
    declared = declared_operations(contract)
    assert len(declared) >= 300
    # FastAPI answers HEAD on no GET route of ours (405 lists the methods as routed).
    assert found["routes"] == declared
    assert len(found["classes"]) >= 200
    assert found["built"] == []
    assert found["built_on_use"] is True
