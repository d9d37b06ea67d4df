"""The deploy tests of otari (tests/backends/test_deploy_otari.py), run unchanged against the
images of `make images`: three otari-sandbox containers behind the proxy's container. And what
only a container can show: the session caps hold inside it (a fork bomb, a memory hog)."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest
import test_deploy_otari as deploy
from deploy_support import free_port
from image_support import IMAGES, OtariContainer, ProxyContainer, missing_images, podman
from test_deploy_otari import NAMES, TOKEN, Cluster

pytestmark = [pytest.mark.images]

# In the order of test_deploy_otari.py (draining stops an instance for good: it comes last).
test_the_conformance_scenario_passes_through_the_proxy = deploy.test_the_conformance_scenario_passes_through_the_proxy
test_auth_is_end_to_end = deploy.test_auth_is_end_to_end
test_an_id_naming_no_instance_gets_the_contracts_404 = deploy.test_an_id_naming_no_instance_gets_the_contracts_404
test_sessions_spread_survive_a_down_instance_and_it_comes_back = (
    deploy.test_sessions_spread_survive_a_down_instance_and_it_comes_back
)
test_a_draining_instance_takes_no_new_sessions_but_serves_its_own = (
    deploy.test_a_draining_instance_takes_no_new_sessions_but_serves_its_own
)
# FORK_BOMB of the backend's own tests: how many processes it got, within the cap.
FORK_BOMB = """
import os, time
n = 0
try:
    while n < 1000:
        if os.fork() == 0:
            time.sleep(30); os._exit(0)
        n += 1
except OSError:
    pass
print(n)
"""


@pytest.fixture(scope="module")
def cluster() -> Iterator[Cluster]:
    if (why := missing_images()) is not None:
        pytest.skip(why)
    instances: dict[str, OtariContainer] = {}
    proxy = None
    try:
        for index, name in enumerate(NAMES):
            instances[name] = OtariContainer(name, index, token=TOKEN)
        proxy = ProxyContainer({n: f"127.0.0.1:{i.port}" for n, i in instances.items()}, ["127.0.0.1:9"])
        headers = {"Authorization": f"Bearer {TOKEN}"}
        with httpx.Client(base_url=proxy.otari_url, headers=headers, timeout=30) as client:
            yield Cluster(instances, proxy, client)  # type: ignore[arg-type]
    finally:
        if proxy is not None:
            proxy.stop()
        for instance in instances.values():
            instance.stop()


@pytest.fixture(scope="module")
def capped() -> Iterator[httpx.Client]:
    if (why := missing_images()) is not None:
        pytest.skip(why)
    caps = {"SANDBOX_RUNNER_MEMORY_MB": "256", "SANDBOX_RUNNER_NPROC": "32"}
    instance = OtariContainer("otari-capped", 7, token=TOKEN, env=caps)
    try:
        assert httpx.get(f"{instance.url}/health").json()["limits"] == "cgroups"
        headers = {"Authorization": f"Bearer {TOKEN}"}
        with httpx.Client(base_url=instance.url, headers=headers, timeout=60) as client:
            yield client
    finally:
        instance.stop()


def _run(client: httpx.Client, code: str, tool: str = "code_execution") -> dict[str, object]:
    session = client.post("/sessions", json={}).json()["session_id"]
    field = "code" if tool == "code_execution" else "command"
    try:
        answer = client.post(f"/sessions/{session}/exec", json={"tool": tool, "input": {field: code}})
        assert answer.status_code == 200, answer.text
        result: dict[str, object] = answer.json()["result_block"]["content"]
        return result
    finally:
        client.delete(f"/sessions/{session}")


def test_a_fork_bomb_is_contained_in_the_container(capped: httpx.Client) -> None:
    result = _run(capped, FORK_BOMB)
    assert 20 < int(str(result["stdout"])) < 32, result
    assert "process limit reached (32 processes per session)" in str(result["stderr"])
    # The service and a new session are unharmed.
    assert _run(capped, "print(6 * 7)")["stdout"] == "42"


def test_a_memory_hog_is_contained_in_the_container(capped: httpx.Client) -> None:
    # Each 150 MiB process is under its own 256 MiB address-space cap; two are not.
    hog = "python3 -c 'import time; x = b\"x\" * (150 << 20); time.sleep(1); print(\"alive\")'"
    result = _run(capped, f"{hog} & {hog} & wait", "bash_code_execution")
    assert str(result["stdout"]).count("alive") < 2, result
    assert "memory limit reached" in str(result["stderr"]), result


@pytest.mark.parametrize(("env", "why"), [
    ([], "no usable cgroups: sessions would run without memory and process caps"),
    # An operator may run without cgroups; never without the sandbox (no /proc mount, no
    # hostname in a new UTS namespace under a container's default settings).
    (["--env=SANDBOX_CGROUPS=0"], "sandbox did not start: "),
], ids=["no-cgroup", "no-namespaces"])
def test_the_image_refuses_to_start_without_what_the_sandbox_needs(env: list[str], why: str) -> None:
    if (reason := missing_images()) is not None:
        pytest.skip(reason)
    # A container's default settings: no privileges, no cgroup of its own.
    ran = podman("run", "--rm", "--network", "host", *env, IMAGES["otari-sandbox"], "--host", "127.0.0.1",
                 "--port", str(free_port()), timeout=120, check=False)
    assert ran.returncode != 0
    assert why in ran.stdout + ran.stderr
