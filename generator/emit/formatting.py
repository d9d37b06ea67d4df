"""Format generated sources with black, in memory, paying only for what changed.

black dominates a generator run, so three things keep its cost proportional to the change:

- Each module carries a digest line, `# contractgen-digest: <input> <output>`: `<input>` hashes the
  unformatted render and the black version, `<output>` hashes the formatted file without that
  line. When a committed file's digest names the same input and its text still hashes to the
  recorded output, it *is* what black would produce, so `check` and a repeated `generate` reuse it
  instead of formatting again. Any hand edit breaks the output hash and black runs as usual.
- Other modules are split into top-level blocks (emit/blocks.py) whose black output, joined with
  the blank lines black would put between them, is byte for byte black's output for the module.
  Each block's output is kept in a content-addressed cache (contractgen/cache.py) keyed by its
  unformatted text and the black and contractgen versions, so an edit re-formats only the
  definitions it changed.
- The blocks that do need black are formatted in parallel, one process per core.
"""

from __future__ import annotations

import functools
import hashlib
import os
from collections.abc import Mapping, Sequence
from importlib import metadata
from typing import Any

from ..cache import TextCache
from ..version import __version__
from . import blocks as _blocks

DIGEST_PREFIX = "# contractgen-digest: "
# Texts handed to black by this process (a test asserts the cache spares them).
BLACK_RUNS = 0


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


@functools.cache
def _mode() -> Any:
    from black.mode import Mode, TargetVersion

    return Mode(target_versions={TargetVersion.PY311})


def format_source(source: str, name: str = "<generated>") -> str:
    """black with the project's settings; a syntax error is a template bug and says where."""
    import black
    from black.parsing import InvalidInput

    try:
        return black.format_str(source, mode=_mode())
    except InvalidInput as exc:
        numbered = "\n".join(f"{i + 1:5}: {line}" for i, line in enumerate(source.splitlines()))
        raise RuntimeError(f"generated {name} is not valid Python: {exc}\n{numbered}") from exc


def _format_or_none(texts: Sequence[str]) -> list[str | None]:
    """black on each text; None for one black cannot parse (its module is formatted whole)."""
    out: list[str | None] = []
    for text in texts:
        try:
            out.append(format_source(text))
        except RuntimeError:
            out.append(None)
    return out


def _format_many(texts: Sequence[str]) -> list[str | None]:
    """black on every text, spread over one process per core when there is enough work."""
    import threading

    global BLACK_RUNS  # noqa: PLW0603  (a counter, read by the tests)
    BLACK_RUNS += len(texts)
    workers = min(len(texts), os.cpu_count() or 1)
    # Forking a process that runs other threads can copy a held lock; stay serial then.
    if workers < 2 or threading.active_count() > 1 or sum(map(len, texts)) < 20_000:
        return _format_or_none(texts)
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    import black  # noqa: F401  (imported once, before forking, so children share it)

    # Largest first, dealt round-robin into a few chunks per worker: balanced, few round trips.
    order = sorted(range(len(texts)), key=lambda i: -len(texts[i]))
    chunks = [order[start::workers * 4] for start in range(workers * 4)]
    chunks = [chunk for chunk in chunks if chunk]
    results: list[str | None] = [None] * len(texts)
    context = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        done = pool.map(_format_or_none, [[texts[i] for i in chunk] for chunk in chunks])
        for chunk, formatted in zip(chunks, done, strict=True):
            for index, text in zip(chunk, formatted, strict=True):
                results[index] = text
    return results


def _cache() -> TextCache:
    # The mode is part of the key: a changed setting must not serve blocks formatted without it.
    mode = _sha(_mode().get_cache_key())[:12]
    return TextCache(f"black-{metadata.version('black')}-{mode}-contractgen-{__version__}")


def format_modules(sources: Mapping[str, str]) -> dict[str, str]:
    """black's output for each module, block by block, reusing cached blocks."""
    plans = {name: _blocks.split(source) for name, source in sources.items()}
    units = {name: [b.text for b in plan] if plan is not None else [sources[name]]
             for name, plan in plans.items()}
    cache = _cache()
    keys = {text: cache.key(text) for texts in units.values() for text in texts}
    stored = cache.get_many(keys.values())
    done = {text: stored[key] for text, key in keys.items() if key in stored}
    missing = [text for text in keys if text not in done]
    fresh = dict(zip(missing, _format_many(missing), strict=True))
    cache.put_many({keys[text]: out for text, out in fresh.items() if out is not None})
    done.update({text: out for text, out in fresh.items() if out is not None})
    formatted = {}
    for name, plan in plans.items():
        if any(text not in done for text in units[name]):
            formatted[name] = format_source(sources[name], name)  # raises with the location
        elif plan is None:
            formatted[name] = done[sources[name]]
        else:
            formatted[name] = _blocks.join(plan, [done[text] for text in units[name]])
    return formatted


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
    for name, formatted in format_modules(pending).items():
        out[name] = _with_digest(formatted, _input_key(pending[name]))
    return dict(sorted(out.items()))
