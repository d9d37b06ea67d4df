"""The backends and the proxy as containers of deploy/images' images (`make images`), on the
host's loopback (host network), with the same interface as deploy_support's processes, so the
deploy tests run unchanged against the images (tests/backends/test_images_*.py)."""

from __future__ import annotations

import os
import secrets
import shutil
import signal
import subprocess
import tempfile
from pathlib import Path

import httpx
from deploy_support import ROOT, OtariInstance, free_port, render, wait_until

TAG = os.environ.get("IMAGE_TAG", "0.1.0")
IMAGES = {name: f"localhost/{name}:{TAG}" for name in ("otari-sandbox", "tpmjs-executor", "contractgen-proxy")}
# runc, cgroupfs and ulimits within this kind of host's hard limits (deploy/images/README.md)
ENV = {**os.environ, "CONTAINERS_CONF": os.environ.get("CONTAINERS_CONF", str(ROOT / "deploy/images/containers.conf"))}
# What a sandbox needs of its container, as measured (deploy/images/README.md): privileged for
# a writable cgroup of its own (the session caps), a private cgroup namespace.
SANDBOX_OPTIONS = ["--privileged", "--cgroupns=private"]


def podman(*args: str, timeout: float = 60, check: bool = True) -> subprocess.CompletedProcess[str]:
    """``podman ARGS`` with the images' containers.conf."""
    return subprocess.run(["podman", *args], env=ENV, capture_output=True, text=True,
                          timeout=timeout, check=check)


def missing_images() -> str | None:
    """Why the images cannot run here, or None."""
    if shutil.which("podman") is None:
        return "podman is not installed (.ci/run installs it; apt-get install podman)"
    absent = [image for image in IMAGES.values() if podman("image", "exists", image, check=False).returncode]
    if absent:
        return f"images not built: {', '.join(absent)} (make images; BASE=local without a registry)"
    probe = podman("run", "--rm", "--network", "host", "--entrypoint", "true", IMAGES["otari-sandbox"],
                   check=False)
    if probe.returncode:
        return f"podman cannot run a container here: {probe.stderr.strip()[-300:]}"
    return None


class ContainerProcess:
    """A running container, as much of `subprocess.Popen` as the deploy tests use."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.returncode: int | None = None

    def send_signal(self, sig: int) -> None:
        podman("kill", "--signal", signal.Signals(sig).name, self.name, check=False)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)

    def poll(self) -> int | None:
        state = podman("inspect", "-f", "{{.State.Running}} {{.State.ExitCode}}", self.name, check=False)
        running, _, code = state.stdout.strip().partition(" ")
        if state.returncode == 0 and running != "true":
            self.returncode = int(code or 0)
        return None if running == "true" else self.returncode

    def wait(self, timeout: float | None = None) -> int:
        waited = podman("wait", self.name, timeout=timeout or 600, check=False)
        self.returncode = int(waited.stdout.strip() or 0) if waited.returncode == 0 else self.poll() or 0
        return self.returncode


def run_container(name: str, image: str, options: list[str], args: list[str]) -> ContainerProcess:
    """Start ``image`` detached as ``name`` on the host network; remove a leftover first."""
    podman("rm", "-f", "-t", "0", name, check=False)
    podman("run", "-d", "--name", name, "--network", "host", *options, image, *args)
    return ContainerProcess(name)


def logs(name: str) -> str:
    """What a container logged so far."""
    logged = podman("logs", name, check=False)
    return logged.stdout + logged.stderr


class OtariContainer(OtariInstance):
    """otari-sandbox from its image, named ``name``, on a loopback port of the host."""

    def start(self) -> None:
        env = {"SANDBOX_INSTANCE": self.name, **self.env}
        if self.token:
            env["SANDBOX_AUTH_TOKEN"] = self.token
        self.container = f"cg-test-{self.name}-{self.port}"
        options = [*SANDBOX_OPTIONS, *(f"--env={k}={v}" for k, v in env.items())]
        self.proc = run_container(self.container, IMAGES["otari-sandbox"], options, [
            "--host", "127.0.0.1", "--port", str(self.port), "--pool-size", str(self.pool_size),
            "--uid-base", str(900_000 + 1_000 * self.index), "--log-level", "warning"])
        wait_until(self._healthy, 60, f"{self.name} to start:\n{self.output()}")

    def output(self) -> str:
        return logs(self.container)

    def stop(self, sig: int = signal.SIGTERM, timeout: float = 20) -> int:
        code = super().stop(sig, timeout)
        podman("rm", "-f", "-t", "0", self.container, check=False)
        return code


class TpmjsContainer:
    """tpmjs-executor from its image on a loopback port, its store in a host folder."""

    def __init__(self, index: int, args: list[str], env: dict[str, str], store: Path) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.container = f"cg-test-tpmjs-{index}-{self.port}"
        store.mkdir(parents=True, exist_ok=True)
        options = [*SANDBOX_OPTIONS, "--device", "/dev/net/tun", "-v", f"{store}:/var/lib/tpmjs-executor",
                   *(f"--env={k}={v}" for k, v in env.items())]
        self.proc = run_container(self.container, IMAGES["tpmjs-executor"], options,
                                  ["--host", "127.0.0.1", "--port", str(self.port), *args])
        wait_until(lambda: httpx.get(f"{self.url}/health", timeout=2).status_code == 200, 60,
                   f"tpmjs {index} to start:\n{logs(self.container)}")

    def stop(self) -> None:
        podman("rm", "-f", "-t", "5", self.container, check=False)


class ProxyContainer:
    """The proxy image over render.py's configuration (mounted read-only), on loopback ports."""

    def __init__(self, otari: dict[str, str], tpmjs: list[str]) -> None:
        self.prefix = Path(tempfile.mkdtemp(prefix="contractgen-proxy-"))
        self.prefix.chmod(0o755)
        self.otari_port, self.tpmjs_port = free_port(), free_port()
        render.write(self.prefix, otari, tpmjs, otari_listen=f"127.0.0.1:{self.otari_port}",
                     tpmjs_listen=f"127.0.0.1:{self.tpmjs_port}", pid="/tmp/nginx/nginx.pid",
                     temp="/tmp/nginx")
        for path in self.prefix.rglob("*"):
            path.chmod(0o755 if path.is_dir() else 0o644)
        self.otari_url = f"http://127.0.0.1:{self.otari_port}"
        self.tpmjs_url = f"http://127.0.0.1:{self.tpmjs_port}"
        self.container = f"cg-test-proxy-{secrets.token_hex(3)}"
        self.proc = run_container(self.container, IMAGES["contractgen-proxy"],
                                  ["-v", f"{self.prefix}:/etc/contractgen-proxy:ro"], [])
        url = self.otari_url if otari else self.tpmjs_url
        wait_until(lambda: httpx.get(f"{url}/health", timeout=2).status_code < 600, 30,
                   f"the proxy to listen:\n{logs(self.container)}")

    def stop(self) -> None:
        podman("rm", "-f", "-t", "2", self.container, check=False)
        shutil.rmtree(self.prefix, ignore_errors=True)
