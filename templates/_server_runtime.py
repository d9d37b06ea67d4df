"""Runtime of the generated server: the same in every package contractgen generates.

Copied verbatim (it is already black-formatted), so only the contract-specific `server.py` pays
for formatting. Nothing here is part of the public API: import from `server` instead.
"""

import dataclasses
import datetime
import enum
import functools
import json
import logging
import re
import typing
from collections.abc import AsyncIterable, Awaitable, Callable, Coroutine, Mapping
from http import HTTPStatus
from typing import Any, Generic, NamedTuple, Protocol, TypeAlias, TypeVar
from urllib.parse import quote, unquote

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import Response, StreamingResponse
from fastapi.routing import APIRoute
from pydantic import BaseModel, TypeAdapter, ValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import BaseRoute, Match, compile_path
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from . import errors, models
from ._server_media import event_response, is_json, representation

Binary: TypeAlias = bytes | AsyncIterable[bytes] | Response
"""An octet-stream result: bytes, an async iterable of chunks (streamed), or a ready Response."""

ErrorBodyBuilder: TypeAlias = Callable[[int, str, str, list[Any] | None], Any]

Check: TypeAlias = Callable[[Request], Awaitable[None]]

# Where `Gate` notes that it has checked a request's credentials for its operation.
AUTHENTICATED = "contractgen.authenticated"


class Statuses(NamedTuple):
    """What an operation answers to requests it refuses before the service sees them."""

    validation: int  # the declared 422, else the declared 400, else 422
    unknown_tag: int  # a discriminator naming no member of the union: the declared 400
    too_large: int  # a body over `max_body_bytes`: the declared 413, else 400, else 413


_UNDECLARED = Statuses(422, 422, 413)

logger = logging.getLogger(__name__.rpartition(".")[0] + ".server")
_ANY: TypeAdapter[Any] = TypeAdapter(Any)


class ErrorBodies(Protocol):
    """What the runtime needs of a service: bodies for the errors it answers itself."""

    def error_body(
        self,
        operation_id: str,
        status: int,
        code: str,
        message: str,
        errors: list[Any] | None,
    ) -> Any: ...

    def error_media_type(self, operation_id: str, status: int) -> str: ...


def undefer_models() -> None:
    """Let route parameters build their validators with the routes (`models.undefer_models`)."""
    models.undefer_models()


class LazyRoute(APIRoute):
    """An APIRoute that analyses its endpoint when first used, not when the app is built.

    FastAPI builds a validator for every parameter of every route as it adds the route: for a
    contract of hundreds of operations that is most of `create_app`. This route knows its path,
    methods and name at once (what matching a request needs) and does the rest of APIRoute's
    construction on the first access to anything else: its first request, or an inspection.
    """

    def __init__(self, path: str, endpoint: Callable[..., Any], **kwargs: Any) -> None:
        self.__dict__["_deferred"] = (path, endpoint, kwargs)
        self.path = path
        self.endpoint = endpoint
        self.name = kwargs["name"]
        self.methods = {method.upper() for method in kwargs["methods"]}
        self.include_in_schema = kwargs["include_in_schema"]
        self.path_regex, self.path_format, self.param_convertors = compile_path(path)

    # Path parameters that must validate for the route to match (a route of a path of the
    # same shape as a later one: Xero's `.../{AttachmentID}`, a uuid, before `.../{FileName}`).
    narrowed: tuple[str, ...] = ()
    # The only body media type the route matches: operations of one URL told apart by it
    # (Box's `PUT .../schema#add`, JSON, and `.../schema#update`, JSON Patch).
    content_type: str | None = None

    def matches(self, scope: Scope) -> tuple[Match, Scope]:
        """A path parameter sent with `%2F` in it (Xero's, GitHub's `contents/{path}`)
        matches as one segment and is handed over decoded: Starlette decodes the path (its
        `/` too) before it matches routes. A route `narrowed` does not match where one of
        those parameters is refused, nor one with a `content_type` a body in another: the
        next route of the same shape (or URL) may take it."""
        kept = _slashes_kept(scope)
        if kept is None:
            match, child = super().matches(scope)
        else:
            match, child = super().matches({**scope, "path": kept})
        if kept is not None and "path_params" in child:
            child["path_params"] = {
                key: value.replace(_SLASH, "/") if isinstance(value, str) else value
                for key, value in child["path_params"].items()
            }
        if self.narrowed and match is not Match.NONE and not self._valid(child):
            return Match.NONE, {}
        wanted = self.content_type
        if match is not Match.NONE and wanted and _content_type(scope) != wanted:
            return Match.NONE, {}
        return match, child

    def _valid(self, child: Scope) -> bool:
        values = child.get("path_params", {})
        for name, adapter in _path_adapters(self.endpoint, self.narrowed).items():
            try:
                adapter.validate_python(values.get(name))
            except ValidationError:
                return False
        return True

    def __getattr__(self, name: str) -> Any:
        deferred = self.__dict__.pop("_deferred", None)
        if deferred is None:
            raise AttributeError(name)
        path, endpoint, kwargs = deferred
        try:
            APIRoute.__init__(self, path, endpoint, **kwargs)
        except BaseException:
            self.__dict__["_deferred"] = deferred
            raise
        return getattr(self, name)


