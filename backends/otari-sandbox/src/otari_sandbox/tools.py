"""The three tool kinds: validating a call, and shaping what the agent returned into the
result the contract describes (stdout, stderr, return_code, produced files)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .calls import CallResult
from .config import Settings
from .exceptions import InvalidRequest, UnknownTool

BLOCK_TYPES = {
    "code_execution": "code_execution_tool_result",
    "bash_code_execution": "bash_code_execution_tool_result",
    "text_editor_code_execution": "text_editor_code_execution_tool_result",
}
EDITOR_COMMANDS = ("view", "create", "str_replace", "insert", "undo_edit")
TRUNCATION_MARKER = "\n... [output truncated by sandbox: {dropped} bytes elided]"

_FAILURES = {
    "died": "the interpreter exited unexpectedly and was restarted; its state was lost",
    "destroyed": "the session was destroyed during the call",
    "reaped": "the session expired during the call",
    "stopped": "the session was shut down during the call",
}


@dataclass(frozen=True)
class Call:
    """A validated call, ready for the agent."""

    tool: str
    request: dict[str, Any]
    capture: bool
    timeout: int


@dataclass(frozen=True)
class ExecOutcome:
    """One tool result, as the contract's result block carries it."""

    block_type: str
    stdout: str
    stderr: str
    return_code: int
    files: list[str]
    execution_time_ms: int = 0


def prepare(tool: str, payload: Mapping[str, Any], timeout: int | None, config: Settings) -> Call:
    """Check a call against its tool kind and command; InvalidRequest (422) if malformed."""
    if tool not in BLOCK_TYPES:
        raise UnknownTool(f"unknown tool: {tool}")
    if timeout is None:
        timeout = config.default_timeout_seconds
    if isinstance(timeout, bool) or not isinstance(timeout, int) or not 1 <= timeout <= config.max_timeout_seconds:
        raise InvalidRequest(f"timeout_seconds must be between 1 and {config.max_timeout_seconds}")
    if tool == "code_execution":
        code = _text(payload, "code", allow_empty=False)
        return Call(tool, {"op": "python", "code": code, "timeout": timeout}, True, timeout)
    if tool == "bash_code_execution":
        command = _text(payload, "command", allow_empty=False)
        return Call(tool, {"op": "bash", "command": command, "timeout": timeout}, True, timeout)
    return Call(tool, {"op": "editor", "input": _editor_input(payload)}, False, timeout)


def _editor_input(payload: Mapping[str, Any]) -> dict[str, Any]:
    command = payload.get("command")
    if command not in EDITOR_COMMANDS:
        raise InvalidRequest(f"input.command must be one of {', '.join(EDITOR_COMMANDS)}")
    checked: dict[str, Any] = {"command": command, "path": _text(payload, "path", allow_empty=False)}
    required = {
        "create": ("file_text",),
        "str_replace": ("old_str", "new_str"),
        "insert": ("new_str",),
    }.get(str(command), ())
    for name in required:
        checked[name] = _text(payload, name, allow_empty=True)
    if command == "insert":
        line = payload.get("insert_line")
        if isinstance(line, bool) or not isinstance(line, int):
            raise InvalidRequest("input.insert_line (an integer) is required for insert")
        checked["insert_line"] = line
    if command == "view" and payload.get("view_range") is not None:
        view_range = payload["view_range"]
        if (
            not isinstance(view_range, list)
            or len(view_range) != 2
            or not all(isinstance(n, int) and not isinstance(n, bool) for n in view_range)
        ):
            raise InvalidRequest("input.view_range must be two integers [start, end]")
        checked["view_range"] = view_range
    return checked


def _text(payload: Mapping[str, Any], name: str, *, allow_empty: bool) -> str:
    value = payload.get(name)
    if not isinstance(value, str) or (not allow_empty and not value):
        raise InvalidRequest(f"input.{name} (a string) is required")
    return value


def shape(call: Call, result: CallResult) -> ExecOutcome:
    """Decode, cap, annotate: the agent's raw result as the client sees it."""
    stdout = result.stdout.decode("utf-8", "replace")
    stderr = result.stderr.decode("utf-8", "replace")
    if call.tool == "code_execution":
        # The reference strips one trailing newline from each Python stream.
        stdout = stdout.removesuffix("\n")
        stderr = stderr.removesuffix("\n")
    if result.stdout_dropped:
        stdout += TRUNCATION_MARKER.format(dropped=result.stdout_dropped)
    if result.stderr_dropped:
        stderr += TRUNCATION_MARKER.format(dropped=result.stderr_dropped)
    notes = _notes(call, result)
    if notes:
        if stderr and not stderr.endswith("\n"):
            stderr += "\n"
        stderr += "".join(f"{note}\n" for note in notes)
    files = result.files if call.tool != "text_editor_code_execution" else []
    return ExecOutcome(BLOCK_TYPES[call.tool], stdout, stderr, result.return_code, files)


def _notes(call: Call, result: CallResult) -> list[str]:
    prefix = {"code_execution": "runner", "bash_code_execution": "bash"}.get(call.tool, "text_editor")
    what = "command" if call.tool == "bash_code_execution" else "execution"
    notes = [f"sandbox: {note}" for note in result.notes]
    if result.timed_out:
        kept = " (interpreter state kept)" if call.tool == "code_execution" else ""
        notes.append(f"{prefix}: {what} timed out after {call.timeout}s{kept}")
    if result.failure == "unresponsive":
        notes.append(
            f"{prefix}: {what} timed out after {call.timeout}s; the interpreter did not stop"
            " and was restarted, its state was lost"
        )
    elif result.failure is not None:
        notes.append(f"sandbox: {_FAILURES.get(result.failure, _FAILURES['died'])}")
    return notes
