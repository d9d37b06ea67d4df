"""Problems found in a spec: values with a level, collected and reported together.

SpecError (a spec or overlay cannot be used; it carries every Problem found) is a
ContractgenError: `errors` draws the whole hierarchy.

A Problem prints as one line, like a compiler diagnostic::

    FILE:LINE:COL: error: /json/pointer: message (hint: ...)

LINE and COL are 1-based; `FILE:LINE:` when the column is unknown and `FILE:` when the line is
unknown too. The pointer is an RFC 6901 JSON pointer into the file, `/` for the root. A WARNING
means the generated code is incomplete or guessed; an ERROR means nothing is generated.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Self

from .errors import ContractgenError


class Level(enum.Enum):
    """How bad a problem is."""

    WARNING = "warning"
    ERROR = "error"


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a spec, located by file, line, column and JSON pointer."""

    level: Level
    message: str
    file: str
    line: int | None
    col: int | None
    pointer: str
    hint: str | None = None

    @property
    def is_error(self) -> bool:
        """True for ERROR problems."""
        return self.level is Level.ERROR

    def format(self) -> str:
        """`FILE:LINE:COL: error: /pointer: message (hint: ...)`."""
        where = self.file
        if self.line is not None:
            where += f":{self.line}"
            if self.col is not None:
                where += f":{self.col}"
        text = f"{where}: {self.level.value}: {self.pointer or '/'}: {self.message}"
        if self.hint:
            text += f" (hint: {self.hint})"
        return text

    def sort_key(self) -> tuple[str, int, int, str, str]:
        """Order of appearance in the file, for stable reports."""
        return (self.file, self.line or 0, self.col or 0, self.pointer, self.message)


def sorted_problems(problems: Iterable[Problem]) -> list[Problem]:
    """Problems in file order, duplicates dropped."""
    return sorted(set(problems), key=Problem.sort_key)


def has_errors(problems: Iterable[Problem]) -> bool:
    """True when any problem is an ERROR."""
    return any(p.is_error for p in problems)


def format_problems(problems: Iterable[Problem]) -> str:
    """One formatted line per problem."""
    return "\n".join(p.format() for p in problems)


class SpecError(ContractgenError):
    """A spec or overlay cannot be used; `problems` holds everything found wrong (exit 1)."""

    def __init__(self, problems: Iterable[Problem]) -> None:
        self.problems: tuple[Problem, ...] = tuple(problems)
        super().__init__(format_problems(self.problems))

    @classmethod
    def at(cls, message: str, file: str, pointer: str = "", hint: str | None = None, *,
           line: int | None = None, col: int | None = None) -> Self:
        """The error of one ERROR problem in `file` (at `pointer`, `line`, `col` when known)."""
        return cls([Problem(Level.ERROR, message, file, line, col, pointer, hint)])