def _content_type(scope: Scope) -> str:
    """The request's Content-Type without its parameters, in lower case ("" when none)."""
    for key, value in scope.get("headers", ()):
        if key == b"content-type":
            return str(value.decode("latin-1").split(";")[0].strip().lower())
    return ""


@functools.cache
def _path_adapters(
    endpoint: Callable[..., Any], names: tuple[str, ...]
) -> dict[str, TypeAdapter[Any]]:
    """The validators of an endpoint's path parameters `names`, from its annotations."""
    hints = typing.get_type_hints(endpoint, include_extras=True)
    return {name: TypeAdapter(hints[name]) for name in names}


_SLASH = (
    "\ue000"  # a private-use character: a `/` sent as `%2F` while routes are matched
)
_ENCODED_SLASH = re.compile(b"%2[fF]")


def _slashes_kept(scope: Scope) -> str | None:
    """The request's path decoded but for each `%2F`, which stays one character (`_SLASH`);
    None where the path has no `%2F` (or `raw_path` does not spell `path`)."""
    raw = scope.get("raw_path")
    if not raw or not _ENCODED_SLASH.search(raw):
        return None
    kept = unquote(_ENCODED_SLASH.sub(quote(_SLASH).encode(), raw).decode("latin-1"))
    return kept if kept.replace(_SLASH, "/") == scope["path"] else None


def default_error_body(
    status: int, code: str, message: str, errors: list[Any] | None
) -> Any:
    return {"detail": errors if errors else message}


def error_builder(
    builders: Mapping[str, Mapping[str, ErrorBodyBuilder]],
    operation_id: str,
    status: int,
) -> ErrorBodyBuilder:
    """What builds the body of an error an operation answers itself: its builder for the
    status (exact, then `4XX`, then its fallback `*`; the app's, under "", for an operation
    without any), else `default_error_body` (`{"detail": ...}`)."""
    found = builders.get(operation_id) or builders.get("", {})
    return (
        found.get(str(status))
        or found.get(f"{status // 100}XX")
        or found.get("*")
        or default_error_body
    )


def dump(body: Any) -> bytes:
    if isinstance(body, BaseModel):
        return body.model_dump_json(by_alias=True).encode()
    return _ANY.dump_json(body, by_alias=True)


BodyT = TypeVar("BodyT")
HeadersT = TypeVar("HeadersT")


@dataclasses.dataclass(frozen=True)
class Reply(Generic[BodyT, HeadersT]):
    """A result with the response headers the contract declares (the operation's `...Headers`)."""

    body: BodyT
    headers: HeadersT


def _header_text(value: Any) -> str:
    if isinstance(value, enum.Enum):
        value = value.value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, datetime.date | datetime.time):
        return value.isoformat()
    return str(value)


def _headers(result: Any, declared: type[Any] | None, operation: str) -> dict[str, str]:
    values = result.headers if isinstance(result, Reply) else None
    out: dict[str, str] = {}
    for item in dataclasses.fields(values) if values is not None else ():
        value = getattr(values, item.name)
        if value is not None:
            out[item.metadata["wire"]] = _header_text(value)
    for item in dataclasses.fields(declared) if declared is not None else ():
        required = item.default is dataclasses.MISSING
        if required and item.metadata["wire"] not in out:
            raise RuntimeError(
                f"{operation + ': ' if operation else ''}the contract requires response header "
                f"{item.metadata['wire']}: return "
                f"Reply(body, {getattr(declared, '__name__', '')}(...))"
            )
    return out


