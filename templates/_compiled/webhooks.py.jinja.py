# Template webhooks.py.jinja, compiled by Jinja; written by `make regen`. DO NOT EDIT.
KEY = 'dba2dcafb96a22de8f8a09124a63447b'
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
    l_0_braced = resolve('braced')
    l_0_body = missing
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
    try:
        t_3 = environment.filters['tuple']
    except KeyError:
        @internalcode
        def t_3(*unused):
            raise TemplateRuntimeError("No filter named 'tuple' found.")
    pass
    yield str(environment.getattr((undefined(name='api') if l_0_api is missing else l_0_api), 'header'))
    yield '\n'
    yield from context.blocks['docstring'][0](context)
    yield '\n'
    yield from context.blocks['imports'][0](context)
    yield '\n__all__ = [\n    "WEBHOOK_ROUTES",\n    "WebhookReceiverBase",\n    "create_webhook_app",\n    "create_webhook_router",\n]\n\nWEBHOOK_ROUTES: dict[str, str] = {\n'
    for l_1_hook in (undefined(name='hooks') if l_0_hooks is missing else l_0_hooks):
        l_1_statement = resolve('statement')
        _loop_vars = {}
        pass
        yield str(context.call((undefined(name='statement') if l_1_statement is missing else l_1_statement), '    ', str_join((t_2(environment.getattr(l_1_hook, 'method')), ': ', )), t_2(environment.getattr(l_1_hook, 'route')), ',', _loop_vars=_loop_vars))
        yield '\n'
    l_1_hook = l_1_statement = missing
    yield '}\n"""Where each hook is mounted unless `paths` says otherwise: receiver method -> path."""\n\n'
    t_4 = []
    pass
    def t_5(fiter):
        for l_2_hook in fiter:
            if environment.getattr(l_2_hook, 'security'):
                yield l_2_hook
    for l_2_hook in t_5((undefined(name='hooks') if l_0_hooks is missing else l_0_hooks)):
        l_2_statement = resolve('statement')
        l_2_value = resolve('value')
        _loop_vars = {}
        pass
        t_4.extend((
            str(context.call((undefined(name='statement') if l_2_statement is missing else l_2_statement), '    ', str_join((t_2(environment.getattr(l_2_hook, 'method')), ': ', )), context.call((undefined(name='value') if l_2_value is missing else l_2_value), t_3(environment.getattr(l_2_hook, 'security')), _loop_vars=_loop_vars), ',', _loop_vars=_loop_vars)),
            '\n',
        ))
    l_2_hook = l_2_statement = l_2_value = missing
    l_0_body = (Markup if context.eval_ctx.autoescape else identity)(concat(t_4))
    context.vars['body'] = l_0_body
    context.exported_vars.add('body')
    yield str(context.call((undefined(name='braced') if l_0_braced is missing else l_0_braced), '_UNCHECKED_SECURITY: dict[str, tuple[str, ...]] = ', (undefined(name='body') if l_0_body is missing else l_0_body)))
    yield '\n"""Hooks whose declared security schemes this receiver does not check."""\n\n\nclass WebhookReceiverBase:\n    """One async method per webhook and callback; each answers 501 until overridden."""\n'
    for l_1_hook in (undefined(name='hooks') if l_0_hooks is missing else l_0_hooks):
        l_1_define = resolve('define')
        l_1_laid = resolve('laid')
        _loop_vars = {}
        pass
        yield '\n'
        yield str(context.call((undefined(name='define') if l_1_define is missing else l_1_define), '    ', str_join(('async def ', environment.getattr(l_1_hook, 'method'), '(', )), (['self'] + ([str_join(('body: ', environment.getattr(l_1_hook, 'body'), ('' if environment.getattr(l_1_hook, 'body_required') else ' | None'), ))] if environment.getattr(l_1_hook, 'body') else [])), str_join((') -> ', environment.getattr(l_1_hook, 'result'), ':', )), _loop_vars=_loop_vars))
        yield '\n        """'
        yield str(t_1(environment.getattr(l_1_hook, 'doc'), 8))
        yield '"""\n'
        yield str(context.call((undefined(name='laid') if l_1_laid is missing else l_1_laid), '        ', 'raise ', 'HTTPException(', ['501', t_2(str_join((environment.getattr(l_1_hook, 'method'), ' is not implemented', )))], _loop_vars=_loop_vars))
        yield '\n'
    l_1_hook = l_1_define = l_1_laid = missing
    yield '\n\n_ANY: TypeAdapter[Any] = TypeAdapter(Any)\n\n\ndef _answer(result: Any, status: int, empty_status: int) -> Response:\n    if result is None:\n        return Response(status_code=empty_status)\n    return Response(\n        _ANY.dump_json(result, by_alias=True), status, media_type="application/json"\n    )\n\n\ndef _verifying(verify: Verifier) -> Callable[[Request], Awaitable[None]]:\n    async def check(request: Request) -> None:\n        try:\n            verify(request.headers, await request.body())\n        except (SignatureError, ValueError) as exc:\n            raise HTTPException(401, f"webhook signature refused: {exc}") from None\n\n    return check\n\n\ndef create_webhook_router(\n    receiver: WebhookReceiverBase,\n    *,\n    paths: Mapping[str, str] | None = None,\n    insecure_no_auth: bool = False,\n    verify: Verifier | None = None,\n) -> APIRouter:\n    """The routes of every hook, at `WEBHOOK_ROUTES` updated by `paths` (method -> path).\n\n    `verify` checks each request\'s signature before its body is read (`StandardWebhooks(secret)`\n    or any callable of headers and raw body raising `SignatureError`): a 401 otherwise.\n    Hooks that declare security are not checked here: building refuses unless\n    `insecure_no_auth=True` says the caller checks them (a dependency, a middleware)."""\n    if _UNCHECKED_SECURITY and not insecure_no_auth:\n        named = ", ".join(\n            f"{hook} ({\', \'.join(schemes)})"\n            for hook, schemes in _UNCHECKED_SECURITY.items()\n        )\n        raise ValueError(\n            f"hooks {named} declare security that the generated receiver does not check: "\n            "check it in front of the router and pass insecure_no_auth=True"\n        )\n    unknown = sorted(set(paths or {}) - set(WEBHOOK_ROUTES))\n    if unknown:\n        raise ValueError(f"unknown hooks {unknown}; declared: {sorted(WEBHOOK_ROUTES)}")\n    where = {**WEBHOOK_ROUTES, **(paths or {})}\n    undefer_models()\n    router = APIRouter(dependencies=[Depends(_verifying(verify))] if verify else [])\n'
    for l_1_hook in (undefined(name='hooks') if l_0_hooks is missing else l_0_hooks):
        l_1_define = resolve('define')
        l_1_laid = resolve('laid')
        _loop_vars = {}
        pass
        yield '\n'
        yield str(context.call((undefined(name='define') if l_1_define is missing else l_1_define), '    ', str_join(('async def ', environment.getattr(l_1_hook, 'method'), '(', )), ([str_join(('body: Annotated[', environment.getattr(l_1_hook, 'body'), ('' if environment.getattr(l_1_hook, 'body_required') else ' | None'), ', Body()]', ('' if environment.getattr(l_1_hook, 'body_required') else ' = None'), ))] if environment.getattr(l_1_hook, 'body') else []), ') -> Response:', _loop_vars=_loop_vars))
        yield '\n'
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
        yield '\n'
        yield str(context.call((undefined(name='laid') if l_1_laid is missing else l_1_laid), '    ', '', 'router.add_api_route(', [str_join(('where[', t_2(environment.getattr(l_1_hook, 'method')), ']', )), environment.getattr(l_1_hook, 'method'), str_join(('methods=[', t_2(environment.getattr(l_1_hook, 'http_method')), ']', ))], _loop_vars=_loop_vars))
        yield '\n'
    l_1_hook = l_1_define = l_1_laid = missing
    yield '    return router\n\n\ndef create_webhook_app(\n    receiver: WebhookReceiverBase,\n    *,\n    paths: Mapping[str, str] | None = None,\n    insecure_no_auth: bool = False,\n    verify: Verifier | None = None,\n    **fastapi_kwargs: Any,\n) -> FastAPI:\n    """A FastAPI app serving `create_webhook_router(receiver, paths=..., insecure_no_auth=..., verify=...)`."""\n    app = FastAPI(**fastapi_kwargs)\n    app.include_router(\n        create_webhook_router(\n            receiver, paths=paths, insecure_no_auth=insecure_no_auth, verify=verify\n        )\n    )\n    return app\n'

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
debug_info = '1=33&2=35&13=37&25=39&26=43&32=49&33=59&31=63&36=66&42=68&44=74&45=76&46=78&99=82&101=88&102=90&103=93&104=99&106=104&107=110&110=115&2=120&3=130&13=133&14=142'
