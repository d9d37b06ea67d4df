# Template webhooks.py.jinja, compiled by Jinja; written by `make regen`. DO NOT EDIT.
KEY = '3dcb53032b023b9f623bd4d222b635d3'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'webhooks.py.jinja'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_header = resolve('header')
    l_0_import_set = resolve('import_set')
    l_0_types = resolve('types')
    l_0_uses_models = resolve('uses_models')
    l_0_hooks = resolve('hooks')
    l_0_error_builders = resolve('error_builders')
    l_0_braced = resolve('braced')
    l_0_imports = l_0_body = missing
    try:
        t_1 = environment.filters['docstring']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'docstring' found.")
    try:
        t_2 = environment.filters['entries']
    except KeyError:
        @internalcode
        def t_2(*unused):
            raise TemplateRuntimeError("No filter named 'entries' found.")
    try:
        t_3 = environment.filters['list']
    except KeyError:
        @internalcode
        def t_3(*unused):
            raise TemplateRuntimeError("No filter named 'list' found.")
    try:
        t_4 = environment.filters['map']
    except KeyError:
        @internalcode
        def t_4(*unused):
            raise TemplateRuntimeError("No filter named 'map' found.")
    try:
        t_5 = environment.filters['pyrepr']
    except KeyError:
        @internalcode
        def t_5(*unused):
            raise TemplateRuntimeError("No filter named 'pyrepr' found.")
    try:
        t_6 = environment.filters['selectattr']
    except KeyError:
        @internalcode
        def t_6(*unused):
            raise TemplateRuntimeError("No filter named 'selectattr' found.")
    try:
        t_7 = environment.filters['tuple']
    except KeyError:
        @internalcode
        def t_7(*unused):
            raise TemplateRuntimeError("No filter named 'tuple' found.")
    pass
    yield str((undefined(name='header') if l_0_header is missing else l_0_header))
    yield '\n'
    yield from context.blocks['docstring'][0](context)
    l_0_imports = context.call((undefined(name='import_set') if l_0_import_set is missing else l_0_import_set))
    context.vars['imports'] = l_0_imports
    context.exported_vars.add('imports')
    context.call(environment.getattr((undefined(name='imports') if l_0_imports is missing else l_0_imports), 'name'), '__future__', 'annotations')
    context.call(environment.getattr(context.call(environment.getattr((undefined(name='imports') if l_0_imports is missing else l_0_imports), 'types'), (undefined(name='types') if l_0_types is missing else l_0_types)), 'name'), 'typing', 'Any')
    if (undefined(name='uses_models') if l_0_uses_models is missing else l_0_uses_models):
        pass
        context.call(environment.getattr((undefined(name='imports') if l_0_imports is missing else l_0_imports), 'name'), '.', 'models')
    context.call(environment.getattr(context.call(environment.getattr((undefined(name='imports') if l_0_imports is missing else l_0_imports), 'name'), 'collections.abc', 'Awaitable', 'Callable', 'Mapping'), 'name'), 'pydantic', 'TypeAdapter')
    context.call(environment.getattr((undefined(name='imports') if l_0_imports is missing else l_0_imports), 'name'), 'fastapi', 'APIRouter', 'Depends', 'FastAPI', 'HTTPException', 'Request')
    context.call(environment.getattr((undefined(name='imports') if l_0_imports is missing else l_0_imports), 'name'), 'fastapi.responses', 'Response')
    context.call(environment.getattr((undefined(name='imports') if l_0_imports is missing else l_0_imports), 'name'), '._webhook_signing', 'SignatureError', 'Verifier')
    context.call(environment.getattr((undefined(name='imports') if l_0_imports is missing else l_0_imports), 'name'), '._server_runtime', 'ErrorBodyBuilder', 'Statuses', 'declared_errors_route', 'error_builder', 'media_type_of', 'undefer_models')
    if t_3(context.eval_ctx, t_6(context, (undefined(name='hooks') if l_0_hooks is missing else l_0_hooks), 'body')):
        pass
        context.call(environment.getattr(context.call(environment.getattr(context.call(environment.getattr((undefined(name='imports') if l_0_imports is missing else l_0_imports), 'name'), 'typing', 'Annotated'), 'name'), 'fastapi', 'Body'), 'name'), '._json_types', 'JsonTyped')
    def t_8(fiter):
        for (l_1_name, l_1_expression) in fiter:
            if ('error_lines(' in l_1_expression):
                yield (l_1_name, l_1_expression)
    for (l_1_name, l_1_expression) in t_8((undefined(name='error_builders') if l_0_error_builders is missing else l_0_error_builders)):
        _loop_vars = {}
        pass
        context.call(environment.getattr((undefined(name='imports') if l_0_imports is missing else l_0_imports), 'name'), '._server_runtime', 'error_lines', _loop_vars=_loop_vars)
    l_1_name = l_1_expression = missing
    yield '\n'
    yield from context.blocks['imports'][0](context)
    yield '\n__all__ = [\n    "WEBHOOK_ROUTES",\n    "WebhookReceiverBase",\n    "create_webhook_app",\n    "create_webhook_router",\n]\n\nWEBHOOK_ROUTES: dict[str, str] = {\n'
    for l_1_hook in (undefined(name='hooks') if l_0_hooks is missing else l_0_hooks):
        l_1_statement = resolve('statement')
        _loop_vars = {}
        pass
        yield str(context.call((undefined(name='statement') if l_1_statement is missing else l_1_statement), '    ', str_join((t_5(environment.getattr(l_1_hook, 'method')), ': ', )), t_5(environment.getattr(l_1_hook, 'route')), ',', _loop_vars=_loop_vars))
        yield '\n'
    l_1_hook = l_1_statement = missing
    yield '}\n"""Where each hook is mounted unless `paths` says otherwise: receiver method -> path."""\n\n'
    t_9 = []
    pass
    def t_10(fiter):
        for l_2_hook in fiter:
            if environment.getattr(l_2_hook, 'security'):
                yield l_2_hook
    for l_2_hook in t_10((undefined(name='hooks') if l_0_hooks is missing else l_0_hooks)):
        l_2_statement = resolve('statement')
        l_2_value = resolve('value')
        _loop_vars = {}
        pass
        t_9.extend((
            str(context.call((undefined(name='statement') if l_2_statement is missing else l_2_statement), '    ', str_join((t_5(environment.getattr(l_2_hook, 'method')), ': ', )), context.call((undefined(name='value') if l_2_value is missing else l_2_value), t_7(environment.getattr(l_2_hook, 'security')), _loop_vars=_loop_vars), ',', _loop_vars=_loop_vars)),
            '\n',
        ))
    l_2_hook = l_2_statement = l_2_value = missing
    l_0_body = (Markup if context.eval_ctx.autoescape else identity)(concat(t_9))
    context.vars['body'] = l_0_body
    context.exported_vars.add('body')
    yield str(context.call((undefined(name='braced') if l_0_braced is missing else l_0_braced), '_UNCHECKED_SECURITY: dict[str, tuple[str, ...]] = ', (undefined(name='body') if l_0_body is missing else l_0_body)))
    yield '\n"""Hooks whose declared security schemes this receiver does not check."""\n'
    for (l_1_name, l_1_expression) in (undefined(name='error_builders') if l_0_error_builders is missing else l_0_error_builders):
        l_1_define = resolve('define')
        _loop_vars = {}
        pass
        yield '\n\n'
        yield str(context.call((undefined(name='define') if l_1_define is missing else l_1_define), '', str_join(('def ', l_1_name, '(', )), ['status: int', 'code: str', 'message: str', 'errors: list[Any] | None'], ') -> Any:', _loop_vars=_loop_vars))
        yield '\n    return '
        yield str(l_1_expression)
        yield '\n'
    l_1_name = l_1_expression = l_1_define = missing
    yield "\n\n# Each hook's error body builders, media types and refusal statuses, as the contract declares.\n"
    l_1_hook_error_builders = resolve('hook_error_builders')
    t_11 = []
    pass
    for (l_2_hook, l_2_builders) in context.call(environment.getattr((undefined(name='hook_error_builders') if l_1_hook_error_builders is missing else l_1_hook_error_builders), 'items')):
        l_2_laid = resolve('laid')
        _loop_vars = {}
        pass
        t_11.extend((
            str(context.call((undefined(name='laid') if l_2_laid is missing else l_2_laid), '    ', str_join((t_5(l_2_hook), ': ', )), '{', t_2(l_2_builders), closer='}', tail=',', _loop_vars=_loop_vars)),
            '\n',
        ))
    l_2_hook = l_2_builders = l_2_laid = missing
    l_0_body = (Markup if context.eval_ctx.autoescape else identity)(concat(t_11))
    context.vars['body'] = l_0_body
    context.exported_vars.add('body')
    l_1_hook_error_builders = missing
    yield str(context.call((undefined(name='braced') if l_0_braced is missing else l_0_braced), '_ERROR_BODIES: dict[str, dict[str, ErrorBodyBuilder]] = ', (undefined(name='body') if l_0_body is missing else l_0_body)))
    yield '\n'
    l_1_hook_error_media = resolve('hook_error_media')
    t_12 = []
    pass
    for (l_2_hook, l_2_media) in context.call(environment.getattr((undefined(name='hook_error_media') if l_1_hook_error_media is missing else l_1_hook_error_media), 'items')):
        l_2_laid = resolve('laid')
        _loop_vars = {}
        pass
        t_12.extend((
            str(context.call((undefined(name='laid') if l_2_laid is missing else l_2_laid), '    ', str_join((t_5(l_2_hook), ': ', )), '{', t_2(context.call(environment.getattr(l_2_media, 'items'), _loop_vars=_loop_vars), True), closer='}', tail=',', _loop_vars=_loop_vars)),
            '\n',
        ))
    l_2_hook = l_2_media = l_2_laid = missing
    l_0_body = (Markup if context.eval_ctx.autoescape else identity)(concat(t_12))
    context.vars['body'] = l_0_body
    context.exported_vars.add('body')
    l_1_hook_error_media = missing
    yield str(context.call((undefined(name='braced') if l_0_braced is missing else l_0_braced), '_ERROR_MEDIA: dict[str, dict[str, str]] = ', (undefined(name='body') if l_0_body is missing else l_0_body)))
    yield '\n'
    l_1_hook_statuses = resolve('hook_statuses')
    t_13 = []
    pass
    for (l_2_hook, l_2_found) in context.call(environment.getattr((undefined(name='hook_statuses') if l_1_hook_statuses is missing else l_1_hook_statuses), 'items')):
        l_2_laid = resolve('laid')
        _loop_vars = {}
        pass
        t_13.extend((
            str(context.call((undefined(name='laid') if l_2_laid is missing else l_2_laid), '    ', str_join((t_5(l_2_hook), ': ', )), 'Statuses(', t_3(context.eval_ctx, t_4(context, l_2_found, 'string')), tail=',', _loop_vars=_loop_vars)),
            '\n',
        ))
    l_2_hook = l_2_found = l_2_laid = missing
    l_0_body = (Markup if context.eval_ctx.autoescape else identity)(concat(t_13))
    context.vars['body'] = l_0_body
    context.exported_vars.add('body')
    l_1_hook_statuses = missing
    yield str(context.call((undefined(name='braced') if l_0_braced is missing else l_0_braced), '_STATUSES: dict[str, Statuses] = ', (undefined(name='body') if l_0_body is missing else l_0_body)))
    yield '\n\n\nclass WebhookReceiverBase:\n    """One async method per webhook and callback; each answers 501 until overridden."""\n'
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
        yield str(context.call((undefined(name='laid') if l_1_laid is missing else l_1_laid), '        ', 'raise ', 'HTTPException(', ['501', t_5(str_join((environment.getattr(l_1_hook, 'method'), ' is not implemented', )))], _loop_vars=_loop_vars))
        yield '\n'
    l_1_hook = l_1_define = l_1_laid = missing
    yield '\n    def error_media_type(self, operation_id: str, status: int) -> str:\n        """The media type of an error the receiver answers itself, as the contract declares it."""\n        return media_type_of(_ERROR_MEDIA.get(operation_id, {}), status)\n\n    def error_body(\n        self,\n        operation_id: str,\n        status: int,\n        code: str,\n        message: str,\n        errors: list[Any] | None,\n    ) -> Any:\n        """A body for an error the receiver answers itself (a body it refuses, a signature,\n        a hook not overridden), in the shape the hook\'s contract declares; `operation_id`\n        is the hook\'s method name."""\n        builder = error_builder(_ERROR_BODIES, operation_id, status)\n        return builder(status, code, message, errors)\n\n\n_ANY: TypeAdapter[Any] = TypeAdapter(Any)\n\n\ndef _answer(result: Any, status: int, empty_status: int) -> Response:\n    if result is None:\n        return Response(status_code=empty_status)\n    return Response(\n        _ANY.dump_json(result, by_alias=True), status, media_type="application/json"\n    )\n\n\ndef _verifying(verify: Verifier) -> Callable[[Request], Awaitable[None]]:\n    async def check(request: Request) -> None:\n        try:\n            verify(request.headers, await request.body())\n        except (SignatureError, ValueError) as exc:\n            raise HTTPException(401, f"webhook signature refused: {exc}") from None\n\n    return check\n\n\ndef create_webhook_router(\n    receiver: WebhookReceiverBase,\n    *,\n    paths: Mapping[str, str] | None = None,\n    insecure_no_auth: bool = False,\n    verify: Verifier | None = None,\n) -> APIRouter:\n    """The routes of every hook, at `WEBHOOK_ROUTES` updated by `paths` (method -> path).\n\n    `verify` checks each request\'s signature before its body is read (`StandardWebhooks(secret)`\n    or any callable of headers and raw body raising `SignatureError`): a 401 otherwise.\n    Hooks that declare security are not checked here: building refuses unless\n    `insecure_no_auth=True` says the caller checks them (a dependency, a middleware)."""\n    if _UNCHECKED_SECURITY and not insecure_no_auth:\n        named = ", ".join(\n            f"{hook} ({\', \'.join(schemes)})"\n            for hook, schemes in _UNCHECKED_SECURITY.items()\n        )\n        raise ValueError(\n            f"hooks {named} declare security that the generated receiver does not check: "\n            "check it in front of the router and pass insecure_no_auth=True"\n        )\n    unknown = sorted(set(paths or {}) - set(WEBHOOK_ROUTES))\n    if unknown:\n        raise ValueError(f"unknown hooks {unknown}; declared: {sorted(WEBHOOK_ROUTES)}")\n    where = {**WEBHOOK_ROUTES, **(paths or {})}\n    undefer_models()\n    router = APIRouter(\n        dependencies=[Depends(_verifying(verify))] if verify else [],\n        route_class=declared_errors_route(receiver, _STATUSES),\n    )\n'
    for l_1_hook in (undefined(name='hooks') if l_0_hooks is missing else l_0_hooks):
        l_1_define = resolve('define')
        l_1_laid = resolve('laid')
        _loop_vars = {}
        pass
        yield '\n'
        yield str(context.call((undefined(name='define') if l_1_define is missing else l_1_define), '    ', str_join(('async def ', environment.getattr(l_1_hook, 'method'), '(', )), ([str_join(('body: Annotated[', environment.getattr(l_1_hook, 'body'), ('' if environment.getattr(l_1_hook, 'body_required') else ' | None'), ', JsonTyped(), Body()]', ('' if environment.getattr(l_1_hook, 'body_required') else ' = None'), ))] if environment.getattr(l_1_hook, 'body') else []), ') -> Response:', _loop_vars=_loop_vars))
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
        yield str(context.call((undefined(name='laid') if l_1_laid is missing else l_1_laid), '    ', '', 'router.add_api_route(', [str_join(('where[', t_5(environment.getattr(l_1_hook, 'method')), ']', )), environment.getattr(l_1_hook, 'method'), str_join(('methods=[', t_5(environment.getattr(l_1_hook, 'http_method')), ']', )), str_join(('name=', t_5(environment.getattr(l_1_hook, 'method')), ))], _loop_vars=_loop_vars))
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
debug_info = '1=61&2=63&13=64&14=67&15=68&16=69&17=71&19=72&20=73&21=74&22=75&23=76&24=77&25=79&27=80&28=87&31=90&43=92&44=96&50=102&51=112&49=116&54=119&56=121&59=126&60=128&66=135&67=140&65=144&70=148&72=153&73=158&71=162&76=166&78=171&79=176&77=180&82=184&87=186&89=192&90=194&91=196&165=200&167=206&168=208&169=211&170=217&172=222&173=228&176=233&2=238&3=248&31=251&32=260'
