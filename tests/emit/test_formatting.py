"""How emit/formatting.py spends black: a regeneration's few missed blocks go to a child that
imported black while the model was built (or are formatted here), a run whose blocks all hit
never imports black, and every path gives the bytes of whole-module black."""

from __future__ import annotations

import json
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest
from contractgen.cache import version_of

# A module of a few blocks; `{n}` makes each variant's blocks new to the cache.
MODULE = ('"""Doc."""\n\nimport os\n\n\ndef f{n}( x ):\n    return os.sep+x\n'
          'class A{n}:\n  y=1\n\n\n\nz{n} = [1,\n 2]\n')

# Runs in a fresh interpreter: the test process may run threads (xdist), and a process with
# threads never forks a formatter.
PROBE = """
import json, os, signal, sys
from contractgen.emit import formatting
sources = json.loads(sys.argv[1])
mode = sys.argv[2]
stop = None
if mode == "imported":  # as `contractgen watch` runs: black loaded before the first run
    import black
    stop = formatting.prewarm()
    assert not formatting._WARM
if mode in ("warm", "killed"):
    stop = formatting.prewarm()
    if mode == "killed":
        os.kill(formatting._WARM[-1].child.pid, signal.SIGKILL)
        formatting._WARM[-1].child.join()
black_before = "black" in sys.modules
got = formatting.format_modules(sources)
if stop is not None:
    stop()
print(json.dumps({"got": got, "black_runs": formatting.BLACK_RUNS,
                  "warm_runs": formatting.WARM_RUNS,
                  "black_imported": black_before or "black" in sys.modules}))
"""


def _probe(sources: dict[str, str], mode: str, cache: Path) -> dict[str, object]:
    env = {"XDG_CACHE_HOME": str(cache), "PATH": "/usr/bin:/bin"}
    done = subprocess.run([sys.executable, "-c", PROBE, json.dumps(sources), mode], env=env,
                          capture_output=True, text=True, check=True)
    answer: dict[str, object] = json.loads(done.stdout)
    return answer


def _whole(sources: dict[str, str]) -> dict[str, str]:
    from contractgen.emit.formatting import format_source

    return {name: format_source(text) for name, text in sources.items()}


@pytest.mark.parametrize("mode", ["here", "warm", "killed", "imported"])
def test_few_missed_blocks_give_whole_module_bytes(mode: str, tmp_path: Path) -> None:
    sources = {"a.py": MODULE.format(n=1), "b.py": MODULE.format(n=2)}
    answer = _probe(sources, mode, tmp_path)
    assert answer["got"] == _whole(sources)
    assert answer["black_runs"] == 8  # four blocks per module, none cached yet
    # The prewarmed child formats them; without one, when it died, or when this process has
    # black already (no child is started then), this process does.
    assert answer["warm_runs"] == (8 if mode == "warm" else 0)


def test_many_missed_blocks_formatted_by_the_child_in_parallel_give_whole_module_bytes(
        tmp_path: Path) -> None:
    fields = "".join(f"    field_number_{i}: Optional[List[str]]=Field(default=None, alias='f{i}')\n"
                     for i in range(8))
    module = "".join(f"class Model{n}( Base ):\n{fields}\n" for n in range(60))
    sources = {"big.py": module}
    assert len(module) > 20_000  # enough work for a process per core
    answer = _probe(sources, "warm", tmp_path)
    assert answer["got"] == _whole(sources)
    assert answer["warm_runs"] == answer["black_runs"] == 60


def test_a_run_whose_blocks_all_hit_never_imports_black(tmp_path: Path) -> None:
    sources = {"a.py": MODULE.format(n=3)}
    first = _probe(sources, "here", tmp_path)
    assert first["black_imported"] is True
    again = _probe(sources, "here", tmp_path)
    assert again == {**first, "black_runs": 0, "black_imported": False}
    # With a prewarmed child, nothing is sent to it (nor waited for).
    assert _probe(sources, "warm", tmp_path) == again


def test_nothing_to_format_never_asks_the_child(monkeypatch: pytest.MonkeyPatch) -> None:
    from contractgen.emit import formatting

    class Absent:
        def format(self, texts: object) -> None:
            raise AssertionError("asked to format nothing")

    monkeypatch.setattr(formatting, "_WARM", [Absent()])
    assert formatting._format_many([]) == []


@pytest.mark.parametrize("name", ["black", "Jinja2", "openapi-spec-validator", "jsonschema"])
def test_versions_in_cache_keys_are_the_installed_ones(name: str) -> None:
    assert version_of(name) == metadata.version(name)


