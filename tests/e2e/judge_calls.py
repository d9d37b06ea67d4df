"""One call of the judge (judge.py): the arguments drawn from the contract, the answer the
service gives, and what differs between what was given, received, answered and returned."""

from __future__ import annotations

import asyncio
import dataclasses
import enum
import inspect
import json
import re
import types
import typing
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import pydantic
from judge_values import Contradiction, NoValue, Refused, Unsatisfiable, Values, dumps
from judge_wire import Recorder, is_json
from pydantic_core import to_jsonable_python

_TIMEOUT = 10.0
_IGNORED_HEADERS = {"accept", "content-type", "authorization"}  # OpenAPI: ignored if declared


@dataclass
class Given:
    """A call's arguments: as the contract's JSON (`wire`), as the client takes them (`python`)."""

    wire: dict[str, Any] = field(default_factory=dict)
    python: dict[str, Any] = field(default_factory=dict)
    skipped: list[str] = field(default_factory=list)
    form: dict[str, Any] = field(default_factory=dict)  # argument -> its FormField


@dataclass
class Session:
    """What every call of one contract shares: its values, the client, the generated modules,
    the calls the service records, and the transport that records what went on the wire
    (judge_wire.Recorder: its `exchanges`)."""

    values: Values
    client: Any
    modules: dict[str, Any]
    recorder: Recorder
    calls: list[Call] = field(default_factory=list)


@dataclass
class Call:
    """What the service did during one call: the arguments it received, the value it answered."""

    answer: Callable[[], Awaitable[Any]]
    received: dict[str, Any] | None = None
    answered: Any = None


def _hints(function: Any, module: Any) -> tuple[dict[str, Any], Any]:
    """A generated function's parameter types and return type, string annotations read in
    `module` (the generated modules defer their annotations)."""
    signature = inspect.signature(function)

    def read(annotation: Any) -> Any:
        return eval(annotation, vars(module)) if isinstance(annotation, str) else annotation

    return ({n: read(p.annotation) for n, p in signature.parameters.items()},
            read(signature.return_annotation))


def _parameters(node: dict[str, Any], values: Values, path_item: Any) -> list[dict[str, Any]]:
    merged: dict[tuple[str, str], dict[str, Any]] = {}
    for parameter in [*(path_item or []), *(node.get("parameters") or [])]:
        parameter = values.deref(parameter)
        merged[(parameter.get("name"), parameter.get("in"))] = parameter
    return list(merged.values())


def _examples(node: dict[str, Any], values: Values) -> list[Any]:
    found = [node["example"]] if "example" in node else []
    for example in (node.get("examples") or {}).values():
        example = values.deref(example)
        if isinstance(example, dict) and "value" in example:
            found.append(example["value"])
    return found


def arguments_of(op: Any, node: dict[str, Any], path_params: Any, session: Session) -> Given:
    """Every argument of `op`, drawn from the contract; NoValue when one cannot be made."""
    given = Given()
    values = session.values
    hints, _ = _hints(getattr(type(session.client), op.method_name), session.modules["client"])
    wires = {(p.wire, p.location): p.name for p in
             (*op.path_params, *op.query_params, *op.header_params, *op.cookie_params)}
    for parameter in _parameters(node, values, path_params):
        name = wires.get((parameter.get("name"), parameter.get("in")))
        if name is None or name not in hints:
            if str(parameter.get("name", "")).lower() not in _IGNORED_HEADERS:
                given.skipped.append(f"parameter {parameter.get('name')} has no argument")
            continue
        schema = parameter.get("schema")
        if schema is None:
            schema = next(iter((parameter.get("content") or {}).values()), {}).get("schema", {})
        given.wire[name] = _drawn(values, schema, _examples(parameter, values), name)
    if op.body is not None:
        body = values.deref(node.get("requestBody") or {})
        media = (body.get("content") or {}).get(op.body.media_type) or {}
        value = values.writable(media.get("schema", {}), _drawn(
            values, media.get("schema", {}), _examples(media, values), "body"))
        if "body" in hints:
            given.wire["body"] = value
        else:  # a form's fields are the client method's arguments
            given.form = {f.name: f for f in op.body.form_fields}
            given.wire.update({f.name: value[f.wire] for f in op.body.form_fields
                               if isinstance(value, dict) and f.wire in value})
    for name, value in given.wire.items():
        given.python[name] = _typed(name, value, hints[name], given.form.get(name))
    return given


