"""The mock's ASGI app: the generated server (its validation, security and error shapes) with a
service whose every operation answers from `answers`, `state` or a scenario.

Requests reach the generated server unchanged; an outer ASGI layer keeps each request's bytes
(the service reads them, not the typed arguments) and serves `/__mock/...`.
"""

from __future__ import annotations

import contextvars
import importlib
import inspect
import json
import logging
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, unquote

from .answers import Answer, Call, Prefer, Responder, parse_body, problem
from .contract import Op, operations, path_params
from .package import server_package
from .scenario import Scenario
from .state import Store

logger = logging.getLogger("contractgen.mock")

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]

# The request being served: its scope, its body, and (once the mock's service answered it)
# the call it read.
_REQUEST: contextvars.ContextVar[tuple[Scope, bytes, dict[str, Call | None]]] = (
    contextvars.ContextVar("mock_request"))


@dataclass(frozen=True)
class MockOptions:
    """How a mock answers: `seed` for made-up values, `data` seeds the collections,
    `scenario` scripts the answers, `stateless` answers every call as Prism would,
    `collections` overrides the recognised collections (collection path -> item path)."""

    overlay: Path | None = None
    seed: int = 0
    data: Path | None = None
    scenario: Path | None = None
    stateless: bool = False
    collections: tuple[tuple[str, str], ...] | None = None


