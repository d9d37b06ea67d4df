"""The deploy tests of tpmjs (tests/backends/test_deploy_tpmjs.py), run unchanged against the
images of `make images`: two tpmjs-executor containers behind the proxy's container, installing
from a registry served on loopback, each container's store in a host folder."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest
import test_deploy_tpmjs as deploy
from image_support import ProxyContainer, TpmjsContainer, missing_images
from test_deploy_tpmjs import API_KEY, FIXTURES, Proxied
from tpmjs_support import NpmRegistry

pytestmark = [pytest.mark.images]

# In the order of test_deploy_tpmjs.py (the last one stops an instance).
test_the_verify_package_passes_through_the_proxy = deploy.test_the_verify_package_passes_through_the_proxy
test_a_packages_calls_land_on_one_instance = deploy.test_a_packages_calls_land_on_one_instance
test_calls_keep_succeeding_with_one_instance_down = deploy.test_calls_keep_succeeding_with_one_instance_down


@pytest.fixture(scope="module")
def proxied(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Proxied]:
    if (why := missing_images()) is not None:
        pytest.skip(why)
    work = tmp_path_factory.mktemp("tpmjs-images")
    instances: list[TpmjsContainer] = []
    proxy = None
    with NpmRegistry() as registry:
        registry.publish_tree(FIXTURES)
        try:
            for index in range(2):
                args = ["--registry", registry.url, "--pool-size", "0", "--no-network", "--log-level", "warning"]
                instances.append(TpmjsContainer(index, args, {"EXECUTOR_API_KEY": API_KEY}, work / f"store{index}"))
            proxy = ProxyContainer({}, [i.url.removeprefix("http://") for i in instances])
            headers = {"Authorization": f"Bearer {API_KEY}"}
            with httpx.Client(base_url=proxy.tpmjs_url, headers=headers, timeout=120) as client:
                stores = [work / f"store{index}" / "packages" for index in range(2)]
                yield Proxied(registry, instances, stores, proxy, client)  # type: ignore[arg-type]
        finally:
            if proxy is not None:
                proxy.stop()
            for instance in instances:
                instance.stop()
