"""Generated modules in black's layout, running black only where the emitter cannot vouch.

black (the pinned version, `black_mode()`) is the formatter of record: every module contractgen
writes is byte for byte what black makes of it. A module the built-in templates render is
written as rendered, except its UNSURE blocks, which black formats one by one (emit/vouch.py);
one rendered with user template overrides (`--templates`) is formatted whole. black is imported
only when it runs, and an UNSURE block's output is kept in the cache (cache.py) by its text: a
regeneration of a contract whose modules have some (Box: 6) formats and imports nothing
(measured: Box's one-field regeneration 2.0 s without it, as a cold run; see the issue 29 report).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import Any

from ..cache import TextCache, version_of
from ..version import __version__
from .vouch import vouched


@functools.cache
def black_mode() -> Any:
    """black's Mode for generated code, the one every format call uses."""
    from black.mode import Mode, TargetVersion

    return Mode(target_versions={TargetVersion.PY311})


def format_source(source: str, name: str = "<generated>") -> str:
    """black with the project's settings; a syntax error is a template bug and says where."""
    import black
    from black.parsing import InvalidInput

    try:
        return black.format_str(source, mode=black_mode())
    except InvalidInput as exc:
        numbered = "\n".join(f"{i + 1:5}: {line}" for i, line in enumerate(source.splitlines()))
        raise RuntimeError(f"generated {name} is not valid Python: {exc}\n{numbered}") from exc


def format_package(sources: Mapping[str, str], verbatim: frozenset[str] = frozenset(),
                   ready: Callable[[], None] | None = None, *, overridden: bool = False
                   ) -> dict[str, str]:
    """Each `.py` module in black's layout: vouched for (`vouch.vouched`), or formatted whole
    when `overridden` (rendered with user template overrides); `verbatim` modules and other
    files as they are. `ready` is called first: the caller's last chance to refuse (an invalid
    contract) before anything is formatted."""
    if ready is not None:
        ready()
    out = {}
    for name, source in sources.items():
        if not name.endswith(".py") or name in verbatim:
            out[name] = source
        elif overridden:
            out[name] = format_source(source, name)
        else:
            out[name] = vouched(source, functools.partial(_cached, name=name))
    return dict(sorted(out.items()))


def _cached(block: str, name: str) -> str:
    """black's output for an UNSURE block, from the cache when a run before formatted it."""
    cache = TextCache(f"black-{version_of('black')}-py311-contractgen-{__version__}")
    key = cache.key(block)
    formatted = cache.get(key)
    if formatted is None:
        formatted = format_source(block, name)
        cache.put_many({key: formatted})
    return formatted