class Mock:
    """One contract's mock: what it answers, and the app serving it (`app`)."""

    def __init__(self, spec: str | Path, options: MockOptions | None = None) -> None:
        options = options or MockOptions()
        self.server = server_package(spec, options.overlay)
        self.errors = importlib.import_module(f"{self.server.__package__}.errors")
        self.spec = json.loads(self.server.contract())
        self.base_path: str = self.server.BASE_PATH
        # concrete paths before templated ones, as the generated server registers them
        self.ops = sorted(operations(self.spec), key=lambda op: op.path.count("{"))
        self.by_id = {op.id: op for op in self.ops}
        self.by_method: dict[str, list[Op]] = {}
        for op in self.ops:
            self.by_method.setdefault(op.method, []).append(op)
        self.service = self._service()
        self.responder = Responder(self.spec, options.seed, self.service.error_body)
        self.store = Store(self.responder, self.ops, enabled=not options.stateless,
                           overrides=options.collections)
        if options.data is not None:
            self.store.seed_from(options.data)
        self.scenario = (Scenario.read(options.scenario, self.responder, self.ops)
                         if options.scenario is not None else None)
        self.inner = self.server.create_app(self.service, verifiers=self._verifiers())
        self.app = self._outer

    def _verifiers(self) -> dict[str, Any]:
        """Every declared scheme accepts any credential of the right form."""
        schemes = (self.spec.get("components") or {}).get("securitySchemes") or {}
        return {name: (lambda credential: credential.value or "caller") for name in schemes}

    def _service(self) -> Any:
        """The generated ServiceBase with every operation answered by `_answer` (which reads
        the request as sent, not the typed arguments)."""
        async def handle(service: Any, *args: Any, **kwargs: Any) -> Any:
            return self._answer()

        base = self.server.ServiceBase
        methods = {name: handle for name, value in vars(base).items()
                   if inspect.iscoroutinefunction(value)}
        return type("MockService", (base,), methods)()

    def call_of(self, scope: Scope, raw: bytes) -> Call | None:
        """The request as the mock reads it; None when no operation is at its path."""
        decoded = scope.get("path", "")
        # matched as sent: a parameter's %2F is no segment's end (`ref=a/b` of `/refs/{ref}`)
        as_sent = scope.get("raw_path")
        full = as_sent.decode("latin-1") if as_sent else decoded
        method = scope.get("method", "GET")
        headers = {k.decode("latin-1").lower(): v.decode("latin-1")
                   for k, v in scope.get("headers", ())}
        # the operation the generated server routed it to first (its route is named by the
        # operation's id): Box's `/metadata_templates/schema#classifications` shares its path
        routed = self.by_id.get(getattr(scope.get("route"), "name", None) or "")
        for op in [*([routed] if routed else []), *self.by_method.get(method, ())]:
            base = self.base_path if op.server_path is None else op.server_path
            if base and not full.startswith(base + "/") and full != base:
                continue
            params = path_params(op, full[len(base):] or "/")
            if params is not None:
                path = decoded[len(base):] or "/"
                params = {name: unquote(value) for name, value in params.items()}
                query = parse_qs(scope.get("query_string", b"").decode("latin-1"),
                                 keep_blank_values=True)
                media = headers.get("content-type", "").split(";")[0].strip().lower()
                return Call(op, method, path, params, query, headers, parse_body(raw, media), raw)
        return None

    def _answer(self) -> Any:
        from starlette.responses import Response

        scope, raw, answered = _REQUEST.get()
        call = answered["call"] = self.call_of(scope, raw)
        if call is None:
            answer = problem(404, "NO_OPERATION", f"no operation at {scope.get('path')}")
        else:
            answer = self.answer(call)
        if answer.status >= 400:  # an error: also from routes that answer only their status
            raise self.errors.ApiError(answer.body, status_code=answer.status,
                                       headers=answer.headers)
        return Response(answer.encoded(), status_code=answer.status, media_type=answer.media,
                        headers=answer.headers)

    def answer(self, call: Call) -> Answer:
        """What the mock answers to a request the generated server accepted."""
        prefer = Prefer.of(call.headers, call.query)
        if self.scenario is not None and not self.scenario.done:
            return self.scenario.answer(call, self.store)
        if prefer.any:
            return self.responder.answer(call, prefer.code or self.responder.success(call.op),
                                         prefer)
        stored = self.store.handle(call)
        if stored is not None:
            return stored
        return self.responder.answer(call, self.responder.success(call.op))

    async def _outer(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.inner(scope, receive, send)
            return
        raw, more = b"", True
        while more:
            message = await receive()
            raw += message.get("body", b"")
            more = message.get("more_body", False) and message["type"] == "http.request"
        if scope.get("path", "").startswith("/__mock/"):
            await self._control(scope, send)
            return
        replayed = [{"type": "http.request", "body": raw, "more_body": False}]

        async def replay() -> MutableMapping[str, Any]:
            return replayed.pop() if replayed else {"type": "http.disconnect"}

        held: list[MutableMapping[str, Any]] = []  # the generated server's answer

        async def hold(message: MutableMapping[str, Any]) -> None:
            held.append(message)

        answered: dict[str, Call | None] = {}
        token = _REQUEST.set((scope, raw, answered))
        try:
            await self.inner(scope, replay, hold)
        finally:
            _REQUEST.reset(token)
        call = answered["call"] if answered else self.call_of(scope, raw)
        if self.scenario is not None and held:
            self.scenario.refused(call, int(held[0]["status"]))
        if not answered and call is not None and held:
            held = self._conforming(call, held)
        for message in held:
            await send(message)

    def _conforming(self, call: Call, held: list[MutableMapping[str, Any]]
                    ) -> list[MutableMapping[str, Any]]:
        """An error the generated server answered itself (validation, security), unless its
        body does not fit the schema declared for its status: then the declared answer, said
        in `X-Mock-Warning` (the generated server's own bodies are the generator's business)."""
        status = int(held[0]["status"])
        pointer = self.responder.schema_pointer(call.op, status) if status >= 400 else None
        body = b"".join(m.get("body", b"") for m in held[1:])
        try:
            if pointer is None or self.responder.judge.valid(pointer, json.loads(body or b"0")):
                return held
        except ValueError:
            pass
        answer = self.responder.answer(call, status)
        data = answer.encoded()
        kept = [(k, v) for k, v in held[0].get("headers", ())
                if k.lower() not in (b"content-length", b"content-type")]
        warning = f"the generated server's {status} body does not fit {pointer}"
        headers = [*kept, *((k.lower().encode(), v.encode()) for k, v in answer.headers.items()),
                   (b"content-type", (answer.media or "application/json").encode()),
                   (b"content-length", str(len(data)).encode()),
                   (b"x-mock-warning", warning.encode())]
        return [{"type": "http.response.start", "status": status, "headers": headers},
                {"type": "http.response.body", "body": data}]

    async def _control(self, scope: Scope, send: Send) -> None:
        """`POST /__mock/reset` empties the collections (and restarts a scenario);
        `GET /__mock/scenario` says how far the scenario got and what came out of order."""
        path, method = scope["path"], scope.get("method")
        body: dict[str, Any]
        if path == "/__mock/reset" and method == "POST":
            self.store.reset()
            if self.scenario is not None:
                self.scenario.reset()
            body, status = {"reset": True}, 200
        elif path == "/__mock/scenario" and method == "GET" and self.scenario is not None:
            body, status = self.scenario.report(), 200
        else:
            body, status = {"title": "NOT_FOUND", "detail": f"no mock control at {path}"}, 404
        data = json.dumps(body).encode()
        await send({"type": "http.response.start", "status": status,
                    "headers": [(b"content-type", b"application/json"),
                                (b"content-length", str(len(data)).encode())]})
        await send({"type": "http.response.body", "body": data})