def test_work_is_dealt_largest_first_in_shrinking_chunks() -> None:
    from contractgen.emit.formatting import _chunks

    texts = ["x" * (100 + (n * 7919) % 4000) for n in range(600)]
    chunks = _chunks(texts, 2)
    assert sorted(i for chunk in chunks for i in chunk) == list(range(600))
    order = [i for chunk in chunks for i in chunk]
    assert [len(texts[i]) for i in order] == sorted(map(len, texts), reverse=True)
    sizes = [sum(len(texts[i]) for i in chunk) for chunk in chunks]
    assert sizes[0] <= sum(sizes) / 4 + 4100  # a quarter (half a worker's share), then less
    assert sizes[-1] < sizes[0] / 10  # the last ones are small: nobody waits long at the end


DAEMON_PROBE = """
import json, multiprocessing, sys
from contractgen.emit import formatting

def inside(connection):
    stop = formatting.prewarm()  # a daemonic process may not have children: formats itself
    connection.send((formatting.format_modules(json.loads(sys.argv[1])), len(formatting._WARM)))
    stop()

context = multiprocessing.get_context("fork")
receiver, sender = context.Pipe(duplex=False)
child = context.Process(target=inside, args=(sender,), daemon=True)
child.start()
got, warm = receiver.recv()
child.join()
print(json.dumps({"got": got, "warm": warm}))
"""


def test_a_daemonic_process_formats_without_a_child(tmp_path: Path) -> None:
    sources = {"a.py": MODULE.format(n=4)}
    env = {"XDG_CACHE_HOME": str(tmp_path), "PATH": "/usr/bin:/bin"}
    done = subprocess.run([sys.executable, "-c", DAEMON_PROBE, json.dumps(sources)], env=env,
                          capture_output=True, text=True, check=True)
    assert json.loads(done.stdout) == {"got": _whole(sources), "warm": 0}


def test_digest_line_found_as_splitlines_reads_lines() -> None:
    """The digest line is one of a module's first four lines as str.splitlines() reads them;
    the quick reading (newlines only, where no other line break is near) must agree."""
    import random

    from contractgen.emit import formatting

    def reference(text: str) -> tuple[str | None, str]:
        lines = text.splitlines(keepends=True)
        for index, line in enumerate(lines[:4]):
            if line.startswith(formatting.DIGEST_PREFIX):
                return (line[len(formatting.DIGEST_PREFIX):].strip(),
                        "".join(lines[:index] + lines[index + 1:]))
        return None, text

    rng = random.Random(3)
    parts = ["# a\n", "# contractgen-digest: k h\n", "# contractgen-digest: k h", "x = 1\n",
             "\n", "\r\n", "\x85", "\u2028", "y", "# contractgen-digest: q\r", ""]
    for _ in range(20_000):
        text = "".join(rng.choice(parts) for _ in range(rng.randrange(8)))
        assert formatting.split_digest(text) == reference(text), repr(text)


def test_an_edit_reuses_the_previous_module_and_gives_whole_module_bytes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A regenerated module takes its unchanged blocks' output from its previous version (the
    layout record): only the edited block is parsed and looked up, and the bytes are black's."""
    from contractgen.emit import blocks, formatting

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    header = "# Generated by contractgen 0 from a.yaml (sha256 {}). DO NOT EDIT.\n"
    body = "".join(f"\n\nclass Model{i}:\n    x: int = {i}\n    y:str='a'\n" for i in range(60))
    first = {"m.py": header.format("aa") + body}
    made = formatting.format_package(first, {})
    edited = {"m.py": header.format("bb") + body.replace("x: int = 30\n", "x: int = 31\n")}
    looked_up: list[str] = []
    real = formatting._Layout.missing
    monkeypatch.setattr(formatting._Layout, "missing", lambda self, source: looked_up.extend(
        found := real(self, source)) or found)
    again = formatting.format_package(edited, made)
    assert again["m.py"].replace(again["m.py"].splitlines()[1] + "\n", "") == (
        formatting.format_source(edited["m.py"]))
    assert len(looked_up) == 5  # header block and neighbour; the edited class and neighbours
    assert all("Model30" in text or "Model29" in text or "Model31" in text or "Model0" in text
               or "Model1:" in text for text in looked_up[1:])
    # A hand edit of the previous module breaks its digest: everything is split again.
    tampered = {"m.py": made["m.py"].replace("Model5", "Model5b")}
    looked_up.clear()
    assert formatting.format_package(edited, tampered) == again
    assert len(looked_up) == len(blocks.split(edited["m.py"]) or [])
