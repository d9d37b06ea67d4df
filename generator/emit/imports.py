"""Import blocks for generated modules, ordered the way ruff's isort rules expect."""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable

from ..model.ir import Operation
from ..model.typeref import TypeRef
from .blackstyle import LINE_LENGTH


def name_key(name: str) -> tuple[int, tuple[tuple[str, int], ...], str]:
    # isort's order-by-type: CONSTANTS, then Classes, then functions/modules; within each,
    # case-insensitively in natural order (`File2` before `File10`: ruff's I001 and RUF022),
    # as written on a tie.
    group = 0 if name.isupper() and len(name) > 1 else 1 if name[:1].isupper() else 2
    return (group, _natural(name.lower()), name)


def all_key(name: str) -> tuple[int, tuple[tuple[str, int], ...], str]:
    # ruff's RUF022 for `__all__`: the same groups, then natural order, case-sensitively
    # (`SignRequestSignFiles` before `SignRequestSigner`, `SignRequestStatus` before `SignRequests`).
    return (name_key(name)[0], _natural(name), name)


def _natural(text: str) -> tuple[tuple[str, int], ...]:
    """`text` as (letters, number) runs, so digit runs compare by value."""
    parts = re.split(r"(\d+)", text)
    return tuple((parts[i], int(parts[i + 1]) if i + 1 < len(parts) else -1)
                 for i in range(0, len(parts), 2))


class ImportSet:
    """Collects `import m` and `from m import n` statements and prints them in sections."""

    def __init__(self) -> None:
        self._modules: set[str] = set()
        self._names: dict[str, set[str]] = {}

    def module(self, *names: str) -> ImportSet:
        self._modules.update(names)
        return self

    def names(self, module: str, names: Iterable[str]) -> ImportSet:
        self._names.setdefault(module, set()).update(names)
        return self

    def name(self, module: str, *names: str) -> ImportSet:
        return self.names(module, names)

    def types(self, refs: Iterable[TypeRef]) -> ImportSet:
        """Adds what the type expressions `refs` name (`add_type_names`)."""
        for ref in refs:
            add_type_names(self, ref.names())
        return self

    def has(self, module: str, name: str) -> bool:
        return name in self._names.get(module, ())

    def render(self, indent: int = 0) -> str:
        """The import block, its lines laid out for `indent` columns more (`if TYPE_CHECKING:`)."""
        sections: list[list[str]] = [[], [], [], []]  # future, stdlib, third party, local
        for module in sorted(self._modules, key=str.lower):
            sections[self._section(module)].append(f"import {module}")
        for module in sorted(self._names, key=lambda m: m.lower()):
            names = sorted(self._names[module], key=name_key)
            if not names:
                continue
            line = f"from {module} import {', '.join(names)}"
            if indent + len(line) > LINE_LENGTH:  # black's layout of a long import: one per line
                line = "\n".join([f"from {module} import (", *(f"    {n}," for n in names), ")"])
            sections[self._section(module)].append(line)
        return "\n\n".join("\n".join(lines) for lines in sections if lines)

    __str__ = render  # a template writes `{{ imports }}`

    @staticmethod
    def _section(module: str) -> int:
        if module == "__future__":
            return 0
        if module.startswith("."):
            return 3
        return 1 if module.split(".", maxsplit=1)[0] in sys.stdlib_module_names else 2


def add_type_names(imports: ImportSet, names: Iterable[str]) -> None:
    """Imports for the names a rendered type expression uses."""
    for name in names:
        if name in ("Any", "Literal", "Annotated"):
            imports.name("typing", name)
        elif name in ("Field", "AfterValidator"):
            imports.name("pydantic", name)
        elif name in ("OpenUnion", "UnknownMember"):
            imports.name("._enums", name)
        elif "." in name:
            imports.module(name.split(".")[0])
        elif name == "Decimal":
            imports.name("decimal", "Decimal")


def operation_types(op: Operation, *, server: bool = False) -> Iterable[TypeRef]:
    """The types an operation's parameters, body and success responses name; `server`: the
    responses' as the server spells them, every media type's, unions closed
    (`source.response_source`), not the client's open ones (`model.unions`)."""
    for param in (*op.path_params, *op.keyword_params):
        yield param.type.bare()
    if op.body is not None:
        if op.body.type is not None:
            yield op.body.type
        for field in op.body.form_fields:
            yield field.type.bare()
    for response in op.success:
        if server and response.representations:
            yield from (rep.type.closed() for rep in response.representations if rep.type)
        elif response.type is not None:
            yield response.type
        for header in response.headers:  # typed fields of the headers dataclass
            yield header.type
