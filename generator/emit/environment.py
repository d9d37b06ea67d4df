"""The Jinja environment the templates render in, and the built-in templates compiled ahead of
time, so that a run with an empty cache does not compile them.

Jinja turns a template into Python source before it can render it: ~0.2 s of pure Python for the
built-in templates, a fifth of a seed contract's cold `generate` and paid again by every run
whose cache folder is new (a CI container). `templates/_compiled/` holds that source for each
built-in template, as Jinja's own `compile_templates` writes it (`defer_init`, the form
`jinja2.ModuleLoader` loads). Where Jinja would compile a template (its bytecode cache missed)
it compiles that Python instead, and caches its bytecode as usual.

Each file records the key of what it was compiled from (`KEY`: Jinja's version, the settings
that change what it compiles, the template's text). A file whose key does not match the
template it stands for is ignored and the template is compiled as before, so a stale or
missing file costs time, never output; `tests/test_precompiled.py` keeps them current and
`make regen` (`python -m contractgen.emit.environment`) rewrites them.
"""

from __future__ import annotations

import functools
import hashlib
import sys
from pathlib import Path
from typing import Any

from ..model.literal import literal
from . import blackstyle, model_groups, source
from .docs import operation_doc
from .imports import ImportSet, all_key, operation_types
from .templates import templates_dir

BUILTIN_PREFIX = "builtin/"

FOLDER = "_compiled"
HEADER = "# Template "
# The Environment settings that change the Python Jinja writes for a template.
SETTINGS = ("block_start_string", "block_end_string", "variable_start_string",
            "variable_end_string", "comment_start_string", "comment_end_string",
            "line_statement_prefix", "line_comment_prefix", "trim_blocks", "lstrip_blocks",
            "newline_sequence", "keep_trailing_newline", "autoescape", "optimized", "is_async")


@functools.cache
def bytecode_cache() -> Any:
    """Compiled templates under the cache folder: Jinja keys each by its name and source
    checksum; written atomically, as contractgen/cache.py."""
    import os
    import tempfile

    import jinja2

    from ..cache import cache_root

    if os.environ.get("CONTRACTGEN_NO_CACHE", "") not in ("", "0"):
        return None
    folder = cache_root() / f"jinja-{jinja2.__version__}"

    class AtomicCache(jinja2.FileSystemBytecodeCache):
        def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
            try:
                folder.mkdir(parents=True, exist_ok=True)
                fd, temp = tempfile.mkstemp(dir=folder, prefix=".tmp-")
                with os.fdopen(fd, "wb") as handle:
                    bucket.write_bytecode(handle)
                os.replace(temp, self._get_cache_filename(bucket))
            except OSError:
                pass

    return AtomicCache(str(folder))


@functools.cache
def _environment_class() -> Any:
    import jinja2

    class Environment(jinja2.Environment):
        """Takes a template's code from its precompiled module when there is a current one
        (`precompiled_code`): where Jinja would compile it, after its bytecode cache missed."""

        def compile(self, source: Any, name: str | None = None, filename: str | None = None,
                    raw: bool = False, defer_init: bool = False) -> Any:
            if not raw and name is not None and isinstance(source, str):
                code = precompiled_code(self, name, source, filename)
                if code is not None:
                    return code
            base: Any = super()  # jinja2's overloads of compile(), by `raw`
            return base.compile(source, name, filename, raw, defer_init)

    return Environment


