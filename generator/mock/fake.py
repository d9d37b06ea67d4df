"""Values made up from a JSON Schema: formats, bounds, patterns and enums honoured.

`Faker(spec).value(schema, rng)` walks the schema (local `$ref`s followed, `allOf` merged, the
first fitting member of `oneOf`/`anyOf` by the rng's choice) and draws every choice from `rng`
alone, so a value depends only on the seed it was given. Whether the value is valid is
`answers`' business: it validates each answer against the declared schema and draws again.
"""

from __future__ import annotations

import base64
import datetime
import random
import uuid
from collections.abc import Mapping
from typing import Any

from ..model.schema_facts import deref
from .regex import matches
from .regex import sample as sample_pattern

_EPOCH = datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC)
_WORDS = ("alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india",
          "juliet", "kilo", "lima", "mike", "november", "oscar", "papa")
_MAX_DEPTH = 6


def _instant(rng: random.Random) -> datetime.datetime:
    return _EPOCH + datetime.timedelta(seconds=rng.randrange(0, 365 * 86400))


def _formatted(fmt: str, rng: random.Random) -> str | None:
    """A string of the format `fmt`, or None for a format this does not know."""
    word = rng.choice(_WORDS)
    made: dict[str, Any] = {
        "uuid": lambda: str(uuid.UUID(int=rng.getrandbits(128), version=4)),
        "date-time": lambda: _instant(rng).isoformat().replace("+00:00", "Z"),
        "date": lambda: _instant(rng).date().isoformat(),
        "time": lambda: _instant(rng).time().isoformat() + "Z",
        "email": lambda: f"{word}{rng.randrange(100)}@example.com",
        "idn-email": lambda: f"{word}{rng.randrange(100)}@example.com",
        "uri": lambda: f"https://example.com/{word}/{rng.randrange(1000)}",
        "url": lambda: f"https://example.com/{word}/{rng.randrange(1000)}",
        "iri": lambda: f"https://example.com/{word}",
        "uri-reference": lambda: f"/{word}/{rng.randrange(1000)}",
        "hostname": lambda: f"{word}.example.com",
        "ipv4": lambda: ".".join(str(rng.randrange(1, 255)) for _ in range(4)),
        "ipv6": lambda: ":".join(f"{rng.randrange(65536):x}" for _ in range(8)),
        "byte": lambda: base64.b64encode(word.encode()).decode(),
        "binary": lambda: word,
        "password": lambda: f"{word}-{rng.randrange(10**6)}",
        "duration": lambda: f"PT{rng.randrange(1, 60)}M",
    }
    return made[fmt]() if fmt in made else None


