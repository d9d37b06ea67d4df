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


@pytest.mark.parametrize("mode", ["here", "warm", "killed"])
def test_few_missed_blocks_give_whole_module_bytes(mode: str, tmp_path: Path) -> None:
    sources = {"a.py": MODULE.format(n=1), "b.py": MODULE.format(n=2)}
    answer = _probe(sources, mode, tmp_path)
    assert answer["got"] == _whole(sources)
    assert answer["black_runs"] == 8  # four blocks per module, none cached yet
    # The prewarmed child formats them; without one, or when it died, this process does.
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
