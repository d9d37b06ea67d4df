"""The JSON Schema 2020-12 keywords of `contractgen diff` beyond types, bounds and properties:
`contains`, `if`/`then`/`else`, `not`, `prefixItems`, `dependentRequired`/`dependentSchemas`,
`content*`, `propertyNames`, `patternProperties`, `unevaluated*`, `multipleOf`, `uniqueItems`,
and a `oneOf` becoming `anyOf` (its members no longer exclusive). Rule ids follow oasdiff's.

A keyword that constrains the value narrows what is accepted when it is added and widens it when
it is removed; where both sides have one, its subschema is compared like any other, except
`not` and `if`, whose subschemas work against the value (a change to them is a `changes`).
"""

from __future__ import annotations

from typing import Protocol

from ..spec.tree import escape
from .rules import Effect, Json, Site, View, _union, as_list, as_mapping, show

# keyword, id fragment, whether its subschema is compared in place (`not`/`if` work inverted)
_SUBSCHEMAS: tuple[tuple[str, str, bool], ...] = (
    ("contains", "contains", True),
    ("propertyNames", "property-names", True),
    ("if", "if", False),
    ("then", "then", True),
    ("else", "else", True),
    ("not", "not", False),
    ("contentSchema", "content-schema", True),
    ("unevaluatedProperties", "unevaluated-properties", True),
    ("unevaluatedItems", "unevaluated-items", True),
)
# keyword, id fragment, the name of one entry in a message
_SCHEMA_MAPS: tuple[tuple[str, str, str], ...] = (
    ("patternProperties", "pattern-property", "pattern property"),
    ("dependentSchemas", "dependent-schema", "dependent schema of"),
)


class SchemaDiff(Protocol):
    """What of `schema.SchemaDiff` the keyword rules use (a Protocol: no import circle)."""

    def emit(self, site: Site, rule_id: str, effect: Effect, what: str, pointer: str, *,
             why: str = "", breaking: bool | None = None) -> None: ...

    def compare(self, old: Json, new: Json, old_ptr: str, new_ptr: str, site: Site) -> None: ...


def compare_keywords(diff: SchemaDiff, o: View, n: View, site: Site) -> None:
    """Every keyword rule of this module on one pair of schema views."""
    for kw, name, in_place in _SUBSCHEMAS:
        _subschema(diff, o, n, site, (kw, name, in_place))
    for kw, name, what in _SCHEMA_MAPS:
        _schema_map(diff, o, n, site, (kw, name, what))
    _prefix_items(diff, o, n, site)
    _dependent_required(diff, o, n, site)
    _content(diff, o, n, site)
    _multiple_of(diff, o, n, site)
    _unique_items(diff, o, n, site)
    _exclusivity(diff, o, n, site)
    _extensible_enum(diff, o, n, site)


def _subschema(diff: SchemaDiff, o: View, n: View, site: Site,
               keyword: tuple[str, str, bool]) -> None:
    kw, name, in_place = keyword
    old, new = o.schema.get(kw), n.schema.get(kw)
    if old is None and new is None:
        return
    if old is None or new is None:
        # `if` alone constrains nothing, but with `then`/`else` beside it, it decides which applies
        action = "added" if old is None else "removed"
        effect: Effect = "changes" if kw == "if" else "narrows" if old is None else "widens"
        diff.emit(site, site.rule(f"{name}-{action}"), effect,
                  f"the {kw} subschema was {action}", n.pointer if old is None else o.pointer)
        return
    old_ptr, new_ptr = f"{o.pointer}/{kw}", f"{n.pointer}/{kw}"
    if in_place:
        diff.compare(old, new, old_ptr, new_ptr, site.child(f"<{kw}>"))
    elif show(old) != show(new):
        diff.emit(site, site.rule(f"{name}-changed"), "changes",
                  f"the {kw} subschema changed", new_ptr,
                  why=f"a change to `{kw}` moves which values are accepted both ways")


def _schema_map(diff: SchemaDiff, o: View, n: View, site: Site,
                keyword: tuple[str, str, str]) -> None:
    kw, name, what = keyword
    olds, news = as_mapping(o.schema.get(kw)), as_mapping(n.schema.get(kw))
    for key in sorted(olds.keys() - news.keys()):
        diff.emit(site, site.rule(f"{name}-removed"), "widens",
                  f"the {what} {show(key)} was removed", f"{o.pointer}/{kw}/{escape(key)}")
    for key in sorted(news.keys() - olds.keys()):
        diff.emit(site, site.rule(f"{name}-added"), "narrows",
                  f"the {what} {show(key)} was added", f"{n.pointer}/{kw}/{escape(key)}")
    for key in sorted(olds.keys() & news.keys()):
        diff.compare(olds[key], news[key], f"{o.pointer}/{kw}/{escape(key)}",
                     f"{n.pointer}/{kw}/{escape(key)}", site.child(f"<{kw} {key}>"))


