"""Discriminators on `allOf` inheritance hierarchies: a base schema with a `discriminator` and
no `oneOf`/`anyOf`, extended by components whose `allOf` names it (PagerDuty's
`ContactMethod`). A field typed as the base takes `<Base>Union`, the extending models told
apart by the property; the base model stays for what merges it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..spec.tree import escape
from .schema_facts import SCHEMA_PREFIX


def hierarchies(document: Mapping[str, Any]) -> dict[str, tuple[str, dict[str, str]]]:
    """Base component ref -> (discriminator property, {extending component ref: tag value}).

    A tag is the discriminator mapping's key for the ref, else the component's name (OpenAPI's
    implicit mapping). Only components extending the base directly (`allOf: [{$ref: base}]`).
    """
    schemas = (document.get("components") or {}).get("schemas") or {}
    found: dict[str, tuple[str, dict[str, str]]] = {}
    for key, schema in schemas.items():
        disc = schema.get("discriminator") if isinstance(schema, dict) else None
        if not isinstance(disc, dict) or "oneOf" in schema or "anyOf" in schema:
            continue
        prop = disc.get("propertyName")
        if not isinstance(prop, str):
            continue
        base = SCHEMA_PREFIX + escape(key)
        mapping = disc.get("mapping")
        mapping = mapping if isinstance(mapping, dict) else {}
        tags = {(v if str(v).startswith("#") else SCHEMA_PREFIX + str(v)): str(k)
                for k, v in mapping.items()}
        extending: dict[str, str] = {}
        for other, sub in schemas.items():
            members = sub.get("allOf") if isinstance(sub, dict) else None
            # a schema adding nothing (`allOf: [{$ref: base}]` alone) is another name for it
            if isinstance(members, list) and (len(members) > 1 or sub.get("properties")) and any(
                    isinstance(m, dict) and m.get("$ref") == base for m in members):
                ref = SCHEMA_PREFIX + escape(other)
                extending[ref] = tags.get(ref, str(other))
        if extending:
            found[base] = (prop, extending)
    return found


def hierarchy_tags(found: Mapping[str, tuple[str, dict[str, str]]]
                   ) -> dict[tuple[str, str], list[str]]:
    """(extending component ref, property) -> its tag, in `discriminator_values`' form."""
    return {(ref, prop): [tag] for prop, extending in found.values()
            for ref, tag in extending.items()}
