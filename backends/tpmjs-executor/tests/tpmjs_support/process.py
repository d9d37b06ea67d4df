"""Running the real `tpmjs-executor` command in a child process (tests, benchmarks)."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx

__all__ = ["ExecutorProcess"]

_READY_LINE = "tpmjs-executor listening on "


class ExecutorProcess:
    """`python -m tpmjs_executor.app --port 0 ...`, started and healthy on return; `stop()` it.
    `python` runs another checkout's executor (the bench's before/after mode)."""

    def __init__(
        self,
        args: list[str],
        env: dict[str, str],
        log: Path,
        timeout_s: float = 30,
        python: str = sys.executable,
    ) -> None:
        self._log_path = log
        self._log = log.open("wb")
        command = [python, "-m", "tpmjs_executor.app", "--host", "127.0.0.1", "--port", "0"]
        self.proc = subprocess.Popen(
            [*command, *args], env=env, stdout=self._log, stderr=subprocess.STDOUT
        )
        self.url = ""
        deadline = time.monotonic() + timeout_s
        try:
            while not self.url:
                if time.monotonic() > deadline or self.proc.poll() is not None:
                    raise RuntimeError(f"tpmjs-executor did not start:\n{self.log_text()}")
                for line in self.log_text().splitlines():
                    if line.startswith(_READY_LINE):
                        self.url = line.rsplit(" ", 1)[1]
                time.sleep(0.05)
            while not self._healthy():
                if time.monotonic() > deadline:
                    raise RuntimeError(f"tpmjs-executor never became healthy:\n{self.log_text()}")
                time.sleep(0.05)
        except BaseException:
            self.stop()
            raise

    def _healthy(self) -> bool:
        try:
            return httpx.get(self.url + "/health", timeout=2).status_code == 200
        except httpx.HTTPError:
            return False

    def log_text(self) -> str:
        """Everything the process printed so far."""
        return self._log_path.read_text(errors="replace")

    def stop(self) -> None:
        """SIGTERM and wait (SIGKILL after 10 s)."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self._log.close()
