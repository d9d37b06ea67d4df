# Template client.py.jinja, compiled by Jinja; written by `make regen`. DO NOT EDIT.
KEY = 'a82f4a15c7c679e7c776bf74abca2aaa'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'client.py.jinja'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_header = resolve('header')
    l_0_exported_client = resolve('exported_client')
    l_0_statement = resolve('statement')
    l_0_value = resolve('value')
    l_0_api = resolve('api')
    l_0_auth_class = resolve('auth_class')
    l_0_auth_fields = resolve('auth_fields')
    l_0_braced = resolve('braced')
    l_0_streams = l_0_body = missing
    try:
        t_1 = environment.filters['all_statement']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'all_statement' found.")
    try:
        t_2 = environment.filters['docstring']
    except KeyError:
        @internalcode
        def t_2(*unused):
            raise TemplateRuntimeError("No filter named 'docstring' found.")
    try:
        t_3 = environment.filters['join']
    except KeyError:
        @internalcode
        def t_3(*unused):
            raise TemplateRuntimeError("No filter named 'join' found.")
    try:
        t_4 = environment.filters['length']
    except KeyError:
        @internalcode
        def t_4(*unused):
            raise TemplateRuntimeError("No filter named 'length' found.")
    try:
        t_5 = environment.filters['list']
    except KeyError:
        @internalcode
        def t_5(*unused):
            raise TemplateRuntimeError("No filter named 'list' found.")
    try:
        t_6 = environment.filters['lower']
    except KeyError:
        @internalcode
        def t_6(*unused):
            raise TemplateRuntimeError("No filter named 'lower' found.")
    try:
        t_7 = environment.filters['map']
    except KeyError:
        @internalcode
        def t_7(*unused):
            raise TemplateRuntimeError("No filter named 'map' found.")
    try:
        t_8 = environment.filters['operation_doc']
    except KeyError:
        @internalcode
        def t_8(*unused):
            raise TemplateRuntimeError("No filter named 'operation_doc' found.")
    try:
        t_9 = environment.filters['py']
    except KeyError:
        @internalcode
        def t_9(*unused):
            raise TemplateRuntimeError("No filter named 'py' found.")
    try:
        t_10 = environment.filters['pyrepr']
    except KeyError:
        @internalcode
        def t_10(*unused):
            raise TemplateRuntimeError("No filter named 'pyrepr' found.")
    try:
        t_11 = environment.filters['reject']
    except KeyError:
        @internalcode
        def t_11(*unused):
            raise TemplateRuntimeError("No filter named 'reject' found.")
    try:
        t_12 = environment.filters['rejectattr']
    except KeyError:
        @internalcode
        def t_12(*unused):
            raise TemplateRuntimeError("No filter named 'rejectattr' found.")
    try:
        t_13 = environment.filters['selectattr']
    except KeyError:
        @internalcode
        def t_13(*unused):
            raise TemplateRuntimeError("No filter named 'selectattr' found.")
    try:
        t_14 = environment.filters['tuple']
    except KeyError:
        @internalcode
        def t_14(*unused):
            raise TemplateRuntimeError("No filter named 'tuple' found.")
    try:
        t_15 = environment.tests['none']
    except KeyError:
        @internalcode
        def t_15(*unused):
            raise TemplateRuntimeError("No test named 'none' found.")
    pass
    yield str((undefined(name='header') if l_0_header is missing else l_0_header))
    yield '\n'
    yield from context.blocks['docstring'][0](context)
    yield '\n'
    yield from context.blocks['imports'][0](context)
    l_0_streams = context.vars['streams'] = environment.get_template('_client_streams.jinja', 'client.py.jinja').make_module(context.get_all(), True, {'body': l_0_body, 'streams': l_0_streams})
    context.exported_vars.discard('streams')
    yield '\n'
    yield str(t_1((undefined(name='exported_client') if l_0_exported_client is missing else l_0_exported_client)))
    yield '\n\n'
    yield str(context.call((undefined(name='statement') if l_0_statement is missing else l_0_statement), '', 'SERVERS: tuple[str, ...] = ', context.call((undefined(name='value') if l_0_value is missing else l_0_value), t_14(t_7(context, environment.getattr((undefined(name='api') if l_0_api is missing else l_0_api), 'servers'), attribute='default_url')))))
    yield '\n"""The contract\'s server URLs, variables at their defaults: candidates for `base_url`."""\n\n\ndef server_url(index: int = 0, **variables: str) -> str:\n    """The contract\'s `index`th server URL (base path included), its variables at their defaults\n    unless given: a `base_url`, e.g. `server_url(region="eu")`."""\n    url, defaults = _SERVER_TEMPLATES[index]\n    unknown = sorted(set(variables) - set(defaults))\n    if unknown:\n        raise ValueError(\n            f"unknown server variables {unknown}; declared: {sorted(defaults)}"\n        )\n    for name, default in defaults.items():\n        url = url.replace("{" + name + "}", variables.get(name, default))\n    return url\n\n\n'
    yield str(context.call((undefined(name='statement') if l_0_statement is missing else l_0_statement), '', '_SERVER_TEMPLATES: tuple[tuple[str, dict[str, str]], ...] = ', context.call((undefined(name='value') if l_0_value is missing else l_0_value), t_14(t_7(context, environment.getattr((undefined(name='api') if l_0_api is missing else l_0_api), 'servers'), 'server_tuple')))))
    yield '\n\nFileContent: TypeAlias = (\n    bytes\n    | IO[bytes]\n    | tuple[str, bytes | IO[bytes]]\n    | tuple[str, bytes | IO[bytes], str]\n)\n"""A file to upload: its bytes or a binary file, optionally with a filename and a media type."""\n\n\n'
    if (undefined(name='auth_class') if l_0_auth_class is missing else l_0_auth_class):
        pass
        yield 'class Auth(TypedDict, total=False):\n    """Credentials by security scheme: (user, password) for http basic; else the token, API key\n    or (for a scheme the client cannot write) the whole Authorization header value. Each call\n    sends the first of its operation\'s requirements that every credential is given for.\n    """\n\n'
        for (l_1_name, l_1_kind) in (undefined(name='auth_fields') if l_0_auth_fields is missing else l_0_auth_fields):
            _loop_vars = {}
            pass
            yield '    '
            yield str(l_1_name)
            yield ': '
            yield str(l_1_kind)
            yield '\n'
        l_1_name = l_1_kind = missing
    else:
        pass
        yield 'Auth = TypedDict(\n    "Auth",\n    { '
        for (l_1_name, l_1_kind) in (undefined(name='auth_fields') if l_0_auth_fields is missing else l_0_auth_fields):
            _loop_vars = {}
            pass
            yield str(t_10(l_1_name))
            yield ': '
            yield str(l_1_kind)
            yield ', '
        l_1_name = l_1_kind = missing
        yield '},\n    total=False,\n)\n"""Credentials by security scheme: (user, password) for http basic; else the token, API key or\n(for a scheme the client cannot write) the whole Authorization header value. Each call sends\nthe first of its operation\'s requirements that every credential is given for."""\n'
    yield '\n\n# Each scheme: (kind, where an API key goes, its header/query/cookie name).\n'
    t_16 = []
    pass
    for l_2_scheme in environment.getattr((undefined(name='api') if l_0_api is missing else l_0_api), 'security_schemes'):
        _loop_vars = {}
        pass
        t_16.extend((
            str(context.call((undefined(name='statement') if l_0_statement is missing else l_0_statement), '    ', str_join((t_10(environment.getattr(l_2_scheme, 'name')), ': ', )), context.call((undefined(name='value') if l_0_value is missing else l_0_value), (environment.getattr(l_2_scheme, 'kind'), environment.getattr(l_2_scheme, 'location'), environment.getattr(l_2_scheme, 'parameter')), _loop_vars=_loop_vars), ',', _loop_vars=_loop_vars)),
            '\n',
        ))
    l_2_scheme = missing
    l_0_body = (Markup if context.eval_ctx.autoescape else identity)(concat(t_16))
    context.vars['body'] = l_0_body
    context.exported_vars.add('body')
    yield str(context.call((undefined(name='braced') if l_0_braced is missing else l_0_braced), '_SCHEMES: dict[str, Scheme] = ', (undefined(name='body') if l_0_body is missing else l_0_body)))
    yield '\n'
    def t_17(fiter):
        for l_1_op in fiter:
            if environment.getattr(l_1_op, 'headers_class'):
                yield l_1_op
    for l_1_op in t_17(environment.getattr((undefined(name='api') if l_0_api is missing else l_0_api), 'operations')):
        l_1_headers_source = resolve('headers_source')
        _loop_vars = {}
        pass
        yield '\n\n'
        yield str(context.call((undefined(name='headers_source') if l_1_headers_source is missing else l_1_headers_source), l_1_op, _loop_vars=_loop_vars))
        yield '\n'
    l_1_op = l_1_headers_source = missing
    for l_1_op in environment.getattr((undefined(name='api') if l_0_api is missing else l_0_api), 'operations'):
        l_1_define = resolve('define')
        l_1_client_params = resolve('client_params')
        l_1_laid = resolve('laid')
        l_1_group = resolve('group')
        l_1_header_entries = resolve('header_entries')
        l_1_content_type_name = resolve('content_type_name')
        l_1_plain = resolve('plain')
        l_1_form_entries = resolve('form_entries')
        l_1_client_path = resolve('client_path')
        l_1_query_entries = resolve('query_entries')
        l_1_styled_entries = resolve('styled_entries')
        l_1_result_annotation = resolve('result_annotation')
        l_1_q = l_1_styled = l_1_sends_headers = l_1_retryable = missing
        _loop_vars = {}
        pass
        yield '\n\n'
        yield str(context.call((undefined(name='define') if l_1_define is missing else l_1_define), '', str_join(('def _build_', environment.getattr(l_1_op, 'method_name'), '(', )), context.call((undefined(name='client_params') if l_1_client_params is missing else l_1_client_params), l_1_op, _loop_vars=_loop_vars), ') -> _Request:', _loop_vars=_loop_vars))
        yield '\n'
        if (not ((environment.getattr(l_1_op, 'streams_events') or environment.getattr(l_1_op, 'deprecated')) or environment.getattr(l_1_op, 'negotiates'))):
            pass
            yield '    """'
            yield str(t_2(t_8(l_1_op), 4))
            yield '"""\n'
        l_1_q = environment.getattr(l_1_op, 'query_params')
        _loop_vars['q'] = l_1_q
        l_1_styled = t_5(context.eval_ctx, t_13(context, (undefined(name='q') if l_1_q is missing else l_1_q), 'styled'))
        _loop_vars['styled'] = l_1_styled
        l_1_sends_headers = ((((environment.getattr(l_1_op, 'negotiates') or environment.getattr(l_1_op, 'streams_events')) or environment.getattr(l_1_op, 'header_params')) or environment.getattr(l_1_op, 'cookie_params')) or (environment.getattr(l_1_op, 'body') and (environment.getattr(environment.getattr(l_1_op, 'body'), 'kind') in ('json', 'binary', 'text'))))
        _loop_vars['sends_headers'] = l_1_sends_headers
        if ((environment.getattr(l_1_op, 'negotiates') or environment.getattr(l_1_op, 'streams_events')) or environment.getattr(l_1_op, 'header_params')):
            pass
            yield str(context.call((undefined(name='laid') if l_1_laid is missing else l_1_laid), '    ', '_headers = ', '_texts(', [context.call((undefined(name='group') if l_1_group is missing else l_1_group), '{', context.call((undefined(name='header_entries') if l_1_header_entries is missing else l_1_header_entries), l_1_op, _loop_vars=_loop_vars), '}', _loop_vars=_loop_vars)], _loop_vars=_loop_vars))
            yield '\n'
        elif (undefined(name='sends_headers') if l_1_sends_headers is missing else l_1_sends_headers):
            pass
            yield '    _headers: dict[str, str] = {}\n'
        if environment.getattr(l_1_op, 'cookie_params'):
            pass
            yield '    _cookies: list[str] = []\n'
            for l_2_p in environment.getattr(l_1_op, 'cookie_params'):
                _loop_vars = {}
                pass
                yield '    if '
                yield str(environment.getattr(l_2_p, 'name'))
                yield ' is not None:\n        _cookies.append(_cookie('
                yield str(t_10(environment.getattr(l_2_p, 'wire')))
                yield ', '
                yield str(environment.getattr(l_2_p, 'name'))
                yield '))\n'
            l_2_p = missing
            yield '    if _cookies:\n        _headers["Cookie"] = "; ".join(_cookies)\n'
        if (environment.getattr(l_1_op, 'body') and environment.getattr(environment.getattr(l_1_op, 'body'), 'also_form')):
            pass
            yield str(context.call((undefined(name='laid') if l_1_laid is missing else l_1_laid), '    ', '_content, _data, _files = ', 'json_or_form(', ['body', context.call((undefined(name='content_type_name') if l_1_content_type_name is missing else l_1_content_type_name), l_1_op, _loop_vars=_loop_vars), '_headers'], _loop_vars=_loop_vars))
            yield '\n'
        elif (environment.getattr(l_1_op, 'body') and (environment.getattr(environment.getattr(l_1_op, 'body'), 'kind') == 'json')):
            pass
            if environment.getattr(environment.getattr(l_1_op, 'body'), 'required'):
                pass
                yield '    _headers["Content-Type"] = '
                yield str(t_10(environment.getattr(environment.getattr(l_1_op, 'body'), 'media_type')))
                yield '\n    _content: bytes | None = _dump(body)\n'
            else:
                pass
                yield '    _content: bytes | None = None\n    if body is not None:\n        _headers["Content-Type"] = '
                yield str(t_10(environment.getattr(environment.getattr(l_1_op, 'body'), 'media_type')))
                yield '\n        _content = _dump(body)\n'
        elif (environment.getattr(l_1_op, 'body') and (environment.getattr(environment.getattr(l_1_op, 'body'), 'kind') in ('binary', 'text'))):
            pass
            yield '    _content: bytes | None = None\n    if body is not None:\n        _headers["Content-Type"] = '
            yield str(t_10(environment.getattr(environment.getattr(l_1_op, 'body'), 'media_type')))
            yield '\n        _content = body.encode() if isinstance(body, str) else body\n'
        elif (environment.getattr(l_1_op, 'body') and environment.getattr(environment.getattr(l_1_op, 'body'), 'is_form')):
            pass
            l_1_plain = t_5(context.eval_ctx, t_12(context, t_12(context, t_12(context, environment.getattr(environment.getattr(l_1_op, 'body'), 'form_fields'), 'is_file'), 'is_file_list'), 'json'))
            _loop_vars['plain'] = l_1_plain
            if (undefined(name='plain') if l_1_plain is missing else l_1_plain):
                pass
                yield str(context.call((undefined(name='laid') if l_1_laid is missing else l_1_laid), '    ', '_data = ', '_queries(', [context.call((undefined(name='group') if l_1_group is missing else l_1_group), '{', context.call((undefined(name='form_entries') if l_1_form_entries is missing else l_1_form_entries), (undefined(name='plain') if l_1_plain is missing else l_1_plain), _loop_vars=_loop_vars), '}', _loop_vars=_loop_vars)], _loop_vars=_loop_vars))
                yield '\n'
            else:
                pass
                yield '    _data: dict[str, Any] = {}\n'
            if (environment.getattr(environment.getattr(l_1_op, 'body'), 'kind') == 'multipart'):
                pass
                yield '    _files: list[tuple[str, Any]] = []\n'
                def t_18(fiter):
                    for l_2_f in fiter:
                        if environment.getattr(l_2_f, 'json'):
                            yield l_2_f
                for l_2_f in t_18(environment.getattr(environment.getattr(l_1_op, 'body'), 'form_fields')):
                    _loop_vars = {}
                    pass
                    yield '    if '
                    yield str(environment.getattr(l_2_f, 'name'))
                    yield ' is not None:\n        _files.append(('
                    yield str(t_10(environment.getattr(l_2_f, 'wire')))
                    yield ', (None, _dump('
                    yield str(environment.getattr(l_2_f, 'name'))
                    yield '), "application/json")))\n'
                l_2_f = missing
                def t_19(fiter):
                    for l_2_f in fiter:
                        if (environment.getattr(l_2_f, 'is_file') or environment.getattr(l_2_f, 'is_file_list')):
                            yield l_2_f
                for l_2_f in t_19(environment.getattr(environment.getattr(l_1_op, 'body'), 'form_fields')):
                    _loop_vars = {}
                    pass
                    yield '    if '
                    yield str(environment.getattr(l_2_f, 'name'))
                    yield ' is not None:\n'
                    if environment.getattr(l_2_f, 'is_file_list'):
                        pass
                        yield '        _files.extend(('
                        yield str(t_10(environment.getattr(l_2_f, 'wire')))
                        yield ', item) for item in '
                        yield str(environment.getattr(l_2_f, 'name'))
                        yield ')\n'
                    else:
                        pass
                        yield '        _files.append(('
                        yield str(t_10(environment.getattr(l_2_f, 'wire')))
                        yield ', '
                        yield str(environment.getattr(l_2_f, 'name'))
                        yield '))\n'
                l_2_f = missing
        yield '    return _Request(\n        '
        yield str(t_10(environment.getattr(l_1_op, 'http_method')))
        yield ',\n        '
        yield str(context.call((undefined(name='client_path') if l_1_client_path is missing else l_1_client_path), l_1_op, _loop_vars=_loop_vars))
        yield ',\n'
        if (undefined(name='q') if l_1_q is missing else l_1_q):
            pass
            yield str(context.call((undefined(name='laid') if l_1_laid is missing else l_1_laid), '        ', '', 'params=_queries(', ([context.call((undefined(name='group') if l_1_group is missing else l_1_group), '{', context.call((undefined(name='query_entries') if l_1_query_entries is missing else l_1_query_entries), l_1_op, _loop_vars=_loop_vars), '}', _loop_vars=_loop_vars)] + ([context.call((undefined(name='group') if l_1_group is missing else l_1_group), '{', context.call((undefined(name='styled_entries') if l_1_styled_entries is missing else l_1_styled_entries), l_1_op, _loop_vars=_loop_vars), '}', _loop_vars=_loop_vars)] if (undefined(name='styled') if l_1_styled is missing else l_1_styled) else [])), tail=',', _loop_vars=_loop_vars))
            yield '\n'
        if (undefined(name='sends_headers') if l_1_sends_headers is missing else l_1_sends_headers):
            pass
            yield '        headers=_headers,\n'
        if (environment.getattr(l_1_op, 'body') and (environment.getattr(environment.getattr(l_1_op, 'body'), 'kind') in ('json', 'binary', 'text'))):
            pass
            yield '        content=_content,\n'
            if environment.getattr(environment.getattr(l_1_op, 'body'), 'also_form'):
                pass
                yield '        data=_data,\n        files=_files,\n'
        elif (environment.getattr(l_1_op, 'body') and environment.getattr(environment.getattr(l_1_op, 'body'), 'is_form')):
            pass
            yield '        data=_data,\n'
            if (environment.getattr(environment.getattr(l_1_op, 'body'), 'kind') == 'multipart'):
                pass
                yield '        files=_files or None,\n'
        if environment.getattr(l_1_op, 'security'):
            pass
            yield '        security='
            yield str(t_10(environment.getattr(l_1_op, 'security')))
            yield ',\n'
        yield '        operation='
        yield str(t_10(environment.getattr(l_1_op, 'id')))
        yield ',\n'
        l_1_retryable = t_5(context.eval_ctx, t_11(context, t_7(context, t_13(context, t_7(context, environment.getattr(l_1_op, 'errors'), attribute='response'), 'retryable'), attribute='status_code'), 'none'))
        _loop_vars['retryable'] = l_1_retryable
        if (undefined(name='retryable') if l_1_retryable is missing else l_1_retryable):
            pass
            yield '        retryable=('
            yield str(t_3(context.eval_ctx, (undefined(name='retryable') if l_1_retryable is missing else l_1_retryable), ', '))
            yield str((',' if (t_4((undefined(name='retryable') if l_1_retryable is missing else l_1_retryable)) == 1) else ''))
            yield '),\n'
        def t_20(fiter):
            for l_2_p in fiter:
                if (t_6(environment.getattr(l_2_p, 'wire')) in ('idempotency-key', 'x-idempotency-key')):
                    yield l_2_p
        for l_2_p in t_20(environment.getattr(l_1_op, 'header_params')):
            _loop_vars = {}
            pass
            yield '        idempotency='
            yield str(t_10(environment.getattr(l_2_p, 'wire')))
            yield ',\n'
        l_2_p = missing
        yield '    )\n\n'
        if (not environment.getattr(l_1_op, 'streams_events')):
            pass
            yield '\n\n'
            yield str(context.call((undefined(name='define') if l_1_define is missing else l_1_define), '', str_join(('def _parse_', environment.getattr(l_1_op, 'method_name'), '(', )), ['response: httpx.Response'], str_join((') -> ', context.call((undefined(name='result_annotation') if l_1_result_annotation is missing else l_1_result_annotation), l_1_op, _loop_vars=_loop_vars), ':', )), _loop_vars=_loop_vars))
            yield '\n'
            for l_2_r in environment.getattr(l_1_op, 'success'):
                l_2_response_source = resolve('response_source')
                l_2_parsed_directly = resolve('parsed_directly')
                _loop_vars = {}
                pass
                if (not t_15(environment.getattr(l_2_r, 'status_code'))):
                    pass
                    yield '    if response.status_code == '
                    yield str(environment.getattr(l_2_r, 'status_code'))
                    yield ':\n'
                else:
                    pass
                    yield '    if str(response.status_code).startswith('
                    yield str(t_10(environment.getitem(environment.getattr(l_2_r, 'status'), 0)))
                    yield '):\n'
                if (t_4(environment.getattr(l_2_r, 'representations')) > 1):
                    pass
                    yield str(context.call((undefined(name='laid') if l_1_laid is missing else l_1_laid), '        ', 'return ', 'cast(', [t_10(context.call((undefined(name='response_source') if l_2_response_source is missing else l_2_response_source), l_2_r, _loop_vars=_loop_vars)), context.call((undefined(name='group') if l_1_group is missing else l_1_group), 'read_body(', ['response', (t_9(environment.getattr(l_2_r, 'type'), 'models.') if (environment.getattr(l_2_r, 'kind') == 'json') else 'Any')], _loop_vars=_loop_vars)], _loop_vars=_loop_vars))
                    yield '\n'
                elif context.call((undefined(name='parsed_directly') if l_2_parsed_directly is missing else l_2_parsed_directly), l_2_r, _loop_vars=_loop_vars):
                    pass
                    yield str(context.call((undefined(name='laid') if l_1_laid is missing else l_1_laid), '        ', 'return ', '_json(', [t_9(environment.getattr(l_2_r, 'type'), 'models.'), 'response'], _loop_vars=_loop_vars))
                    yield '\n'
                elif (environment.getattr(l_2_r, 'kind') == 'json'):
                    pass
                    yield str(context.call((undefined(name='laid') if l_1_laid is missing else l_1_laid), '        ', 'return ', 'cast(', [t_10(t_9(environment.getattr(l_2_r, 'type'), 'models.')), context.call((undefined(name='group') if l_1_group is missing else l_1_group), '_json(', [t_9(environment.getattr(l_2_r, 'type'), 'models.'), 'response'], _loop_vars=_loop_vars)], _loop_vars=_loop_vars))
                    yield '\n'
                elif (environment.getattr(l_2_r, 'kind') == 'binary'):
                    pass
                    yield '        return response.content\n'
                elif (environment.getattr(l_2_r, 'kind') == 'text'):
                    pass
                    yield '        return response.text\n'
                else:
                    pass
                    yield '        return'
                    yield str(('' if environment.getattr(l_1_op, 'returns_nothing') else ' None'))
                    yield '\n'
            l_2_r = l_2_response_source = l_2_parsed_directly = missing
            yield str(context.call((undefined(name='laid') if l_1_laid is missing else l_1_laid), '    ', 'raise ', '_error(', [t_10(environment.getattr(l_1_op, 'id')), 'response'], _loop_vars=_loop_vars))
            yield '\n'
    l_1_op = l_1_define = l_1_client_params = l_1_q = l_1_styled = l_1_sends_headers = l_1_laid = l_1_group = l_1_header_entries = l_1_content_type_name = l_1_plain = l_1_form_entries = l_1_client_path = l_1_query_entries = l_1_styled_entries = l_1_retryable = l_1_result_annotation = missing
    yield '\n\nclass Client(_Configurable):\n    """A synchronous client of '
    yield str(environment.getattr((undefined(name='api') if l_0_api is missing else l_0_api), 'title'))
    yield '."""\n\n    def __init__(\n        self,\n        base_url: str,\n        *,\n        auth: Auth | None = None,\n        token: str | None = None,\n        timeout: float | httpx.Timeout = 30.0,\n        headers: Mapping[str, str] | None = None,\n        transport: httpx.BaseTransport | None = None,\n        retry: Retry | None = None,\n        total: float | None = None,\n        deadline: float | None = None,\n        request_id_headers: Sequence[str] = REQUEST_ID_HEADERS,\n        open_enums: bool = True,\n    ) -> None:\n        """`auth` holds credentials by security scheme; `token` is one for every bearer-like\n        scheme (when the contract declares none, it is sent as `Authorization: Bearer`).\n        `retry` says when a call is tried again (`Retry()`; `NO_RETRY` never), `total` limits\n        each attempt and `deadline` the whole call (seconds); `open_enums=False` refuses\n        enum values the contract does not list; `with_options` changes them for some calls.\n        """\n        defaults = dict(headers or {})\n        self._auth = _credentials(auth, token, _SCHEMES)\n        if token is not None and not self._auth:\n            defaults["Authorization"] = f"Bearer {token}"\n        self._options = _options(\n            retry=retry,\n            timeout=timeout,\n            total=total,\n            deadline=deadline,\n            request_id_headers=request_id_headers,\n            open_enums=open_enums,\n        )\n        self._http = httpx.Client(\n            base_url=base_url, headers=defaults, timeout=timeout, transport=transport\n        )\n\n    def close(self) -> None:\n        """Close the connection pool."""\n        self._http.close()\n\n    def __enter__(self) -> Self:\n        return self\n\n    def __exit__(\n        self,\n        exc_type: type[BaseException] | None,\n        exc: BaseException | None,\n        tb: TracebackType | None,\n    ) -> None:\n        self.close()\n\n    def _send(self, request: _Request) -> httpx.Response:\n        return _send(self._http, _authorize(request, self._auth), self._options)\n'
    for l_1_op in environment.getattr((undefined(name='api') if l_0_api is missing else l_0_api), 'operations'):
        l_1_laid = resolve('laid')
        l_1_define = resolve('define')
        l_1_iter_params = resolve('iter_params')
        l_1_item_annotation = resolve('item_annotation')
        l_1_group = resolve('group')
        l_1_method_params = resolve('method_params')
        l_1_result_annotation = resolve('result_annotation')
        _loop_vars = {}
        pass
        if environment.getattr(l_1_op, 'streams_events'):
            pass
            yield str(context.call(environment.getattr((undefined(name='streams') if l_0_streams is missing else l_0_streams), 'events_method'), l_1_op, False, _loop_vars=_loop_vars))
        elif ((not environment.getattr(l_1_op, 'deprecated')) and (not environment.getattr(l_1_op, 'negotiates'))):
            pass
            yield '\n'
            yield str(context.call((undefined(name='laid') if l_1_laid is missing else l_1_laid), '    ', str_join((environment.getattr(l_1_op, 'method_name'), ' = ', )), '_call(', [str_join(('_build_', environment.getattr(l_1_op, 'method_name'), )), str_join(('_parse_', environment.getattr(l_1_op, 'method_name'), ))], _loop_vars=_loop_vars))
            yield '\n'
            yield str(context.call((undefined(name='laid') if l_1_laid is missing else l_1_laid), '    ', str_join((environment.getattr(l_1_op, 'method_name'), '_detailed = ', )), '_call_detailed(', [str_join(('_build_', environment.getattr(l_1_op, 'method_name'), )), str_join(('_parse_', environment.getattr(l_1_op, 'method_name'), )), (environment.getattr(l_1_op, 'headers_class') or 'None')], _loop_vars=_loop_vars))
            yield '\n'
            if environment.getattr(l_1_op, 'paging'):
                pass
                yield '\n'
                yield str(context.call((undefined(name='define') if l_1_define is missing else l_1_define), '    ', str_join(('def ', environment.getattr(l_1_op, 'method_name'), '_iter(', )), context.call((undefined(name='iter_params') if l_1_iter_params is missing else l_1_iter_params), l_1_op, _loop_vars=_loop_vars), str_join((') -> Iterator[', context.call((undefined(name='item_annotation') if l_1_item_annotation is missing else l_1_item_annotation), l_1_op, _loop_vars=_loop_vars), ']:', )), _loop_vars=_loop_vars))
                yield '\n        """The items of `'
                yield str(environment.getattr(l_1_op, 'method_name'))
                yield '`, page after page, fetched as they are asked for;\n        `page_size=` sets the page\'s size, `max_items=` stops after that many items."""\n'
                yield str(context.call((undefined(name='laid') if l_1_laid is missing else l_1_laid), '        ', 'return ', '_pages(', ['self._send', str_join(('_build_', environment.getattr(l_1_op, 'method_name'), )), str_join(('_parse_', environment.getattr(l_1_op, 'method_name'), )), context.call((undefined(name='group') if l_1_group is missing else l_1_group), 'Paging(', environment.getattr(environment.getattr(l_1_op, 'paging'), 'arguments'), _loop_vars=_loop_vars), '_arguments(locals())'], _loop_vars=_loop_vars))
                yield '\n'
            if environment.getattr(l_1_op, 'streams_bytes'):
                pass
                yield str(context.call(environment.getattr((undefined(name='streams') if l_0_streams is missing else l_0_streams), 'stream_method'), l_1_op, False, _loop_vars=_loop_vars))
            if environment.getattr(l_1_op, 'also_events'):
                pass
                yield str(context.call(environment.getattr((undefined(name='streams') if l_0_streams is missing else l_0_streams), 'events_method'), l_1_op, False, '_events', _loop_vars=_loop_vars))
        else:
            pass
            yield str(context.call(environment.getattr((undefined(name='streams') if l_0_streams is missing else l_0_streams), 'overloads'), l_1_op, False, _loop_vars=_loop_vars))
            yield '\n'
            if environment.getattr(l_1_op, 'deprecated'):
                pass
                yield '    @deprecated('
                yield str(t_10(str_join((environment.getattr(l_1_op, 'id'), ' is deprecated', ))))
                yield ', category=None)\n'
            yield str(context.call((undefined(name='define') if l_1_define is missing else l_1_define), '    ', str_join(('def ', environment.getattr(l_1_op, 'method_name'), '(', )), context.call((undefined(name='method_params') if l_1_method_params is missing else l_1_method_params), l_1_op, _loop_vars=_loop_vars), str_join((') -> ', context.call((undefined(name='result_annotation') if l_1_result_annotation is missing else l_1_result_annotation), l_1_op, _loop_vars=_loop_vars), ':', )), _loop_vars=_loop_vars))
            yield '\n        """'
            yield str(t_2(t_8(l_1_op), 8))
            yield '"""\n'
            if environment.getattr(l_1_op, 'deprecated'):
                pass
                yield '        warnings.warn('
                yield str(t_10(str_join((environment.getattr(l_1_op, 'id'), ' is deprecated', ))))
                yield ', DeprecationWarning, stacklevel=2)\n'
            yield str(context.call((undefined(name='laid') if l_1_laid is missing else l_1_laid), '        ', 'return ', str_join(('_parse_', environment.getattr(l_1_op, 'method_name'), '(', )), [context.call((undefined(name='group') if l_1_group is missing else l_1_group), 'self._send(', [context.call((undefined(name='group') if l_1_group is missing else l_1_group), str_join(('_build_', environment.getattr(l_1_op, 'method_name'), '(', )), ['**_arguments(locals())'], _loop_vars=_loop_vars)], _loop_vars=_loop_vars)], _loop_vars=_loop_vars))
            yield '\n'
            if environment.getattr(l_1_op, 'deprecated'):
                pass
                yield '\n    @deprecated('
                yield str(t_10(str_join((environment.getattr(l_1_op, 'id'), ' is deprecated', ))))
                yield ', category=None)\n'
            else:
                pass
                yield '\n'
            yield str(context.call((undefined(name='define') if l_1_define is missing else l_1_define), '    ', str_join(('def ', environment.getattr(l_1_op, 'method_name'), '_detailed(', )), context.call((undefined(name='method_params') if l_1_method_params is missing else l_1_method_params), l_1_op, _loop_vars=_loop_vars), str_join((') -> Answer[', context.call((undefined(name='result_annotation') if l_1_result_annotation is missing else l_1_result_annotation), l_1_op, _loop_vars=_loop_vars), ', ', (environment.getattr(l_1_op, 'headers_class') or 'None'), ']:', )), _loop_vars=_loop_vars))
            yield '\n        """`'
            yield str(environment.getattr(l_1_op, 'method_name'))
            yield '`, answering the status, declared headers and body together."""\n'
            if environment.getattr(l_1_op, 'deprecated'):
                pass
                yield '        warnings.warn('
                yield str(t_10(str_join((environment.getattr(l_1_op, 'id'), ' is deprecated', ))))
                yield ', DeprecationWarning, stacklevel=2)\n'
            yield str(context.call((undefined(name='laid') if l_1_laid is missing else l_1_laid), '        ', '_response = ', 'self._send(', [context.call((undefined(name='group') if l_1_group is missing else l_1_group), str_join(('_build_', environment.getattr(l_1_op, 'method_name'), '(', )), ['**_arguments(locals())'], _loop_vars=_loop_vars)], _loop_vars=_loop_vars))
            yield '\n'
            if environment.getattr(l_1_op, 'returns_nothing'):
                pass
                yield '        _parse_'
                yield str(environment.getattr(l_1_op, 'method_name'))
                yield '(_response)\n'
                yield str(context.call((undefined(name='laid') if l_1_laid is missing else l_1_laid), '        ', 'return ', 'Answer(', ['_response.status_code', (str_join(('_headers(', environment.getattr(l_1_op, 'headers_class'), ', _response)', )) if environment.getattr(l_1_op, 'headers_class') else 'None'), 'None', '_response.headers'], _loop_vars=_loop_vars))
                yield '\n'
            else:
                pass
                yield '        _body = _parse_'
                yield str(environment.getattr(l_1_op, 'method_name'))
                yield '(_response)\n'
                yield str(context.call((undefined(name='laid') if l_1_laid is missing else l_1_laid), '        ', 'return ', 'Answer(', ['_response.status_code', (str_join(('_headers(', environment.getattr(l_1_op, 'headers_class'), ', _response)', )) if environment.getattr(l_1_op, 'headers_class') else 'None'), '_body', '_response.headers'], _loop_vars=_loop_vars))
                yield '\n'
            if environment.getattr(l_1_op, 'streams_bytes'):
                pass
                yield str(context.call(environment.getattr((undefined(name='streams') if l_0_streams is missing else l_0_streams), 'stream_method'), l_1_op, False, _loop_vars=_loop_vars))
            if environment.getattr(l_1_op, 'also_events'):
                pass
                yield str(context.call(environment.getattr((undefined(name='streams') if l_0_streams is missing else l_0_streams), 'events_method'), l_1_op, False, '_events', _loop_vars=_loop_vars))
    l_1_op = l_1_laid = l_1_define = l_1_iter_params = l_1_item_annotation = l_1_group = l_1_method_params = l_1_result_annotation = missing
    yield '\n\nclass AsyncClient(_Configurable):\n    """An asynchronous client of '
    yield str(environment.getattr((undefined(name='api') if l_0_api is missing else l_0_api), 'title'))
    yield '."""\n\n    def __init__(\n        self,\n        base_url: str,\n        *,\n        auth: Auth | None = None,\n        token: str | None = None,\n        timeout: float | httpx.Timeout = 30.0,\n        headers: Mapping[str, str] | None = None,\n        transport: httpx.AsyncBaseTransport | None = None,\n        retry: Retry | None = None,\n        total: float | None = None,\n        deadline: float | None = None,\n        request_id_headers: Sequence[str] = REQUEST_ID_HEADERS,\n        open_enums: bool = True,\n    ) -> None:\n        """`auth` holds credentials by security scheme; `token` is one for every bearer-like\n        scheme (when the contract declares none, it is sent as `Authorization: Bearer`).\n        `retry` says when a call is tried again (`Retry()`; `NO_RETRY` never), `total` limits\n        each attempt and `deadline` the whole call (seconds); `open_enums=False` refuses\n        enum values the contract does not list; `with_options` changes them for some calls.\n        """\n        defaults = dict(headers or {})\n        self._auth = _credentials(auth, token, _SCHEMES)\n        if token is not None and not self._auth:\n            defaults["Authorization"] = f"Bearer {token}"\n        self._options = _options(\n            retry=retry,\n            timeout=timeout,\n            total=total,\n            deadline=deadline,\n            request_id_headers=request_id_headers,\n            open_enums=open_enums,\n        )\n        self._http = httpx.AsyncClient(\n            base_url=base_url, headers=defaults, timeout=timeout, transport=transport\n        )\n\n    async def aclose(self) -> None:\n        """Close the connection pool."""\n        await self._http.aclose()\n\n    async def __aenter__(self) -> Self:\n        return self\n\n    async def __aexit__(\n        self,\n        exc_type: type[BaseException] | None,\n        exc: BaseException | None,\n        tb: TracebackType | None,\n    ) -> None:\n        await self.aclose()\n\n    async def _send(self, request: _Request) -> httpx.Response:\n        return await _asend(self._http, _authorize(request, self._auth), self._options)\n'
    for l_1_op in environment.getattr((undefined(name='api') if l_0_api is missing else l_0_api), 'operations'):
        l_1_laid = resolve('laid')
        l_1_define = resolve('define')
        l_1_iter_params = resolve('iter_params')
        l_1_item_annotation = resolve('item_annotation')
        l_1_group = resolve('group')
        l_1_method_params = resolve('method_params')
        l_1_result_annotation = resolve('result_annotation')
        _loop_vars = {}
        pass
        if environment.getattr(l_1_op, 'streams_events'):
            pass
            yield str(context.call(environment.getattr((undefined(name='streams') if l_0_streams is missing else l_0_streams), 'events_method'), l_1_op, True, _loop_vars=_loop_vars))
        elif ((not environment.getattr(l_1_op, 'deprecated')) and (not environment.getattr(l_1_op, 'negotiates'))):
            pass
            yield '\n'
            yield str(context.call((undefined(name='laid') if l_1_laid is missing else l_1_laid), '    ', str_join((environment.getattr(l_1_op, 'method_name'), ' = ', )), '_acall(', [str_join(('_build_', environment.getattr(l_1_op, 'method_name'), )), str_join(('_parse_', environment.getattr(l_1_op, 'method_name'), ))], _loop_vars=_loop_vars))
            yield '\n'
            yield str(context.call((undefined(name='laid') if l_1_laid is missing else l_1_laid), '    ', str_join((environment.getattr(l_1_op, 'method_name'), '_detailed = ', )), '_acall_detailed(', [str_join(('_build_', environment.getattr(l_1_op, 'method_name'), )), str_join(('_parse_', environment.getattr(l_1_op, 'method_name'), )), (environment.getattr(l_1_op, 'headers_class') or 'None')], _loop_vars=_loop_vars))
            yield '\n'
            if environment.getattr(l_1_op, 'paging'):
                pass
                yield '\n'
                yield str(context.call((undefined(name='define') if l_1_define is missing else l_1_define), '    ', str_join(('def ', environment.getattr(l_1_op, 'method_name'), '_iter(', )), context.call((undefined(name='iter_params') if l_1_iter_params is missing else l_1_iter_params), l_1_op, _loop_vars=_loop_vars), str_join((') -> AsyncIterator[', context.call((undefined(name='item_annotation') if l_1_item_annotation is missing else l_1_item_annotation), l_1_op, _loop_vars=_loop_vars), ']:', )), _loop_vars=_loop_vars))
                yield '\n        """The items of `'
                yield str(environment.getattr(l_1_op, 'method_name'))
                yield '`, page after page, fetched as they are asked for;\n        `page_size=` sets the page\'s size, `max_items=` stops after that many items."""\n'
                yield str(context.call((undefined(name='laid') if l_1_laid is missing else l_1_laid), '        ', 'return ', '_apages(', ['self._send', str_join(('_build_', environment.getattr(l_1_op, 'method_name'), )), str_join(('_parse_', environment.getattr(l_1_op, 'method_name'), )), context.call((undefined(name='group') if l_1_group is missing else l_1_group), 'Paging(', environment.getattr(environment.getattr(l_1_op, 'paging'), 'arguments'), _loop_vars=_loop_vars), '_arguments(locals())'], _loop_vars=_loop_vars))
                yield '\n'
            if environment.getattr(l_1_op, 'streams_bytes'):
                pass
                yield str(context.call(environment.getattr((undefined(name='streams') if l_0_streams is missing else l_0_streams), 'stream_method'), l_1_op, True, _loop_vars=_loop_vars))
            if environment.getattr(l_1_op, 'also_events'):
                pass
                yield str(context.call(environment.getattr((undefined(name='streams') if l_0_streams is missing else l_0_streams), 'events_method'), l_1_op, True, '_events', _loop_vars=_loop_vars))
        else:
            pass
            yield str(context.call(environment.getattr((undefined(name='streams') if l_0_streams is missing else l_0_streams), 'overloads'), l_1_op, True, _loop_vars=_loop_vars))
            yield '\n'
            if environment.getattr(l_1_op, 'deprecated'):
                pass
                yield '    @deprecated('
                yield str(t_10(str_join((environment.getattr(l_1_op, 'id'), ' is deprecated', ))))
                yield ', category=None)\n'
            yield str(context.call((undefined(name='define') if l_1_define is missing else l_1_define), '    ', str_join(('async def ', environment.getattr(l_1_op, 'method_name'), '(', )), context.call((undefined(name='method_params') if l_1_method_params is missing else l_1_method_params), l_1_op, _loop_vars=_loop_vars), str_join((') -> ', context.call((undefined(name='result_annotation') if l_1_result_annotation is missing else l_1_result_annotation), l_1_op, _loop_vars=_loop_vars), ':', )), _loop_vars=_loop_vars))
            yield '\n        """'
            yield str(t_2(t_8(l_1_op), 8))
            yield '"""\n'
            if environment.getattr(l_1_op, 'deprecated'):
                pass
                yield '        warnings.warn('
                yield str(t_10(str_join((environment.getattr(l_1_op, 'id'), ' is deprecated', ))))
                yield ', DeprecationWarning, stacklevel=2)\n'
            yield str(context.call((undefined(name='laid') if l_1_laid is missing else l_1_laid), '        ', 'return ', str_join(('_parse_', environment.getattr(l_1_op, 'method_name'), '(', )), [context.call((undefined(name='group') if l_1_group is missing else l_1_group), 'await self._send(', [context.call((undefined(name='group') if l_1_group is missing else l_1_group), str_join(('_build_', environment.getattr(l_1_op, 'method_name'), '(', )), ['**_arguments(locals())'], _loop_vars=_loop_vars)], _loop_vars=_loop_vars)], _loop_vars=_loop_vars))
            yield '\n'
            if environment.getattr(l_1_op, 'deprecated'):
                pass
                yield '\n    @deprecated('
                yield str(t_10(str_join((environment.getattr(l_1_op, 'id'), ' is deprecated', ))))
                yield ', category=None)\n'
            else:
                pass
                yield '\n'
            yield str(context.call((undefined(name='define') if l_1_define is missing else l_1_define), '    ', str_join(('async def ', environment.getattr(l_1_op, 'method_name'), '_detailed(', )), context.call((undefined(name='method_params') if l_1_method_params is missing else l_1_method_params), l_1_op, _loop_vars=_loop_vars), str_join((') -> Answer[', context.call((undefined(name='result_annotation') if l_1_result_annotation is missing else l_1_result_annotation), l_1_op, _loop_vars=_loop_vars), ', ', (environment.getattr(l_1_op, 'headers_class') or 'None'), ']:', )), _loop_vars=_loop_vars))
            yield '\n        """`'
            yield str(environment.getattr(l_1_op, 'method_name'))
            yield '`, answering the status, declared headers and body together."""\n'
            if environment.getattr(l_1_op, 'deprecated'):
                pass
                yield '        warnings.warn('
                yield str(t_10(str_join((environment.getattr(l_1_op, 'id'), ' is deprecated', ))))
                yield ', DeprecationWarning, stacklevel=2)\n'
            yield str(context.call((undefined(name='laid') if l_1_laid is missing else l_1_laid), '        ', '_response = await ', 'self._send(', [context.call((undefined(name='group') if l_1_group is missing else l_1_group), str_join(('_build_', environment.getattr(l_1_op, 'method_name'), '(', )), ['**_arguments(locals())'], _loop_vars=_loop_vars)], _loop_vars=_loop_vars))
            yield '\n'
            if environment.getattr(l_1_op, 'returns_nothing'):
                pass
                yield '        _parse_'
                yield str(environment.getattr(l_1_op, 'method_name'))
                yield '(_response)\n'
                yield str(context.call((undefined(name='laid') if l_1_laid is missing else l_1_laid), '        ', 'return ', 'Answer(', ['_response.status_code', (str_join(('_headers(', environment.getattr(l_1_op, 'headers_class'), ', _response)', )) if environment.getattr(l_1_op, 'headers_class') else 'None'), 'None', '_response.headers'], _loop_vars=_loop_vars))
                yield '\n'
            else:
                pass
                yield '        _body = _parse_'
                yield str(environment.getattr(l_1_op, 'method_name'))
                yield '(_response)\n'
                yield str(context.call((undefined(name='laid') if l_1_laid is missing else l_1_laid), '        ', 'return ', 'Answer(', ['_response.status_code', (str_join(('_headers(', environment.getattr(l_1_op, 'headers_class'), ', _response)', )) if environment.getattr(l_1_op, 'headers_class') else 'None'), '_body', '_response.headers'], _loop_vars=_loop_vars))
                yield '\n'
            if environment.getattr(l_1_op, 'streams_bytes'):
                pass
                yield str(context.call(environment.getattr((undefined(name='streams') if l_0_streams is missing else l_0_streams), 'stream_method'), l_1_op, True, _loop_vars=_loop_vars))
            if environment.getattr(l_1_op, 'also_events'):
                pass
                yield str(context.call(environment.getattr((undefined(name='streams') if l_0_streams is missing else l_0_streams), 'events_method'), l_1_op, True, '_events', _loop_vars=_loop_vars))
    l_1_op = l_1_laid = l_1_define = l_1_iter_params = l_1_item_annotation = l_1_group = l_1_method_params = l_1_result_annotation = missing
    yield from context.blocks['extra'][0](context)

