"""Instances of the backends and an nginx proxy in front of them, on loopback (tests, bench).

The proxy's configuration is deploy/nginx/render.py's, written into a temporary prefix: no
file of the system's nginx is read or written.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType

import httpx

ROOT = Path(__file__).resolve().parents[1]
OTARI_COMMAND = Path(sys.executable).parent / "otari-sandbox"


def _load_render() -> ModuleType:
    spec = importlib.util.spec_from_file_location("deploy_render", ROOT / "deploy/nginx/render.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


render = _load_render()


def nginx_binary() -> str | None:
    """The nginx command, where installed (Debian puts it in /usr/sbin)."""
    return shutil.which("nginx") or shutil.which("nginx", path="/usr/sbin:/usr/local/sbin")


def missing_nginx() -> str | None:
    """Why the proxy cannot run here, or None."""
    if nginx_binary() is None:
        return "nginx is not installed (make setup installs nginx-light)"
    if not Path(render.DEBIAN_JS_MODULE).exists():
        return "nginx's njs module is not installed (make setup installs libnginx-mod-http-js)"
    return None


def free_port() -> int:
    """A loopback port nothing listens on now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_until(check: object, timeout: float, what: str) -> None:
    """Poll ``check()`` until it is true; RuntimeError with ``what`` after ``timeout``."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if check():  # type: ignore[operator]
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.05)
    raise RuntimeError(f"timed out waiting for {what}")


def _uid_base(index: int) -> int:
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
    return 800_000 + 100_000 * int(worker.removeprefix("gw") or 0) + 1_000 * index


class OtariInstance:
    """``otari-sandbox`` named ``name`` (SANDBOX_INSTANCE) on a loopback port."""

    def __init__(self, name: str, index: int, *, token: str | None, port: int | None = None,
                 env: dict[str, str] | None = None, pool_size: int = 1) -> None:
        self.name, self.index, self.token, self.pool_size = name, index, token, pool_size
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.env = env or {}
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = tempfile.TemporaryFile()
        self.start()

    def start(self) -> None:
        """Start it (again, on the same port) and wait until it answers /health."""
        env = {**os.environ, "SANDBOX_INSTANCE": self.name, **self.env}
        if self.token:
            env["SANDBOX_AUTH_TOKEN"] = self.token
        self.proc = subprocess.Popen(
            [str(OTARI_COMMAND), "--port", str(self.port), "--pool-size", str(self.pool_size),
             "--uid-base", str(_uid_base(self.index)), "--log-level", "warning"],
            env=env, stdout=self.log, stderr=subprocess.STDOUT,
        )
        wait_until(self._healthy, 30, f"{self.name} to start:\n{self.output()}")

    def _healthy(self) -> bool:
        assert self.proc is not None
        if self.proc.poll() is not None:
            raise RuntimeError(f"{self.name} exited:\n{self.output()}")
        return httpx.get(f"{self.url}/health", timeout=2).status_code == 200

    def output(self) -> str:
        """What it logged so far."""
        self.log.seek(0)
        return self.log.read().decode("utf-8", "replace")

    def stop(self, sig: int = signal.SIGTERM, timeout: float = 20) -> int:
        """Signal it and wait for it to end; its exit status."""
        assert self.proc is not None
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        return self.proc.returncode


class Nginx:
    """nginx over a temporary prefix holding render.py's configuration, in the foreground."""

    def __init__(self, otari: dict[str, str], tpmjs: list[str]) -> None:
        binary = nginx_binary()
        assert binary is not None
        self.prefix = Path(tempfile.mkdtemp(prefix="contractgen-nginx-"))
        self.prefix.chmod(0o755)  # workers (nobody, when started as root) read and write in it
        self.otari_port, self.tpmjs_port = free_port(), free_port()
        render.write(self.prefix, otari, tpmjs, otari_listen=f"127.0.0.1:{self.otari_port}",
                     tpmjs_listen=f"127.0.0.1:{self.tpmjs_port}")
        self.otari_url = f"http://127.0.0.1:{self.otari_port}"
        self.tpmjs_url = f"http://127.0.0.1:{self.tpmjs_port}"
        self.log = self.prefix / "error.log"
        self.proc = subprocess.Popen(
            [binary, "-p", f"{self.prefix}/", "-c", str(self.prefix / "nginx.conf"),
             "-e", str(self.log), "-g", "daemon off;"],
            stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT,
        )
        wait_until(self._listening, 10, "nginx to listen")

    def _listening(self) -> bool:
        if self.proc.poll() is not None:
            raise RuntimeError(f"nginx exited:\n{self.log.read_text() if self.log.exists() else ''}")
        with socket.socket() as sock:
            return sock.connect_ex(("127.0.0.1", self.otari_port)) == 0

    def stop(self) -> None:
        """Stop it and remove its prefix."""
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        shutil.rmtree(self.prefix, ignore_errors=True)
