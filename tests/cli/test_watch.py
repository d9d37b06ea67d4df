"""`contractgen watch`: each save of the contract (or of a file it `$ref`s, or of the
configuration) regenerates the package; a contract with errors or a hand-edited package is
reported and waited on, never written over, and never ends the watch. Driven as a user drives
it: the real CLI in a child process, files saved on disk, Ctrl-C and SIGTERM."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from gen_support import cli
from gen_support import pets as one_get_per_pet

TIMEOUT = 90  # seconds for one regeneration to show up, on a loaded machine


def pets(**properties: Any) -> dict[str, Any]:
    """gen_support's small contract, its Pet with these properties besides `name`."""
    document = one_get_per_pet("getPet")
    document["components"]["schemas"]["Pet"]["properties"].update(properties)
    return document


def save(path: Path, document: dict[str, Any] | str) -> None:
    """Save as an editor does: a new file renamed over the old one."""
    text = document if isinstance(document, str) else yaml.safe_dump(document, sort_keys=False)
    partial = path.with_name(path.name + ".saving")
    partial.write_text(text, "utf-8")
    partial.replace(path)


class Watcher:
    """`contractgen watch ARGS` in a child process, its output lines collected as they come."""

    def __init__(self, *args: str | Path, cwd: Path, command: list[str] | None = None,
                 sigint: Any = signal.SIG_DFL) -> None:
        # Its own process group, as a terminal's job: Ctrl-C signals the whole group. `sigint`:
        # how it starts out treating SIGINT (a shell's background job ignores it).
        self.process = subprocess.Popen(
            command or [sys.executable, "-m", "contractgen.cli", "watch", "--interval", "0.05",
                        *map(str, args)],
            cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1"}, start_new_session=True,
            preexec_fn=lambda: signal.signal(signal.SIGINT, sigint))  # noqa: PLW1509
        self.out: list[str] = []
        self.err: list[str] = []
        self.changed = threading.Condition()
        for stream, lines in ((self.process.stdout, self.out), (self.process.stderr, self.err)):
            threading.Thread(target=self._collect, args=(stream, lines), daemon=True).start()

    def _collect(self, stream: Any, lines: list[str]) -> None:
        for line in stream:
            with self.changed:
                lines.append(line.rstrip("\n"))
                self.changed.notify_all()

    def runs(self) -> list[str]:
        """The stdout lines that report a run (not the "watching" ones, nor make's echo)."""
        return [line for line in self.out
                if re.match(r"\d\d:\d\d:\d\d ", line) and " watching " not in line]

    def wait(self, done: Callable[[], bool], what: str) -> None:
        deadline = time.monotonic() + TIMEOUT
        with self.changed:
            while not done():
                if self.process.poll() is not None or time.monotonic() > deadline:
                    pytest.fail(f"no {what}; out: {self.out}; err: {self.err}")
                self.changed.wait(0.5)

    def wait_run(self, count: int) -> str:
        """The `count`-th run's line, once the watch is waiting again after it."""
        self.wait(lambda: len(self.runs()) >= count and "watching" in self.out[-1],
                  f"run {count}")
        return self.runs()[count - 1]

    def wait_err(self, done: Callable[[list[str]], bool], what: str) -> list[str]:
        """stderr once `done` holds for it: stdout and stderr are two pipes read by two
        threads, so a run's error lines may arrive after the run's line on stdout."""
        self.wait(lambda: done(self.err), what)
        return list(self.err)

    def stop(self, how: int = signal.SIGINT) -> int:
        os.killpg(self.process.pid, how)
        return self.process.wait(TIMEOUT)


@pytest.fixture
def watcher() -> Iterator[Callable[..., Watcher]]:
    started: list[Watcher] = []

    def start(*args: str | Path, cwd: Path, command: list[str] | None = None,
              sigint: Any = signal.SIG_DFL) -> Watcher:
        started.append(Watcher(*args, cwd=cwd, command=command, sigint=sigint))
        return started[-1]

    yield start
    for one in started:
        if one.process.poll() is None:
            os.killpg(one.process.pid, signal.SIGKILL)
            one.process.wait()