def environment_of(overrides: str | None = None) -> Any:
    """The Jinja environment; templates in `overrides` replace the built-in ones by name.

    Every built-in template also answers as `builtin/NAME`, so an override can
    `{% extends "builtin/models.py.jinja" %}` and replace one `{% block %}` only.
    """
    import jinja2

    builtin = jinja2.FileSystemLoader(str(templates_dir()))
    loaders: list[jinja2.BaseLoader] = [jinja2.PrefixLoader({BUILTIN_PREFIX[:-1]: builtin})]
    if overrides is not None:
        loaders.append(jinja2.FileSystemLoader(overrides))
    env = _environment_class()(
        loader=jinja2.ChoiceLoader([*loaders, builtin]), undefined=jinja2.StrictUndefined,
        trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True, autoescape=False,
        bytecode_cache=bytecode_cache(),
        extensions=["jinja2.ext.do"])  # `{% do imports.name(...) %}`: what a template imports
    env.filters["pyrepr"] = literal
    env.filters["entries"] = lambda pairs, values=False: [
        f"{literal(k)}: {literal(v) if values else v}" for k, v in pairs]
    env.globals.update(laid=blackstyle.laid, define=blackstyle.define, group=blackstyle.call,
                       annotated=blackstyle.annotated, assignment=blackstyle.assignment,
                       statement=blackstyle.statement, value=blackstyle.value,
                       typed=blackstyle.typed, braced=blackstyle.braced,
                       import_set=ImportSet, name_set=set, operation_types=operation_types,
                       definition_imports=model_groups.definition_imports)
    env.filters["all_list"] = lambda names: literal(sorted(names, key=all_key))
    env.filters["all_statement"] = lambda names: blackstyle.laid(
        "", "__all__ = ", "[", [literal(n) for n in sorted(names, key=all_key)], closer="]")
    env.filters["tuple"] = tuple
    env.filters["subscript"] = blackstyle.subscript
    env.filters["server_tuple"] = lambda server: (server.url, dict(server.variables))
    env.filters["docstring"] = blackstyle.docstring
    env.filters["comment"] = lambda text: "\n".join(
        ("# " + line).rstrip() for line in str(text).splitlines())
    env.filters["py"] = source.type_source
    env.filters["enum_bases"] = lambda enum: ", ".join(source.ENUM_BASES[enum.value_type])
    env.filters["class_line"] = blackstyle.class_line
    env.filters["enum_class_line"] = lambda enum: blackstyle.class_line(
        enum.name, source.ENUM_BASES[enum.value_type])
    env.filters["field_annotation"] = source.field_annotation
    env.filters["field_statement"] = source.field_statement
    env.filters["class_constant"] = lambda items, name, annotation, function: (
        source.class_constant(name, annotation, function, list(items)))
    env.filters["operation_doc"] = operation_doc
    env.filters["firstline"] = lambda text: blackstyle.docstring(str(text).strip().splitlines()[0])
    return env


# -- precompiled templates ---------------------------------------------------------------------
def template_key(environment: Any, text: str) -> str:
    """What a compiled module is compiled from: Jinja's version, `environment`'s settings, the
    template's text."""
    import jinja2

    settings = [(name, getattr(environment, name, None)) for name in SETTINGS]
    keyed = f"jinja2 {jinja2.__version__}\0{settings!r}\0{text}"
    return hashlib.sha256(keyed.encode()).hexdigest()[:32]


def compiled_path(name: str, folder: Path | None = None) -> Path:
    return (folder or templates_dir()) / FOLDER / (name.replace("/", "__") + ".py")


def precompiled_code(environment: Any, name: str, text: str, filename: str | None) -> Any:
    """The code of template `name` from its precompiled module, or None when there is none for
    its `text` as it is now (or the module is damaged)."""
    try:
        module = compiled_path(name).read_text(encoding="utf-8")
    except (OSError, ValueError):
        return None
    if module.split("\n", 2)[1:2] != [f"KEY = {template_key(environment, text)!r}"]:
        return None
    try:
        return compile(module, filename or name, "exec")
    except (SyntaxError, ValueError):
        return None


def builtin_templates(folder: Path | None = None) -> list[str]:
    """The built-in Jinja templates (the copier project's are copier's, not ours)."""
    return sorted(p.name for p in (folder or templates_dir()).iterdir()
                  if p.suffix == ".jinja" and p.is_file())


def compiled_source(environment: Any, name: str) -> str:
    """The module `templates/_compiled/` holds for `name`."""
    text, filename, _ = environment.loader.get_source(environment, name)
    code = environment.compile(text, name, filename, raw=True, defer_init=True)
    return (f"{HEADER}{name}, compiled by Jinja; written by `make regen`. DO NOT EDIT.\n"
            f"KEY = {template_key(environment, text)!r}\n{code}\n")


def write_all(folder: Path | None = None) -> list[Path]:
    """(Re)write the compiled module of every template of `folder` (default: the built-in ones);
    remove the modules this wrote for templates that are gone. Returns the files written."""
    import jinja2

    folder = folder or templates_dir()
    # the generator's environment (its filters are checked as a template compiles), reading `folder`
    environment = environment_of().overlay(loader=jinja2.FileSystemLoader(str(folder)))
    target = folder / FOLDER
    target.mkdir(exist_ok=True)
    names = builtin_templates(folder)
    written = []
    for name in names:
        path = compiled_path(name, folder)
        text = compiled_source(environment, name)
        if not path.is_file() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
            written.append(path)
    expected = {compiled_path(name, folder).name for name in names}
    for stale in target.glob("*.py"):
        if stale.name not in expected and stale.read_text(encoding="utf-8").startswith(HEADER):
            stale.unlink()
    return written


if __name__ == "__main__":
    for written_path in write_all():
        print(f"wrote {written_path}", file=sys.stderr)
