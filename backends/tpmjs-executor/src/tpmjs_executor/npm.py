"""Running npm: always an argument vector (never a shell), never install scripts, never the
host's npm configuration (user and global npmrc are files of ours, the cache is ours)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
from pathlib import Path

from . import reaper

__all__ = ["InstallError", "Npm"]

# Variables a host may need for npm to reach its registry; nothing else of ours reaches npm.
_PASSTHROUGH = (
    "HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "http_proxy", "https_proxy", "no_proxy",
    "NODE_EXTRA_CA_CERTS", "SSL_CERT_FILE", "SSL_CERT_DIR",
)  # fmt: skip
_ERROR_CODE = re.compile(r"^npm (?:error|ERR!) code (\S+)", re.MULTILINE)
_ERROR_LINE = re.compile(r"^npm (?:error|ERR!) (?!code )(.+)$", re.MULTILINE)


class InstallError(Exception):
    """npm could not install; the message is short and meant for the caller."""


class Npm:
    """An npm command line bound to one registry, cache and config directory."""

    def __init__(self, npm: str, registry: str, state_dir: Path, timeout_s: float) -> None:
        self._npm = npm
        self.registry = registry if registry.endswith("/") else registry + "/"
        self._state = state_dir
        self._timeout_s = timeout_s
        for name in ("home", "npm-cache"):
            (state_dir / name).mkdir(parents=True, exist_ok=True)
        for name in ("npmrc", "npmrc-global"):
            (state_dir / name).touch()

    @property
    def cache_dir(self) -> Path:
        """npm's cache (tarballs and metadata) for this executor."""
        return self._state / "npm-cache"

    def env(self) -> dict[str, str]:
        """The whole environment npm runs with."""
        env = {k: v for k in _PASSTHROUGH if (v := os.environ.get(k))}
        env.update(
            PATH=os.environ.get("PATH", "/usr/local/bin:/usr/bin:/bin"),
            HOME=str(self._state / "home"),
            npm_config_userconfig=str(self._state / "npmrc"),
            npm_config_globalconfig=str(self._state / "npmrc-global"),
            npm_config_cache=str(self.cache_dir),
            npm_config_registry=self.registry,
            npm_config_update_notifier="false",
        )
        return env

    async def install(self, cwd: Path, specs: list[str], *, offline: bool = False) -> None:
        """`npm install specs...` into `cwd`; raise InstallError with a short reason."""
        argv = [
            self._npm, "install",
            "--ignore-scripts", "--no-audit", "--no-fund", "--omit=dev",
            "--no-update-notifier", "--logs-max=0", "--loglevel=error",
            "--registry", self.registry, "--fetch-retries=1",
            "--fetch-retry-mintimeout=500", "--fetch-retry-maxtimeout=2000",
        ]  # fmt: skip
        if offline:
            argv.append("--offline")
        argv += ["--", *specs]
        with reaper.spawning():
            proc = await asyncio.create_subprocess_exec(
                *argv,
                cwd=cwd,
                env=self.env(),
                stdin=asyncio.subprocess.DEVNULL,
                stdout=asyncio.subprocess.DEVNULL,
                stderr=asyncio.subprocess.PIPE,
                start_new_session=True,
            )
            reaper.track(proc.pid)
        try:
            _, stderr = await asyncio.wait_for(proc.communicate(), self._timeout_s)
        except TimeoutError:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            await proc.wait()
            raise InstallError(
                f"installing {' '.join(specs)} took longer than {self._timeout_s:g}s"
            ) from None
        except BaseException:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            await proc.wait()
            raise
        finally:
            reaper.untrack(proc.pid)
        if proc.returncode != 0:
            raise InstallError(summarize(stderr.decode(errors="replace"), specs, self.registry))


def summarize(stderr: str, specs: list[str], registry: str) -> str:
    """One line from npm's error output, instead of its whole log."""
    what = " ".join(specs)
    code_match = _ERROR_CODE.search(stderr)
    code = code_match[1] if code_match else None
    if code == "E404":
        return f"npm package {what} could not be installed: not found in the registry"
    if code == "ETARGET":
        return f"npm package {what} could not be installed: no such version"
    if code in ("ECONNREFUSED", "ENOTFOUND", "ETIMEDOUT", "ECONNRESET", "EAI_AGAIN"):
        return (
            f"npm package {what} could not be installed: registry {registry} unreachable ({code})"
        )
    lines = [m.strip() for m in _ERROR_LINE.findall(stderr) if m.strip()]
    detail = lines[0][:300] if lines else "npm failed"
    return f"npm package {what} could not be installed ({code or 'error'}): {detail}"
