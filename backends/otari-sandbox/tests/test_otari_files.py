"""Host-side workspace file operations: confinement against ``..`` and symlinks left by user
code (with openat2 and with the O_NOFOLLOW fallback), streaming caps, atomic writes."""

from __future__ import annotations

import io
import os
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from otari_sandbox import files
from otari_sandbox.exceptions import FileMissing, NotAFile, PathOutside, TooLarge
from otari_sandbox.files import Workspace


@pytest.fixture(params=["openat2", "walk"])
def workspace(request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Workspace]:
    if request.param == "walk":
        monkeypatch.setattr(files._Openat2, "works", False)
    root = tmp_path / "ws"
    root.mkdir()
    (tmp_path / "secret.txt").write_text("secret")
    yield Workspace(root)


def test_list_is_recursive_and_marks_kinds(workspace: Workspace) -> None:
    root = workspace.root
    (root / "a" / "b").mkdir(parents=True)
    (root / "a" / "b" / "c.csv").write_text("1,2\n")
    (root / "top.png").write_bytes(b"\x89PNG")
    (root / "a" / "link").symlink_to("b/c.csv")
    listed = {f.path: f for f in workspace.list(".")}
    assert sorted(listed) == ["a", "a/b", "a/b/c.csv", "a/link", "top.png"]
    assert listed["a"].kind == "directory" and listed["a/b/c.csv"].size_bytes == 4
    assert listed["a/b/c.csv"].mime_type == "text/csv" and listed["a/link"].kind == "symlink"
    assert [f.path for f in workspace.list("a/b")] == ["a/b/c.csv"]
    assert [f.path for f in workspace.list("/workspace/top.png")] == ["top.png"]
    with pytest.raises(FileMissing):
        workspace.list("nope")


@pytest.mark.parametrize("path", ["../secret.txt", "/etc/passwd", "a/../../secret.txt", "out", "outdir/secret.txt"])
def test_escapes_are_refused(workspace: Workspace, path: str) -> None:
    root = workspace.root
    (root / "a").mkdir()
    (root / "out").symlink_to(root.parent / "secret.txt")
    (root / "outdir").symlink_to(root.parent)
    with pytest.raises(PathOutside):
        workspace.open_read(path)
    with pytest.raises(PathOutside):
        workspace.list(path)
    if path == "out":
        # The final component is replaced, never followed.
        workspace.write(path, io.BytesIO(b"pwned"), 100)
        assert not (root / "out").is_symlink()
    else:
        with pytest.raises(PathOutside):
            workspace.write(path, io.BytesIO(b"pwned"), 100)
    assert (root.parent / "secret.txt").read_text() == "secret"


def test_read_streams_a_file_and_refuses_directories_and_fifos(workspace: Workspace) -> None:
    root = workspace.root
    (root / "d").mkdir()
    (root / "f.txt").write_bytes(b"x" * 3_000_000)
    os.mkfifo(root / "pipe")
    fd, size, mime = workspace.open_read("f.txt")
    assert (size, mime) == (3_000_000, "text/plain")
    assert b"".join(files.iter_chunks(fd)) == b"x" * 3_000_000
    with pytest.raises(NotAFile):
        workspace.open_read("d")
    outcome: list[BaseException] = []

    def read_fifo() -> None:
        try:
            workspace.open_read("pipe")
        except NotAFile as exc:
            outcome.append(exc)

    worker = threading.Thread(target=read_fifo)
    worker.start()
    worker.join(5)
    assert outcome, "opening a FIFO must not block"


def test_write_creates_parents_atomically_and_enforces_the_cap(workspace: Workspace) -> None:
    root = workspace.root
    assert workspace.write("in/data/x.bin", io.BytesIO(b"abc"), 10) == ("in/data/x.bin", 3)
    assert (root / "in/data/x.bin").read_bytes() == b"abc"
    with pytest.raises(TooLarge):
        workspace.write("in/data/x.bin", io.BytesIO(b"y" * 11), 10)
    assert (root / "in/data/x.bin").read_bytes() == b"abc"
    assert sorted(os.listdir(root / "in/data")) == ["x.bin"]
    (root / "dir").mkdir()
    with pytest.raises(NotAFile):
        workspace.write("dir", io.BytesIO(b"x"), 10)
    with pytest.raises(NotAFile):
        workspace.write("in/data/x.bin/child", io.BytesIO(b"x"), 10)


def test_write_replaces_a_symlink_instead_of_following_it(workspace: Workspace) -> None:
    root = workspace.root
    (root / "inner.txt").write_text("inner")
    (root / "ln").symlink_to("inner.txt")
    workspace.write("ln", io.BytesIO(b"new"), 10)
    assert not (root / "ln").is_symlink()
    assert (root / "inner.txt").read_text() == "inner"