def test_each_save_regenerates_and_a_broken_contract_is_reported_and_waited_on(
        tmp_path: Path, watcher: Callable[..., Watcher]) -> None:
    spec = tmp_path / "pets.yaml"
    save(spec, pets())
    watch = watcher(spec.name, "--out", "pkg", cwd=tmp_path)
    assert re.fullmatch(r"\d\d:\d\d:\d\d generated pkg from pets.yaml in \d+\.\d\d s "
                        r"\(\d+ files written\)", watch.wait_run(1))
    models = tmp_path / "pkg" / "models.py"
    assert "age" not in models.read_text()

    save(spec, pets(age={"type": "integer"}))
    assert "generated pkg" in watch.wait_run(2)
    assert "age: int | None = None" in models.read_text()

    before = {p.name: p.read_bytes() for p in (tmp_path / "pkg").iterdir()}
    save(spec, yaml.safe_dump(pets(), sort_keys=False) + "  broken: [\n")
    line = watch.wait_run(3)
    assert "pkg left as it was (the contract has errors;" in line, line
    watch.wait_err(lambda err: any(re.match(r"pets\.yaml:\d+:\d+: error: ", e) for e in err),
                   "the located error on stderr")
    assert {p.name: p.read_bytes() for p in (tmp_path / "pkg").iterdir()} == before

    # A warning is printed in full once, then counted while it stays the same.
    warned = pets(age={"type": "integer"}, color={"type": "string"})
    warned["components"]["schemas"]["Pet"]["required"] = ["tail"]
    save(spec, warned)
    assert "generated pkg" in watch.wait_run(4)
    assert "color: str | None = None" in models.read_text()
    [warning] = [line for line in watch.wait_err(
        lambda err: any(": warning: " in e for e in err), "the warning") if ": warning: " in line]
    assert "`tail`" in warning
    save(spec, yaml.safe_dump(warned, sort_keys=False) + "# touched\n")
    assert "generated pkg" in watch.wait_run(5)
    watch.wait_err(lambda err: err[-1:] == ["(the same 1 warning as before)"], "the count")
    assert len([line for line in watch.err if ": warning: " in line]) == 1
    save(spec, pets(age={"type": "integer"}, color={"type": "string"}))
    assert "generated pkg" in watch.wait_run(6)
    # Saving the same contract again is a run that writes nothing.
    save(spec, pets(age={"type": "integer"}, color={"type": "string"}))
    assert "pkg is up to date with pets.yaml" in watch.wait_run(7)
    assert watch.stop() == 0


def test_ctrl_c_stops_it_even_started_with_sigint_ignored(
        tmp_path: Path, watcher: Callable[..., Watcher]) -> None:
    # As from a shell's background job (`make test &`): Python then installs no
    # KeyboardInterrupt, and the watch it says Ctrl-C stops ran on until killed.
    save(tmp_path / "pets.yaml", pets())
    watch = watcher("pets.yaml", "--out", "pkg", cwd=tmp_path, sigint=signal.SIG_IGN)
    assert "generated pkg" in watch.wait_run(1)
    assert watch.stop(signal.SIGINT) == 0


