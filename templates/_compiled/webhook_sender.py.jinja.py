# Template webhook_sender.py.jinja, compiled by Jinja; written by `make regen`. DO NOT EDIT.
KEY = 'f65e2d7803e862f494191475df319846'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'webhook_sender.py.jinja'

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
    l_0_imports = missing
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
    yield str((undefined(name='header') if l_0_header is missing else l_0_header))
    yield '\n'
    yield from context.blocks['docstring'][0](context)
    l_0_imports = context.call((undefined(name='import_set') if l_0_import_set is missing else l_0_import_set))
    context.vars['imports'] = l_0_imports
    context.exported_vars.add('imports')
    context.call(environment.getattr((undefined(name='imports') if l_0_imports is missing else l_0_imports), 'name'), '__future__', 'annotations')
    context.call(environment.getattr(context.call(environment.getattr(context.call(environment.getattr((undefined(name='imports') if l_0_imports is missing else l_0_imports), 'types'), (undefined(name='types') if l_0_types is missing else l_0_types)), 'name'), 'typing', 'Any', 'Annotated'), 'name'), '._json_types', 'JsonTyped')
    if (undefined(name='uses_models') if l_0_uses_models is missing else l_0_uses_models):
        pass
        context.call(environment.getattr((undefined(name='imports') if l_0_imports is missing else l_0_imports), 'name'), '.', 'models')
    context.call(environment.getattr(context.call(environment.getattr((undefined(name='imports') if l_0_imports is missing else l_0_imports), 'module'), 'functools', 'httpx'), 'name'), 'pydantic', 'BaseModel', 'TypeAdapter')
    context.call(environment.getattr(context.call(environment.getattr(context.call(environment.getattr((undefined(name='imports') if l_0_imports is missing else l_0_imports), 'name'), 'collections.abc', 'Mapping'), 'name'), 'types', 'TracebackType'), 'name'), 'typing', 'Self')
    context.call(environment.getattr(context.call(environment.getattr((undefined(name='imports') if l_0_imports is missing else l_0_imports), 'name'), '.', 'errors'), 'name'), '._webhook_signing', 'StandardWebhooks')
    yield '\n'
    yield from context.blocks['imports'][0](context)
    yield '\n__all__ = ["AsyncWebhookSender", "WebhookSender"]\n\n\n@functools.cache\ndef _adapter(kind: Any) -> TypeAdapter[Any]:\n    return TypeAdapter(kind)\n\n\ndef _dump(body: Any) -> bytes:\n    if isinstance(body, BaseModel):\n        return body.model_dump_json(by_alias=True).encode()\n    return _adapter(Any).dump_json(body, by_alias=True)\n\n\ndef _request(\n    method: str, url: str, body: Any, signer: StandardWebhooks | None\n) -> dict[str, Any]:\n    content = b"" if body is None else _dump(body)\n    headers = {} if body is None else {"Content-Type": "application/json"}\n    if signer is not None:\n        headers.update(signer.headers(content))\n    return {\n        "method": method,\n        "url": url,\n        "content": content or None,\n        "headers": headers,\n    }\n\n\ndef _parse(response: httpx.Response, kind: Any) -> Any:\n    if not response.is_success:\n        raise errors.UnexpectedStatus(\n            response.status_code, response.text, headers=response.headers\n        )\n    if kind is None or not response.content:\n        return None\n    return _json_typed(kind).validate_json(response.content)\n\n\n@functools.cache\ndef _json_typed(kind: Any) -> TypeAdapter[Any]:\n    """An answer is read with JSON Schema\'s types, as the client reads responses."""\n    return TypeAdapter(Annotated[kind, JsonTyped()])\n'
    for l_1_is_async in (False, True):
        l_1_hooks = resolve('hooks')
        l_1_a = l_1_aw = l_1_A = missing
        _loop_vars = {}
        pass
        l_1_a = ('async ' if l_1_is_async else '')
        _loop_vars['a'] = l_1_a
        l_1_aw = ('await ' if l_1_is_async else '')
        _loop_vars['aw'] = l_1_aw
        l_1_A = ('Async' if l_1_is_async else '')
        _loop_vars['A'] = l_1_A
        yield '\n\nclass '
        yield str((undefined(name='A') if l_1_A is missing else l_1_A))
        yield 'WebhookSender:\n    """Sends each webhook and callback to a subscriber\'s URL'
        if l_1_is_async:
            pass
            yield ' (async)'
        yield '."""\n\n    def __init__(\n        self,\n        *,\n        timeout: float | httpx.Timeout = 30.0,\n        headers: Mapping[str, str] | None = None,\n        transport: httpx.'
        yield str((undefined(name='A') if l_1_A is missing else l_1_A))
        yield 'BaseTransport | None = None,\n        signer: StandardWebhooks | None = None,\n    ) -> None:\n        """`signer` signs each request (Standard Webhooks headers) with its first secret."""\n        self._http = httpx.'
        yield str((undefined(name='A') if l_1_A is missing else l_1_A))
        yield 'Client(\n            timeout=timeout, headers=dict(headers or {}), transport=transport\n        )\n        self._signer = signer\n'
        for l_2_hook in (undefined(name='hooks') if l_1_hooks is missing else l_1_hooks):
            l_2_define = resolve('define')
            l_2_laid = resolve('laid')
            l_2_group = resolve('group')
            _loop_vars = {}
            pass
            yield '\n'
            yield str(context.call((undefined(name='define') if l_2_define is missing else l_2_define), '    ', str_join(((undefined(name='a') if l_1_a is missing else l_1_a), 'def ', environment.getattr(l_2_hook, 'method'), '(', )), (['self', 'url: str'] + ([str_join(('body: ', environment.getattr(l_2_hook, 'body'), ('' if environment.getattr(l_2_hook, 'body_required') else ' | None = None'), ))] if environment.getattr(l_2_hook, 'body') else [])), str_join((') -> ', environment.getattr(l_2_hook, 'result'), ':', )), _loop_vars=_loop_vars))
            yield '\n        """'
            yield str(t_1(environment.getattr(l_2_hook, 'doc'), 8))
            yield '"""\n'
            yield str(context.call((undefined(name='laid') if l_2_laid is missing else l_2_laid), '        ', str_join(('response = ', (undefined(name='aw') if l_1_aw is missing else l_1_aw), )), 'self._http.request(', [context.call((undefined(name='group') if l_2_group is missing else l_2_group), '**_request(', [t_2(environment.getattr(l_2_hook, 'http_method')), 'url', ('body' if environment.getattr(l_2_hook, 'body') else 'None'), 'self._signer'], _loop_vars=_loop_vars)], _loop_vars=_loop_vars))
            yield '\n'
            if (environment.getattr(l_2_hook, 'result') == 'None'):
                pass
                yield '        _parse(response, None)\n'
            else:
                pass
                yield str(context.call((undefined(name='laid') if l_2_laid is missing else l_2_laid), '        ', str_join(('result: ', environment.getattr(l_2_hook, 'result'), ' = ', )), '_parse(', ['response', environment.getattr(l_2_hook, 'parsed')], _loop_vars=_loop_vars))
                yield '\n        return result\n'
        l_2_hook = l_2_define = l_2_laid = l_2_group = missing
        yield '\n    '
        yield str((undefined(name='a') if l_1_a is missing else l_1_a))
        yield 'def '
        yield str(('aclose' if l_1_is_async else 'close'))
        yield '(self) -> None:\n        """Close the connections."""\n        '
        yield str((undefined(name='aw') if l_1_aw is missing else l_1_aw))
        yield 'self._http.'
        yield str(('aclose' if l_1_is_async else 'close'))
        yield '()\n\n    '
        yield str((undefined(name='a') if l_1_a is missing else l_1_a))
        yield 'def __'
        yield str(('a' if l_1_is_async else ''))
        yield 'enter__(self) -> Self:\n        return self\n\n    '
        yield str((undefined(name='a') if l_1_a is missing else l_1_a))
        yield 'def __'
        yield str(('a' if l_1_is_async else ''))
        yield 'exit__(\n        self,\n        exc_type: type[BaseException] | None,\n        exc: BaseException | None,\n        tb: TracebackType | None,\n    ) -> None:\n        '
        yield str((undefined(name='aw') if l_1_aw is missing else l_1_aw))
        yield 'self.'
        yield str(('aclose' if l_1_is_async else 'close'))
        yield '()\n'
    l_1_is_async = l_1_a = l_1_aw = l_1_A = l_1_hooks = missing

def block_docstring(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    _block_vars = {}
    l_0_api = resolve('api')
    pass
    yield '"""Senders of the webhooks and callbacks of '
    yield str(environment.getattr((undefined(name='api') if l_0_api is missing else l_0_api), 'title'))
    yield ': `WebhookSender` and\n`AsyncWebhookSender` (httpx), one typed method per hook, posting to a subscriber\'s URL.\n\nA 2xx answer is validated into the declared type; any other status raises\n`errors.UnexpectedStatus`.\n"""\n'

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
debug_info = '1=28&2=30&10=31&11=34&13=35&14=36&15=38&17=39&18=40&19=41&21=43&68=45&69=50&70=52&71=54&74=57&75=59&82=63&86=65&90=67&92=74&93=76&94=78&95=80&98=85&103=89&105=93&107=97&110=101&116=105&2=111&3=121&21=124&22=133'
