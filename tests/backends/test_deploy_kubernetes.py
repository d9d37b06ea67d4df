"""deploy/kubernetes/ checked offline: every object against the API's schemas (strict), the
proxy's ConfigMaps against render.py's output, and the sizes against the service's budgets."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from deploy_support import ROOT, render
from otari_sandbox.budget import FDS_PER_SESSION, FDS_RESERVED, sized_capacity
from otari_sandbox.config import Settings
from serving_child import load_serving

kubernetes_validate = pytest.importorskip("kubernetes_validate")

K8S = ROOT / "deploy" / "kubernetes"
MANIFESTS = sorted(K8S.rglob("*.yaml"))
KUBERNETES_VERSION = "1.30.0"
MIB = 1024 * 1024


def _documents(path: Path) -> list[dict[str, Any]]:
    return [doc for doc in yaml.safe_load_all(path.read_text()) if doc]


def _objects() -> dict[tuple[str, str], dict[str, Any]]:
    return {(d["kind"], d["metadata"]["name"]): d for p in MANIFESTS for d in _documents(p)}


def _quantity(text: str) -> int:
    units = {"Ki": 1 << 10, "Mi": 1 << 20, "Gi": 1 << 30}
    return int(text[:-2]) * units[text[-2:]] if text[-2:] in units else int(text)


@pytest.mark.parametrize("path", MANIFESTS, ids=lambda p: str(p.relative_to(K8S)))
def test_every_object_matches_the_api_schema(path: Path) -> None:
    for document in _documents(path):
        kubernetes_validate.validate(document, KUBERNETES_VERSION, strict=True)


def test_the_proxy_configmaps_are_render_pys_output() -> None:
    stale = [str(p) for p, text in render.kubernetes_configmaps().items() if p.read_text() != text]
    assert stale == [], "run `python deploy/nginx/render.py` to rewrite them"


def test_one_upstream_per_otari_pod_named_as_the_pod() -> None:
    objects = _objects()
    replicas = objects["StatefulSet", "otari"]["spec"]["replicas"]
    conf = objects["ConfigMap", "otari-proxy"]["data"]["otari.conf"]
    for index in range(replicas):
        pod = f"otari-{index}"
        assert f"upstream otari__{pod} {{" in conf
        assert f"    {pod} otari__{pod};" in conf  # the id's instance -> the pod's upstream
    assert f"otari__otari-{replicas}" not in conf
    service = objects["Service", "otari"]["spec"]
    assert service["clusterIP"] == "None" and service["publishNotReadyAddresses"] is True


def test_otari_pods_are_sized_by_the_services_budgets() -> None:
    objects = _objects()
    pod = objects["StatefulSet", "otari"]["spec"]["template"]["spec"]
    container = pod["containers"][0]
    env = {e["name"]: e for e in container["env"]}
    assert env["SANDBOX_INSTANCE"]["valueFrom"]["fieldRef"]["fieldPath"] == "metadata.name"
    values = {k: e["value"] for k, e in env.items() if "value" in e}
    fields = {"capacity": "SANDBOX_MAX_SESSIONS", "total_memory_mb": "SANDBOX_TOTAL_MEMORY_MB",
              "pool_size": "SANDBOX_POOL_SIZE", "drain_seconds": "SANDBOX_DRAIN_SECONDS"}
    settings = Settings(**{name: values[var] for name, var in fields.items()})
    resources = container["resources"]
    memory = _quantity(resources["limits"]["memory"])
    assert _quantity(resources["requests"]["memory"]) == memory  # sessions are not evicted
    # The sandboxes' share is what the service takes by default (3/4), and it admits exactly
    # the configured sessions; the fds they need are within a container's usual limit.
    assert settings.total_memory_mb == memory * 3 // 4 // MIB
    assert sized_capacity(settings, 1 << 20, settings.total_memory_mb) == settings.capacity
    fds = FDS_RESERVED + FDS_PER_SESSION * (settings.capacity + settings.pool_size)
    assert fds <= 65536 and sized_capacity(settings, fds, settings.total_memory_mb) == settings.capacity
    assert pod["terminationGracePeriodSeconds"] > settings.drain_seconds
    assert container["livenessProbe"]["httpGet"]["path"] == "/health"
    assert container["readinessProbe"]["httpGet"]["path"] == "/health/ready"
    pdb = objects["PodDisruptionBudget", "otari"]["spec"]
    assert pdb["selector"]["matchLabels"] == pod_labels(objects, "StatefulSet", "otari")


def pod_labels(objects: dict[tuple[str, str], dict[str, Any]], kind: str, name: str) -> Any:
    return objects[kind, name]["spec"]["template"]["metadata"]["labels"]


def test_tpmjs_scales_on_cpu_behind_the_hash() -> None:
    objects = _objects()
    hpa = objects["HorizontalPodAutoscaler", "tpmjs"]["spec"]
    assert hpa["scaleTargetRef"] == {"apiVersion": "apps/v1", "kind": "Deployment", "name": "tpmjs"}
    assert [m["resource"]["name"] for m in hpa["metrics"]] == ["cpu"]
    container = objects["Deployment", "tpmjs"]["spec"]["template"]["spec"]["containers"][0]
    assert "cpu" in container["resources"]["requests"]  # utilisation is relative to it
    conf = objects["ConfigMap", "tpmjs-proxy"]["data"]["tpmjs.conf"]
    assert "hash $tpmjs_package consistent;" in conf and "tpmjs-pods." in conf
    assert objects["Service", "tpmjs-pods"]["spec"]["clusterIP"] == "None"
    # The proxy mounts all three ConfigMaps into one directory.
    volume = objects["Deployment", "proxy"]["spec"]["template"]["spec"]["volumes"][0]
    names = {s["configMap"]["name"] for s in volume["projected"]["sources"]}
    assert names == {"proxy-main", "otari-proxy", "tpmjs-proxy"}


def test_the_proxy_closes_idle_upstream_connections_before_the_instances_do() -> None:
    """nginx must never reuse a pooled connection the instance is closing: every upstream's
    idle timeout is below the instances' own (FrontDoorLimits.keep_alive_timeout)."""
    instance_idle = load_serving().FrontDoorLimits().keep_alive_timeout
    for text in render.kubernetes_configmaps().values():
        for block in re.findall(r"upstream \S+ \{(.*?)\n\s*\}", text, re.S):
            idle = re.search(r"keepalive_timeout (\d+)s;", block)
            assert idle is not None and int(idle.group(1)) < instance_idle, block
