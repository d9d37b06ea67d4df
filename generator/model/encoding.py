"""A form body's `encoding` as the generated code honours it: the fields in
deepObject style (Stripe: `metadata[key]=v`, `expand[0]=x`, `items[0][price]=p`), and a
located warning for each style it does not write."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..spec.tree import escape

Warn = Callable[[str, str], None]


def deep_fields(media: Any, kind: str, at: str, warn: Warn) -> frozenset[str]:
    """The wire names of a form body's fields whose `encoding` says `style: deepObject` (`at`:
    the media type object's pointer): in a multipart body too (as OpenAPI 3.1 reads `style`,
    and Stripe's file upload means it), each key its own text part. Any other style, or
    `explode: false`, is warned about: such a field is sent as repeated keys (`a=1&a=2`)."""
    encoding = media.get("encoding") if isinstance(media, dict) else None
    if kind not in ("form", "multipart") or not isinstance(encoding, dict):
        return frozenset()
    deep = set()
    for wire, spec in encoding.items():
        if not isinstance(spec, dict):
            continue
        style = spec.get("style", "form")
        if style == "deepObject":
            deep.add(str(wire))
        elif style != "form" or spec.get("explode") is False:
            warn(f"form field `{wire}`: encoding style `{style}` (explode "
                 f"{str(spec.get('explode', style == 'form')).lower()}) is not written: the "
                 "field is sent as `form` explodes it (repeated keys)",
                 f"{at}/encoding/{escape(str(wire))}")
    return frozenset(deep)
