"""Running npm: always an argument vector (never a shell), never install scripts, never the
host's npm configuration (user and global npmrc are files of ours), never git (its path is one
that does not exist), a cache of its own inside each install (so it counts against the
install's limits and leaves with it). An install is bounded in time, in unpacked bytes and in
files (watched while it runs, and each file by RLIMIT_FSIZE), and npm is killed when the
executor dies, however it dies (PR_SET_PDEATHSIG).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import shutil
import signal
from pathlib import Path

from . import reaper
from .exceptions import InstallError

__all__ = ["InstallError", "Npm"]

# Variables a host may need for npm to reach its registry; nothing else of ours reaches npm.
_PASSTHROUGH = (
    "HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "http_proxy", "https_proxy", "no_proxy",
    "NODE_EXTRA_CA_CERTS", "SSL_CERT_FILE", "SSL_CERT_DIR",
)  # fmt: skip
_ERROR_CODE = re.compile(r"^npm (?:error|ERR!) code (\S+)", re.MULTILINE)
_ERROR_LINE = re.compile(r"^npm (?:error|ERR!) (?!code )(.+)$", re.MULTILINE)
_WATCH_INTERVAL_S = 0.25
_CACHE = ".npm-cache"  # inside the install folder; removed before the entry is kept
_NO_GIT = "/nonexistent/git-is-disabled"

def _over_limits(
    root: Path, max_bytes: int | None, max_files: int | None, max_download: int | None
) -> str | None:
    """Why the install under `root` is over its limits, or None. npm's cache (what it
    downloaded) is counted on its own: it is deleted before the entry is kept."""
    total = files = downloaded = 0
    for folder, _, names in os.walk(root):
        in_cache = Path(folder).is_relative_to(root / _CACHE)
        files += 0 if in_cache else len(names)
        for name in names:
            with contextlib.suppress(OSError):
                size = os.lstat(os.path.join(folder, name)).st_size
                if in_cache:
                    downloaded += size
                else:
                    total += size
        if max_files is not None and files > max_files:
            return f"unpacks more than {max_files} files"
        if max_bytes is not None and total > max_bytes:
            return f"unpacks more than {max_bytes} bytes"
        if max_download is not None and downloaded > max_download:
            return f"downloads more than {max_download} bytes"
    return None


class Npm:
    """An npm command line bound to one registry, cache and config directory."""

    def __init__(self, npm: str, registry: str, state_dir: Path, timeout_s: float) -> None:
        self._npm = npm
        self.registry = registry if registry.endswith("/") else registry + "/"
        self._state = state_dir
        self._timeout_s = timeout_s
        (state_dir / "home").mkdir(parents=True, exist_ok=True)
        for name in ("npmrc", "npmrc-global"):
            (state_dir / name).touch()

    def env(self) -> dict[str, str]:
        """The whole environment npm runs with."""
        env = {k: v for k in _PASSTHROUGH if (v := os.environ.get(k))}
        env.update(
            PATH=os.environ.get("PATH", "/usr/local/bin:/usr/bin:/bin"),
            HOME=str(self._state / "home"),
            npm_config_userconfig=str(self._state / "npmrc"),
            npm_config_globalconfig=str(self._state / "npmrc-global"),
            npm_config_registry=self.registry,
            npm_config_git=_NO_GIT,
            npm_config_update_notifier="false",
        )
        return env

    async def install(
        self,
        cwd: Path,
        specs: list[str],
        *,
        offline: bool = False,
        max_bytes: int | None = None,
        max_files: int | None = None,
        max_download: int | None = None,
    ) -> None:
        """`npm install specs...` into `cwd`; raise InstallError with a short reason."""
        what = " ".join(specs)
        # No single file (unpacked, or downloaded into the cache) may be larger than this.
        limits = [n for n in (max_bytes, max_download) if n is not None]
        max_file = max(limits) if limits else None
        timeout_ms = str(int(self._timeout_s * 1000))
        argv = [
            self._npm, "install",
            "--ignore-scripts", "--no-audit", "--no-fund", "--omit=dev",
            "--no-update-notifier", "--logs-max=0", "--loglevel=error",
            "--registry", self.registry, "--cache", str(cwd / _CACHE),
            "--fetch-retries=1", "--fetch-timeout", timeout_ms,
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
                preexec_fn=reaper.dying_with(os.getpid(), max_file),
            )
            reaper.track(proc.pid)
        done = asyncio.ensure_future(proc.communicate())
        try:
            async with asyncio.timeout(self._timeout_s):
                while not done.done():
                    await asyncio.wait({done}, timeout=_WATCH_INTERVAL_S)
                    if done.done():
                        continue
                    over = await asyncio.to_thread(
                        _over_limits, cwd, max_bytes, max_files, max_download
                    )
                    if over is not None:
                        raise InstallError(f"npm package {what} refused: it {over}")
            _, stderr = done.result()
        except TimeoutError:
            raise InstallError(f"installing {what} took longer than {self._timeout_s:g}s") from None
        finally:
            if not done.done():
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.pid, signal.SIGKILL)
                with contextlib.suppress(Exception):
                    await asyncio.shield(done)
            reaper.untrack(proc.pid)
            await asyncio.to_thread(shutil.rmtree, cwd / _CACHE, True)
        if proc.returncode != 0:
            text = stderr.decode(errors="replace")
            killed_by_fsize = proc.returncode == -signal.SIGXFSZ
            if max_file is not None and (killed_by_fsize or "EFBIG" in text or "SIGXFSZ" in text):
                # RLIMIT_FSIZE stopped a write: npm reports EFBIG, or dies of SIGXFSZ.
                raise InstallError(
                    f"npm package {what} refused: it unpacks a file of more than {max_file} bytes"
                )
            raise InstallError(summarize(text, specs, self.registry))


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