def _typed(name: str, value: Any, hint: Any, form_field: Any) -> Any:
    """A JSON value as the client's argument of type `hint` takes it (files as bytes)."""
    if form_field is not None and (form_field.is_file or form_field.is_file_list):
        def raw(item: Any) -> bytes:
            return item.encode() if isinstance(item, str) else json.dumps(item).encode()
        return [raw(v) for v in value] if isinstance(value, list) else raw(value)
    try:
        return pydantic.TypeAdapter(hint).validate_python(value)
    except (pydantic.ValidationError, pydantic.PydanticSchemaGenerationError) as exc:
        raise Refused(f"the client's {name}: {hint} refuses the contract's {dumps(value)}: "
                      f"{' '.join(str(exc).splitlines()[1:2])}") from None


def _drawn(values: Values, schema: Any, examples: list[Any], name: str) -> Any:
    try:
        return values.value(schema, examples)
    except Unsatisfiable as exc:
        raise Contradiction(f"{name}: the contract admits no valid value ({exc}), and the "
                            "generated code takes one") from None
    except NoValue as exc:
        raise NoValue(f"{name}: {exc}") from None


def _success(node: dict[str, Any], values: Values) -> tuple[str, dict[str, Any]]:
    """The first declared 2xx response (none: the first 3xx, as the generator): status, node."""
    responses = node.get("responses") or {}
    for status in sorted(responses, key=lambda s: not str(s).startswith("2")):  # 2xx first
        if str(status)[:1] in ("2", "3"):
            return str(status), values.deref(responses[status])
    return "default", values.deref(responses.get("default") or {})


def _answer_of(op: Any, node: dict[str, Any], values: Values, server: Any) -> tuple[Any, str]:
    """The value the service answers (as the server method returns it), or why there is none.
    An operation that declares no success (DigitalOcean's retired endpoint: 410 and errors
    only) answers nothing, and the wire says what the server made of it."""
    status, response = _success(node, values)
    _, returns = _hints(getattr(server.ServiceBase, op.method_name), server)
    content = response.get("content") or {} if status[:1] in "23" or returns is not None else {}
    body: Any = None
    if content:
        # the first declared JSON media type, else the first (GitHub's `contents/{path}`:
        # `application/vnd.github.v3.object`, then `application/json`, of one schema)
        media, declared = next(((m, n) for m, n in content.items() if is_json(m)),
                               next(iter(content.items())))
        value = values.value(declared.get("schema", {}), _examples(declared, values))
        if "event-stream" in media:  # one event, whose data is the value
            item = typing.get_args(returns)[0] if typing.get_args(returns) else Any
            body = _returnable(item, value)
            if body is _NOTHING:
                raise Contradiction(f"the service's event type refuses the contract's valid "
                                    f"event data {dumps(value)} ({_shown(item)})")
            body = Events([body])
        elif is_json(media):
            body = _returnable(returns, value)
            if body is _NOTHING:
                raise Contradiction(f"the service's return type refuses the contract's valid "
                                    f"answer {dumps(value)} ({_shown(returns)})")
        elif media.startswith("text/"):
            body = value if isinstance(value, str) else json.dumps(value)
        else:
            body = b"judge"
    if op.headers_class is None:
        return body, ""
    declared = {k.lower(): values.deref(v) for k, v in (response.get("headers") or {}).items()}
    hint = typing.get_type_hints(getattr(server, op.headers_class))
    typed = {}
    for header in op.response_headers:  # those the answered status declares, the others unset
        if header.wire.lower() in declared:
            node = declared[header.wire.lower()]
            value = values.value(node.get("schema", {}), _examples(node, values))
            try:
                typed[header.name] = pydantic.TypeAdapter(hint[header.name]).validate_python(
                    value)
            except pydantic.ValidationError:
                return None, f"the service cannot answer header {header.wire}={dumps(value)}"
    try:
        return server.Reply(body, getattr(server, op.headers_class)(**typed)), ""
    except TypeError as exc:  # a header required by another 2xx status only
        return None, f"the service cannot answer the declared headers: {exc}"


