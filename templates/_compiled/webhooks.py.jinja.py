# Template webhooks.py.jinja, compiled by Jinja; written by `make regen`. DO NOT EDIT.
KEY = '00cd3d12951f81c0f4f364215be42b0f'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'webhooks.py.jinja'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_api = resolve('api')
    l_0_hooks = resolve('hooks')
    l_0_error_builders = resolve('error_builders')
    l_0_hook_error_builders = resolve('hook_error_builders')
    l_0_hook_error_media = resolve('hook_error_media')
    l_0_hook_statuses = resolve('hook_statuses')
    try:
        t_1 = environment.filters['docstring']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'docstring' found.")
    try:
        t_2 = environment.filters['pyrepr']
    except KeyError:
        @internalcode
        def t_2(*unused):
            raise TemplateRuntimeError("No filter named 'pyrepr' found.")
    pass
    yield str(environment.getattr((undefined(name='api') if l_0_api is missing else l_0_api), 'header'))
    yield '\n'
    yield from context.blocks['docstring'][0](context)
    yield '\n'
    yield from context.blocks['imports'][0](context)
    yield '\n__all__ = ["WEBHOOK_ROUTES", "WebhookReceiverBase", "create_webhook_app", "create_webhook_router"]\n\nWEBHOOK_ROUTES: dict[str, str] = {\n'
    for l_1_hook in (undefined(name='hooks') if l_0_hooks is missing else l_0_hooks):
        _loop_vars = {}
        pass
        yield '    '
        yield str(t_2(environment.getattr(l_1_hook, 'method')))
        yield ': '
        yield str(t_2(environment.getattr(l_1_hook, 'route')))
        yield ',\n'
    l_1_hook = missing
    yield '}\n"""Where each hook is mounted unless `paths` says otherwise: receiver method -> path."""\n\n_UNCHECKED_SECURITY: dict[str, tuple[str, ...]] = {\n'
    def t_3(fiter):
        for l_1_hook in fiter:
            if environment.getattr(l_1_hook, 'security'):
                yield l_1_hook
    for l_1_hook in t_3((undefined(name='hooks') if l_0_hooks is missing else l_0_hooks)):
        _loop_vars = {}
        pass
        yield '    '
        yield str(t_2(environment.getattr(l_1_hook, 'method')))
        yield ': '
        yield str(t_2(environment.getattr(l_1_hook, 'security')))
        yield ',\n'
    l_1_hook = missing
    yield '}\n"""Hooks whose declared security schemes this receiver does not check."""\n'
    for (l_1_name, l_1_expression) in (undefined(name='error_builders') if l_0_error_builders is missing else l_0_error_builders):
        _loop_vars = {}
        pass
        yield '\n\ndef '
        yield str(l_1_name)
        yield '(status: int, code: str, message: str, errors: list[Any] | None) -> Any:\n    return '
        yield str(l_1_expression)
        yield '\n'
    l_1_name = l_1_expression = missing
    yield "\n\n# Each hook's error body builders, media types and refusal statuses, as the contract declares.\n_ERROR_BODIES: dict[str, dict[str, ErrorBodyBuilder]] = {\n"
    for (l_1_hook, l_1_builders) in context.call(environment.getattr((undefined(name='hook_error_builders') if l_0_hook_error_builders is missing else l_0_hook_error_builders), 'items')):
        _loop_vars = {}
        pass
        yield '    '
        yield str(t_2(l_1_hook))
        yield ': {'
        for (l_2_status, l_2_builder) in l_1_builders:
            _loop_vars = {}
            pass
            yield str(t_2(l_2_status))
            yield ': '
            yield str(l_2_builder)
            yield ', '
        l_2_status = l_2_builder = missing
        yield '},\n'
    l_1_hook = l_1_builders = missing
    yield '}\n_ERROR_MEDIA: dict[str, dict[str, str]] = '
    yield str(t_2((undefined(name='hook_error_media') if l_0_hook_error_media is missing else l_0_hook_error_media)))
    yield '\n_STATUSES: dict[str, Statuses] = {\n'
    for (l_1_hook, l_1_found) in context.call(environment.getattr((undefined(name='hook_statuses') if l_0_hook_statuses is missing else l_0_hook_statuses), 'items')):
        _loop_vars = {}
        pass
        yield '    '
        yield str(t_2(l_1_hook))
        yield ': Statuses'
        yield str(t_2(l_1_found))
        yield ',\n'
    l_1_hook = l_1_found = missing
    yield '}\n\n\nclass WebhookReceiverBase:\n    """One async method per webhook and callback; each answers 501 until overridden."""\n'
    for l_1_hook in (undefined(name='hooks') if l_0_hooks is missing else l_0_hooks):
        _loop_vars = {}
        pass
        yield '\n    async def '
        yield str(environment.getattr(l_1_hook, 'method'))
        yield '(self'
        if environment.getattr(l_1_hook, 'body'):
            pass
            yield ', body: '
            yield str(environment.getattr(l_1_hook, 'body'))
            if (not environment.getattr(l_1_hook, 'body_required')):
                pass
                yield ' | None'
        yield ') -> '
        yield str(environment.getattr(l_1_hook, 'result'))
        yield ':\n        """'
        yield str(t_1(environment.getattr(l_1_hook, 'doc'), 8))
        yield '"""\n        raise HTTPException(501, "'
        yield str(environment.getattr(l_1_hook, 'method'))
        yield ' is not implemented")\n'
    l_1_hook = missing
    yield '\n    def error_media_type(self, operation_id: str, status: int) -> str:\n        """The media type of an error the receiver answers itself, as the contract declares it."""\n        return media_type_of(_ERROR_MEDIA.get(operation_id, {}), status)\n\n    def error_body(\n        self,\n        operation_id: str,\n        status: int,\n        code: str,\n        message: str,\n        errors: list[Any] | None,\n    ) -> Any:\n        """A body for an error the receiver answers itself (a body it refuses, a signature,\n        a hook not overridden), in the shape the hook\'s contract declares; `operation_id`\n        is the hook\'s method name."""\n        builder = error_builder(_ERROR_BODIES, operation_id, status)\n        return builder(status, code, message, errors)\n\n\n_ANY: TypeAdapter[Any] = TypeAdapter(Any)\n\n\ndef _answer(result: Any, status: int, empty_status: int) -> Response:\n    if result is None:\n        return Response(status_code=empty_status)\n    return Response(_ANY.dump_json(result, by_alias=True), status, media_type="application/json")\n\n\ndef _verifying(verify: Verifier) -> Callable[[Request], Awaitable[None]]:\n    async def check(request: Request) -> None:\n        try:\n            verify(request.headers, await request.body())\n        except (SignatureError, ValueError) as exc:\n            raise HTTPException(401, f"webhook signature refused: {exc}") from None\n\n    return check\n\n\ndef create_webhook_router(\n    receiver: WebhookReceiverBase,\n    *,\n    paths: Mapping[str, str] | None = None,\n    insecure_no_auth: bool = False,\n    verify: Verifier | None = None,\n) -> APIRouter:\n    """The routes of every hook, at `WEBHOOK_ROUTES` updated by `paths` (method -> path).\n\n    `verify` checks each request\'s signature before its body is read (`StandardWebhooks(secret)`\n    or any callable of headers and raw body raising `SignatureError`): a 401 otherwise.\n    Hooks that declare security are not checked here: building refuses unless\n    `insecure_no_auth=True` says the caller checks them (a dependency, a middleware)."""\n    if _UNCHECKED_SECURITY and not insecure_no_auth:\n        named = ", ".join(f"{hook} ({\', \'.join(schemes)})" for hook, schemes in _UNCHECKED_SECURITY.items())\n        raise ValueError(\n            f"hooks {named} declare security that the generated receiver does not check: "\n            "check it in front of the router and pass insecure_no_auth=True"\n        )\n    unknown = sorted(set(paths or {}) - set(WEBHOOK_ROUTES))\n    if unknown:\n        raise ValueError(f"unknown hooks {unknown}; declared: {sorted(WEBHOOK_ROUTES)}")\n    where = {**WEBHOOK_ROUTES, **(paths or {})}\n    undefer_models()\n    router = APIRouter(\n        dependencies=[Depends(_verifying(verify))] if verify else [],\n        route_class=declared_errors_route(receiver, _STATUSES),\n    )\n'
    for l_1_hook in (undefined(name='hooks') if l_0_hooks is missing else l_0_hooks):
        _loop_vars = {}
        pass
        yield '\n    async def '
        yield str(environment.getattr(l_1_hook, 'method'))
        yield '('
        if environment.getattr(l_1_hook, 'body'):
            pass
            yield 'body: Annotated['
            yield str(environment.getattr(l_1_hook, 'body'))
            if (not environment.getattr(l_1_hook, 'body_required')):
                pass
                yield ' | None'
            yield ', JsonTyped(), Body()]'
            if (not environment.getattr(l_1_hook, 'body_required')):
                pass
                yield ' = None'
        yield ') -> Response:\n'
        if (environment.getattr(l_1_hook, 'result') == 'None'):
            pass
            yield '        await receiver.'
            yield str(environment.getattr(l_1_hook, 'method'))
            yield '('
            if environment.getattr(l_1_hook, 'body'):
                pass
                yield 'body'
            yield ')\n        return Response(status_code='
            yield str(environment.getattr(l_1_hook, 'empty_status'))
            yield ')\n'
        else:
            pass
            yield '        result = await receiver.'
            yield str(environment.getattr(l_1_hook, 'method'))
            yield '('
            if environment.getattr(l_1_hook, 'body'):
                pass
                yield 'body'
            yield ')\n        return _answer(result, '
            yield str(environment.getattr(l_1_hook, 'status'))
            yield ', '
            yield str(environment.getattr(l_1_hook, 'empty_status'))
            yield ')\n'
        yield '\n    router.add_api_route(where['
        yield str(t_2(environment.getattr(l_1_hook, 'method')))
        yield '], '
        yield str(environment.getattr(l_1_hook, 'method'))
        yield ', methods=['
        yield str(t_2(environment.getattr(l_1_hook, 'http_method')))
        yield '], name='
        yield str(t_2(environment.getattr(l_1_hook, 'method')))
        yield ')\n'
    l_1_hook = missing
    yield '    return router\n\n\ndef create_webhook_app(\n    receiver: WebhookReceiverBase,\n    *,\n    paths: Mapping[str, str] | None = None,\n    insecure_no_auth: bool = False,\n    verify: Verifier | None = None,\n    **fastapi_kwargs: Any,\n) -> FastAPI:\n    """A FastAPI app serving `create_webhook_router(receiver, paths=..., insecure_no_auth=..., verify=...)`."""\n    app = FastAPI(**fastapi_kwargs)\n    app.include_router(\n        create_webhook_router(receiver, paths=paths, insecure_no_auth=insecure_no_auth, verify=verify)\n    )\n    return app\n'

