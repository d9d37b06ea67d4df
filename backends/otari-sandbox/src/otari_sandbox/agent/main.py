"""The agent's entry point: set limits, then answer requests until the service hangs up."""

import argparse
import os
import socket
import sys
from typing import Any

from . import channel, snapshot
from . import limits as _limits
from .editor import Editor
from .pyexec import Interpreter, Outcome
from .shell import run_bash


class Agent:
    """Dispatches requests to the interpreter, the shell and the editor."""

    def __init__(self, workspace: str, limits: _limits.Limits, kill_mode: str, output_cap: int) -> None:
        self.workspace = workspace
        self.limits = limits
        self.kill_mode = kill_mode
        self.output_cap = output_cap
        self.interpreter = Interpreter(limits)
        self.editor = Editor(workspace)
        self.devnull = os.open(os.devnull, os.O_RDWR | os.O_CLOEXEC)

    def warm_up(self) -> None:
        """One throwaway call down the whole path, so the first real one finds it warm."""
        fds = [os.dup(self.devnull), os.dup(self.devnull)]
        try:
            self.handle({"op": "python", "code": "pass", "timeout": 5}, fds)
        finally:
            for fd in fds:
                os.close(fd)
        self.interpreter.cells = 0

    def handle(self, message: dict[str, Any], fds: list[int]) -> dict[str, Any]:
        """Answer one request."""
        op = message.get("op")
        if op == "ping":
            return {"ok": True}
        if op == "editor":
            out, err, code = self.editor.execute(message.get("input") or {})
            data = out.encode("utf-8", "replace")
            return {
                "rc": code,
                "stdout": data[: self.output_cap].decode("utf-8", "replace"),
                "stdout_dropped": max(0, len(data) - self.output_cap),
                "stderr": err,
            }
        if op in ("python", "bash") and len(fds) == 2:
            return self._run(op, message, fds)
        return {"error": f"bad request {op!r}"}

    def _run(self, op: str, message: dict[str, Any], fds: list[int]) -> dict[str, Any]:
        timeout = float(message.get("timeout") or 30)
        before = snapshot.take(self.workspace)
        os.dup2(fds[0], 1)
        os.dup2(fds[1], 2)
        try:
            if op == "python":
                outcome = self.interpreter.run(str(message.get("code", "")), timeout)
            else:
                outcome = run_bash(
                    str(message.get("command", "")),
                    cwd=self.workspace,
                    timeout=timeout,
                    limits=self.limits,
                    kill_mode=self.kill_mode,
                )
        except BaseException as exc:  # the agent must answer whatever user code did
            outcome = Outcome(-1, notes=[f"sandbox agent error: {type(exc).__name__}"])
        finally:
            # Processes do not outlive the call that started them; once they are gone and
            # fds 1/2 point elsewhere, the service sees end-of-file on both pipes.
            _limits.kill_others(self.kill_mode)
            os.dup2(self.devnull, 1)
            os.dup2(self.devnull, 2)
        return {
            "rc": outcome.return_code,
            "timed_out": outcome.timed_out,
            "notes": outcome.notes,
            "files": snapshot.changed(before, snapshot.take(self.workspace)),
        }


def _parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="otari-agent")
    parser.add_argument("--fd", type=int, required=True)
    parser.add_argument("--workspace", required=True)
    parser.add_argument("--kill", choices=["namespace", "uid", "descendants"], default="namespace")
    parser.add_argument("--memory-mb", type=int, default=0)
    parser.add_argument("--nproc", type=int, default=0)
    parser.add_argument("--fsize-mb", type=int, default=0)
    parser.add_argument("--open-files", type=int, default=0)
    parser.add_argument("--cpu-seconds", type=int, default=0)
    parser.add_argument("--output-cap", type=int, default=1 << 20)
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    """Serve the control socket on ``--fd``."""
    args = _parse(sys.argv[1:] if argv is None else argv)
    os.set_inheritable(args.fd, False)
    os.closerange(3, args.fd)
    os.closerange(args.fd + 1, 65536)
    sock = socket.socket(fileno=args.fd)
    limits = _limits.Limits(
        memory_mb=args.memory_mb,
        nproc=args.nproc,
        fsize_mb=args.fsize_mb,
        open_files=args.open_files,
        cpu_seconds=args.cpu_seconds,
    )
    _limits.apply(limits)
    os.chdir(args.workspace)
    # Like `python -c`: modules the user writes to the workspace are importable.
    home = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    sys.path[:] = [args.workspace, *(p for p in sys.path if p != home)]
    sys.argv = [""]
    if hasattr(sys.stdout, "reconfigure"):
        sys.stdout.reconfigure(line_buffering=True)
    agent = Agent(args.workspace, limits, args.kill, args.output_cap)
    # Until now a failure went to the service's start-up diagnostics; from here on fds 1
    # and 2 belong to calls.
    os.dup2(agent.devnull, 1)
    os.dup2(agent.devnull, 2)
    agent.warm_up()
    channel.send(sock, {"ready": True})
    while True:
        received = channel.receive(sock)
        if received is None:
            return 0
        message, fds = received
        try:
            reply = agent.handle(message, fds)
        except Exception as exc:
            reply = {"error": f"{type(exc).__name__}: {exc}"}
        finally:
            for fd in fds:
                os.close(fd)
        reply["id"] = message.get("id")
        channel.send(sock, reply)
