"""An operation's responses to `Response`s and `ErrorClass`es, with the bodies of the errors
the generated server answers itself; `operations.OperationBuilder` builds on it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from ..spec.media import EVENT_SCHEMA, EVENT_STREAM, event_data_schema, is_json, media_base
from ..spec.tree import escape, unescape
from .errorbodies import MESSAGE, error_body
from .ir import ErrorBody, ErrorClass, Representation, Response, ResponseHeader, ResponseKind
from .naming import parameter_name, pascal_case, status_phrase
from .schema_facts import deref
from .schema_facts import text as _plain
from .schemas import SchemaConverter
from .typeref import ANY, TypeRef

RETRYABLE = "x-contractgen-retryable"  # on a response: the client may send the call again
_SHARED_RESPONSE = "#/components/responses/"
# The success of an operation declaring none (`success_note`): any 2xx, its body JSON of any shape.
ANY_ANSWER = Response("2XX", "no response declared: any answer",
                      representations=(Representation("application/json", "json", ANY),))
_ANY_ANSWER = ("the server answers 200 with what the service returns as JSON (a Response as it "
               "is; None: an empty 200), the client returns a 2xx answer's JSON body (None "
               "when empty)")


def success_note(raw: Any) -> str:
    """What the code does for an operation whose `responses` declare no success (no 2xx or 3xx:
    then it answers `ANY_ANSWER`, or `default` at any 2xx), for a located warning; "" when they
    declare one."""
    if not isinstance(raw, Mapping) or not raw:
        return (f"the operation declares no responses (OpenAPI 3.1 allows it), so any answer "
                f"is the contract's: {_ANY_ANSWER} and raises on any other status (hint: "
                "declare its responses)")
    if any(str(status)[:1] in ("2", "3") for status in raw):
        return ""
    if "default" in raw:  # DigitalOcean's retired gen-ai api_keys: 410, errors and `default`
        return ("the operation declares errors and `default` only, no success, so a success is "
                "a 2xx answer `default` describes: the server answers 200 with what the service "
                "returns, typed as `default`'s body; the client returns a 2xx answer's body "
                "read as `default` says, and raises the declared errors (hint: declare its "
                "success response)")
    return (f"the operation declares errors only, no success, so a success may be any 2xx "
            f"answer: {_ANY_ANSWER}, and raises the declared errors (hint: declare its success "
            "response)")


class ResponseReader:
    """Reads responses against the contract, creating their types in the schema converter."""

    def __init__(self, document: Mapping[str, Any], schemas: SchemaConverter) -> None:
        self.document = document
        self.schemas = schemas
        self._unfillable_seen: set[str] = set()
        # `#/components/responses/X`: parsed once, one class for every operation using it
        self._shared_responses: dict[str, tuple[Response, Any]] = {}

    def _deref(self, node: Any) -> dict[str, Any]:
        return deref(self.document, node)


    def _responses(self, raw: dict[str, Any], prefix: str, op_id: str) -> tuple[
        list[Response], list[ErrorClass], dict[str, Any]
    ]:
        """The success responses (`ANY_ANSWER` where none is declared), the errors, and the
        errors' JSON schemas by status."""
        success: list[Response] = []
        errors: list[ErrorClass] = []
        schemas: dict[str, Any] = {}
        # no 2xx declared: the 3xx statuses are the successes (GitHub's 302 to an archive)
        redirects = not any(str(status).startswith("2") for status in raw)
        for status, spec in raw.items():
            status = str(status)
            ok = status.startswith("2") or (redirects and status.startswith("3"))
            hint = prefix + "Response" if ok else prefix + status_phrase(status) + "Body"
            parsed, schema = self._shared_response(status, spec, hint, ok)
            if ok:
                success.append(parsed)
            else:
                errors.append(ErrorClass(prefix + status_phrase(status), op_id, parsed))
                if schema is not None:
                    schemas[status] = schema
        if success_note(raw):
            default = next((e.response for e in errors if e.response.status == "default"), None)
            success.append(ANY_ANSWER if default is None else replace(default, status="2XX"))
        return success, errors, schemas

    def _shared_response(self, status: str, spec: Any, hint: str, ok: bool) -> tuple[Response, Any]:
        """`_response`, named after and reused for a `#/components/responses/X` reference
        (Conduit's ProfileResponse was a class per operation)."""
        ref = spec.get("$ref") if isinstance(spec, dict) else None
        if not (isinstance(ref, str) and ref.startswith(_SHARED_RESPONSE)):
            return self._response(status, self._deref(spec), hint)
        if ref not in self._shared_responses:
            name = pascal_case(unescape(ref[len(_SHARED_RESPONSE):])) + ("" if ok else "Body")
            self._shared_responses[ref] = self._response(status, self._deref(spec), name)
        parsed, schema = self._shared_responses[ref]
        return replace(parsed, status=status), schema

    def _response(self, status: str, response: dict[str, Any], hint: str) -> tuple[Response, Any]:
        """The response, and its JSON schema (for error bodies) when it has one.

        Every declared media type is kept (`representations`); the first JSON one, else the
        first, is the response's own kind and type.
        """
        description = _plain(response.get("description"))
        headers = self._response_headers(response.get("headers"), hint)
        retryable = response.get(RETRYABLE) is True
        content = response.get("content")
        if not isinstance(content, dict) or not content:
            return Response(status, description, headers, retryable=retryable), None
        kept: list[Representation] = []
        json_schema: Any = None
        for media, entry in content.items():
            entry = entry if isinstance(entry, dict) else {}
            if is_json(media):
                schema = entry.get("schema")
                if not any(r.kind == "json" for r in kept):
                    json_schema = schema
                    type_ref = self.schemas.named_union(schema, hint) if schema else ANY
                else:  # a second JSON media type: the same body, its own schema if any
                    first = next(r for r in kept if r.kind == "json")
                    type_ref = (self.schemas.named_union(schema, hint + pascal_case(media))
                                if schema and schema != json_schema else first.type or ANY)
                kept.append(Representation(media, "json", type_ref))
            elif media_base(media) == EVENT_STREAM:
                item = entry.get(EVENT_SCHEMA, event_data_schema(self._deref, entry))
                event_type = (self.schemas.named_union(item, hint + "Event")
                              if isinstance(item, dict) else None)
                kept.append(Representation(media, "events", event_type))
                if json_schema is None and isinstance(item, dict):
                    json_schema = item  # an error's body: its one event's data (TGI)
            else:
                kind: ResponseKind = "text" if media.startswith("text/") else "binary"
                kept.append(Representation(media, kind))
        return Response(status, description, headers, tuple(kept), retryable), json_schema

    def _response_headers(self, raw: Any, hint: str) -> tuple[ResponseHeader, ...]:
        if not isinstance(raw, dict):
            return ()
        headers: list[ResponseHeader] = []
        used: set[str] = set()
        for wire, spec in raw.items():
            header = self._deref(spec)
            if not isinstance(header, dict) or str(wire).lower() == "content-type":
                continue  # OpenAPI: a declared Content-Type response header is ignored
            schema = header.get("schema") if isinstance(header.get("schema"), dict) else {}
            type_ref = self.schemas.convert(schema, hint + pascal_case(str(wire)))
            if type_ref.kind not in ("builtin", "literal"):
                type_ref = TypeRef("builtin", "str")
            type_ref = replace(type_ref, checks=())  # a header's format is its text (uri...)
            name = parameter_name(str(wire))
            while name in used:
                name += "_"
            used.add(name)
            headers.append(ResponseHeader(name, str(wire), type_ref, header.get("required") is True,
                                          _plain(header.get("description"))))
        return tuple(headers)

    def _error_bodies(self, errors: list[ErrorClass], schemas: dict[str, Any], at: str
                      ) -> tuple[tuple[str, ErrorBody], ...]:
        """Each declared error status's body, and `*` for the statuses the server answers
        itself that the contract does not declare: the `default` response's, else the first's."""
        bodies: list[tuple[str, ErrorBody]] = []
        for error in errors:
            status, kind = error.response.status, error.response.kind
            schema = schemas.get(status)
            if schema is not None:
                body = error_body(schema, self._deref)
                if not body.says_message:
                    self._unfillable(schema, f"{at}/{escape(status)}")
                bodies.append((status, body))
            elif kind == "text":
                bodies.append((status, MESSAGE))
            elif kind == "empty":
                bodies.append((status, ErrorBody("value", None)))
        found = dict(bodies)
        fallback = found.get("default") or (bodies[0][1] if bodies else ErrorBody(
            "object", fields=(("detail", ErrorBody("errors_or_message")),)))
        bodies.append(("*", fallback))
        return tuple(bodies)

    def _unfillable(self, schema: Any, at: str) -> None:
        """Warn, once per schema, that the server's own error bodies cannot say what went wrong."""
        ref = schema.get("$ref") if isinstance(schema, dict) else None
        where = ref[1:] if isinstance(ref, str) and ref.startswith("#/") else at
        if where in self._unfillable_seen:
            return
        self._unfillable_seen.add(where)
        self.schemas.notes.warn(
            "this error schema has no field for a message: the errors the server answers "
            "itself (validation, 401, 404, 501...) are filled without saying what went wrong "
            "(hint: add a string property `message`)", where)


