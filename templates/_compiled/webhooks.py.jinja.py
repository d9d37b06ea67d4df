# Template webhooks.py.jinja, compiled by Jinja; written by `make regen`. DO NOT EDIT.
KEY = '6fd4321d987eab646c8e76ec3caab547'
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
    yield '}\n"""Hooks whose declared security schemes this receiver does not check."""\n\n\nclass WebhookReceiverBase:\n    """One async method per webhook and callback; each answers 501 until overridden."""\n'
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
    yield '\n\n_ANY: TypeAdapter[Any] = TypeAdapter(Any)\n\n\ndef _answer(result: Any, status: int, empty_status: int) -> Response:\n    if result is None:\n        return Response(status_code=empty_status)\n    return Response(_ANY.dump_json(result, by_alias=True), status, media_type="application/json")\n\n\ndef _verifying(verify: Verifier) -> Callable[[Request], Awaitable[None]]:\n    async def check(request: Request) -> None:\n        try:\n            verify(request.headers, await request.body())\n        except (SignatureError, ValueError) as exc:\n            raise HTTPException(401, f"webhook signature refused: {exc}") from None\n\n    return check\n\n\ndef create_webhook_router(\n    receiver: WebhookReceiverBase,\n    *,\n    paths: Mapping[str, str] | None = None,\n    insecure_no_auth: bool = False,\n    verify: Verifier | None = None,\n) -> APIRouter:\n    """The routes of every hook, at `WEBHOOK_ROUTES` updated by `paths` (method -> path).\n\n    `verify` checks each request\'s signature before its body is read (`StandardWebhooks(secret)`\n    or any callable of headers and raw body raising `SignatureError`): a 401 otherwise.\n    Hooks that declare security are not checked here: building refuses unless\n    `insecure_no_auth=True` says the caller checks them (a dependency, a middleware)."""\n    if _UNCHECKED_SECURITY and not insecure_no_auth:\n        named = ", ".join(f"{hook} ({\', \'.join(schemes)})" for hook, schemes in _UNCHECKED_SECURITY.items())\n        raise ValueError(\n            f"hooks {named} declare security that the generated receiver does not check: "\n            "check it in front of the router and pass insecure_no_auth=True"\n        )\n    unknown = sorted(set(paths or {}) - set(WEBHOOK_ROUTES))\n    if unknown:\n        raise ValueError(f"unknown hooks {unknown}; declared: {sorted(WEBHOOK_ROUTES)}")\n    where = {**WEBHOOK_ROUTES, **(paths or {})}\n    undefer_models()\n    router = APIRouter(dependencies=[Depends(_verifying(verify))] if verify else [])\n'
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
            yield ', Body()]'
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
        yield '])\n'
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
    yield ': requests the API sends to its\nsubscribers.\n\nSubclass `WebhookReceiverBase`, override the hooks you receive, and mount\n`create_webhook_router(receiver)` (or run `create_webhook_app(receiver)`). Each route validates\nthe body with the generated models (a 422 otherwise) and answers the declared status; hooks you\ndo not override answer 501. Never edit this file: `contractgen generate` rewrites it.\n"""\n'

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
debug_info = '1=25&2=27&13=29&20=31&21=35&27=41&28=49&36=55&38=59&39=71&40=73&88=77&90=81&91=95&92=98&93=104&95=109&96=115&99=120&2=129&3=139&13=142&14=151'
