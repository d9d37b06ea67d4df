"""Anthropic's text-editor commands (view, create, str_replace, insert, undo_edit).

Messages match the reference backend; its bugs are fixed: ``create`` may overwrite (and is
undoable), ``insert`` at the end of a file without a final newline keeps the lines apart,
directories and special files are refused as targets, and every failure is one line.
"""

import os
import stat
from typing import Any

WORKSPACE_ALIAS = "/workspace"
MAX_FILE_BYTES = 64 * 1024 * 1024
MAX_LISTED = 2_000
MAX_UNDO = 20


class EditorError(Exception):
    """A payload error: reported as return_code 1 with this message on stderr."""


class Editor:
    """Edits files under one workspace and keeps a per-file undo history."""

    def __init__(self, workspace: str) -> None:
        self.workspace = os.path.realpath(workspace)
        self._history: dict[str, list[bytes | None]] = {}

    def execute(self, params: dict[str, Any]) -> tuple[str, str, int]:
        """Run one command; returns (stdout, stderr, return_code)."""
        command = params.get("command")
        path = params.get("path")
        handlers = {
            "view": self._view,
            "create": self._create,
            "str_replace": self._str_replace,
            "insert": self._insert,
            "undo_edit": self._undo,
        }
        try:
            if not isinstance(path, str) or not path:
                raise EditorError("path is required")
            handler = handlers.get(command) if isinstance(command, str) else None
            if handler is None:
                raise EditorError(f"unknown command {command}")
            return handler(path, params), "", 0
        except EditorError as exc:
            return "", f"text_editor: {_one_line(str(exc))}\n", 1
        except OSError as exc:
            reason = exc.strerror or type(exc).__name__
            return "", f"text_editor: {_one_line(f'{reason}: {path}')}\n", 1

    # -- resolution -------------------------------------------------------------------

    def _resolve(self, path: str) -> str:
        if "\0" in path:
            raise EditorError(f"invalid path: {path!r}")
        if path == WORKSPACE_ALIAS or path.startswith(WORKSPACE_ALIAS + "/"):
            path = path[len(WORKSPACE_ALIAS) :].lstrip("/") or "."
        candidate = path if os.path.isabs(path) else os.path.join(self.workspace, path)
        real = os.path.realpath(candidate)
        if real != self.workspace and not real.startswith(self.workspace + os.sep):
            raise EditorError(f"path escapes workspace: {path}")
        return real

    def _existing_file(self, path: str) -> str:
        target = self._resolve(path)
        try:
            info = os.stat(target)
        except FileNotFoundError:
            raise EditorError(f"file not found: {path}") from None
        if stat.S_ISDIR(info.st_mode):
            raise EditorError(f"path is a directory: {path}")
        if not stat.S_ISREG(info.st_mode):
            raise EditorError(f"not a regular file: {path}")
        if info.st_size > MAX_FILE_BYTES:
            raise EditorError(f"file too large: {path} ({info.st_size} bytes)")
        return target

    # -- commands ---------------------------------------------------------------------

    def _view(self, path: str, params: dict[str, Any]) -> str:
        view_range = params.get("view_range")
        target = self._resolve(path)
        if os.path.isdir(target):
            if view_range is not None:
                raise EditorError("view_range is not allowed when path is a directory")
            return "\n".join(_list_two_levels(target)) + "\n"
        text = _read(self._existing_file(path)).decode("utf-8", "replace")
        if view_range is None:
            return text
        lines = text.splitlines()
        start, end = _check_range(view_range, len(lines))
        return "\n".join(lines[start - 1 : end])

    def _create(self, path: str, params: dict[str, Any]) -> str:
        file_text = params.get("file_text")
        if not isinstance(file_text, str):
            raise EditorError("create requires file_text")
        target = self._resolve(path)
        if os.path.isdir(target):
            raise EditorError(f"path is a directory: {path}")
        previous: bytes | None = None
        if os.path.lexists(target):
            previous = _read(self._existing_file(path))
        os.makedirs(os.path.dirname(target), exist_ok=True)
        _write(target, file_text.encode("utf-8"))
        self._remember(target, previous)
        return f"File created: {path}\n"

    def _str_replace(self, path: str, params: dict[str, Any]) -> str:
        old, new = params.get("old_str"), params.get("new_str")
        if not isinstance(old, str) or not isinstance(new, str):
            raise EditorError("str_replace requires old_str and new_str")
        if not old:
            raise EditorError("old_str must not be empty")
        target = self._existing_file(path)
        raw = _read(target)
        text = _decode(raw, path)
        occurrences = text.count(old)
        if occurrences == 0:
            raise EditorError(f"old_str not found in {path}")
        if occurrences > 1:
            raise EditorError(f"old_str matched {occurrences} times in {path}; must be unique")
        _write(target, text.replace(old, new).encode("utf-8"))
        self._remember(target, raw)
        return f"Edited {path}\n"

    def _insert(self, path: str, params: dict[str, Any]) -> str:
        line, new = params.get("insert_line"), params.get("new_str")
        if not isinstance(line, int) or isinstance(line, bool) or not isinstance(new, str):
            raise EditorError("insert requires new_str and insert_line")
        target = self._existing_file(path)
        raw = _read(target)
        lines = _decode(raw, path).splitlines(keepends=True)
        if line < 0 or line > len(lines):
            raise EditorError(f"insert_line {line} out of range for {path} (0..{len(lines)})")
        if line == len(lines) and lines and not lines[-1].endswith(("\n", "\r")):
            lines[-1] += "\n"
        lines.insert(line, new if new.endswith("\n") else new + "\n")
        _write(target, "".join(lines).encode("utf-8"))
        self._remember(target, raw)
        return f"Inserted into {path}\n"

    def _undo(self, path: str, _params: dict[str, Any]) -> str:
        target = self._resolve(path)
        history = self._history.get(target)
        if not history:
            raise EditorError(f"no edits to undo for {path}")
        if os.path.isdir(target):
            raise EditorError(f"path is a directory: {path}")
        previous = history.pop()
        if previous is None:
            if os.path.lexists(target):
                os.unlink(target)
        else:
            _write(target, previous)
        return f"Reverted {path}\n"

    def _remember(self, target: str, previous: bytes | None) -> None:
        history = self._history.setdefault(target, [])
        history.append(previous)
        del history[:-MAX_UNDO]