def block_docstring(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    _block_vars = {}
    l_0_api = resolve('api')
    pass
    yield '"""httpx clients of '
    yield str(environment.getattr((undefined(name='api') if l_0_api is missing else l_0_api), 'title'))
    yield ': `Client` and `AsyncClient`, one typed method per operation.\n\nDeclared error responses raise the typed exceptions of `errors`; any other status raises\n`errors.UnexpectedStatus`.\n"""\n'

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

def block_extra(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    _block_vars = {}
    pass

blocks = {'docstring': block_docstring, 'imports': block_imports, 'extra': block_extra}
debug_info = '1=110&2=112&10=114&13=115&15=118&17=120&35=122&46=124&53=127&54=131&59=139&70=151&71=155&69=159&74=162&75=164&78=173&80=176&83=193&84=195&85=198&87=200&88=202&89=204&91=206&92=208&93=210&96=213&98=216&99=220&100=222&105=228&106=230&107=232&108=234&109=237&114=242&117=244&120=247&122=249&123=251&124=253&125=255&129=260&132=263&133=271&134=273&136=278&137=286&138=288&139=291&141=298&147=304&148=306&149=308&150=310&152=312&155=315&157=318&161=321&163=324&167=327&168=330&170=333&171=335&172=337&173=340&175=343&176=351&180=355&183=358&184=360&185=365&186=368&188=373&190=375&191=377&192=379&193=381&194=383&195=385&196=387&198=390&201=396&204=399&210=403&266=405&267=415&268=417&270=421&271=423&272=425&274=428&275=430&277=432&279=434&280=436&281=437&282=439&284=442&285=444&286=447&288=449&289=451&290=453&291=456&292=458&293=460&295=463&299=468&300=470&301=472&302=475&303=477&304=479&305=482&306=484&308=489&309=491&311=493&312=495&313=496&314=498&320=501&376=503&377=513&378=515&380=519&381=521&382=523&384=526&385=528&387=530&389=532&390=534&391=535&392=537&394=540&395=542&396=545&398=547&399=549&400=551&401=554&402=556&403=558&405=561&409=566&410=568&411=570&412=573&413=575&414=577&415=580&416=582&418=587&419=589&421=591&422=593&423=594&424=596&427=598&2=600&3=610&10=613&11=622&427=625'
