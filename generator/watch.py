"""`contractgen watch`: regenerate a package each time its contract changes.

A contract being designed changes a field at a time, and each `generate` is a new process that
imports its libraries again: on a seed contract that import is most of the run. `watch` stays
in one process. Jinja's templates, the validator, the model builder and black (for the blocks
the templates cannot vouch for) are loaded once, and each change costs only the run itself
(`bench/generate.py` prints both).

It polls the files a run reads (the spec, its overlay, the files its `$ref`s bundle in, the
template overrides and, for configured targets, the pyproject.toml) for a change of size, mtime
or inode, which an editor's save-by-rename also makes, and of content while a file's mtime is
recent enough that a coarse clock could hide a same-size save (`Stamp`). A change is acted on once the files stop
changing for one interval: an editor that writes in steps triggers one run, not one per step.
Polling needs no dependency, works on every file system (network mounts included) and costs
a few stat calls per interval. A save is seen one to two intervals after it: a median of 150 ms
at the default 0.1 s, whose runs after an edit take 0.25-0.7 s on the large contracts
(`bench/watch_stages.py`).

A run goes through `generate`'s own path (`api.render`, `write_package`), so what it writes
and refuses is what `generate` would: a contract with errors writes nothing and its problems are
printed, located; files changed by hand are left alone (OwnershipError) unless `--force`.
Neither stops the watch.
"""

from __future__ import annotations

import signal
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from stat import S_ISREG
from types import FrameType
from typing import TextIO

from .config import Target
from .errors import ContractgenError
from .options import Options
from .problems import Problem, SpecError

# What a file looks like to the poll: (size, mtime in ns, inode, digest), or None while it is
# missing. The digest (sha256 of the content) is taken only while the file is "racy", modified
# less than RACY_NS before it was stamped: a file system may keep mtimes to the second or two
# (FAT, HFS+, some network mounts), and a same-size save within that tick changes nothing else
# that stat shows (git's "racily clean" index entries, the same problem).
Stamp = tuple[int, int, int, str | None] | None
RACY_NS = 3_000_000_000


@dataclass
class Job:
    """One package kept up to date with its contract."""

    spec: Path
    out: Path
    options: Options = field(default_factory=Options)
    force: bool = False
    # The files its last run read besides the spec and overlay (`$ref`ed files).
    bundled: frozenset[Path] = field(default_factory=frozenset)
    # The warnings last printed in full (a large contract may have hundreds, each run).
    warned: tuple[str, ...] = ()

    @classmethod
    def of_target(cls, target: Target, *, force: bool = False) -> Job:
        return cls(target.spec_path, target.out_path, target.options, force=force)

    def watched(self) -> set[Path]:
        """The files whose change calls for a run."""
        found = {self.spec, *self.bundled}
        overlay, templates = self.options.overlay, self.options.templates
        if overlay is not None:
            found.add(overlay)
        if templates is not None and templates.is_dir():
            # Its folders too: a file added or removed changes a folder's mtime.
            found.add(templates)
            found.update(templates.rglob("*"))
        return found


def stamp(path: Path) -> Stamp:
    try:
        status = path.stat()
        digest = None
        if time.time_ns() - status.st_mtime_ns < RACY_NS and S_ISREG(status.st_mode):
            digest = _digest(path)
    except OSError:
        return None
    return (status.st_size, status.st_mtime_ns, status.st_ino, digest)


def _digest(path: Path) -> str:
    import hashlib

    return hashlib.sha256(path.read_bytes()).hexdigest()


def changed(path: Path, before: Stamp, now: Stamp) -> bool:
    """Whether `path` changed between the two stamps: its size, mtime or inode moved, or it was
    racy at `before` and its content is not the one hashed then."""
    if before is None or now is None:
        return before != now
    if before[:3] != now[:3]:
        return True
    if before[3] is None:
        return False
    try:
        return (now[3] or _digest(path)) != before[3]
    except OSError:
        return True


def stamps(paths: Iterable[Path]) -> dict[Path, Stamp]:
    return {path: stamp(path) for path in sorted(paths)}


@dataclass
class Outcome:
    """What one run did: how many files it changed, or why it wrote nothing."""

    seconds: float
    written: int = 0  # files whose text changed, removed ones included
    problems: list[Problem] = field(default_factory=list)  # its warnings, or the errors
    refused: str | None = None  # a reason nothing was written (errors, ownership, I/O)


def run_job(job: Job, describe: Callable[[OSError], str] = str) -> Outcome:
    """Regenerate `job`'s package as `generate` would, and note the files its `$ref`s bundle
    in (`job.bundled`); never raises for bad input. `describe` words an OSError (the CLI's
    `describe_os_error`)."""
    from .api import forced_write, render
    from .emit.package import read_package, write_package

    start = time.perf_counter()
    bundled: set[Path] = set()
    try:
        previous = read_package(job.out) if job.out.is_dir() else {}
        try:
            files, warnings = render(job.spec, job.options, previous=previous or None,
                                     bundled=bundled)
        finally:
            # Empty when the contract could not be read (or bundles nothing now): the files
            # watched before stay watched, which costs a stat each.
            if bundled:
                job.bundled = frozenset(bundled)
        if job.force:  # as `generate --force`: never over a file contractgen did not write
            forced_write(job.out, files, read=previous)
        else:
            write_package(job.out, files, read=previous)
    except SpecError as exc:
        return Outcome(time.perf_counter() - start, problems=list(exc.problems),
                       refused="the contract has errors")
    except OSError as exc:
        return Outcome(time.perf_counter() - start, refused=describe(exc))
    except (ContractgenError, ValueError) as exc:  # what `generate` reports as a failure
        return Outcome(time.perf_counter() - start, refused=str(exc))
    seconds = time.perf_counter() - start
    written = sum(previous.get(name) != text for name, text in files.items())
    written += sum(name not in files for name in previous)
    return Outcome(seconds, written, warnings)