def _check_range(view_range: object, line_count: int) -> tuple[int, int]:
    if (
        not isinstance(view_range, list)
        or len(view_range) != 2
        or not all(isinstance(n, int) and not isinstance(n, bool) for n in view_range)
    ):
        raise EditorError("view_range must be two integers [start, end]")
    start, end = view_range
    if end == -1:
        end = line_count
    if start < 1 or start > max(line_count, 1):
        raise EditorError(f"invalid view_range {view_range}: start must be within 1..{max(line_count, 1)}")
    if end < start:
        raise EditorError(f"invalid view_range {view_range}: end must be -1 or at least start")
    return start, min(end, line_count)


def _list_two_levels(directory: str) -> list[str]:
    entries: list[str] = []
    for first in sorted(os.scandir(directory), key=lambda e: e.name):
        entries.append(first.name)
        if first.is_dir(follow_symlinks=False):
            try:
                children = sorted(os.scandir(first.path), key=lambda e: e.name)
            except OSError:
                children = []
            entries.extend(f"{first.name}/{child.name}" for child in children)
        if len(entries) > MAX_LISTED:
            return [*entries[:MAX_LISTED], f"... (listing truncated at {MAX_LISTED} entries)"]
    return entries


def _read(target: str) -> bytes:
    # O_NONBLOCK: a FIFO swapped in must not hang the agent.
    fd = os.open(target, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise EditorError("not a regular file")
        with os.fdopen(fd, "rb", closefd=False) as handle:
            return handle.read(MAX_FILE_BYTES + 1)[:MAX_FILE_BYTES]
    finally:
        os.close(fd)


def _write(target: str, data: bytes) -> None:
    fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)
    with os.fdopen(fd, "wb") as handle:
        handle.write(data)


def _decode(raw: bytes, path: str) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise EditorError(f"file is not valid UTF-8 text: {path}") from None


def _one_line(message: str) -> str:
    return message.replace("\r", "\\r").replace("\n", "\\n")
