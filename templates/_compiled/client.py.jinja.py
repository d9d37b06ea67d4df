# Template client.py.jinja, compiled by Jinja; written by `make regen`. DO NOT EDIT.
KEY = '6597e5db952c154f579a2ece1927ecb1'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'client.py.jinja'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_header = resolve('header')
    l_0_import_set = resolve('import_set')
    l_0_name_set = resolve('name_set')
    l_0_api = resolve('api')
    l_0_imports = l_0_exported = l_0_own_servers = l_0_methods = l_0_body = missing
    try:
        t_1 = environment.filters['all_statement']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'all_statement' found.")
    try:
        t_2 = environment.filters['join']
    except KeyError:
        @internalcode
        def t_2(*unused):
            raise TemplateRuntimeError("No filter named 'join' found.")
    try:
        t_3 = environment.filters['length']
    except KeyError:
        @internalcode
        def t_3(*unused):
            raise TemplateRuntimeError("No filter named 'length' found.")
    try:
        t_4 = environment.filters['list']
    except KeyError:
        @internalcode
        def t_4(*unused):
            raise TemplateRuntimeError("No filter named 'list' found.")
    try:
        t_5 = environment.filters['lower']
    except KeyError:
        @internalcode
        def t_5(*unused):
            raise TemplateRuntimeError("No filter named 'lower' found.")
    try:
        t_6 = environment.filters['map']
    except KeyError:
        @internalcode
        def t_6(*unused):
            raise TemplateRuntimeError("No filter named 'map' found.")
    try:
        t_7 = environment.filters['py']
    except KeyError:
        @internalcode
        def t_7(*unused):
            raise TemplateRuntimeError("No filter named 'py' found.")
    try:
        t_8 = environment.filters['pyrepr']
    except KeyError:
        @internalcode
        def t_8(*unused):
            raise TemplateRuntimeError("No filter named 'pyrepr' found.")
    try:
        t_9 = environment.filters['reject']
    except KeyError:
        @internalcode
        def t_9(*unused):
            raise TemplateRuntimeError("No filter named 'reject' found.")
    try:
        t_10 = environment.filters['rejectattr']
    except KeyError:
        @internalcode
        def t_10(*unused):
            raise TemplateRuntimeError("No filter named 'rejectattr' found.")
    try:
        t_11 = environment.filters['selectattr']
    except KeyError:
        @internalcode
        def t_11(*unused):
            raise TemplateRuntimeError("No filter named 'selectattr' found.")
    try:
        t_12 = environment.filters['tuple']
    except KeyError:
        @internalcode
        def t_12(*unused):
            raise TemplateRuntimeError("No filter named 'tuple' found.")
    try:
        t_13 = environment.filters['unique']
    except KeyError:
        @internalcode
        def t_13(*unused):
            raise TemplateRuntimeError("No filter named 'unique' found.")
    try:
        t_14 = environment.tests['none']
    except KeyError:
        @internalcode
        def t_14(*unused):
            raise TemplateRuntimeError("No test named 'none' found.")
    pass
    yield str((undefined(name='header') if l_0_header is missing else l_0_header))
    yield '\n'
    yield from context.blocks['docstring'][0](context)
    l_0_imports = context.call((undefined(name='import_set') if l_0_import_set is missing else l_0_import_set))
    context.vars['imports'] = l_0_imports
    context.exported_vars.add('imports')
    l_0_exported = context.call((undefined(name='name_set') if l_0_name_set is missing else l_0_name_set))
    context.vars['exported'] = l_0_exported
    context.exported_vars.add('exported')
    l_0_own_servers = t_4(context.eval_ctx, t_13(environment, t_9(context, t_6(context, environment.getattr((undefined(name='api') if l_0_api is missing else l_0_api), 'operations'), attribute='server'), 'none')))
    context.vars['own_servers'] = l_0_own_servers
    context.exported_vars.add('own_servers')
    l_0_methods = context.vars['methods'] = environment.get_template('_client_methods.jinja', 'client.py.jinja').make_module(context.get_all(), True, {'body': l_0_body, 'exported': l_0_exported, 'imports': l_0_imports, 'methods': l_0_methods, 'own_servers': l_0_own_servers})
    context.exported_vars.discard('methods')
    l_1_statement = resolve('statement')
    l_1_value = resolve('value')
    l_1_auth_class = resolve('auth_class')
    l_1_auth_fields = resolve('auth_fields')
    l_1_body = l_0_body
    l_1_braced = resolve('braced')
    l_1_uses_models = resolve('uses_models')
    t_15 = []
    pass
    context.call(environment.getattr((undefined(name='imports') if l_0_imports is missing else l_0_imports), 'name'), '__future__', 'annotations')
    context.call(environment.getattr(context.call(environment.getattr((undefined(name='imports') if l_0_imports is missing else l_0_imports), 'name'), '.', 'errors'), 'name'), '._enums', 'UnknownMember', 'is_unknown')
    context.call(environment.getattr(context.call(environment.getattr((undefined(name='imports') if l_0_imports is missing else l_0_imports), 'name'), '._client_runtime', 'Answer'), 'name'), '._client_retry', 'NO_RETRY', 'Options', 'Retry')
    context.call(environment.getattr((undefined(name='exported') if l_0_exported is missing else l_0_exported), 'update'), ['errors', 'UnknownMember', 'is_unknown', 'Answer', 'NO_RETRY', 'Options', 'Retry'])
    context.call(environment.getattr((undefined(name='exported') if l_0_exported is missing else l_0_exported), 'update'), ['SERVERS', 'server_url', 'FileContent', 'Auth', 'Client', 'AsyncClient'])
    t_15.extend((
        str(context.call((undefined(name='statement') if l_1_statement is missing else l_1_statement), '', 'SERVERS: tuple[str, ...] = ', context.call((undefined(name='value') if l_1_value is missing else l_1_value), t_12(t_6(context, environment.getattr((undefined(name='api') if l_0_api is missing else l_0_api), 'servers'), attribute='default_url'))))),
        '\n"""The contract\'s server URLs, variables at their defaults: candidates for `base_url`."""\n\n\ndef server_url(index: int = 0, **variables: str) -> str:\n    """The contract\'s `index`th server URL (base path included), its variables at their defaults\n    unless given: a `base_url`, e.g. `server_url(region="eu")`."""\n    url, defaults = _SERVER_TEMPLATES[index]\n    unknown = sorted(set(variables) - set(defaults))\n    if unknown:\n        raise ValueError(\n            f"unknown server variables {unknown}; declared: {sorted(defaults)}"\n        )\n    for name, default in defaults.items():\n        url = url.replace("{" + name + "}", variables.get(name, default))\n    return url\n\n\n',
        str(context.call((undefined(name='statement') if l_1_statement is missing else l_1_statement), '', '_SERVER_TEMPLATES: tuple[tuple[str, dict[str, str]], ...] = ', context.call((undefined(name='value') if l_1_value is missing else l_1_value), t_12(t_6(context, environment.getattr((undefined(name='api') if l_0_api is missing else l_0_api), 'servers'), 'server_tuple'))))),
        '\n',
    ))
    if (undefined(name='own_servers') if l_0_own_servers is missing else l_0_own_servers):
        pass
        t_15.extend((
            str(context.call((undefined(name='statement') if l_1_statement is missing else l_1_statement), '', '_OWN_SERVERS: tuple[str, ...] = ', context.call((undefined(name='value') if l_1_value is missing else l_1_value), t_12((undefined(name='own_servers') if l_0_own_servers is missing else l_0_own_servers))))),
            '\n"""The servers some operations declare of their own (`servers=` of `Client` moves them)."""\n',
        ))
    context.call(environment.getattr((undefined(name='imports') if l_0_imports is missing else l_0_imports), 'name'), 'typing', 'IO', 'TypeAlias', 'TypedDict')
    t_15.append(
        '\nFileContent: TypeAlias = (\n    bytes\n    | IO[bytes]\n    | tuple[str, bytes | IO[bytes]]\n    | tuple[str, bytes | IO[bytes], str]\n)\n"""A file to upload: its bytes or a binary file, optionally with a filename and a media type."""\n\n\n',
    )
    if (undefined(name='auth_class') if l_1_auth_class is missing else l_1_auth_class):
        pass
        t_15.append(
            'class Auth(TypedDict, total=False):\n    """Credentials by security scheme: (user, password) for http basic; else the token, API key\n    or (for a scheme the client cannot write) the whole Authorization header value. Each call\n    sends the first of its operation\'s requirements that every credential is given for.\n    """\n\n',
        )
        for (l_2_name, l_2_kind) in (undefined(name='auth_fields') if l_1_auth_fields is missing else l_1_auth_fields):
            _loop_vars = {}
            pass
            t_15.extend((
                '    ',
                str(l_2_name),
                ': ',
                str(l_2_kind),
                '\n',
            ))
        l_2_name = l_2_kind = missing
    else:
        pass
        t_15.append(
            'Auth = TypedDict(\n    "Auth",\n    { ',
        )
        for (l_2_name, l_2_kind) in (undefined(name='auth_fields') if l_1_auth_fields is missing else l_1_auth_fields):
            _loop_vars = {}
            pass
            t_15.extend((
                str(t_8(l_2_name)),
                ': ',
                str(l_2_kind),
                ', ',
            ))
        l_2_name = l_2_kind = missing
        t_15.append(
            '},\n    total=False,\n)\n"""Credentials by security scheme: (user, password) for http basic; else the token, API key or\n(for a scheme the client cannot write) the whole Authorization header value. Each call sends\nthe first of its operation\'s requirements that every credential is given for."""\n',
        )
    t_15.append(
        '\n\n# Each scheme: (kind, where an API key goes, its header/query/cookie name).\n',
    )
    t_16 = []
    pass
    for l_3_scheme in environment.getattr((undefined(name='api') if l_0_api is missing else l_0_api), 'security_schemes'):
        _loop_vars = {}
        pass
        t_16.extend((
            str(context.call((undefined(name='statement') if l_1_statement is missing else l_1_statement), '    ', str_join((t_8(environment.getattr(l_3_scheme, 'name')), ': ', )), context.call((undefined(name='value') if l_1_value is missing else l_1_value), (environment.getattr(l_3_scheme, 'kind'), environment.getattr(l_3_scheme, 'location'), environment.getattr(l_3_scheme, 'parameter')), _loop_vars=_loop_vars), ',', _loop_vars=_loop_vars)),
            '\n',
        ))
    l_3_scheme = missing
    l_1_body = (Markup if context.eval_ctx.autoescape else identity)(concat(t_16))
    t_15.extend((
        str(context.call((undefined(name='braced') if l_1_braced is missing else l_1_braced), '_SCHEMES: dict[str, Scheme] = ', (undefined(name='body') if l_1_body is missing else l_1_body))),
        '\n',
    ))
    context.call(environment.getattr((undefined(name='imports') if l_0_imports is missing else l_0_imports), 'name'), '._client_runtime', 'Scheme')
    def t_17(fiter):
        for l_2_op in fiter:
            if environment.getattr(l_2_op, 'headers_class'):
                yield l_2_op
    for l_2_op in t_17(environment.getattr((undefined(name='api') if l_0_api is missing else l_0_api), 'operations')):
        l_2_headers_source = resolve('headers_source')
        _loop_vars = {}
        pass
        context.call(environment.getattr((undefined(name='imports') if l_0_imports is missing else l_0_imports), 'module'), 'dataclasses', _loop_vars=_loop_vars)
        context.call(environment.getattr((undefined(name='exported') if l_0_exported is missing else l_0_exported), 'add'), environment.getattr(l_2_op, 'headers_class'), _loop_vars=_loop_vars)
        t_15.extend((
            '\n\n',
            str(context.call((undefined(name='headers_source') if l_2_headers_source is missing else l_2_headers_source), l_2_op, _loop_vars=_loop_vars)),
            '\n',
        ))
    l_2_op = l_2_headers_source = missing
    if (undefined(name='uses_models') if l_1_uses_models is missing else l_1_uses_models):
        pass
        context.call(environment.getattr((undefined(name='imports') if l_0_imports is missing else l_0_imports), 'name'), '.', 'models')
    context.call(environment.getattr((undefined(name='imports') if l_0_imports is missing else l_0_imports), 'name'), '._client_runtime', '_Request')
    for l_2_op in environment.getattr((undefined(name='api') if l_0_api is missing else l_0_api), 'operations'):
        l_2_operation_types = resolve('operation_types')
        l_2_item_types = resolve('item_types')
        l_2_define = resolve('define')
        l_2_client_params = resolve('client_params')
        l_2_exploded_headers = resolve('exploded_headers')
        l_2_laid = resolve('laid')
        l_2_group = resolve('group')
        l_2_header_entries = resolve('header_entries')
        l_2_content_type_name = resolve('content_type_name')
        l_2_body_content_type = resolve('body_content_type')
        l_2_plain = resolve('plain')
        l_2_form_entries = resolve('form_entries')
        l_2_form_styles = resolve('form_styles')
        l_2_client_path = resolve('client_path')
        l_2_query_entries = resolve('query_entries')
        l_2_styled_entries = resolve('styled_entries')
        l_2_result_annotation = resolve('result_annotation')
        l_2_q = l_2_styled = l_2_sends_headers = l_2_retryable = missing
        _loop_vars = {}
        pass
        context.call(environment.getattr(context.call(environment.getattr((undefined(name='imports') if l_0_imports is missing else l_0_imports), 'types'), context.call((undefined(name='operation_types') if l_2_operation_types is missing else l_2_operation_types), l_2_op, _loop_vars=_loop_vars), _loop_vars=_loop_vars), 'types'), context.call((undefined(name='item_types') if l_2_item_types is missing else l_2_item_types), l_2_op, _loop_vars=_loop_vars), _loop_vars=_loop_vars)
        context.call(environment.getattr((undefined(name='imports') if l_0_imports is missing else l_0_imports), 'name'), '._client_runtime', '_error', _loop_vars=_loop_vars)
        t_15.extend((
            '\n\n',
            str(context.call((undefined(name='define') if l_2_define is missing else l_2_define), '', str_join(('def _build_', environment.getattr(l_2_op, 'method_name'), '(', )), context.call((undefined(name='client_params') if l_2_client_params is missing else l_2_client_params), l_2_op, _loop_vars=_loop_vars), ') -> _Request:', _loop_vars=_loop_vars)),
            '\n',
        ))
        l_2_q = environment.getattr(l_2_op, 'query_params')
        _loop_vars['q'] = l_2_q
        l_2_styled = t_4(context.eval_ctx, t_11(context, (undefined(name='q') if l_2_q is missing else l_2_q), 'styled'))
        _loop_vars['styled'] = l_2_styled
        l_2_sends_headers = ((((environment.getattr(l_2_op, 'negotiates') or environment.getattr(l_2_op, 'streams_events')) or environment.getattr(l_2_op, 'header_params')) or environment.getattr(l_2_op, 'cookie_params')) or (environment.getattr(l_2_op, 'body') and (environment.getattr(environment.getattr(l_2_op, 'body'), 'kind') in ('json', 'binary', 'text'))))
        _loop_vars['sends_headers'] = l_2_sends_headers
        if ((environment.getattr(l_2_op, 'negotiates') or environment.getattr(l_2_op, 'streams_events')) or environment.getattr(l_2_op, 'header_params')):
            pass
            context.call(environment.getattr((undefined(name='imports') if l_0_imports is missing else l_0_imports), 'name'), '._client_runtime', '_texts', _loop_vars=_loop_vars)
            l_2_exploded_headers = t_4(context.eval_ctx, t_6(context, t_6(context, t_11(context, t_11(context, environment.getattr(l_2_op, 'header_params'), 'shape', 'equalto', 'object'), 'explode'), attribute='wire'), 'pyrepr'))
            _loop_vars['exploded_headers'] = l_2_exploded_headers
            t_15.extend((
                str(context.call((undefined(name='laid') if l_2_laid is missing else l_2_laid), '    ', '_headers = ', '_texts(', ([context.call((undefined(name='group') if l_2_group is missing else l_2_group), '{', context.call((undefined(name='header_entries') if l_2_header_entries is missing else l_2_header_entries), l_2_op, _loop_vars=_loop_vars), '}', _loop_vars=_loop_vars)] + ([context.call((undefined(name='group') if l_2_group is missing else l_2_group), 'frozenset({', (undefined(name='exploded_headers') if l_2_exploded_headers is missing else l_2_exploded_headers), '})', _loop_vars=_loop_vars)] if (undefined(name='exploded_headers') if l_2_exploded_headers is missing else l_2_exploded_headers) else [])), _loop_vars=_loop_vars)),
                '\n',
            ))
        elif (undefined(name='sends_headers') if l_2_sends_headers is missing else l_2_sends_headers):
            pass
            t_15.append(
                '    _headers: dict[str, str] = {}\n',
            )
        if environment.getattr(l_2_op, 'cookie_params'):
            pass
            context.call(environment.getattr((undefined(name='imports') if l_0_imports is missing else l_0_imports), 'name'), '._client_runtime', '_cookie', _loop_vars=_loop_vars)
            t_15.append(
                '    _cookies: list[str] = []\n',
            )
            for l_3_p in environment.getattr(l_2_op, 'cookie_params'):
                _loop_vars = {}
                pass
                t_15.extend((
                    '    if ',
                    str(environment.getattr(l_3_p, 'name')),
                    ' is not None:\n        _cookies.append(_cookie(',
                    str(t_8(environment.getattr(l_3_p, 'wire'))),
                    ', ',
                    str(environment.getattr(l_3_p, 'name')),
                    '))\n',
                ))
            l_3_p = missing
            t_15.append(
                '    if _cookies:\n        _headers["Cookie"] = "; ".join(_cookies)\n',
            )
        if (environment.getattr(l_2_op, 'body') and environment.getattr(environment.getattr(l_2_op, 'body'), 'also_form')):
            pass
            context.call(environment.getattr(context.call(environment.getattr((undefined(name='imports') if l_0_imports is missing else l_0_imports), 'name'), '._client_streams', 'json_or_form', _loop_vars=_loop_vars), 'name'), 'typing', 'Literal', _loop_vars=_loop_vars)
            t_15.extend((
                str(context.call((undefined(name='laid') if l_2_laid is missing else l_2_laid), '    ', '_content, _data, _files = ', 'json_or_form(', ['body', context.call((undefined(name='content_type_name') if l_2_content_type_name is missing else l_2_content_type_name), l_2_op, _loop_vars=_loop_vars), '_headers'], _loop_vars=_loop_vars)),
                '\n',
            ))
        elif (environment.getattr(l_2_op, 'body') and (environment.getattr(environment.getattr(l_2_op, 'body'), 'kind') == 'json')):
            pass
            context.call(environment.getattr((undefined(name='imports') if l_0_imports is missing else l_0_imports), 'name'), '._client_runtime', '_dump', _loop_vars=_loop_vars)
            if environment.getattr(environment.getattr(l_2_op, 'body'), 'required'):
                pass
                t_15.extend((
                    '    _headers["Content-Type"] = ',
                    str(t_8(environment.getattr(environment.getattr(l_2_op, 'body'), 'media_type'))),
                    '\n    _content: bytes | None = _dump(body)\n',
                ))
            else:
                pass
                t_15.extend((
                    '    _content: bytes | None = None\n    if body is not None:\n        _headers["Content-Type"] = ',
                    str(t_8(environment.getattr(environment.getattr(l_2_op, 'body'), 'media_type'))),
                    '\n        _content = _dump(body)\n',
                ))
        elif (environment.getattr(l_2_op, 'body') and (environment.getattr(environment.getattr(l_2_op, 'body'), 'kind') in ('binary', 'text'))):
            pass
            t_15.extend((
                '    _content: bytes | None = None\n    if body is not None:\n        _headers["Content-Type"] = ',
                str(context.call((undefined(name='body_content_type') if l_2_body_content_type is missing else l_2_body_content_type), l_2_op, _loop_vars=_loop_vars)),
                '\n        _content = body.encode() if isinstance(body, str) else body\n',
            ))
        elif (environment.getattr(l_2_op, 'body') and environment.getattr(environment.getattr(l_2_op, 'body'), 'is_form')):
            pass
            l_2_plain = t_4(context.eval_ctx, t_10(context, t_10(context, t_10(context, environment.getattr(environment.getattr(l_2_op, 'body'), 'form_fields'), 'is_file'), 'is_file_list'), 'json'))
            _loop_vars['plain'] = l_2_plain
            if (undefined(name='plain') if l_2_plain is missing else l_2_plain):
                pass
                context.call(environment.getattr((undefined(name='imports') if l_0_imports is missing else l_0_imports), 'name'), '._client_runtime', '_queries', _loop_vars=_loop_vars)
                t_15.extend((
                    str(context.call((undefined(name='laid') if l_2_laid is missing else l_2_laid), '    ', '_data = ', '_queries(', ([context.call((undefined(name='group') if l_2_group is missing else l_2_group), '{', context.call((undefined(name='form_entries') if l_2_form_entries is missing else l_2_form_entries), (undefined(name='plain') if l_2_plain is missing else l_2_plain), _loop_vars=_loop_vars), '}', _loop_vars=_loop_vars)] + ([context.call((undefined(name='group') if l_2_group is missing else l_2_group), '{', context.call((undefined(name='form_styles') if l_2_form_styles is missing else l_2_form_styles), (undefined(name='plain') if l_2_plain is missing else l_2_plain), _loop_vars=_loop_vars), '}', _loop_vars=_loop_vars)] if t_4(context.eval_ctx, t_11(context, (undefined(name='plain') if l_2_plain is missing else l_2_plain), 'deep')) else [])), _loop_vars=_loop_vars)),
                    '\n',
                ))
            else:
                pass
                context.call(environment.getattr((undefined(name='imports') if l_0_imports is missing else l_0_imports), 'name'), 'typing', 'Any', _loop_vars=_loop_vars)
                t_15.append(
                    '    _data: dict[str, Any] = {}\n',
                )
            if (environment.getattr(environment.getattr(l_2_op, 'body'), 'kind') == 'multipart'):
                pass
                context.call(environment.getattr((undefined(name='imports') if l_0_imports is missing else l_0_imports), 'name'), 'typing', 'Any', _loop_vars=_loop_vars)
                t_15.append(
                    '    _files: list[tuple[str, Any]] = []\n',
                )
                def t_18(fiter):
                    for l_3_f in fiter:
                        if environment.getattr(l_3_f, 'json'):
                            yield l_3_f
                for l_3_f in t_18(environment.getattr(environment.getattr(l_2_op, 'body'), 'form_fields')):
                    _loop_vars = {}
                    pass
                    context.call(environment.getattr((undefined(name='imports') if l_0_imports is missing else l_0_imports), 'name'), '._client_runtime', '_dump', _loop_vars=_loop_vars)
                    t_15.extend((
                        '    if ',
                        str(environment.getattr(l_3_f, 'name')),
                        ' is not None:\n        _files.append((',
                        str(t_8(environment.getattr(l_3_f, 'wire'))),
                        ', (None, _dump(',
                        str(environment.getattr(l_3_f, 'name')),
                        '), "application/json")))\n',
                    ))
                l_3_f = missing
                def t_19(fiter):
                    for l_3_f in fiter:
                        if (environment.getattr(l_3_f, 'is_file') or environment.getattr(l_3_f, 'is_file_list')):
                            yield l_3_f
                for l_3_f in t_19(environment.getattr(environment.getattr(l_2_op, 'body'), 'form_fields')):
                    _loop_vars = {}
                    pass
                    t_15.extend((
                        '    if ',
                        str(environment.getattr(l_3_f, 'name')),
                        ' is not None:\n',
                    ))
                    if environment.getattr(l_3_f, 'is_file_list'):
                        pass
                        t_15.extend((
                            '        _files.extend((',
                            str(t_8(environment.getattr(l_3_f, 'wire'))),
                            ', item) for item in ',
                            str(environment.getattr(l_3_f, 'name')),
                            ')\n',
                        ))
                    else:
                        pass
                        t_15.extend((
                            '        _files.append((',
                            str(t_8(environment.getattr(l_3_f, 'wire'))),
                            ', ',
                            str(environment.getattr(l_3_f, 'name')),
                            '))\n',
                        ))
                l_3_f = missing
        t_15.extend((
            '    return _Request(\n        ',
            str(t_8(environment.getattr(l_2_op, 'http_method'))),
            ',\n        ',
            str(context.call((undefined(name='client_path') if l_2_client_path is missing else l_2_client_path), l_2_op, _loop_vars=_loop_vars)),
            ',\n',
        ))
        if environment.getattr(l_2_op, 'path_params'):
            pass
            context.call(environment.getattr((undefined(name='imports') if l_0_imports is missing else l_0_imports), 'name'), '._client_runtime', '_path', _loop_vars=_loop_vars)
        if (undefined(name='q') if l_2_q is missing else l_2_q):
            pass
            context.call(environment.getattr((undefined(name='imports') if l_0_imports is missing else l_0_imports), 'name'), '._client_runtime', '_queries', _loop_vars=_loop_vars)
            t_15.extend((
                str(context.call((undefined(name='laid') if l_2_laid is missing else l_2_laid), '        ', '', 'params=_queries(', ([context.call((undefined(name='group') if l_2_group is missing else l_2_group), '{', context.call((undefined(name='query_entries') if l_2_query_entries is missing else l_2_query_entries), l_2_op, _loop_vars=_loop_vars), '}', _loop_vars=_loop_vars)] + ([context.call((undefined(name='group') if l_2_group is missing else l_2_group), '{', context.call((undefined(name='styled_entries') if l_2_styled_entries is missing else l_2_styled_entries), l_2_op, _loop_vars=_loop_vars), '}', _loop_vars=_loop_vars)] if (undefined(name='styled') if l_2_styled is missing else l_2_styled) else [])), tail=',', _loop_vars=_loop_vars)),
                '\n',
            ))
        if (undefined(name='sends_headers') if l_2_sends_headers is missing else l_2_sends_headers):
            pass
            t_15.append(
                '        headers=_headers,\n',
            )
        if (environment.getattr(l_2_op, 'body') and (environment.getattr(environment.getattr(l_2_op, 'body'), 'kind') in ('json', 'binary', 'text'))):
            pass
            t_15.append(
                '        content=_content,\n',
            )
            if environment.getattr(environment.getattr(l_2_op, 'body'), 'also_form'):
                pass
                t_15.append(
                    '        data=_data,\n        files=_files,\n',
                )
        elif (environment.getattr(l_2_op, 'body') and (environment.getattr(environment.getattr(l_2_op, 'body'), 'kind') == 'multipart')):
            pass
            context.call(environment.getattr((undefined(name='imports') if l_0_imports is missing else l_0_imports), 'name'), '._client_runtime', '_parts', _loop_vars=_loop_vars)
            t_15.append(
                '        files=_parts(_data, _files) or None,\n',
            )
        elif (environment.getattr(l_2_op, 'body') and environment.getattr(environment.getattr(l_2_op, 'body'), 'is_form')):
            pass
            t_15.append(
                '        data=_data,\n',
            )
        if environment.getattr(l_2_op, 'security'):
            pass
            t_15.extend((
                '        security=',
                str(t_8(environment.getattr(l_2_op, 'security'))),
                ',\n',
            ))
        t_15.extend((
            '        operation=',
            str(t_8(environment.getattr(l_2_op, 'id'))),
            ',\n',
        ))
        l_2_retryable = t_4(context.eval_ctx, t_9(context, t_6(context, t_11(context, t_6(context, environment.getattr(l_2_op, 'errors'), attribute='response'), 'retryable'), attribute='status_code'), 'none'))
        _loop_vars['retryable'] = l_2_retryable
        if (undefined(name='retryable') if l_2_retryable is missing else l_2_retryable):
            pass
            t_15.extend((
                '        retryable=(',
                str(t_2(context.eval_ctx, (undefined(name='retryable') if l_2_retryable is missing else l_2_retryable), ', ')),
                str((',' if (t_3((undefined(name='retryable') if l_2_retryable is missing else l_2_retryable)) == 1) else '')),
                '),\n',
            ))
        def t_20(fiter):
            for l_3_p in fiter:
                if (t_5(environment.getattr(l_3_p, 'wire')) in ('idempotency-key', 'x-idempotency-key')):
                    yield l_3_p
        for l_3_p in t_20(environment.getattr(l_2_op, 'header_params')):
            _loop_vars = {}
            pass
            t_15.extend((
                '        idempotency=',
                str(t_8(environment.getattr(l_3_p, 'wire'))),
                ',\n',
            ))
        l_3_p = missing
        t_15.append(
            '    )\n\n',
        )
        if (not environment.getattr(l_2_op, 'streams_events')):
            pass
            t_15.extend((
                '\n\n',
                str(context.call((undefined(name='define') if l_2_define is missing else l_2_define), '', str_join(('def _parse_', environment.getattr(l_2_op, 'method_name'), '(', )), ['response: httpx.Response'], str_join((') -> ', context.call((undefined(name='result_annotation') if l_2_result_annotation is missing else l_2_result_annotation), l_2_op, _loop_vars=_loop_vars), ':', )), _loop_vars=_loop_vars)),
                '\n',
            ))
            for l_3_r in environment.getattr(l_2_op, 'success'):
                l_3_other_json = resolve('other_json')
                l_3_others = resolve('others')
                l_3_response_source = resolve('response_source')
                l_3_parsed_directly = resolve('parsed_directly')
                _loop_vars = {}
                pass
                if (not t_14(environment.getattr(l_3_r, 'status_code'))):
                    pass
                    t_15.extend((
                        '    if response.status_code == ',
                        str(environment.getattr(l_3_r, 'status_code')),
                        ':\n',
                    ))
                else:
                    pass
                    t_15.extend((
                        '    if str(response.status_code).startswith(',
                        str(t_8(environment.getitem(environment.getattr(l_3_r, 'status'), 0))),
                        '):\n',
                    ))
                if (t_3(environment.getattr(l_3_r, 'representations')) > 1):
                    pass
                    context.call(environment.getattr(context.call(environment.getattr((undefined(name='imports') if l_0_imports is missing else l_0_imports), 'name'), 'typing', 'cast', _loop_vars=_loop_vars), 'name'), '._client_streams', 'read_body', _loop_vars=_loop_vars)
                    if (environment.getattr(l_3_r, 'kind') != 'json'):
                        pass
                        context.call(environment.getattr((undefined(name='imports') if l_0_imports is missing else l_0_imports), 'name'), 'typing', 'Any', _loop_vars=_loop_vars)
                    l_3_others = context.call((undefined(name='other_json') if l_3_other_json is missing else l_3_other_json), l_3_r, _loop_vars=_loop_vars)
                    _loop_vars['others'] = l_3_others
                    t_15.extend((
                        str(context.call((undefined(name='laid') if l_2_laid is missing else l_2_laid), '        ', 'return ', 'cast(', [t_8(context.call((undefined(name='response_source') if l_3_response_source is missing else l_3_response_source), l_3_r, _loop_vars=_loop_vars)), context.call((undefined(name='group') if l_2_group is missing else l_2_group), 'read_body(', (['response', (t_7(environment.getattr(l_3_r, 'type'), 'models.') if (environment.getattr(l_3_r, 'kind') == 'json') else 'Any')] + ([(undefined(name='others') if l_3_others is missing else l_3_others)] if (undefined(name='others') if l_3_others is missing else l_3_others) else [])), _loop_vars=_loop_vars)], _loop_vars=_loop_vars)),
                        '\n',
                    ))
                elif context.call((undefined(name='parsed_directly') if l_3_parsed_directly is missing else l_3_parsed_directly), l_3_r, _loop_vars=_loop_vars):
                    pass
                    context.call(environment.getattr((undefined(name='imports') if l_0_imports is missing else l_0_imports), 'name'), '._client_runtime', '_json', _loop_vars=_loop_vars)
                    t_15.extend((
                        str(context.call((undefined(name='laid') if l_2_laid is missing else l_2_laid), '        ', 'return ', '_json(', [t_7(environment.getattr(l_3_r, 'type'), 'models.'), 'response'], _loop_vars=_loop_vars)),
                        '\n',
                    ))
                elif (environment.getattr(l_3_r, 'kind') == 'json'):
                    pass
                    context.call(environment.getattr(context.call(environment.getattr((undefined(name='imports') if l_0_imports is missing else l_0_imports), 'name'), 'typing', 'cast', _loop_vars=_loop_vars), 'name'), '._client_runtime', '_json', _loop_vars=_loop_vars)
                    t_15.extend((
                        str(context.call((undefined(name='laid') if l_2_laid is missing else l_2_laid), '        ', 'return ', 'cast(', [t_8(t_7(environment.getattr(l_3_r, 'type'), 'models.')), context.call((undefined(name='group') if l_2_group is missing else l_2_group), '_json(', [t_7(environment.getattr(l_3_r, 'type'), 'models.'), 'response'], _loop_vars=_loop_vars)], _loop_vars=_loop_vars)),
                        '\n',
                    ))
                elif (environment.getattr(l_3_r, 'kind') == 'binary'):
                    pass
                    t_15.append(
                        '        return response.content\n',
                    )
                elif (environment.getattr(l_3_r, 'kind') == 'text'):
                    pass
                    t_15.append(
                        '        return response.text\n',
                    )
                else:
                    pass
                    t_15.extend((
                        '        return',
                        str(('' if environment.getattr(l_2_op, 'returns_nothing') else ' None')),
                        '\n',
                    ))
            l_3_r = l_3_other_json = l_3_others = l_3_response_source = l_3_parsed_directly = missing
            t_15.extend((
                str(context.call((undefined(name='laid') if l_2_laid is missing else l_2_laid), '    ', 'raise ', '_error(', [t_8(environment.getattr(l_2_op, 'id')), 'response'], _loop_vars=_loop_vars)),
                '\n',
            ))
    l_2_op = l_2_operation_types = l_2_item_types = l_2_define = l_2_client_params = l_2_q = l_2_styled = l_2_sends_headers = l_2_exploded_headers = l_2_laid = l_2_group = l_2_header_entries = l_2_content_type_name = l_2_body_content_type = l_2_plain = l_2_form_entries = l_2_form_styles = l_2_client_path = l_2_query_entries = l_2_styled_entries = l_2_retryable = l_2_result_annotation = missing
    t_15.append(
        '\n',
    )
    context.call(environment.getattr(context.call(environment.getattr(context.call(environment.getattr((undefined(name='imports') if l_0_imports is missing else l_0_imports), 'module'), 'httpx'), 'name'), 'types', 'TracebackType'), 'name'), 'typing', 'Self')
    context.call(environment.getattr((undefined(name='imports') if l_0_imports is missing else l_0_imports), 'name'), 'collections.abc', 'Mapping', 'Sequence')
    context.call(environment.getattr((undefined(name='imports') if l_0_imports is missing else l_0_imports), 'name'), '._client_runtime', 'REQUEST_ID_HEADERS', '_authorize', '_credentials')
    context.call(environment.getattr((undefined(name='imports') if l_0_imports is missing else l_0_imports), 'name'), '._client_retry', '_Configurable', '_asend', '_options', '_send')
    t_15.extend((
        '\n\nclass Client(_Configurable):\n    """A synchronous client of ',
        str(environment.getattr((undefined(name='api') if l_0_api is missing else l_0_api), 'title')),
        '."""\n\n    def __init__(\n        self,\n        base_url: str,\n        *,\n        auth: Auth | None = None,\n        token: str | None = None,\n        timeout: float | httpx.Timeout = 30.0,\n        headers: Mapping[str, str] | None = None,\n        transport: httpx.BaseTransport | None = None,\n        retry: Retry | None = None,\n        total: float | None = None,\n        deadline: float | None = None,\n        request_id_headers: Sequence[str] = REQUEST_ID_HEADERS,\n        open_enums: bool = True,\n',
    ))
    if (undefined(name='own_servers') if l_0_own_servers is missing else l_0_own_servers):
        pass
        t_15.append(
            '        servers: Mapping[str, str] | None = None,\n',
        )
    t_15.append(
        '    ) -> None:\n        """`auth` holds credentials by security scheme; `token` is one for every bearer-like\n        scheme (when the contract declares none, it is sent as `Authorization: Bearer`).\n        `retry` says when a call is tried again (`Retry()`; `NO_RETRY` never), `total` limits\n        each attempt and `deadline` the whole call (seconds); `open_enums=False` refuses\n        enum values the contract does not list; `with_options` changes them for some calls.\n',
    )
    if (undefined(name='own_servers') if l_0_own_servers is missing else l_0_own_servers):
        pass
        t_15.extend((
            '        Operations that declare a server of their own go to it when `base_url` is one of\n        `SERVERS`, else to `base_url`\'s host; `servers` says otherwise, by their URL:\n        `{"',
            str(environment.getitem((undefined(name='own_servers') if l_0_own_servers is missing else l_0_own_servers), 0)),
            '": "http://127.0.0.1:8001"}`.\n',
        ))
    t_15.append(
        '        """\n        defaults = dict(headers or {})\n        self._auth = _credentials(auth, token, _SCHEMES)\n        if token is not None and not self._auth:\n            defaults["Authorization"] = f"Bearer {token}"\n        self._options = _options(\n            retry=retry,\n            timeout=timeout,\n            total=total,\n            deadline=deadline,\n            request_id_headers=request_id_headers,\n            open_enums=open_enums,\n        )\n',
    )
    if (undefined(name='own_servers') if l_0_own_servers is missing else l_0_own_servers):
        pass
        context.call(environment.getattr((undefined(name='imports') if l_0_imports is missing else l_0_imports), 'name'), '._client_runtime', '_server_hooks', '_own_servers')
        t_15.append(
            '        self._http = httpx.Client(\n            base_url=base_url,\n            headers=defaults,\n            timeout=timeout,\n            transport=transport,\n            event_hooks=_server_hooks(\n                _own_servers(base_url, servers, SERVERS, _OWN_SERVERS)\n            ),\n        )\n',
        )
    else:
        pass
        t_15.append(
            '        self._http = httpx.Client(\n            base_url=base_url, headers=defaults, timeout=timeout, transport=transport\n        )\n',
        )
    t_15.append(
        '\n    def close(self) -> None:\n        """Close the connection pool."""\n        self._http.close()\n\n    def __enter__(self) -> Self:\n        return self\n\n    def __exit__(\n        self,\n        exc_type: type[BaseException] | None,\n        exc: BaseException | None,\n        tb: TracebackType | None,\n    ) -> None:\n        self.close()\n\n    def _send(self, request: _Request) -> httpx.Response:\n        return _send(self._http, _authorize(request, self._auth), self._options)\n',
    )
    for l_2_op in environment.getattr((undefined(name='api') if l_0_api is missing else l_0_api), 'operations'):
        _loop_vars = {}
        pass
        t_15.append(
            str(context.call(environment.getattr((undefined(name='methods') if l_0_methods is missing else l_0_methods), 'operation_methods'), l_2_op, False, _loop_vars=_loop_vars)),
        )
    l_2_op = missing
    t_15.extend((
        '\n\nclass AsyncClient(_Configurable):\n    """An asynchronous client of ',
        str(environment.getattr((undefined(name='api') if l_0_api is missing else l_0_api), 'title')),
        '."""\n\n    def __init__(\n        self,\n        base_url: str,\n        *,\n        auth: Auth | None = None,\n        token: str | None = None,\n        timeout: float | httpx.Timeout = 30.0,\n        headers: Mapping[str, str] | None = None,\n        transport: httpx.AsyncBaseTransport | None = None,\n        retry: Retry | None = None,\n        total: float | None = None,\n        deadline: float | None = None,\n        request_id_headers: Sequence[str] = REQUEST_ID_HEADERS,\n        open_enums: bool = True,\n',
    ))
    if (undefined(name='own_servers') if l_0_own_servers is missing else l_0_own_servers):
        pass
        t_15.append(
            '        servers: Mapping[str, str] | None = None,\n',
        )
    t_15.append(
        '    ) -> None:\n        """`auth` holds credentials by security scheme; `token` is one for every bearer-like\n        scheme (when the contract declares none, it is sent as `Authorization: Bearer`).\n        `retry` says when a call is tried again (`Retry()`; `NO_RETRY` never), `total` limits\n        each attempt and `deadline` the whole call (seconds); `open_enums=False` refuses\n        enum values the contract does not list; `with_options` changes them for some calls.\n',
    )
    if (undefined(name='own_servers') if l_0_own_servers is missing else l_0_own_servers):
        pass
        t_15.extend((
            '        Operations that declare a server of their own go to it when `base_url` is one of\n        `SERVERS`, else to `base_url`\'s host; `servers` says otherwise, by their URL:\n        `{"',
            str(environment.getitem((undefined(name='own_servers') if l_0_own_servers is missing else l_0_own_servers), 0)),
            '": "http://127.0.0.1:8001"}`.\n',
        ))
    t_15.append(
        '        """\n        defaults = dict(headers or {})\n        self._auth = _credentials(auth, token, _SCHEMES)\n        if token is not None and not self._auth:\n            defaults["Authorization"] = f"Bearer {token}"\n        self._options = _options(\n            retry=retry,\n            timeout=timeout,\n            total=total,\n            deadline=deadline,\n            request_id_headers=request_id_headers,\n            open_enums=open_enums,\n        )\n',
    )
    if (undefined(name='own_servers') if l_0_own_servers is missing else l_0_own_servers):
        pass
        context.call(environment.getattr((undefined(name='imports') if l_0_imports is missing else l_0_imports), 'name'), '._client_runtime', '_aserver_hooks', '_own_servers')
        t_15.append(
            '        self._http = httpx.AsyncClient(\n            base_url=base_url,\n            headers=defaults,\n            timeout=timeout,\n            transport=transport,\n            event_hooks=_aserver_hooks(\n                _own_servers(base_url, servers, SERVERS, _OWN_SERVERS)\n            ),\n        )\n',
        )
    else:
        pass
        t_15.append(
            '        self._http = httpx.AsyncClient(\n            base_url=base_url, headers=defaults, timeout=timeout, transport=transport\n        )\n',
        )
    t_15.append(
        '\n    async def aclose(self) -> None:\n        """Close the connection pool."""\n        await self._http.aclose()\n\n    async def __aenter__(self) -> Self:\n        return self\n\n    async def __aexit__(\n        self,\n        exc_type: type[BaseException] | None,\n        exc: BaseException | None,\n        tb: TracebackType | None,\n    ) -> None:\n        await self.aclose()\n\n    async def _send(self, request: _Request) -> httpx.Response:\n        return await _asend(self._http, _authorize(request, self._auth), self._options)\n',
    )
    for l_2_op in environment.getattr((undefined(name='api') if l_0_api is missing else l_0_api), 'operations'):
        _loop_vars = {}
        pass
        t_15.append(
            str(context.call(environment.getattr((undefined(name='methods') if l_0_methods is missing else l_0_methods), 'operation_methods'), l_2_op, True, _loop_vars=_loop_vars)),
        )
    l_2_op = missing
    gen = context.blocks['extra'][0](context)
    try:
        for event in gen:
            t_15.append(event)
    finally: gen.close()
    l_0_body = (Markup if context.eval_ctx.autoescape else identity)(concat(t_15))
    context.vars['body'] = l_0_body
    context.exported_vars.add('body')
    l_1_statement = l_1_value = l_1_auth_class = l_1_auth_fields = l_1_body = l_1_braced = l_1_uses_models = missing
    yield '\n'
    yield from context.blocks['imports'][0](context)
    yield '\n'
    yield str(t_1((undefined(name='exported') if l_0_exported is missing else l_0_exported)))
    yield '\n\n'
    yield str((undefined(name='body') if l_0_body is missing else l_0_body))
    yield '\n'

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
    yield '.\n\n`Client` and `AsyncClient`: one typed method per operation.\n\nDeclared error responses raise the typed exceptions of `errors`; any other status raises\n`errors.UnexpectedStatus`.\n"""\n'

