"""Format generated sources with black, in memory, and skip the work when nothing changed.

black dominates a generator run (about 0.1 s per module), so two things keep it off the hot path:

- Each module carries a digest line, `# contractgen-digest: <input> <output>`: `<input>` hashes the
  unformatted render and the black version, `<output>` hashes the formatted file without that
  line. When a committed file's digest names the same input and its text still hashes to the
  recorded output, it *is* what black would produce, so `check` and a repeated `generate` reuse it
  instead of formatting again. Any hand edit breaks the output hash and black runs as usual.
- Modules that do need formatting are formatted in parallel, one process per core.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Mapping
from importlib import metadata

DIGEST_PREFIX = "# contractgen-digest: "


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def _input_key(source: str) -> str:
    return _sha(metadata.version("black") + "\0" + source)


def _split_digest(text: str) -> tuple[str | None, str]:
    """The digest line of a generated module (if any) and the text without it."""
    lines = text.splitlines(keepends=True)
    for index, line in enumerate(lines[:4]):
        if line.startswith(DIGEST_PREFIX):
            return line[len(DIGEST_PREFIX):].strip(), "".join(lines[:index] + lines[index + 1:])
    return None, text


def _with_digest(formatted: str, key: str) -> str:
    lines = formatted.splitlines(keepends=True)
    at = 0
    while at < len(lines) and lines[at].startswith("#"):
        at += 1
    lines.insert(at, f"{DIGEST_PREFIX}{key} {_sha(formatted)}\n")
    return "".join(lines)


def reusable(previous: str | None, source: str) -> bool:
    """True when `previous` is exactly what formatting `source` produces."""
    if previous is None:
        return False
    digest, body = _split_digest(previous)
    if digest is None:
        return False
    key, _, body_hash = digest.partition(" ")
    return key == _input_key(source) and body_hash == _sha(body)


def format_source(source: str, name: str = "<generated>") -> str:
    """black with the project's settings; a syntax error is a template bug and says where."""
    import black
    from black.mode import Mode, TargetVersion
    from black.parsing import InvalidInput

    mode = Mode(target_versions={TargetVersion.PY311})
    try:
        return black.format_str(source, mode=mode)
    except InvalidInput as exc:
        numbered = "\n".join(f"{i + 1:5}: {line}" for i, line in enumerate(source.splitlines()))
        raise RuntimeError(f"generated {name} is not valid Python: {exc}\n{numbered}") from exc


def _format_many(sources: Mapping[str, str]) -> dict[str, str]:
    import threading

    names = sorted(sources, key=lambda n: -len(sources[n]))
    workers = min(len(names), os.cpu_count() or 1)
    # Forking a process that runs other threads can copy a held lock; stay serial then.
    if workers < 2 or threading.active_count() > 1 or sum(map(len, sources.values())) < 20_000:
        return {name: format_source(sources[name], name) for name in names}
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    import black  # noqa: F401  (imported once, before forking, so children share it)

    context = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        results = pool.map(format_source, [sources[n] for n in names], names)
        return dict(zip(names, results, strict=True))


def format_package(
    sources: Mapping[str, str],
    previous: Mapping[str, str],
    verbatim: frozenset[str] = frozenset(),
) -> dict[str, str]:
    """Formatted `.py` modules with digest lines; `verbatim` and non-Python files pass through."""
    out: dict[str, str] = {}
    pending: dict[str, str] = {}
    for name, source in sources.items():
        if not name.endswith(".py") or name in verbatim:
            out[name] = source
        elif reusable(previous.get(name), source):
            out[name] = previous[name]
        else:
            pending[name] = source
    for name, formatted in _format_many(pending).items():
        out[name] = _with_digest(formatted, _input_key(pending[name]))
    return dict(sorted(out.items()))
