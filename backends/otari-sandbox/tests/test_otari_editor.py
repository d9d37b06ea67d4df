"""The text editor's semantics, exercised on a host directory (it runs the same way inside
the sandbox, where the workspace is /workspace)."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest
from otari_sandbox.agent.editor import Editor


@pytest.fixture
def editor(tmp_path: Path) -> Editor:
    return Editor(str(tmp_path))


def run(editor: Editor, **params: object) -> tuple[str, str, int]:
    return editor.execute(params)


def test_view_returns_text_and_ranges(editor: Editor, tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("one\ntwo\nthree\n")
    assert run(editor, command="view", path="a.txt") == ("one\ntwo\nthree\n", "", 0)
    assert run(editor, command="view", path="a.txt", view_range=[2, 3])[0] == "two\nthree"
    assert run(editor, command="view", path="a.txt", view_range=[2, -1])[0] == "two\nthree"
    assert run(editor, command="view", path="/workspace/a.txt", view_range=[1, 1])[0] == "one"
    _out, err, rc = run(editor, command="view", path="a.txt", view_range=[3, 1])
    assert rc == 1 and err.startswith("text_editor: invalid view_range") and err.count("\n") == 1


def test_view_directory_lists_two_levels(editor: Editor, tmp_path: Path) -> None:
    (tmp_path / "d" / "e" / "f").mkdir(parents=True)
    (tmp_path / "d" / "e" / "f" / "deep.txt").write_text("x")
    (tmp_path / "d.txt").write_text("x")
    out, _err, rc = run(editor, command="view", path=".")
    assert (out, rc) == ("d\nd/e\nd.txt\n", 0)
    assert run(editor, command="view", path=".", view_range=[1, 2])[2] == 1


def test_create_overwrites_and_undo_restores(editor: Editor, tmp_path: Path) -> None:
    assert run(editor, command="create", path="sub/new.py", file_text="v1\n") == (
        "File created: sub/new.py\n", "", 0)
    assert run(editor, command="create", path="sub/new.py", file_text="v2\n")[2] == 0
    assert (tmp_path / "sub/new.py").read_text() == "v2\n"
    assert run(editor, command="undo_edit", path="sub/new.py")[0] == "Reverted sub/new.py\n"
    assert (tmp_path / "sub/new.py").read_text() == "v1\n"
    run(editor, command="undo_edit", path="sub/new.py")
    assert not (tmp_path / "sub/new.py").exists()
    _out, err, rc = run(editor, command="undo_edit", path="sub/new.py")
    assert rc == 1 and err == "text_editor: no edits to undo for sub/new.py\n"


def test_str_replace_needs_exactly_one_match(editor: Editor, tmp_path: Path) -> None:
    (tmp_path / "f.txt").write_text("a b a\n")
    assert run(editor, command="str_replace", path="f.txt", old_str="zzz", new_str="q") == (
        "", "text_editor: old_str not found in f.txt\n", 1)
    assert run(editor, command="str_replace", path="f.txt", old_str="a", new_str="q")[1] == (
        "text_editor: old_str matched 2 times in f.txt; must be unique\n")
    assert run(editor, command="str_replace", path="f.txt", old_str="b", new_str="B")[0] == "Edited f.txt\n"
    assert (tmp_path / "f.txt").read_text() == "a B a\n"
    run(editor, command="undo_edit", path="f.txt")
    assert (tmp_path / "f.txt").read_text() == "a b a\n"


def test_insert_lines_including_after_an_unterminated_last_line(editor: Editor, tmp_path: Path) -> None:
    (tmp_path / "f.txt").write_text("a\nb")
    assert run(editor, command="insert", path="f.txt", insert_line=2, new_str="c")[2] == 0
    assert (tmp_path / "f.txt").read_text() == "a\nb\nc\n"
    run(editor, command="insert", path="f.txt", insert_line=0, new_str="top\n")
    assert (tmp_path / "f.txt").read_text() == "top\na\nb\nc\n"
    _out, err, rc = run(editor, command="insert", path="f.txt", insert_line=9, new_str="x")
    assert rc == 1 and "insert_line 9 out of range for f.txt" in err


@pytest.mark.parametrize("command", ["create", "str_replace", "insert", "view"])
def test_directories_are_payload_errors(editor: Editor, tmp_path: Path, command: str) -> None:
    (tmp_path / "d").mkdir()
    params = {"file_text": "x", "old_str": "x", "new_str": "y", "insert_line": 0}
    _out, err, rc = run(editor, command=command, path="d", view_range=[1, 2], **params)
    assert rc == 1 and err.startswith("text_editor: ") and err.count("\n") == 1


def test_paths_cannot_escape(editor: Editor, tmp_path: Path) -> None:
    outside = tmp_path.parent / f"{tmp_path.name}-outside.txt"
    outside.write_text("secret")
    (tmp_path / "link").symlink_to(outside)
    (tmp_path / "dirlink").symlink_to(tmp_path.parent)
    for path in ("../x", "link", f"dirlink/{outside.name}", "/etc/passwd", str(outside)):
        for command in ("view", "create"):
            _out, err, rc = run(editor, command=command, path=path, file_text="pwned")
            assert rc == 1 and "path escapes workspace" in err, (path, command, err)
    assert outside.read_text() == "secret"


def test_fifo_is_refused_without_hanging(editor: Editor, tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe")
    result: list[tuple[str, str, int]] = []
    worker = threading.Thread(target=lambda: result.append(run(editor, command="view", path="pipe")))
    worker.start()
    worker.join(5)
    assert result and result[0][2] == 1 and "not a regular file" in result[0][1]


def test_errors_are_single_lines(editor: Editor) -> None:
    _out, err, rc = run(editor, command="view", path="missing\nfile")
    assert rc == 1 and err.count("\n") == 1 and "\\n" in err