def block_extra(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    _block_vars = {}
    pass

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

blocks = {'docstring': block_docstring, 'extra': block_extra, 'imports': block_imports}
debug_info = '1=100&2=102&13=103&14=106&15=109&16=112&19=123&21=124&22=125&23=126&24=127&25=129&43=131&44=134&45=137&48=140&59=144&66=149&67=154&72=165&83=183&84=187&82=191&87=193&88=196&89=197&90=205&91=206&94=209&96=213&97=215&99=216&100=217&101=238&102=239&105=242&106=245&107=247&108=249&110=251&111=253&112=254&113=257&114=260&117=265&118=267&120=271&121=276&122=278&127=287&128=289&129=291&130=294&131=296&132=297&133=301&138=308&141=311&144=315&146=318&147=320&148=322&149=324&150=326&152=331&155=335&156=337&159=341&160=348&161=351&162=353&164=359&165=368&166=371&167=375&169=384&175=392&176=394&177=397&178=399&180=400&181=402&182=404&184=407&187=412&189=417&193=422&194=424&196=428&199=433&200=437&202=442&203=445&204=447&205=451&207=455&208=464&212=471&215=475&216=478&217=485&218=489&220=496&222=499&223=501&224=502&225=504&227=505&228=508&229=511&230=513&231=515&232=518&233=520&234=522&235=525&237=530&240=539&243=544&247=551&248=552&249=553&250=554&254=557&270=560&279=568&282=572&297=578&298=580&331=592&332=596&336=601&352=604&361=612&364=616&379=622&380=624&413=636&414=640&416=645&17=648&419=653&423=655&425=657&2=660&3=670&416=673&419=682&420=691'