def respond(
    result: Any,
    status: int,
    kind: str,
    media_type: str | None,
    headers: type[Any] | None = None,
    *,
    operation: str = "",
) -> Response:
    if isinstance(result, Response):
        return result
    extra = _headers(result, headers, operation)
    if isinstance(result, Reply):
        result = result.body
    if result is None:
        return Response(status_code=204 if status == 204 else status, headers=extra)
    if kind.startswith("json-or-"):
        # JSON or events (an LLM API's `stream` flag): what the service returns decides.
        if isinstance(result, AsyncIterable) and not isinstance(result, BaseModel):
            typed = kind == "json-or-json-events"
            return event_response(result, status, extra, typed=typed)
        kind = "json"
    else:
        kind, media_type = representation(result, kind, media_type)
    if kind in ("events", "json-events"):
        return event_response(result, status, extra, typed=kind == "json-events")
    if kind == "json":
        return Response(
            dump(result),
            status_code=status,
            media_type=media_type or "application/json",
            headers=extra,
        )
    if isinstance(result, bytes | str):
        return Response(
            result, status_code=status, media_type=media_type, headers=extra
        )
    return StreamingResponse(
        result, status_code=status, media_type=media_type, headers=extra
    )


def media_type_of(declared: Mapping[str, str], status: int) -> str:
    """The media type declared for `status` (exact, then `4XX`, then `default`), else JSON."""
    return (
        declared.get(str(status))
        or declared.get(f"{status // 100}XX")
        or declared.get("default")
        or declared.get("*")
        or "application/json"
    )


def error_response(
    error: errors.ApiError, media_type: str = "application/json"
) -> Response:
    if error.body is None:
        return Response(status_code=error.status_code, headers=error.headers)
    if media_type.partition(";")[0].strip().lower() == "text/event-stream":
        # One event whose data is the declared body (TGI's errors, after its tokens').
        return Response(
            b"data: " + dump(error.body) + b"\n\n",
            status_code=error.status_code,
            media_type=media_type,
            headers=error.headers,
        )
    if isinstance(error.body, str) and not is_json(media_type):
        return Response(
            error.body,
            status_code=error.status_code,
            media_type=media_type,
            headers=error.headers,
        )
    return Response(
        dump(error.body),
        status_code=error.status_code,
        media_type=media_type,
        headers=error.headers,
    )


def _operation_of(request: Request) -> str:
    route = request.scope.get("route")
    return getattr(route, "name", None) or ""


def _plain_errors(raw: Any, wire: Mapping[str, str]) -> list[Any]:
    # pydantic's error dicts may hold exceptions and arbitrary input: keep what is JSON.
    out: list[Any] = []
    for item in raw:
        loc = [str(part) for part in item.get("loc", ())]
        if len(loc) > 1 and loc[0] == "path":
            loc[1] = wire.get(loc[1], loc[1])
        out.append(
            {
                "loc": loc,
                "msg": str(item.get("msg", "")),
                "type": str(item.get("type", "")),
            }
        )
    return out


def error_lines(message: str, errors: list[Any] | None) -> list[str]:
    """An error body's list of strings (Conduit's `{"errors": {"body": [...]}}`): one line per
    validation problem, `where: what`, else the message."""
    if not errors:
        return [message]
    return [_summary([e]) if isinstance(e, dict) else str(e) for e in errors]


def _summary(problems: list[Any]) -> str:
    parts = []
    for problem in problems[:5]:
        where = (
            ".".join(str(p) for p in problem["loc"][1:]) or problem["loc"][0]
            if problem["loc"]
            else ""
        )
        parts.append(f"{where}: {problem['msg']}" if where else problem["msg"])
    return "; ".join(parts) or "Invalid request"


ErrorHandler: TypeAlias = Callable[[Request, Exception], Awaitable[Response]]