_NOTHING = object()


class Events:
    """A stream of Server-Sent Events the service answers: its items, as many times as read."""

    def __init__(self, items: list[Any]) -> None:
        self.items = items

    async def __aiter__(self) -> Any:
        for item in self.items:
            yield item


def event_errors(values: Values, schema: Any, raw: bytes) -> list[str]:
    """What is wrong with the events of a `text/event-stream` body (empty: none). openapi-core
    does not read the media type: each event's `data` is parsed as JSON and validated with
    openapi-schema-validator against the declared schema (`[DONE]`, the end LLM APIs send, is
    no event)."""
    problems = []
    for number, block in enumerate(raw.decode("utf-8", "replace").replace("\r\n", "\n")
                                   .split("\n\n")):
        lines = [line[5:].removeprefix(" ") for line in block.split("\n")
                 if line.startswith("data:")]
        if not lines or lines == ["[DONE]"]:
            continue
        try:
            data = json.loads("\n".join(lines))
        except ValueError:
            problems.append(f"event {number}: its data is not JSON: {dumps(lines)}")
            continue
        problems += [f"event {number}: {e}" for e in values.errors(schema, data)]
    return problems


def _shown(returns: Any) -> str:
    """A return type as a failure names it: without the generated package's name."""
    return re.sub(r"\bjudged_\w+\.", "", str(returns))[:300]


def _returnable(returns: Any, value: Any) -> Any:
    """`value` (JSON) as the first member of the return type that reads it."""
    members = typing.get_args(returns) if typing.get_origin(returns) in (
        typing.Union, types.UnionType) else (returns,)
    for member in members:
        if typing.get_origin(member) is not None and "Reply" in str(member):
            member = typing.get_args(member)[0]
        try:
            return pydantic.TypeAdapter(member).validate_json(json.dumps(value))
        except (pydantic.ValidationError, pydantic.PydanticSchemaGenerationError, TypeError):
            continue
    return _NOTHING


async def call_one(op: Any, node: dict[str, Any], given: Given,
                   session: Session) -> list[str] | None:
    """Call the operation; the differences found (None: it could not be called)."""
    try:
        answer, why = _answer_of(op, node, session.values, session.modules["server"])
    except Unsatisfiable as exc:
        return [f"the contract admits no valid answer ({exc}), and the generated code "
                "answers one"]
    except Contradiction as exc:
        return [str(exc)]
    except NoValue as exc:
        answer, why = None, f"no valid answer: {exc}"
    if why:
        given.skipped.append(why)
        return None

    async def answering() -> Any:
        call.answered = answer
        return answer

    call = Call(answering)
    session.calls.append(call)
    answered = answer.body if type(answer).__name__ == "Reply" else answer
    try:
        returned = getattr(session.client, op.method_name)(**given.python)
        if hasattr(returned, "__anext__"):  # events: the request goes out as they are read
            returned = await asyncio.wait_for(_plain(returned), _TIMEOUT)
        else:
            returned = await asyncio.wait_for(returned, _TIMEOUT)
    except Exception as exc:  # the events on the wire are judged all the same
        return [f"the client raised {type(exc).__name__}: {_error_text(exc)}",
                *_stream_errors(answered, node, session)]
    problems = []
    if call.received is None:
        return ["the service was not called"]
    received_all = dict(call.received)
    if given.form and "body" in received_all:  # the server's form dataclass, field by field
        form = received_all.pop("body")
        received_all.update({n: getattr(form, n, None) for n in given.form})
    for name, value in given.python.items():
        received = await _plain(received_all.get(name))
        sent = await _plain(value)
        if received != sent:
            problems.append(f"the service received {name}={dumps(received)}, "
                            f"the client was given {dumps(sent)}")
        elif (gone := lost_value(given.wire.get(name), received, name)) is not None:
            problems.append(f"the contract's {gone} did not reach the service (the client "
                            f"was given {name}={dumps(given.wire.get(name))})")
    got, gave = await _plain(returned), await _plain(answered)  # a stream is read once
    problems += _stream_errors(answered, node, session)
    if got != gave:
        problems.append(f"the client returned {dumps(got)}, the service answered {dumps(gave)}")
    return problems


