"""JSON Schema's types for values read from JSON: request bodies (the server, the webhook
receiver) and response bodies (the client).

Copied verbatim into every package. pydantic reads `"25"` as a number and `1` as a boolean in
lax mode, and its strict mode cannot help (past a model's "before" validator, JSON input is
Python data, and a date is then no string): `JsonTyped` validates laxly, then refuses every
value read from JSON of another type.
"""

import datetime
import uuid
from enum import Enum
from typing import Any

from pydantic import BaseModel, GetCoreSchemaHandler, ValidationError
from pydantic_core import core_schema


class JsonTyped:
    """Annotated metadata for a value parsed from JSON: no value of another JSON type is
    taken for a number, boolean, string or date ("25" is not a number, 1 not a boolean, 0 not
    a date-time). An unknown field, or an open enum's unknown value, stays as it is read.
    """

    def __get_pydantic_core_schema__(
        self, source: Any, handler: GetCoreSchemaHandler
    ) -> core_schema.CoreSchema:
        def validate(value: Any, lax: core_schema.ValidatorFunctionWrapHandler) -> Any:
            result = lax(value)
            errors: list[Any] = []
            _json_typed(value, result, (), errors)
            if errors:
                raise ValidationError.from_exception_data("body", errors)
            return result

        return core_schema.no_info_wrap_validator_function(validate, handler(source))


# The JSON types a validated value may have been read from, and the error when it was not.
_READ_FROM: tuple[tuple[type, tuple[type, ...], str], ...] = (
    (bool, (bool,), "bool_type"),
    (int, (int,), "int_type"),
    (float, (int, float), "float_type"),
    (str, (str,), "string_type"),
    (datetime.datetime, (str,), "datetime_type"),
    (datetime.date, (str,), "date_type"),
    (datetime.time, (str,), "time_type"),
    (uuid.UUID, (str,), "uuid_type"),
)


def _json_typed(raw: Any, value: Any, loc: tuple[Any, ...], errors: list[Any]) -> None:
    """Where `value` (validated) was read from JSON `raw` of another type, an error."""
    if isinstance(value, BaseModel) and isinstance(raw, dict):
        for name, info in type(value).model_fields.items():
            key = info.alias if info.alias in raw else name
            if key in raw:
                _json_typed(raw[key], getattr(value, name), (*loc, key), errors)
    elif isinstance(value, list | tuple) and isinstance(raw, list):
        for index, (item, got) in enumerate(zip(raw, value, strict=False)):
            _json_typed(item, got, (*loc, index), errors)
    elif isinstance(value, dict) and isinstance(raw, dict):
        for key, got in value.items():
            if key in raw:
                _json_typed(raw[key], got, (*loc, key), errors)
    elif isinstance(value, Enum):  # read from its value's JSON type
        kinds = (int, float) if isinstance(value.value, float) else (type(value.value),)
        if type(raw) not in kinds and raw is not None:
            expected = {"expected": repr(value.value)}
            errors.append({"type": "enum", "loc": loc, "input": raw, "ctx": expected})
    else:
        for kind, sources, error in _READ_FROM:
            if isinstance(value, kind):
                exact = type(raw) in sources or (
                    kind is int and isinstance(raw, float) and raw.is_integer()
                )
                if not exact and raw is not None:
                    errors.append({"type": error, "loc": loc, "input": raw})
                return