def install_handlers(
    app: FastAPI,
    service: ErrorBodies,
    statuses: Mapping[str, Statuses],
    wire_names: Mapping[str, Mapping[str, str]] | None = None,
) -> None:
    """Answer errors in the contract's shapes: ApiError, validation, and anything unexpected."""
    for kind, handler in error_handlers(service, statuses, wire_names).items():
        app.add_exception_handler(kind, handler)
    app.add_middleware(Unexpected, service=service)


def declared_errors_route(
    service: ErrorBodies, statuses: Mapping[str, Statuses]
) -> type[APIRoute]:
    """A route class whose routes answer their errors in the contract's shapes themselves,
    wherever their router is mounted (exception handlers belong to the app, and a webhook
    router may be mounted in any app): ApiError, validation, HTTPException, and anything
    unexpected (the declared 500, logged)."""
    handlers = error_handlers(service, statuses)

    class DeclaredErrorsRoute(APIRoute):
        def get_route_handler(
            self,
        ) -> Callable[[Request], Coroutine[Any, Any, Response]]:
            inner = super().get_route_handler()

            async def handle(request: Request) -> Response:
                try:
                    return await inner(request)
                except Exception as exc:
                    for kind, handler in handlers.items():
                        if isinstance(exc, kind):
                            return await handler(request, exc)
                    logger.exception("unhandled error in %s", self.name)
                    return _unexpected(service, self.name)

            return handle

    return DeclaredErrorsRoute


def error_handlers(
    service: ErrorBodies,
    statuses: Mapping[str, Statuses],
    wire_names: Mapping[str, Mapping[str, str]] | None = None,
) -> dict[type[Exception], ErrorHandler]:
    """The handlers answering ApiError, validation errors and HTTPException as declared."""

    async def on_api_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, errors.ApiError)
        media = service.error_media_type(_operation_of(request), exc.status_code)
        return error_response(exc, media)

    async def on_validation_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, RequestValidationError)
        operation_id = _operation_of(request)
        declared = statuses.get(operation_id, _UNDECLARED)
        tag = _unknown_tag(exc.errors())
        if tag is not None and declared.unknown_tag != declared.validation:
            body = service.error_body(
                operation_id, declared.unknown_tag, "INVALID_REQUEST", tag, None
            )
            return error_response(
                errors.ApiError(body, status_code=declared.unknown_tag),
                service.error_media_type(operation_id, declared.unknown_tag),
            )
        problems = _plain_errors(exc.errors(), (wire_names or {}).get(operation_id, {}))
        body = service.error_body(
            operation_id,
            declared.validation,
            "INVALID_REQUEST",
            _summary(problems),
            problems,
        )
        return error_response(
            errors.ApiError(body, status_code=declared.validation),
            service.error_media_type(operation_id, declared.validation),
        )

    async def on_http_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, StarletteHTTPException)
        if exc.status_code == 400 and exc.detail == _UNPARSABLE_BODY:
            # FastAPI's 400 for a body json.loads refuses with anything but a JSONDecodeError
            # (invalid UTF-8, nesting deeper than the parser allows): a validation failure.
            operation_id = _operation_of(request)
            status = statuses.get(operation_id, _UNDECLARED).validation
            message = "Request body is not valid JSON"
            body = service.error_body(
                operation_id, status, "INVALID_REQUEST", message, None
            )
            return error_response(
                errors.ApiError(body, status_code=status),
                service.error_media_type(operation_id, status),
            )
        operation_id, headers = _operation_of(request), dict(exc.headers or {})
        if exc.status_code == 405:
            operation_id, allowed = _path_methods(request)
            headers["Allow"] = ", ".join(allowed)
        status = exc.status_code
        body = service.error_body(
            operation_id, status, _code(status), str(exc.detail), None
        )
        return error_response(
            errors.ApiError(body, status_code=status, headers=headers),
            service.error_media_type(operation_id, status),
        )

    return {
        errors.ApiError: on_api_error,
        RequestValidationError: on_validation_error,
        StarletteHTTPException: on_http_error,
    }


_UNPARSABLE_BODY = "There was an error parsing the body"


def _code(status: int) -> str:
    """`NOT_FOUND` for 404: the code of an error the server answers itself."""
    try:
        return HTTPStatus(status).phrase.upper().replace(" ", "_").replace("-", "_")
    except ValueError:
        return "ERROR"


