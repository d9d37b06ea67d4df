"""Where the nodes of a loaded document were written (`loader` for JSON, `yamltext` for YAML)."""

from __future__ import annotations


class Pos:
    """Where one node was written (1-based), with the positions of its children."""

    __slots__ = ("children", "col", "line")

    def __init__(
        self, line: int, col: int, children: dict[str, Pos] | list[Pos] | None = None
    ) -> None:
        self.line = line
        self.col = col
        self.children = children