def _stream_errors(answered: Any, node: dict[str, Any], session: Session) -> list[str]:
    """When the service answered events: the events on the wire judged against the declared
    event schema (`event_errors`), the bytes of the last response the session's recorder
    kept."""
    if not isinstance(answered, Events):
        return []
    _, response = _success(node, session.values)
    media = next(m for m in response.get("content") or {} if "event-stream" in m)
    schema = response["content"][media].get("schema", {})
    exchanges = session.recorder.exchanges
    if not exchanges:
        return ["the judge found no response on the wire to read the events of"]
    return event_errors(session.values, schema, exchanges[-1].response.content)


def lost_value(wire: Any, got: Any, path: str) -> str | None:
    """Where a value of the contract (`wire`, as JSON) is missing from or differs in what the
    service received (`got`, as JSON: defaults it holds besides are no loss); None: nowhere."""
    if isinstance(wire, dict):
        if not isinstance(got, dict):
            return path
        for key, value in wire.items():
            if key not in got:
                return f"{path}.{key}"
            if (gone := lost_value(value, got[key], f"{path}.{key}")) is not None:
                return gone
        return None
    if isinstance(wire, list):
        if not isinstance(got, list) or len(got) != len(wire):
            return path
        return next((gone for i, (w, g) in enumerate(zip(wire, got, strict=True))
                     if (gone := lost_value(w, g, f"{path}[{i}]")) is not None), None)
    if wire == got or _same_instant(wire, got) or _same_address(wire, got):
        return None
    return f"{path}={dumps(wire)} (received {dumps(got)})"


def _same_instant(wire: Any, got: Any) -> bool:
    """Two spellings of one date-time (`Z` and `+00:00`)."""
    from datetime import datetime

    try:
        return bool(datetime.fromisoformat(wire) == datetime.fromisoformat(got))
    except (TypeError, ValueError):
        return False


def _same_address(wire: Any, got: Any) -> bool:
    """Two spellings of one IP address (`2001:0db8::1` and `2001:db8::1`)."""
    import ipaddress

    try:
        return ipaddress.ip_address(wire) == ipaddress.ip_address(got)
    except (TypeError, ValueError):
        return False


def _error_text(exc: Exception) -> str:
    body = getattr(exc, "body", None)
    status = getattr(exc, "status_code", None)
    text = getattr(exc, "text", None)
    if status is not None:
        return f"status {status}: {dumps(to_jsonable_python(body, fallback=repr)) if body is not None else text}"
    return str(exc)[:400]


async def _plain(value: Any) -> Any:
    """A value as JSON data, to compare: models by alias, files as their bytes' text."""
    if hasattr(value, "read") and hasattr(value, "filename"):  # starlette's UploadFile
        content = await value.read()
        await value.seek(0)
        return content.decode("utf-8", "replace")
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    if isinstance(value, Events):
        return [await _plain(item) for item in value.items]
    if hasattr(value, "__anext__"):  # the client's stream of events: their data
        return [await _plain(getattr(event, "data", event)) async for event in value]
    if isinstance(value, pydantic.BaseModel):
        return to_jsonable_python(value, by_alias=True, fallback=repr)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: await _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, dict):
        return {str(k): await _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [await _plain(v) for v in value]
    if isinstance(value, enum.Enum):
        return value.value
    return to_jsonable_python(value, fallback=repr)
