"""`contractgen diff` on security: requirement lists (alternatives of schemes, with scopes)
and the security schemes they name."""

from __future__ import annotations

from collections.abc import Callable

from ..spec.tree import escape
from .operations import _alternatives, _honoured, _items, _Operation, _show_alt
from .rules import Json, Side, as_mapping, show

# `Report.add` as the walk calls it: rule id, breaking, direction, where, what, at=pointer.
Add = Callable[..., None]


def effective_security(doc: Side, op: _Operation) -> Json:
    return op.node["security"] if "security" in op.node else doc.data.get("security")


def compare_security(add: Add, old: Json, new: Json, *, prefix: str, where: str,
                     pointer: str) -> None:
    """Compare two security requirement lists: alternatives (OR) of schemes (AND)."""

    def say(rule: str, breaking: bool, what: str) -> None:
        add(f"{prefix}-{rule}", breaking, "security", where, what, at=pointer)

    olds, news = _alternatives(old), _alternatives(new)
    anonymous = frozenset[str]()
    lost_anonymous = anonymous in olds and anonymous not in news
    for key in sorted(olds.keys() - news.keys(), key=sorted):
        if not key:
            required = " or ".join(_show_alt(k) for k in sorted(news, key=sorted))
            say("security-added", True,
                f"credentials are now required ({required}), so anonymous callers are refused")
            continue
        kept = _honoured(olds[key], news)
        say("security-removed", not kept,
            f"the security requirement {_show_alt(key)} was removed" + (
                ", but what it granted still suffices" if kept
                else ", so clients authenticating with it are refused"))
    for key in sorted(news.keys() - olds.keys(), key=sorted):
        if not key:
            if not olds.keys() - news.keys():
                say("security-removed", False,
                    "anonymous access is now allowed, so credentials are simply not needed")
        elif not lost_anonymous:
            say("security-added", False,
                f"the security requirement {_show_alt(key)} was added as an alternative, so "
                "existing credentials still work")
    for key in sorted(olds.keys() & news.keys(), key=sorted):
        for scheme in sorted(key):
            added = sorted(news[key][scheme] - olds[key][scheme])
            removed = sorted(olds[key][scheme] - news[key][scheme])
            if added:
                say("security-scope-added", True,
                    f"the scopes {', '.join(added)} are now required for {scheme}, so tokens "
                    "without them are refused")
            if removed:
                say("security-scope-removed", False,
                    f"the scopes {', '.join(removed)} are no longer required for {scheme}, so "
                    "existing tokens still work")


def compare_schemes(add: Add, old_side: Side, new_side: Side) -> None:
    def schemes(doc: Side) -> dict[str, Json]:
        return dict(_items(as_mapping(doc.data.get("components")).get("securitySchemes")))

    olds, news = schemes(old_side), schemes(new_side)
    base = "/components/securitySchemes"
    for name in sorted(olds.keys() & news.keys()):
        old = as_mapping(old_side.resolve(olds[name], f"{base}/{escape(name)}")[0])
        new = as_mapping(new_side.resolve(news[name], f"{base}/{escape(name)}")[0])
        for field in ("type", "scheme", "in", "name"):
            if show(old.get(field)) != show(new.get(field)):
                add("api-security-component-changed", True, "security", f"security scheme {name}",
                    f"its {field} changed from {show(old.get(field))} to "
                    f"{show(new.get(field))}, so existing credentials are sent wrongly",
                    at=f"{base}/{escape(name)}/{field}")