def test_a_referenced_file_is_watched_too(tmp_path: Path, watcher: Callable[..., Watcher]) -> None:
    document = pets()
    document["components"]["schemas"]["Pet"] = {"$ref": "schemas.yaml#/Pet"}
    save(tmp_path / "pets.yaml", document)
    save(tmp_path / "schemas.yaml", {"Pet": {"type": "object",
                                             "properties": {"name": {"type": "string"}}}})
    watch = watcher("pets.yaml", "--out", "pkg", cwd=tmp_path)
    watch.wait_run(1)
    assert "watching 2 files" in watch.out[-1]
    save(tmp_path / "schemas.yaml", {"Pet": {"type": "object", "properties": {
        "name": {"type": "string"}, "weight": {"type": "number"}}}})
    assert "generated pkg" in watch.wait_run(2)
    assert "weight: float | None = None" in (tmp_path / "pkg" / "models.py").read_text()
    # A file referenced from now on is watched from now on.
    document["components"]["schemas"]["Owner"] = {"$ref": "owner.yaml#/Owner"}
    save(tmp_path / "owner.yaml", {"Owner": {"type": "object", "properties": {}}})
    save(tmp_path / "pets.yaml", document)
    watch.wait_run(3)
    assert "watching 3 files" in watch.out[-1]
    save(tmp_path / "owner.yaml", {"Owner": {"type": "object", "properties": {
        "phone": {"type": "string"}}}})
    assert "generated pkg" in watch.wait_run(4)
    assert "phone: str | None" in (tmp_path / "pkg" / "models.py").read_text()
    assert watch.stop(signal.SIGTERM) == 0
    # Started again, its first run replays the last one: the referenced files come from its record.
    again = watcher("pets.yaml", "--out", "pkg", cwd=tmp_path)
    assert "pkg is up to date" in again.wait_run(1)
    assert "watching 3 files" in again.out[-1]
    assert again.stop() == 0


def test_the_overlay_and_template_overrides_are_watched_too(
        tmp_path: Path, watcher: Callable[..., Watcher]) -> None:
    save(tmp_path / "pets.yaml", pets())
    overlay = tmp_path / "fix.yaml"
    actions = ("overlay: 1.0.0\ninfo: {title: fix, version: '1'}\nactions:\n"
               "  - target: $.components.schemas.Pet.properties\n"
               "    update: {%s: {type: integer}}\n")
    save(overlay, actions % "legs")
    overrides = tmp_path / "overrides"
    overrides.mkdir()
    watch = watcher("pets.yaml", "--out", "pkg", "--overlay", overlay.name, "--templates",
                    overrides.name, cwd=tmp_path)
    watch.wait_run(1)
    models = tmp_path / "pkg" / "models.py"
    assert "legs: int | None" in models.read_text()
    save(overlay, actions % "paws")
    assert "generated pkg" in watch.wait_run(2)
    assert "paws: int | None" in models.read_text() and "legs" not in models.read_text()
    # A new override is a new file in the folder: its header digest changes every module.
    save(overrides / "sdk_README.md.jinja", "# {{ title }}\n")
    assert "generated pkg" in watch.wait_run(3)
    assert watch.stop() == 0


def test_a_hand_edited_package_is_never_written_over(tmp_path: Path,
                                                     watcher: Callable[..., Watcher]) -> None:
    spec = tmp_path / "pets.yaml"
    save(spec, pets())
    watch = watcher(spec.name, "--out", "pkg", cwd=tmp_path)
    watch.wait_run(1)
    models = tmp_path / "pkg" / "models.py"
    models.write_text(models.read_text() + "\n# my change\n")
    save(spec, pets(age={"type": "integer"}))
    line = watch.wait_run(2)
    assert "pkg left as it was (" in line and "models.py" in line, line
    assert models.read_text().endswith("# my change\n")
    assert watch.stop() == 0


def test_configured_targets_follow_the_configuration(tmp_path: Path,
                                                     watcher: Callable[..., Watcher]) -> None:
    save(tmp_path / "pets.yaml", pets())
    config = tmp_path / "pyproject.toml"
    target = '[[tool.contractgen.targets]]\nspec = "pets.yaml"\nout = "pkg"\n'
    config.write_text(target)
    watch = watcher(cwd=tmp_path)
    watch.wait_run(1)
    assert "watching 2 files" in watch.out[-1]  # the spec and pyproject.toml
    assert (tmp_path / "pkg" / "server.py").is_file()

    config.write_text(target + 'parts = ["models"]\n')
    assert "generated pkg" in watch.wait_run(2)
    assert not (tmp_path / "pkg" / "server.py").exists()  # no longer a part: removed

    config.write_text(target + "parts = [\n")  # unreadable: the targets before stay watched
    watch.wait(lambda: any("cannot be used" in line for line in watch.err), "config error")
    save(tmp_path / "pets.yaml", pets(age={"type": "integer"}))
    assert "generated pkg" in watch.wait_run(3)
    assert "age: int | None" in (tmp_path / "pkg" / "models.py").read_text()
    assert not (tmp_path / "pkg" / "server.py").exists()
    assert watch.stop() == 0


