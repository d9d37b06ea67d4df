"""Generated modules in black's layout, running black only where the emitter cannot vouch.

black (the pinned version, `black_mode()`) is the formatter of record: every module contractgen
writes is byte for byte what black makes of it. A module the built-in templates render is
written as rendered, except its UNSURE blocks, which black formats one by one (emit/vouch.py);
one rendered with user template overrides (`--templates`) is formatted whole. black is imported
only when it runs.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import Any

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


def format_package(
    sources: Mapping[str, str],
    verbatim: frozenset[str] = frozenset(),
    ready: Callable[[], None] | None = None,
    *,
    overridden: bool = False,
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
            out[name] = vouched(source, functools.partial(format_source, name=name))
    return dict(sorted(out.items()))
