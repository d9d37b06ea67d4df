# Template webhook_sender.py.jinja, compiled by Jinja; written by `make regen`. DO NOT EDIT.
KEY = '5d385e0d8b6e8d403f46630384aad6d6'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'webhook_sender.py.jinja'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_api = resolve('api')
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
    yield '\n__all__ = ["AsyncWebhookSender", "WebhookSender"]\n\n\n@functools.cache\ndef _adapter(kind: Any) -> TypeAdapter[Any]:\n    return TypeAdapter(kind)\n\n\ndef _dump(body: Any) -> bytes:\n    if isinstance(body, BaseModel):\n        return body.model_dump_json(by_alias=True).encode()\n    return _adapter(Any).dump_json(body, by_alias=True)\n\n\ndef _request(method: str, url: str, body: Any, signer: StandardWebhooks | None) -> dict[str, Any]:\n    content = b"" if body is None else _dump(body)\n    headers = {} if body is None else {"Content-Type": "application/json"}\n    if signer is not None:\n        headers.update(signer.headers(content))\n    return {"method": method, "url": url, "content": content or None, "headers": headers}\n\n\ndef _parse(response: httpx.Response, kind: Any) -> Any:\n    if not response.is_success:\n        raise errors.UnexpectedStatus(response.status_code, response.text,\n                                      headers=dict(response.headers))\n    if kind is None or not response.content:\n        return None\n    return _json_typed(kind).validate_json(response.content)\n\n\n@functools.cache\ndef _json_typed(kind: Any) -> TypeAdapter[Any]:\n    """An answer is read with JSON Schema\'s types, as the client reads responses."""\n    return TypeAdapter(Annotated[kind, JsonTyped()])\n'
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
        yield 'Client(timeout=timeout, headers=dict(headers or {}), transport=transport)\n        self._signer = signer\n'
        for l_2_hook in (undefined(name='hooks') if l_1_hooks is missing else l_1_hooks):
            _loop_vars = {}
            pass
            yield '\n    '
            yield str((undefined(name='a') if l_1_a is missing else l_1_a))
            yield 'def '
            yield str(environment.getattr(l_2_hook, 'method'))
            yield '(self, url: str'
            if environment.getattr(l_2_hook, 'body'):
                pass
                yield ', body: '
                yield str(environment.getattr(l_2_hook, 'body'))
                if (not environment.getattr(l_2_hook, 'body_required')):
                    pass
                    yield ' | None = None'
            yield ') -> '
            yield str(environment.getattr(l_2_hook, 'result'))
            yield ':\n        """'
            yield str(t_1(environment.getattr(l_2_hook, 'doc'), 8))
            yield '"""\n        response = '
            yield str((undefined(name='aw') if l_1_aw is missing else l_1_aw))
            yield 'self._http.request(**_request('
            yield str(t_2(environment.getattr(l_2_hook, 'http_method')))
            yield ', url, '
            if environment.getattr(l_2_hook, 'body'):
                pass
                yield 'body'
            else:
                pass
                yield 'None'
            yield ', self._signer))\n'
            if (environment.getattr(l_2_hook, 'result') == 'None'):
                pass
                yield '        _parse(response, None)\n'
            else:
                pass
                yield '        result: '
                yield str(environment.getattr(l_2_hook, 'result'))
                yield ' = _parse(response, '
                yield str(environment.getattr(l_2_hook, 'parsed'))
                yield ')\n        return result\n'
        l_2_hook = missing
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
debug_info = '1=24&2=26&11=28&50=30&51=35&52=37&53=39&56=42&57=44&64=48&68=50&70=52&72=56&73=70&74=72&75=83&78=89&83=95&85=99&87=103&90=107&96=111&2=117&3=127&11=130&12=139'