def _clock() -> str:
    return time.strftime("%H:%M:%S")


def report(job: Job, outcome: Outcome, out: TextIO, err: TextIO) -> None:
    """One line on `out` per run, its problems on `err` first as `generate` prints them; the
    same warnings as the run before are counted, not printed again (errors always are)."""
    from .emit.package import display_path

    texts = tuple(problem.format() for problem in outcome.problems)
    if outcome.refused is None and texts and texts == job.warned:
        print(f"(the same {len(texts)} warning{'s' * (len(texts) != 1)} as before)", file=err)
    else:
        for text in texts:
            print(text, file=err)
    if outcome.refused is None:
        job.warned = texts
    err.flush()
    shown_out, shown_spec = display_path(job.out), display_path(job.spec)
    took = f"{outcome.seconds:.2f} s"
    if outcome.refused is not None:
        print(f"{_clock()} {shown_out} left as it was ({outcome.refused}; {took}); "
              "waiting for the next change", file=out)
    elif outcome.written:
        # Each module's header names the spec's hash: an edit rewrites every file.
        count = outcome.written
        print(f"{_clock()} generated {shown_out} from {shown_spec} in {took} "
              f"({count} file{'s' * (count != 1)} written)", file=out)
    else:
        print(f"{_clock()} {shown_out} is up to date with {shown_spec} ({took})", file=out)
    out.flush()


class _Stop(Exception):
    """SIGTERM: end the watch as Ctrl-C does."""


def _stop_on_term(signum: int, frame: FrameType | None) -> None:
    raise _Stop


def watch(jobs_of: Callable[[], list[Job]], *, config: Path | None = None,
          interval: float = 0.1, out: TextIO | None = None, err: TextIO | None = None,
          describe: Callable[[OSError], str] = str) -> int:
    """Keep every job's package up to date until interrupted (Ctrl-C; SIGTERM too when called
    from the main thread); returns 0.

    `jobs_of` makes the jobs again when `config` (the pyproject.toml naming them) changes;
    `describe` words an OSError.
    """
    import threading

    out = out or sys.stdout
    err = err or sys.stderr
    main_thread = threading.current_thread() is threading.main_thread()
    previous_handler = signal.signal(signal.SIGTERM, _stop_on_term) if main_thread else None
    try:
        # Loaded once for every later run: black formats the blocks the templates cannot vouch
        # for (`emit.vouch`), and its import is a fifth of a second.
        import black  # noqa: F401

        from .emit.formatting import black_mode

        black_mode()
        jobs = jobs_of()
        pending = list(range(len(jobs)))  # every job runs once at the start
        seen: dict[Path, Stamp] = {}
        while True:
            if pending:
                # Stamped before the runs read them: a save during a run makes another run.
                before = stamps(_watched(jobs, config))
                for index in pending:
                    outcome = run_job(jobs[index], describe)
                    report(jobs[index], outcome, out, err)
                seen = {path: before[path] if path in before else stamp(path)
                        for path in sorted(_watched(jobs, config))}
                print(f"{_clock()} watching {len(seen)} file{'s' * (len(seen) != 1)}; "
                      "Ctrl-C to stop", file=out)
                out.flush()
            now, moved = settled(seen, interval)
            pending = []
            if config is not None and config in moved:
                reloaded = _reload(jobs_of, err, describe)
                if reloaded is not None:
                    jobs = reloaded
                    pending = list(range(len(jobs)))
            else:
                pending = [i for i, job in enumerate(jobs) if job.watched() & moved]
            seen = now
    except (KeyboardInterrupt, _Stop):
        return 0
    finally:
        if main_thread:
            signal.signal(signal.SIGTERM, previous_handler)


def _watched(jobs: Iterable[Job], config: Path | None) -> set[Path]:
    found = {path for job in jobs for path in job.watched()}
    if config is not None:
        found.add(config)
    return found


def settled(seen: dict[Path, Stamp], interval: float
            ) -> tuple[dict[Path, Stamp], set[Path]]:
    """Once some of `seen`'s files have changed and then held still for one interval: their
    stamps then, and which files changed. A racy stamp of `seen` that is found unchanged once
    the file is no longer racy is replaced by the plain one (no more hashing it each poll)."""
    while True:
        time.sleep(interval)
        now = stamps(seen)
        moved = {path for path in seen if changed(path, seen[path], now[path])}
        if not moved:
            for path, was in seen.items():
                later = now[path]
                if was is not None and was[3] is not None and later is not None and later[3] is None:
                    seen[path] = later
            continue
        while True:
            time.sleep(interval)
            later_stamps = stamps(seen)
            if not any(changed(path, now[path], later_stamps[path]) for path in seen):
                moved = {path for path in seen if changed(path, seen[path], later_stamps[path])}
                if moved:
                    return later_stamps, moved
                break  # changed back to what was seen: nothing to do
            now = later_stamps


def _reload(jobs_of: Callable[[], list[Job]], err: TextIO,
            describe: Callable[[OSError], str]) -> list[Job] | None:
    """The jobs of the changed configuration; None (said on `err`) when it cannot be used."""
    try:
        return jobs_of()
    except SpecError as exc:
        for problem in exc.problems:
            print(problem.format(), file=err)
    except (OSError, ValueError) as exc:
        text = describe(exc) if isinstance(exc, OSError) else str(exc)
        print(f"contractgen watch: {text}", file=err)
    print(f"{_clock()} the configuration cannot be used; still watching its previous targets",
          file=err)
    err.flush()
    return None
