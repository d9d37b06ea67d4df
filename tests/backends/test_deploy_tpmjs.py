"""Three tpmjs-executor instances behind deploy/'s nginx on loopback: calls hash on the
package they name (njs reads it from the body), so each package installs on one instance."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
from deploy_support import ROOT, Nginx, missing_nginx

sys.path.insert(0, str(ROOT / "backends/tpmjs-executor/tests"))
from tpmjs_executor.store import entry_dirname
from tpmjs_support import ExecutorProcess, NpmRegistry

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(missing_nginx() is not None, reason=str(missing_nginx())),
]

API_KEY = "deploy-test-key-0123456789"
FIXTURES = ROOT / "backends/tpmjs-executor/tests/fixtures/packages"
HELLO = {"packageName": "@tpmjs/hello", "name": "helloWorldTool", "version": "0.0.2",
         "params": {"includeTimestamp": True}}
# Several packages, so that their hashes fall on more than one instance.
CALLS = [
    ("@fixture/cjs-tools", "cjsTool"),
    ("@fixture/esm-tools", "makeEchoTool"),
    ("@fixture/default-object", "alphaTool"),
    ("@fixture/default-export", "default"),
    ("@fixture/with-dep", "padTool"),
]


@dataclass
class Proxied:
    registry: NpmRegistry
    instances: list[ExecutorProcess]
    stores: list[Path]
    nginx: Nginx
    client: httpx.Client

    def installs(self, package: str, version: str = "1.0.0") -> list[int]:
        """The instances whose store holds ``package@version``."""
        entry = entry_dirname(package, version)
        return [i for i, store in enumerate(self.stores) if (store / entry).is_dir()]


@pytest.fixture(scope="module")
def proxied(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Proxied]:
    work = tmp_path_factory.mktemp("tpmjs-deploy")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("EXECUTOR_", "npm_config"))}
    env["EXECUTOR_API_KEY"] = API_KEY
    instances: list[ExecutorProcess] = []
    nginx = None
    with NpmRegistry() as registry:
        registry.publish_tree(FIXTURES)
        try:
            for index in range(3):
                args = ["--registry", registry.url, "--store-dir", str(work / f"store{index}"),
                        "--pool-size", "0", "--no-network", "--log-level", "warning"]
                instances.append(ExecutorProcess(args, env, Path(work / f"log{index}")))
            nginx = Nginx({"otari-0": "127.0.0.1:9"}, [i.url.removeprefix("http://") for i in instances])
            headers = {"Authorization": f"Bearer {API_KEY}"}
            with httpx.Client(base_url=nginx.tpmjs_url, headers=headers, timeout=60) as client:
                stores = [work / f"store{index}" / "packages" for index in range(3)]
                yield Proxied(registry, instances, stores, nginx, client)
        finally:
            if nginx is not None:
                nginx.stop()
            for instance in instances:
                instance.stop()


def _call(proxied: Proxied, body: dict[str, object]) -> dict[str, object]:
    response = proxied.client.post("/execute-tool", json=body)
    assert response.status_code == 200, response.text
    result: dict[str, object] = response.json()
    assert result["success"] is True, result
    return result


def test_the_verify_package_passes_through_the_proxy(proxied: Proxied) -> None:
    output = _call(proxied, HELLO)["output"]
    assert isinstance(output, dict) and output["message"] == "Hello, World!"
    # Auth is end to end: the proxy holds no key.
    assert httpx.post(f"{proxied.nginx.tpmjs_url}/execute-tool", json=HELLO).status_code == 401


def test_a_packages_calls_land_on_one_instance(proxied: Proxied) -> None:
    for package, name in CALLS:
        for _ in range(3):
            _call(proxied, {"packageName": package, "name": name})
    for _ in range(3):
        _call(proxied, HELLO)
    # Round robin would install each package on all three instances.
    installs = {package: proxied.installs(package) for package, _ in CALLS}
    installs["@tpmjs/hello"] = proxied.installs("@tpmjs/hello", "0.0.2")
    assert all(len(where) == 1 for where in installs.values()), installs
    # ...and the hash does spread them (an unread body would hash them all alike).
    assert len({where[0] for where in installs.values()}) >= 2, installs


def test_calls_keep_succeeding_with_one_instance_down(proxied: Proxied) -> None:
    # Its own calls first: under `pytest -n 2` (dist load) the test before may have run on the
    # other worker, against another proxy, and left nothing installed here.
    for package, name in CALLS:
        _call(proxied, {"packageName": package, "name": name})
    before = {package: proxied.installs(package) for package, _ in CALLS}
    down = next(where[0] for where in before.values() if where)
    proxied.instances[down].stop()
    for package, name in CALLS:
        for _ in range(2):
            _call(proxied, {"packageName": package, "name": name})
    _call(proxied, HELLO)
    # The down instance's share moved to one survivor each; the others' stayed put.
    for package, _ in CALLS:
        after = [i for i in proxied.installs(package) if i != down]
        assert len(after) == 1, (package, before, after)
        assert before[package] == [down] or after == before[package]