class Faker:
    """Makes values from the schemas of one contract (`spec`, its `$ref`s local)."""

    def __init__(self, spec: Mapping[str, Any]) -> None:
        self.spec = spec
        self.is_31 = str(spec.get("openapi", "")).startswith("3.1")

    def value(self, schema: Any, rng: random.Random, *, depth: int = 0,
              reading: bool = True) -> Any:
        """A value of `schema`; `reading`: an answer's (writeOnly properties left out)."""
        made = self._value(schema, rng, depth, reading)
        merged = self.merged(schema)
        if "oneOf" in merged or "anyOf" in merged:  # tagged by the member chosen
            return made
        return _tagged(deref(self.spec, schema), merged, made, schema)  # an allOf's subclass

    def _value(self, schema: Any, rng: random.Random, depth: int, reading: bool) -> Any:
        schema = self.merged(schema)
        if "const" in schema:
            return schema["const"]
        if isinstance(schema.get("enum"), list) and schema["enum"]:
            choices = [v for v in schema["enum"] if v is not None] or schema["enum"]
            return rng.choice(choices)
        for key in ("oneOf", "anyOf"):
            members = schema.get(key)
            if isinstance(members, list) and members:
                chosen = rng.choice(members)
                member = self.merged(chosen)
                local = {k: v for k, v in schema.items()
                         if k not in ("oneOf", "anyOf", "discriminator")}
                made = self.value({**local, **member}, rng, depth=depth, reading=reading)
                return _tagged(schema, schema, made, chosen)
        kind = self._kind(schema, rng)
        if kind == "object":
            return self._object(schema, rng, depth, reading)
        if kind == "array":
            return self._array(schema, rng, depth, reading)
        if kind == "string":
            return self._string(schema, rng)
        if kind in ("integer", "number"):
            return self._number(schema, rng, integer=kind == "integer")
        if kind == "boolean":
            return rng.random() < 0.5
        if kind == "null":
            return None
        return rng.choice(_WORDS)

    def merged(self, schema: Any) -> dict[str, Any]:
        """`schema` with `$ref`s followed and `allOf` folded into one mapping."""
        schema = deref(self.spec, schema)
        parts = schema.get("allOf")
        if not isinstance(parts, list):
            return dict(schema)
        out: dict[str, Any] = {k: v for k, v in schema.items() if k != "allOf"}
        for part in parts:
            part = self.merged(part)
            for key, value in part.items():
                if key == "properties":
                    out["properties"] = {**out.get("properties", {}), **value}
                elif key == "required":
                    out["required"] = list(dict.fromkeys([*out.get("required", []), *value]))
                else:
                    out.setdefault(key, value)
        return out

    def _kind(self, schema: Mapping[str, Any], rng: random.Random) -> str:
        kind = schema.get("type")
        if isinstance(kind, list):
            kinds = [k for k in kind if k != "null"] or ["null"]
            return str(kinds[0])
        if isinstance(kind, str):
            return kind
        if "properties" in schema or "additionalProperties" in schema:
            return "object"
        if "items" in schema:
            return "array"
        return "string"

    def _object(self, schema: Mapping[str, Any], rng: random.Random, depth: int,
                reading: bool) -> dict[str, Any]:
        props = schema.get("properties") or {}
        required = set(schema.get("required") or ())
        out: dict[str, Any] = {}
        for name in sorted(props):
            prop = self.merged(props[name])
            hidden = prop.get("writeOnly") if reading else prop.get("readOnly")
            if (hidden and not reading) or (
                    name not in required and (hidden or depth >= _MAX_DEPTH)):
                continue  # a request carries no readOnly member, required or not
            made = self.value(prop, rng, depth=depth + 1, reading=reading)
            pattern = prop.get("pattern")
            if (name not in required and isinstance(made, str) and isinstance(pattern, str)
                    and not matches(pattern, made)):
                continue  # an optional string no value fits (`^[]$`): left out
            out[name] = made
        for name in sorted(required - set(out) - set(props)):  # required and not described
            out[name] = rng.choice(_WORDS)
        extra = schema.get("additionalProperties")
        wanted = int(schema.get("minProperties") or 0)
        while len(out) < wanted:
            more = self.value(extra, rng, depth=depth + 1) if isinstance(extra, dict) else "x"
            out[f"{rng.choice(_WORDS)}{len(out)}"] = more
        return out

    def _array(self, schema: Mapping[str, Any], rng: random.Random, depth: int,
               reading: bool) -> list[Any]:
        low = int(schema.get("minItems") or 0)
        high = int(schema.get("maxItems", low + 2))
        count = min(max(low, 1 if depth < _MAX_DEPTH else 0), high) if high >= low else low
        count = rng.randint(count, min(high, max(count, low + 2)))
        items = schema.get("items") if isinstance(schema.get("items"), dict) else {}
        out: list[Any] = []
        for _ in range(count * 4):
            if len(out) == count:
                break
            item = self.value(items, rng, depth=depth + 1, reading=reading)
            if not schema.get("uniqueItems") or item not in out:
                out.append(item)
        return out

    def _string(self, schema: Mapping[str, Any], rng: random.Random) -> str:
        low = int(schema.get("minLength") or 0)
        high = int(schema.get("maxLength", max(low, 10**6)))
        pattern = schema.get("pattern")
        if isinstance(pattern, str):
            made = sample_pattern(pattern, rng)
            if made is not None and low <= len(made) <= high:
                return made
        text = _formatted(str(schema.get("format", "")), rng)
        if text is None:
            text = f"{rng.choice(_WORDS)}-{rng.randrange(10000)}"
        if len(text) < low:
            text = (text + "x" * low)[:low]
        return text[:high] if len(text) > high else text

    def _number(self, schema: Mapping[str, Any], rng: random.Random, *, integer: bool) -> Any:
        low, high = schema.get("minimum"), schema.get("maximum")
        ex_low, ex_high = schema.get("exclusiveMinimum"), schema.get("exclusiveMaximum")
        step = 1 if integer else 0.5
        if isinstance(ex_low, bool):  # 3.0: a flag on minimum
            ex_low = low if ex_low else None
            low = None if ex_low is not None else low
        if isinstance(ex_high, bool):
            ex_high = high if ex_high else None
            high = None if ex_high is not None else high
        if ex_low is not None:
            low = ex_low + step if low is None else max(low, ex_low + step)
        if ex_high is not None:
            high = ex_high - step if high is None else min(high, ex_high - step)
        low = 1 if low is None else low
        high = max(low, 100 if low < 100 else low + 100) if high is None else high
        multiple = schema.get("multipleOf")
        if integer:
            value: Any = rng.randint(int(-(-low // 1)), max(int(high // 1), int(-(-low // 1))))
        else:
            value = round(rng.uniform(low, high), 2)
            value = min(max(value, low), high)
        if isinstance(multiple, int | float) and multiple > 0:
            value = (-(-low // multiple)) * multiple
            value = int(value) if integer or (float(value).is_integer() and integer) else value
        return value


def _tagged(schema: Mapping[str, Any], merged: Mapping[str, Any], made: Any, chosen: Any) -> Any:
    """`made` with its discriminator's property naming the schema it was made from (`chosen`,
    a `$ref`): the mapping's key for it, else the component's name (OpenAPI's implicit one)."""
    found = schema.get("discriminator") or merged.get("discriminator")
    ref = chosen.get("$ref") if isinstance(chosen, Mapping) else None
    if not (isinstance(found, Mapping) and isinstance(made, dict) and isinstance(ref, str)):
        return made
    prop = found.get("propertyName")
    mapping = found.get("mapping")
    mapping = mapping if isinstance(mapping, Mapping) else {}
    tag = next((k for k, v in mapping.items() if v == ref or v == ref.rsplit("/", 1)[-1]),
               ref.rsplit("/", 1)[-1])
    if isinstance(prop, str):
        made[prop] = tag
    return made