def test_the_command_line_is_checked_first(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    spec = tmp_path / "pets.yaml"
    save(spec, pets())
    no_out = cli(capsys, "watch", str(spec), cwd=tmp_path)
    assert (no_out.returncode, no_out.stderr) == (2, "contractgen watch: SPEC needs --out DIR\n")
    interval = cli(capsys, "watch", str(spec), "--out", "pkg", "--interval", "0", cwd=tmp_path)
    assert interval.returncode == 2 and "--interval must be a positive" in interval.stderr
    out_alone = cli(capsys, "watch", "--out", "pkg", cwd=tmp_path)
    assert out_alone.returncode == 2 and "need a SPEC" in out_alone.stderr
    unconfigured = cli(capsys, "watch", cwd=tmp_path)
    assert unconfigured.returncode == 2 and "no [tool.contractgen] table" in unconfigured.stderr
    assert not (tmp_path / "pkg").exists()


@pytest.mark.slow
def test_a_new_project_has_make_watch(tmp_path: Path, watcher: Callable[..., Watcher]) -> None:
    from contractgen.project.scaffold import new_project

    spec = Path(__file__).resolve().parents[2] / "specs/otari-code-execution.openapi.yaml"
    project = new_project(tmp_path / "otari", spec=spec, parts="client", git=False)
    watch = watcher(cwd=project, command=["make", "watch", f"PYTHON={sys.executable}"])
    watch.wait_run(1)
    contract = project / "specs" / spec.name
    save(contract, contract.read_text("utf-8").replace(
        "Run a shell command in the session's workspace.", "Run a zsh command."))
    assert "generated src/otari/api" in watch.wait_run(2)
    assert "Run a zsh command." in (project / "src/otari/api/models.py").read_text("utf-8")
    watch.stop()  # make itself ends on the signal, as it does on Ctrl-C


def test_a_same_size_save_within_one_mtime_tick_is_seen(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    from contractgen import watch

    spec = tmp_path / "pets.yaml"
    spec.write_text("a: 1\n")
    first = watch.stamp(spec)
    assert first is not None and first[3] is not None  # just written: racy, so hashed
    # A file system that keeps mtimes to the second shows the same size, mtime and inode.
    mtime = spec.stat().st_mtime_ns
    spec.write_text("a: 2\n")
    os.utime(spec, ns=(mtime, mtime))
    again = watch.stamp(spec)
    assert again is not None and again[:3] == first[:3]
    assert watch.changed(spec, first, again)
    # No longer racy: the same content against the hashed stamp is no change, and is not hashed.
    monkeypatch.setattr(watch, "RACY_NS", 0)
    settled = watch.stamp(spec)
    assert settled is not None and settled[3] is None
    assert not watch.changed(spec, again, settled)
    assert watch.changed(spec, first, settled)
    assert not watch.changed(spec, settled, watch.stamp(spec))
    assert watch.changed(spec, settled, None) and not watch.changed(spec, None, None)


def test_the_poll_returns_a_change_once_it_holds_still_and_stops_hashing_old_files(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from contractgen import watch

    spec, other = tmp_path / "pets.yaml", tmp_path / "other.yaml"
    spec.write_text("a: 1\n")
    other.write_text("b: 1\n")
    seen = watch.stamps([spec, other])
    assert all(s is not None and s[3] is not None for s in seen.values())
    monkeypatch.setattr(watch, "RACY_NS", 0)  # from now on, both are old files

    def edit() -> None:
        time.sleep(0.3)
        for n in range(3):  # written in steps: one change, reported once they stop
            spec.write_text(f"a: {n + 2}\n# {'x' * n}\n")
            time.sleep(0.01)

    editor = threading.Thread(target=edit)
    editor.start()
    now, moved = watch.settled(seen, 0.05)
    editor.join()
    assert moved == {spec}
    assert now[spec] is not None and now[spec][3] is None
    assert seen[other] is not None and seen[other][3] is None  # replaced by its plain stamp
