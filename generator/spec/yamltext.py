"""YAML text to plain data and positions, for `loader` (which imports it only for YAML).

PyYAML's composer (the C one when libyaml is there) builds the node tree; `_Builder` turns it
into JSON-compatible data, mapping keys as written and timestamps as strings, with the line and
column of every node.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

import yaml

from ..problems import SpecError
from .positions import Pos

_TAG = "tag:yaml.org,2002:"


class _Loader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # type: ignore[misc]
    """PyYAML's loader with YAML 1.2's core schema, as OpenAPI 3.x requires: `on`, `NO`,
    `18:00` and `2020-01-01` are strings (1.1 read them as True, False, 1080 and a date).
    https://yaml.org/spec/1.2.2/#1032-tag-resolution"""

    yaml_implicit_resolvers: ClassVar[dict[str, list[tuple[str, re.Pattern[str]]]]] = {}


CORE_SCHEMA: tuple[tuple[str, str, list[str]], ...] = (
    ("merge", r"^<<$", ["<"]),  # not 1.2's, but contracts use `<<: *base` (and 1.2 reads it)
    ("null", r"^(?:~|null|Null|NULL|)$", ["~", "n", "N", ""]),
    ("bool", r"^(?:true|True|TRUE|false|False|FALSE)$", list("tTfF")),
    ("int", r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$", list("-+0123456789")),
    ("float", r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
              r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$", list("-+.0123456789")),
)
for _tag, _pattern, _first in CORE_SCHEMA:
    _Loader.add_implicit_resolver(_TAG + _tag, re.compile(_pattern), _first)


def _int(node: yaml.ScalarNode) -> int:
    text = node.value
    if text.startswith(("0o", "0x")):
        return int(text[2:], 8 if text[1] == "o" else 16)
    return int(text, 10)


def _float(node: yaml.ScalarNode) -> float:
    text = node.value.lower().replace(".inf", "inf").replace(".nan", "nan")
    return float(text)


_CONSTRUCT: dict[str, Callable[[yaml.ScalarNode], Any]] = {
    _TAG + "int": _int,
    _TAG + "float": _float,
    _TAG + "bool": lambda node: {"true": True, "false": False}[node.value.lower()],
    _TAG + "null": lambda node: None,
}
_YAML_HINTS = (
    ("(a tab)", "indent with spaces; YAML does not allow tabs for indentation"),
    ("'\\t'", "indent with spaces; YAML does not allow tabs for indentation"),
    ("mapping values are not allowed", "quote the value if it contains ': ', or fix the indentation"),
    ("could not find expected ':'", "a key needs ': ' after it; check the line above for an unclosed quote"),
    ("did not find expected key", "check the indentation of this line against its siblings"),
    ("expected <block end>", "check the indentation of this line against its siblings"),
    ("found undefined alias", "define the anchor (&name) before using the alias (*name)"),
    ("found unexpected end of stream", "a quote or bracket is not closed"),
    ("expected a single document", "a spec is one YAML document; remove the '---' separator"),
)


def parse_yaml(text: str, path: str | Path) -> tuple[Any, Pos | None]:
    try:
        root = yaml.compose(text, Loader=_Loader)
    except yaml.MarkedYAMLError as exc:
        raise _yaml_error(exc, path, text) from exc
    except yaml.YAMLError as exc:  # unmarked: reader errors such as control characters
        raise SpecError.at(f"YAML syntax error: {exc}", str(path)) from exc
    if root is None:
        return None, Pos(1, 1)
    data, children = _Builder(path).build(root)
    return data, Pos(root.start_mark.line + 1, root.start_mark.column + 1, children)


class _Builder:
    """Turns a composed YAML node tree into plain data and a parallel tree of positions."""

    def __init__(self, path: str | Path) -> None:
        self.path = path
        self.done: dict[int, tuple[Any, Any]] = {}
        self.active: set[int] = set()

    def build(self, node: yaml.Node) -> tuple[Any, Any]:
        if isinstance(node, yaml.ScalarNode):
            return self.scalar(node), None
        key = id(node)
        if key in self.done:  # an alias: the anchored node again
            return self.done[key]
        if key in self.active:
            raise self.fail(node, "an alias refers to a node that contains it",
                            "YAML anchors cannot be recursive in a spec; use $ref")
        self.active.add(key)
        result: tuple[Any, Any]
        if isinstance(node, yaml.SequenceNode):
            result = self.sequence(node)
        elif isinstance(node, yaml.MappingNode):
            result = self.mapping(node)
        else:  # pragma: no cover - the composer makes only these three kinds
            raise TypeError(node)
        self.active.discard(key)
        self.done[key] = result
        return result

    def sequence(self, node: yaml.SequenceNode) -> tuple[list[Any], list[Pos]]:
        if node.tag != _TAG + "seq":
            raise self.fail(node, f"unsupported YAML tag {node.tag}", "remove the tag")
        items: list[Any] = []
        positions: list[Pos] = []
        for item in node.value:
            value, children = self.build(item)
            items.append(value)
            positions.append(Pos(item.start_mark.line + 1, item.start_mark.column + 1, children))
        return items, positions

    def mapping(self, node: yaml.MappingNode) -> tuple[dict[str, Any], dict[str, Pos]]:
        if node.tag != _TAG + "map":
            raise self.fail(node, f"unsupported YAML tag {node.tag}", "remove the tag")
        obj: dict[str, Any] = {}
        positions: dict[str, Pos] = {}
        merges: list[yaml.Node] = []
        for key_node, value_node in node.value:
            if key_node.tag == _TAG + "merge":
                merges.append(value_node)
                continue
            if not isinstance(key_node, yaml.ScalarNode):
                raise self.fail(key_node, "a mapping key must be a plain value, not a "
                                f"{'list' if isinstance(key_node, yaml.SequenceNode) else 'mapping'}")
            key = key_node.value  # as written: `200:` is "200", `1.0:` is "1.0"
            if key in obj:
                first = positions[key].line
                raise self.fail(key_node, f"duplicate key {key!r} (first at line {first})",
                                "remove one of them; YAML would silently keep the last")
            value, children = self.build(value_node)
            obj[key] = value
            start = key_node.start_mark
            positions[key] = Pos(start.line + 1, start.column + 1, children)
        # `<<: *base` merge keys: explicit keys win, whatever their order.
        for merge in merges:
            sources = merge.value if isinstance(merge, yaml.SequenceNode) else [merge]
            for source in sources:
                value, children = self.build(source)
                if not isinstance(value, dict):
                    raise self.fail(source, "a merge key (<<) takes a mapping or a list of mappings")
                for key, item in value.items():
                    if key not in obj:
                        obj[key] = item
                        positions[key] = children[key]
        return obj, positions

    def scalar(self, node: yaml.ScalarNode) -> Any:
        tag = node.tag
        if tag == _TAG + "str" or tag == _TAG + "timestamp":
            return node.value
        construct = _CONSTRUCT.get(tag)
        if construct is None:
            raise self.fail(node, f"unsupported YAML tag {tag}", "quote the value, or remove the tag")
        try:
            return construct(node)
        except (ValueError, KeyError):  # an explicit tag on another value: `!!int abc`
            raise self.fail(node, f"{node.value!r} is not a YAML 1.2 {tag[len(_TAG):]}",
                            "quote the value, or remove the tag") from None

    def fail(self, node: yaml.Node, message: str, hint: str | None = None) -> SpecError:
        mark = node.start_mark
        return SpecError.at(message, str(self.path), hint=hint, line=mark.line + 1,
                            col=mark.column + 1)


def _yaml_error(exc: yaml.MarkedYAMLError, path: str | Path, text: str) -> SpecError:
    mark = exc.problem_mark or exc.context_mark
    problem = exc.problem or exc.context or "invalid YAML"
    message = f"YAML syntax error: {problem}"
    if exc.context and exc.context_mark and exc.problem:
        message += f" ({exc.context} at line {exc.context_mark.line + 1})"
    lines = text.splitlines()
    if mark and mark.line < len(lines) and lines[mark.line][mark.column : mark.column + 1] == "\t":
        message += " (a tab)"  # libyaml does not name the character
    hint = next((h for needle, h in _YAML_HINTS if needle in message), None)
    line, col = (mark.line + 1, mark.column + 1) if mark else (None, None)
    return SpecError.at(message, str(path), hint=hint, line=line, col=col)