def _prefix_items(diff: SchemaDiff, o: View, n: View, site: Site) -> None:
    olds, news = as_list(o.schema.get("prefixItems")), as_list(n.schema.get("prefixItems"))
    for index in range(len(news), len(olds)):
        diff.emit(site, site.rule("prefix-items-removed"), "widens",
                  f"the prefixItems schema at position {index} was removed",
                  f"{o.pointer}/prefixItems/{index}")
    for index in range(len(olds), len(news)):
        diff.emit(site, site.rule("prefix-items-added"), "narrows",
                  f"a prefixItems schema at position {index} was added",
                  f"{n.pointer}/prefixItems/{index}")
    for index in range(min(len(olds), len(news))):
        diff.compare(olds[index], news[index], f"{o.pointer}/prefixItems/{index}",
                     f"{n.pointer}/prefixItems/{index}", site.child(f"[{index}]"))


def _dependent_required(diff: SchemaDiff, o: View, n: View, site: Site) -> None:
    olds = as_mapping(o.schema.get("dependentRequired"))
    news = as_mapping(n.schema.get("dependentRequired"))
    for key in sorted(olds.keys() | news.keys()):
        old = {str(v) for v in as_list(olds.get(key))}
        new = {str(v) for v in as_list(news.get(key))}
        if old == new:
            continue
        action = ("added" if key not in olds else "removed" if key not in news else "changed")
        effect: Effect = ("narrows" if new > old else "widens" if new < old else "changes")
        diff.emit(site, site.rule(f"dependent-required-{action}"), effect,
                  f"what {show(key)} requires changed from {show(sorted(old))} to "
                  f"{show(sorted(new))}", f"{n.pointer}/dependentRequired")


def _content(diff: SchemaDiff, o: View, n: View, site: Site) -> None:
    for kw, name in (("contentMediaType", "content-media-type"),
                     ("contentEncoding", "content-encoding")):
        old, new = o.schema.get(kw), n.schema.get(kw)
        if old != new:
            diff.emit(site, site.rule(f"{name}-changed"), "changes",
                      f"the {kw} changed from {show(old)} to {show(new)}", n.pointer,
                      why="the string is encoded differently")


def _multiple_of(diff: SchemaDiff, o: View, n: View, site: Site) -> None:
    old, new = _number(o.schema.get("multipleOf")), _number(n.schema.get("multipleOf"))
    if old == new:
        return
    effect: Effect
    if old is None or new is None:
        action = "set" if old is None else "unset"
        effect = "narrows" if old is None else "widens"
    else:
        action = "changed"
        effect = ("narrows" if (new / old).is_integer() else
                  "widens" if (old / new).is_integer() else "changes")
    diff.emit(site, site.rule(f"multiple-of-{action}"), effect,
              f"the multipleOf changed from {show(old)} to {show(new)}", n.pointer)


def _unique_items(diff: SchemaDiff, o: View, n: View, site: Site) -> None:
    old, new = o.schema.get("uniqueItems") is True, n.schema.get("uniqueItems") is True
    if old != new:
        diff.emit(site, site.rule(f"unique-items-{'set' if new else 'unset'}"),
                  "narrows" if new else "widens",
                  f"the items {'must now' if new else 'need no longer'} be unique", n.pointer)


def _exclusivity(diff: SchemaDiff, o: View, n: View, site: Site) -> None:
    old, new = _union(o), _union(n)
    if old is None or new is None or old[0] == new[0]:
        return
    exclusive = new[0] == "oneOf"
    diff.emit(site, site.rule("one-of-became-any-of" if not exclusive else
                              "any-of-became-one-of"), "narrows" if exclusive else "widens",
              "the union's members became exclusive (anyOf -> oneOf), so a value matching two "
              "is rejected" if exclusive else
              "the union's members are no longer exclusive (oneOf -> anyOf), so a value may "
              "match several", n.pointer)


def _extensible_enum(diff: SchemaDiff, o: View, n: View, site: Site) -> None:
    """`x-extensible-enum` (Zalando's): values a client must expect more of; one removed no
    longer accepted in a request."""
    old = {show(v) for v in as_list(o.schema.get("x-extensible-enum"))}
    new = {show(v) for v in as_list(n.schema.get("x-extensible-enum"))}
    for value in sorted(old - new):
        diff.emit(site, site.rule("x-extensible-enum-value-removed"), "narrows",
                  f"the x-extensible-enum value {value} was removed", n.pointer)
    for value in sorted(new - old):
        diff.emit(site, site.rule("x-extensible-enum-value-added"), "widens",
                  f"the x-extensible-enum value {value} was added", n.pointer,
                  why="clients of an extensible enum expect values they do not know",
                  breaking=False)


def _number(value: Json) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
        return None
    return value