def block_docstring(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    _block_vars = {}
    l_0_api = resolve('api')
    pass
    yield '"""Receiver of the webhooks and callbacks of '
    yield str(environment.getattr((undefined(name='api') if l_0_api is missing else l_0_api), 'title'))
    yield ': requests the API sends to its\nsubscribers.\n\nSubclass `WebhookReceiverBase`, override the hooks you receive, and mount\n`create_webhook_router(receiver)` (or run `create_webhook_app(receiver)`). Each route validates\nthe body with the generated models and JSON Schema\'s types (else the hook\'s declared validation\nstatus, 422 or 400) and answers the declared status; hooks you do not override answer 501. Its\nerrors have the shapes the hook declares, wherever the router is mounted. Never edit this file: `contractgen generate` rewrites it.\n"""\n'

def block_imports(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    _block_vars = {}
    l_0_imports = resolve('imports')
    pass
    yield str((undefined(name='imports') if l_0_imports is missing else l_0_imports))
    yield '\n'

blocks = {'docstring': block_docstring, 'imports': block_imports}
debug_info = '1=29&2=31&14=33&21=35&22=39&28=45&29=53&33=59&36=63&37=65&43=69&44=73&47=86&49=88&50=92&57=98&59=102&60=114&61=116&130=120&132=124&133=138&134=141&135=147&137=152&138=158&141=163&2=174&3=184&14=187&15=196'