def _path_methods(request: Request) -> tuple[str, list[str]]:
    """The first operation at the request's path, and every method the path has (for `Allow`)."""
    first, methods = "", set()
    for route in request.app.router.routes:
        match, _ = route.matches({**request.scope, "method": ""})
        if match is not Match.NONE and isinstance(getattr(route, "methods", None), set):
            first = first or str(getattr(route, "name", "") or "")
            methods |= route.methods
    return first, sorted(methods)


def _unknown_tag(problems: Any) -> str | None:
    """`unknown <property>: <value>` when a discriminator named no member of its union."""
    for problem in problems:
        if problem.get("type") == "union_tag_invalid":
            context = problem.get("ctx") or {}
            name = str(context.get("discriminator", "")).strip("'\"")
            return f"unknown {name or 'kind'}: {context.get('tag')}"
    return None


class _BodyTooLarge(BaseException):
    # A BaseException, so that no `except Exception` on the way (FastAPI turns errors met
    # while reading a body into 400s) swallows it before it reaches the gate.
    pass


class Gate:
    """What is decided before a route reads the body, as a pure ASGI layer.

    The operation is found by matching the routes; its credentials are checked from the
    headers (an unauthenticated client cannot make the server read, parse or spool its body);
    then, with `max_body_bytes`, the body is counted as it arrives: a Content-Length over the
    cap is refused at once and a body that keeps coming is cut off at the cap, with the
    operation's declared status and body (`Statuses.too_large`).
    """

    def __init__(
        self,
        app: ASGIApp,
        *,
        routes: list[BaseRoute],
        service: ErrorBodies,
        checks: Mapping[str, Check],
        statuses: Mapping[str, Statuses],
        max_body_bytes: int | Mapping[str, int] | None,
    ) -> None:
        self.app = app
        self.routes = routes
        self.service = service
        self.checks = checks
        self.statuses = statuses
        self.max_body_bytes = max_body_bytes

    def limit(self, operation_id: str) -> int | None:
        """The body cap of an operation: one for all, or per operationId with `*` the rest."""
        caps = self.max_body_bytes
        if caps is None or isinstance(caps, int):
            return caps
        return caps.get(operation_id, caps.get("*"))

    def operation(self, scope: Scope) -> str:
        for route in self.routes:
            match, _ = route.matches(scope)
            if match is Match.FULL:
                return str(getattr(route, "name", "") or "")
        return ""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        operation_id = self.operation(scope)
        check = self.checks.get(operation_id)
        if check is not None:
            try:
                await check(Request(scope))
            except errors.ApiError as exc:
                media = self.service.error_media_type(operation_id, exc.status_code)
                await error_response(exc, media)(scope, receive, send)
                return
            scope[AUTHENTICATED] = operation_id
        limit = self.limit(operation_id)
        if limit is None:
            await self.app(scope, receive, send)
            return
        declared = _content_length(scope)
        if declared is not None and declared > limit:
            await self.refuse(operation_id, scope, receive, send)
            return
        received = 0
        started = False

        async def metered_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    raise _BodyTooLarge
            return message

        async def tracking_send(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, metered_receive, tracking_send)
        except _BodyTooLarge:
            if not started:
                await self.refuse(operation_id, scope, receive, send)

    async def refuse(
        self, operation_id: str, scope: Scope, receive: Receive, send: Send
    ) -> None:
        status = self.statuses.get(operation_id, _UNDECLARED).too_large
        code = "PAYLOAD_TOO_LARGE" if status == 413 else "INVALID_REQUEST"
        message = f"Request body exceeds the {self.limit(operation_id)}-byte limit"
        body = self.service.error_body(operation_id, status, code, message, None)
        error = errors.ApiError(
            body, status_code=status, headers={"Connection": "close"}
        )
        media = self.service.error_media_type(operation_id, status)
        await error_response(error, media)(scope, receive, send)


def _content_length(scope: Scope) -> int | None:
    for name, value in scope["headers"]:
        if name.lower() == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None


