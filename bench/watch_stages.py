"""Where a one-field edit goes in a warm process (the state `contractgen watch` is in). (issue 29)

For each contract: one run (cold: imports, caches) and one edit to warm up, then `--edits` rounds,
each of four new one-field edits (`generate.edit_one_field`, its own mark, so nothing replays):
- the first goes through the stages one by one (validation inline, so each stage's own wall time
  shows), what `pipeline.generate` and `watch.run_job` do around them included;
- then three through `watch.run_job` whole, as the watch runs it: as it is, without the forked
  validation, and without `pipeline.fewer_collections` (interleaved, each its own edit).
Prints medians (ms of wall time and of CPU time, steadier on a busy machine), and the poll's
latency: from a saved file's rename to `watch.settled` returning, at `--interval` 0.2 and 0.1.
Run: `.venv/bin/python bench/watch_stages.py [--edits 7] [spec.json ...]` (default: Twilio 2010,
Box, Discord).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import resource
import statistics
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from generate import edit_one_field

DEFAULT = [Path("/tmp/corpus/twilio-api-v2010.openapi.json"),
           Path("/tmp/corpus/box.openapi.json"), Path("/tmp/contracts/discord.json")]


def cpu() -> float:
    """CPU seconds of this process and its children (the forked validation) so far."""
    own, children = (resource.getrusage(who) for who in (resource.RUSAGE_SELF,
                                                          resource.RUSAGE_CHILDREN))
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def staged(spec: Path, out: Path, found: dict[str, list[tuple[float, float]]]) -> None:
    """One edit's run, stage by stage, as `pipeline.generate` runs it but with validation
    inline; each stage's wall time added to `found`."""
    from contractgen import pipeline
    from contractgen.emit.package import read_package, write_package
    from contractgen.emit.runs import Run
    from contractgen.model.jsontext import dumps_indented
    from contractgen.model.parse import build_api
    from contractgen.options import Options
    from contractgen.spec import read, resolved
    from contractgen.spec.inputs import Inputs
    from contractgen.spec.lint import lint_document
    from contractgen.spec.validate import validate_document
    from contractgen.spec.verdicts import shape_key

    options = Options()

    def timed(name: str, call: Callable[[], Any]) -> Any:
        start, used = time.perf_counter(), cpu()
        value = call()
        found.setdefault(name, []).append((time.perf_counter() - start, cpu() - used))
        return value

    previous = timed("read the package", lambda: read_package(out))
    inputs = timed("read the spec", lambda: Inputs.read(spec))
    record = timed("run record: key", lambda: Run(inputs, options))
    timed("run record: replay (a miss)", lambda: record.replay(previous, True))
    document, _ = timed("load: parse", lambda: read(inputs))
    document = timed("load: resolve", lambda: resolved(document))
    timed("  of validate: lint", lambda: lint_document(document, document.data["openapi"]))
    timed("  of validate: shape key", lambda: shape_key(document))
    problems = timed("validate (inline, all)", lambda: validate_document(document))
    text = timed("openapi.json text", lambda: dumps_indented(document.data) + "\n")
    api = timed("IR", lambda: build_api(document, spec_json=lambda: text,
                                        spec_display=str(spec)))
    sources = timed("render", lambda: pipeline.render(api, options))
    files = timed("format", lambda: pipeline.format_modules(sources, options, lambda: None))
    files = timed("manifest", lambda: pipeline.manifest(files, api, inputs, options, previous))
    timed("run record: write", lambda: record.record({}, files, problems, True))
    timed("write", lambda: write_package(out, files))


@contextlib.contextmanager
def without(layer: str) -> Iterator[None]:
    """`watch.run_job` without the forked validation or the GC threshold."""
    from contractgen import pipeline, verdict

    if layer == "fork":
        verdict.FORK = False
    saved = pipeline.fewer_collections
    if layer == "gc":
        pipeline.fewer_collections = contextlib.nullcontext
    try:
        yield
    finally:
        verdict.FORK = True
        pipeline.fewer_collections = saved


def poll_latency(folder: Path, rounds: int, interval: float) -> list[float]:
    """From a save (rename over the file) to `settled` seeing it, `rounds` times."""
    from contractgen.watch import settled, stamps

    path = folder / "polled.json"
    path.write_text("{}")
    found = []
    for index in range(rounds):
        seen = stamps([path])
        saved: list[float] = []

        def save(index: int = index, saved: list[float] = saved) -> None:
            time.sleep(0.05 + 0.37 * index % interval)  # somewhere in the poll's interval
            partial = folder / "polled.saving"
            partial.write_text(json.dumps({"edit": index}))
            saved.append(time.perf_counter())
            partial.replace(path)

        thread = threading.Thread(target=save)
        thread.start()
        settled(seen, interval)
        found.append(time.perf_counter() - saved[0])
        thread.join()
    return found


def bench(source: Path, work: Path, edits: int) -> dict[str, list[tuple[float, float]]]:
    from contractgen.watch import Job, run_job

    plain = json.loads(source.read_text(encoding="utf-8"))
    spec, out = work / "api.json", work / "out"
    spec.write_text(json.dumps(plain))
    found: dict[str, list[tuple[float, float]]] = {}
    for mark in ("", " (warm-up)"):
        spec.write_text(json.dumps(edit_one_field(plain, mark) if mark else plain))
        outcome = run_job(Job(spec, out))
        assert outcome.refused is None, outcome
    for index in range(edits):
        spec.write_text(json.dumps(edit_one_field(plain, f" (staged {index})")))
        staged(spec, out, found)
        for layer in ("", "fork", "gc"):
            spec.write_text(json.dumps(edit_one_field(plain, f" (whole {layer} {index})")))
            used = cpu()
            with without(layer):
                outcome = run_job(Job(spec, out))
            assert outcome.refused is None and outcome.written, outcome
            key = "watch.run_job" + (f" without {layer}" if layer else "")
            found.setdefault(key, []).append((outcome.seconds, cpu() - used))
    return found


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--edits", type=int, default=7)
    parser.add_argument("specs", nargs="*", type=Path, default=DEFAULT)
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f}; {os.cpu_count()} cores")
    with tempfile.TemporaryDirectory() as temp:
        os.environ["XDG_CACHE_HOME"] = str(Path(temp) / "cache")
        for interval in (0.2, 0.1):
            latency = poll_latency(Path(temp), args.edits, interval)
            print(f"poll latency at --interval {interval}: median "
                  f"{statistics.median(latency) * 1000:.0f} ms (min {min(latency) * 1000:.0f}, "
                  f"max {max(latency) * 1000:.0f})")
        for source in args.specs:
            work = Path(temp) / source.stem
            work.mkdir()
            found = bench(source, work, args.edits)
            medians = {key: [statistics.median(v[i] for v in values) * 1000 for i in (0, 1)]
                       for key, values in found.items()}
            medians["sum of the stages"] = [
                sum(v[i] for k, v in medians.items() if not k.startswith(("watch", "  ")))
                for i in (0, 1)]
            print(f"{source.name} (ms, medians of {args.edits}: wall / CPU, the forked child's "
                  f"included; load average {os.getloadavg()[0]:.1f})")
            for key, (wall, used) in medians.items():
                print(f"  {key:32} {wall:7.1f} {used:7.1f}")


if __name__ == "__main__":
    main()