class Unexpected:
    """Answers an unexpected exception with the declared 500 body (and logs it).

    Not an `Exception` handler: Starlette re-raises after those run, and uvicorn then closes
    the connection under a keep-alive client that has already been answered.
    """

    def __init__(self, app: ASGIApp, service: ErrorBodies) -> None:
        self.app = app
        self.service = service

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def watch(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, receive, watch)
        except Exception:
            if started:
                raise  # too late for an error body: let the server drop the connection
            operation_id = getattr(scope.get("route"), "name", None) or ""
            logger.exception("unhandled error in %s", operation_id or scope.get("path"))
            await _unexpected(self.service, operation_id)(scope, receive, send)


def _unexpected(service: ErrorBodies, operation_id: str) -> Response:
    """The declared 500 answer of an unexpected exception."""
    message = "Internal server error"
    body = service.error_body(operation_id, 500, "INTERNAL_ERROR", message, None)
    return error_response(
        errors.ApiError(body, status_code=500),
        service.error_media_type(operation_id, 500),
    )


def install_docs(
    app: FastAPI,
    spec_text: str | bytes,
    *,
    title: str,
    docs_url: str = "/docs",
    redoc_url: str | None = "/redoc",
    base_path: str = "",
) -> None:
    """Swagger UI at `docs_url` and ReDoc at `redoc_url`, for the contract as written.

    The pages are FastAPI's own (`fastapi.openapi.docs`); their scripts and stylesheets come
    from the installed `fastapi-offline` package, served under `<docs_url>/assets`: no CDN, so
    the pages work offline. The contract is served at `<docs_url>/openapi.json` with one
    addition: when it declares `servers`, this server (at `base_path`, where the operations are
    mounted) is listed first, so "Try it out" calls the service that serves the page.
    """
    from importlib.resources import files

    from fastapi.openapi.docs import (
        get_redoc_html,
        get_swagger_ui_html,
        get_swagger_ui_oauth2_redirect_html,
    )
    from fastapi.responses import HTMLResponse
    from fastapi.staticfiles import StaticFiles

    try:
        assets = files("fastapi_offline") / "static"
    except ModuleNotFoundError as exc:
        raise RuntimeError(
            "the /docs page needs the fastapi-offline package (its Swagger UI and ReDoc "
            "assets): pip install fastapi-offline, or pass serve_docs=False"
        ) from exc
    static, spec_url = f"{docs_url}/assets", f"{docs_url}/openapi.json"
    redirect_url = f"{docs_url}/oauth2-redirect"
    app.mount(static, StaticFiles(directory=str(assets)), name="docs-assets")
    served: list[str] = []

    # Made on the first request: for a large contract, most of create_app's time otherwise.
    def served_text() -> str:
        if not served:
            spec = json.loads(spec_text)
            if spec.get("servers"):
                here = {
                    "url": base_path or "/",
                    "description": "This server (added by its docs page)",
                }
                spec["servers"] = [here, *spec["servers"]]
            served.append(json.dumps(spec))
        return served[0]

    @app.get(spec_url, include_in_schema=False)
    async def docs_contract(request: Request) -> Response:
        return Response(served_text(), media_type="application/json")

    @app.get(docs_url, include_in_schema=False)
    async def swagger_ui(request: Request) -> HTMLResponse:
        root = request.scope.get("root_path", "")
        return get_swagger_ui_html(
            openapi_url=root + spec_url,
            title=f"{title} - Swagger UI",
            oauth2_redirect_url=root + redirect_url,
            swagger_js_url=f"{root}{static}/swagger-ui-bundle.js",
            swagger_css_url=f"{root}{static}/swagger-ui.css",
            swagger_favicon_url=f"{root}{static}/favicon.png",
        )

    @app.get(redirect_url, include_in_schema=False)
    async def swagger_ui_redirect() -> HTMLResponse:
        return get_swagger_ui_oauth2_redirect_html()

    if redoc_url is not None:

        @app.get(redoc_url, include_in_schema=False)
        async def redoc(request: Request) -> HTMLResponse:
            root = request.scope.get("root_path", "")
            return get_redoc_html(
                openapi_url=root + spec_url,
                title=f"{title} - ReDoc",
                redoc_js_url=f"{root}{static}/redoc.standalone.js",
                redoc_favicon_url=f"{root}{static}/favicon.png",
                with_google_fonts=False,
            )
