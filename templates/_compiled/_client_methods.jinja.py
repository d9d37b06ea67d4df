# Template _client_methods.jinja, compiled by Jinja; written by `make regen`. DO NOT EDIT.
KEY = '9d4dc4388a21df466e26eeffacd1073c'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = '_client_methods.jinja'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_deprecation = l_0_warn = l_0_events_method = l_0_stream_method = l_0_overloads = l_0_operation_methods = missing
    try:
        t_1 = environment.filters['docstring']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'docstring' found.")
    try:
        t_2 = environment.filters['operation_doc']
    except KeyError:
        @internalcode
        def t_2(*unused):
            raise TemplateRuntimeError("No filter named 'operation_doc' found.")
    try:
        t_3 = environment.filters['py']
    except KeyError:
        @internalcode
        def t_3(*unused):
            raise TemplateRuntimeError("No filter named 'py' found.")
    try:
        t_4 = environment.filters['pyrepr']
    except KeyError:
        @internalcode
        def t_4(*unused):
            raise TemplateRuntimeError("No filter named 'pyrepr' found.")
    try:
        t_5 = environment.tests['none']
    except KeyError:
        @internalcode
        def t_5(*unused):
            raise TemplateRuntimeError("No test named 'none' found.")
    pass
    def macro(l_1_op):
        t_6 = []
        l_1_imports = resolve('imports')
        l_1_laid = resolve('laid')
        if l_1_op is missing:
            l_1_op = undefined("parameter 'op' was not provided", name='op')
        pass
        if environment.getattr(l_1_op, 'deprecated'):
            pass
            context.call(environment.getattr((undefined(name='imports') if l_1_imports is missing else l_1_imports), 'name'), 'typing_extensions', 'deprecated')
            t_6.extend((
                str(context.call((undefined(name='laid') if l_1_laid is missing else l_1_laid), '    ', '@', 'deprecated(', [t_4(str_join((environment.getattr(l_1_op, 'id'), ' is deprecated', ))), 'category=None'])),
                '\n',
            ))
        return concat(t_6)
    context.exported_vars.add('deprecation')
    context.vars['deprecation'] = l_0_deprecation = Macro(environment, macro, 'deprecation', ('op',), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_op):
        t_7 = []
        l_1_imports = resolve('imports')
        l_1_laid = resolve('laid')
        if l_1_op is missing:
            l_1_op = undefined("parameter 'op' was not provided", name='op')
        pass
        if environment.getattr(l_1_op, 'deprecated'):
            pass
            context.call(environment.getattr((undefined(name='imports') if l_1_imports is missing else l_1_imports), 'module'), 'warnings')
            t_7.extend((
                str(context.call((undefined(name='laid') if l_1_laid is missing else l_1_laid), '        ', '', 'warnings.warn(', [t_4(str_join((environment.getattr(l_1_op, 'id'), ' is deprecated', ))), 'DeprecationWarning', 'stacklevel=2'])),
                '\n',
            ))
        return concat(t_7)
    context.exported_vars.add('warn')
    context.vars['warn'] = l_0_warn = Macro(environment, macro, 'warn', ('op',), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_op, l_1_is_async, l_1_suffix):
        t_8 = []
        l_1_events_of = resolve('events_of')
        l_1_imports = resolve('imports')
        l_1_exported = resolve('exported')
        l_1_define = resolve('define')
        l_1_method_params = resolve('method_params')
        l_1_event_data = resolve('event_data')
        l_1_laid = resolve('laid')
        l_1_build_call = resolve('build_call')
        l_1_name = l_1_events = missing
        if l_1_op is missing:
            l_1_op = undefined("parameter 'op' was not provided", name='op')
        if l_1_is_async is missing:
            l_1_is_async = undefined("parameter 'is_async' was not provided", name='is_async')
        if l_1_suffix is missing:
            l_1_suffix = ''
        pass
        l_1_name = str_join((environment.getattr(l_1_op, 'method_name'), l_1_suffix, ))
        l_1_events = context.call((undefined(name='events_of') if l_1_events_of is missing else l_1_events_of), l_1_op)
        context.call(environment.getattr((undefined(name='imports') if l_1_imports is missing else l_1_imports), 'module'), 'functools')
        context.call(environment.getattr((undefined(name='imports') if l_1_imports is missing else l_1_imports), 'name'), 'collections.abc', 'AsyncIterator', 'Iterator')
        context.call(environment.getattr((undefined(name='imports') if l_1_imports is missing else l_1_imports), 'name'), '._client_streams', 'AsyncEventStream', 'Event', 'EventStream', 'aiter_events', 'aopen_events', 'iter_events', 'open_events')
        context.call(environment.getattr((undefined(name='imports') if l_1_imports is missing else l_1_imports), 'name'), '._client_streams', ('json_data' if (not t_5(environment.getattr((undefined(name='events') if l_1_events is missing else l_1_events), 'type'))) else 'text_data'))
        (context.call(environment.getattr((undefined(name='imports') if l_1_imports is missing else l_1_imports), 'name'), '._client_streams', 'no_headers') if (not environment.getattr(l_1_op, 'headers_class')) else context.call(environment.getattr((undefined(name='imports') if l_1_imports is missing else l_1_imports), 'name'), '._client_runtime', '_headers'))
        context.call(environment.getattr((undefined(name='exported') if l_1_exported is missing else l_1_exported), 'update'), ['AsyncEventStream', 'Event', 'EventStream'])
        t_8.extend((
            '\n',
            str(context.call((undefined(name='deprecation') if l_0_deprecation is missing else l_0_deprecation), l_1_op)),
            str(context.call((undefined(name='define') if l_1_define is missing else l_1_define), '    ', str_join(('def ', (undefined(name='name') if l_1_name is missing else l_1_name), '(', )), context.call((undefined(name='method_params') if l_1_method_params is missing else l_1_method_params), l_1_op), str_join((') -> ', ('AsyncIterator' if l_1_is_async else 'Iterator'), '[Event[', context.call((undefined(name='event_data') if l_1_event_data is missing else l_1_event_data), (undefined(name='events') if l_1_events is missing else l_1_events)), ']]:', )))),
            '\n        """',
            str(t_1(t_2(l_1_op), 8)),
            '\n\n',
        ))
        if l_1_suffix:
            pass
            t_8.extend((
                'Its answer as Server-Sent Events (`',
                str(environment.getattr(l_1_op, 'method_name')),
                '` reads it as JSON), each yielded as it\n        arrives',
            ))
        else:
            pass
            t_8.append(
                'Server-Sent Events, each yielded as it arrives',
            )
        t_8.extend((
            ' (`',
            str(('async ' if l_1_is_async else '')),
            'for event in ...`); the\n        request is sent when the first one is asked for, and closing the iterator closes it."""\n',
            str(context.call((undefined(name='warn') if l_0_warn is missing else l_0_warn), l_1_op)),
            '        return ',
            str(('aiter_events' if l_1_is_async else 'iter_events')),
            '(\n            self._http,\n',
            str(context.call((undefined(name='laid') if l_1_laid is missing else l_1_laid), '            ', '', '_authorize(', [context.call((undefined(name='build_call') if l_1_build_call is missing else l_1_build_call), l_1_op), 'self._auth'], tail=',')),
            '\n            functools.partial(_error, ',
            str(t_4(environment.getattr(l_1_op, 'id'))),
            '),\n            ',
            str((str_join(('json_data(', t_3(environment.getattr((undefined(name='events') if l_1_events is missing else l_1_events), 'type'), 'models.'), ')', )) if (not t_5(environment.getattr((undefined(name='events') if l_1_events is missing else l_1_events), 'type'))) else 'text_data')),
            ',\n        )\n\n',
            str(context.call((undefined(name='deprecation') if l_0_deprecation is missing else l_0_deprecation), l_1_op)),
            str(context.call((undefined(name='define') if l_1_define is missing else l_1_define), '    ', str_join((('async ' if l_1_is_async else ''), 'def ', (undefined(name='name') if l_1_name is missing else l_1_name), '_detailed(', )), context.call((undefined(name='method_params') if l_1_method_params is missing else l_1_method_params), l_1_op), str_join((') -> Answer[', ('AsyncEventStream' if l_1_is_async else 'EventStream'), '[', context.call((undefined(name='event_data') if l_1_event_data is missing else l_1_event_data), (undefined(name='events') if l_1_events is missing else l_1_events)), '], ', (environment.getattr(l_1_op, 'headers_class') or 'None'), ']:', )))),
            '\n        """`',
            str((undefined(name='name') if l_1_name is missing else l_1_name)),
            '`, answering the status and declared headers once the response head\n        arrives, and as body its events, read as they arrive. Exhaust or close the body\n        (`',
            str(('async with answer.body' if l_1_is_async else 'with answer.body')),
            '`): that releases the connection."""\n',
            str(context.call((undefined(name='warn') if l_0_warn is missing else l_0_warn), l_1_op)),
            '        _response, _head = ',
            str(('await aopen_events' if l_1_is_async else 'open_events')),
            '(\n            self._http,\n',
            str(context.call((undefined(name='laid') if l_1_laid is missing else l_1_laid), '            ', '', '_authorize(', [context.call((undefined(name='build_call') if l_1_build_call is missing else l_1_build_call), l_1_op), 'self._auth'], tail=',')),
            '\n            functools.partial(_error, ',
            str(t_4(environment.getattr(l_1_op, 'id'))),
            '),\n            ',
            str((str_join(('functools.partial(_headers, ', environment.getattr(l_1_op, 'headers_class'), ')', )) if environment.getattr(l_1_op, 'headers_class') else 'no_headers')),
            ',\n        )\n        _events = ',
            str(('AsyncEventStream' if l_1_is_async else 'EventStream')),
            '(_response, ',
            str((str_join(('json_data(', t_3(environment.getattr((undefined(name='events') if l_1_events is missing else l_1_events), 'type'), 'models.'), ')', )) if (not t_5(environment.getattr((undefined(name='events') if l_1_events is missing else l_1_events), 'type'))) else 'text_data')),
            ')\n        return Answer(_response.status_code, _head, _events, _response.headers)\n',
        ))
        return concat(t_8)
    context.exported_vars.add('events_method')
    context.vars['events_method'] = l_0_events_method = Macro(environment, macro, 'events_method', ('op', 'is_async', 'suffix'), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_op, l_1_is_async):
        t_9 = []
        l_1_imports = resolve('imports')
        l_1_define = resolve('define')
        l_1_method_params = resolve('method_params')
        l_1_laid = resolve('laid')
        l_1_build_call = resolve('build_call')
        if l_1_op is missing:
            l_1_op = undefined("parameter 'op' was not provided", name='op')
        if l_1_is_async is missing:
            l_1_is_async = undefined("parameter 'is_async' was not provided", name='is_async')
        pass
        context.call(environment.getattr((undefined(name='imports') if l_1_imports is missing else l_1_imports), 'module'), 'functools')
        context.call(environment.getattr(context.call(environment.getattr((undefined(name='imports') if l_1_imports is missing else l_1_imports), 'name'), 'collections.abc', 'AsyncIterator', 'Iterator'), 'name'), '._client_streams', 'aiter_bytes', 'iter_bytes')
        t_9.extend((
            '\n',
            str(context.call((undefined(name='deprecation') if l_0_deprecation is missing else l_0_deprecation), l_1_op)),
            str(context.call((undefined(name='define') if l_1_define is missing else l_1_define), '    ', str_join(('def ', environment.getattr(l_1_op, 'method_name'), '_stream(', )), context.call((undefined(name='method_params') if l_1_method_params is missing else l_1_method_params), l_1_op), str_join((') -> ', ('AsyncIterator' if l_1_is_async else 'Iterator'), '[bytes]:', )))),
            '\n        """`',
            str(environment.getattr(l_1_op, 'method_name')),
            '`, its body streamed: chunks as they arrive, never buffered whole\n        (`',
            str(('async ' if l_1_is_async else '')),
            'for chunk in ...`). The request is sent when the first chunk is asked for;\n        exhausting or closing the iterator releases the connection."""\n',
            str(context.call((undefined(name='warn') if l_0_warn is missing else l_0_warn), l_1_op)),
            '        return ',
            str(('aiter_bytes' if l_1_is_async else 'iter_bytes')),
            '(\n            self._http,\n',
            str(context.call((undefined(name='laid') if l_1_laid is missing else l_1_laid), '            ', '', '_authorize(', [context.call((undefined(name='build_call') if l_1_build_call is missing else l_1_build_call), l_1_op), 'self._auth'], tail=',')),
            '\n            functools.partial(_error, ',
            str(t_4(environment.getattr(l_1_op, 'id'))),
            '),\n        )\n',
        ))
        return concat(t_9)
    context.exported_vars.add('stream_method')
    context.vars['stream_method'] = l_0_stream_method = Macro(environment, macro, 'stream_method', ('op', 'is_async'), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_op, l_1_is_async):
        t_10 = []
        l_1_accept_overloads = resolve('accept_overloads')
        if l_1_op is missing:
            l_1_op = undefined("parameter 'op' was not provided", name='op')
        if l_1_is_async is missing:
            l_1_is_async = undefined("parameter 'is_async' was not provided", name='is_async')
        pass
        for (l_2_params, l_2_result) in context.call((undefined(name='accept_overloads') if l_1_accept_overloads is missing else l_1_accept_overloads), l_1_op):
            l_2_imports = resolve('imports')
            l_2_define = resolve('define')
            _loop_vars = {}
            pass
            context.call(environment.getattr(context.call(environment.getattr((undefined(name='imports') if l_2_imports is missing else l_2_imports), 'module'), 'typing', _loop_vars=_loop_vars), 'name'), 'typing', 'Literal', _loop_vars=_loop_vars)
            t_10.extend((
                '\n    @typing.overload\n',
                str(context.call((undefined(name='define') if l_2_define is missing else l_2_define), '    ', str_join((('async ' if l_1_is_async else ''), 'def ', environment.getattr(l_1_op, 'method_name'), '(', )), l_2_params, str_join((') -> ', l_2_result, ': ...', )), _loop_vars=_loop_vars)),
                '\n',
            ))
        l_2_params = l_2_result = l_2_imports = l_2_define = missing
        return concat(t_10)
    context.exported_vars.add('overloads')
    context.vars['overloads'] = l_0_overloads = Macro(environment, macro, 'overloads', ('op', 'is_async'), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_op, l_1_is_async):
        t_11 = []
        l_1_imports = resolve('imports')
        l_1_define = resolve('define')
        l_1_method_params = resolve('method_params')
        l_1_result_annotation = resolve('result_annotation')
        l_1_laid = resolve('laid')
        l_1_group = resolve('group')
        l_1_build_call = resolve('build_call')
        l_1_iter_params = resolve('iter_params')
        l_1_item_annotation = resolve('item_annotation')
        l_1_aw = l_1_df = missing
        if l_1_op is missing:
            l_1_op = undefined("parameter 'op' was not provided", name='op')
        if l_1_is_async is missing:
            l_1_is_async = undefined("parameter 'is_async' was not provided", name='is_async')
        pass
        l_1_aw = ('await ' if l_1_is_async else '')
        l_1_df = ('async def ' if l_1_is_async else 'def ')
        if environment.getattr(l_1_op, 'streams_events'):
            pass
            t_11.append(
                str(context.call((undefined(name='events_method') if l_0_events_method is missing else l_0_events_method), l_1_op, l_1_is_async)),
            )
        else:
            pass
            context.call(environment.getattr((undefined(name='imports') if l_1_imports is missing else l_1_imports), 'name'), '._client_runtime', '_answer')
            t_11.extend((
                str(context.call((undefined(name='overloads') if l_0_overloads is missing else l_0_overloads), l_1_op, l_1_is_async)),
                '\n',
                str(context.call((undefined(name='deprecation') if l_0_deprecation is missing else l_0_deprecation), l_1_op)),
                str(context.call((undefined(name='define') if l_1_define is missing else l_1_define), '    ', str_join(((undefined(name='df') if l_1_df is missing else l_1_df), environment.getattr(l_1_op, 'method_name'), '(', )), context.call((undefined(name='method_params') if l_1_method_params is missing else l_1_method_params), l_1_op), str_join((') -> ', context.call((undefined(name='result_annotation') if l_1_result_annotation is missing else l_1_result_annotation), l_1_op), ':', )))),
                '\n        """',
                str(t_1(t_2(l_1_op), 8)),
                '"""\n',
                str(context.call((undefined(name='warn') if l_0_warn is missing else l_0_warn), l_1_op)),
                str(context.call((undefined(name='laid') if l_1_laid is missing else l_1_laid), '        ', 'return ', str_join(('_parse_', environment.getattr(l_1_op, 'method_name'), '(', )), [context.call((undefined(name='group') if l_1_group is missing else l_1_group), str_join(((undefined(name='aw') if l_1_aw is missing else l_1_aw), 'self._send(', )), [context.call((undefined(name='build_call') if l_1_build_call is missing else l_1_build_call), l_1_op)])])),
                '\n\n',
                str(context.call((undefined(name='deprecation') if l_0_deprecation is missing else l_0_deprecation), l_1_op)),
                str(context.call((undefined(name='define') if l_1_define is missing else l_1_define), '    ', str_join(((undefined(name='df') if l_1_df is missing else l_1_df), environment.getattr(l_1_op, 'method_name'), '_detailed(', )), context.call((undefined(name='method_params') if l_1_method_params is missing else l_1_method_params), l_1_op), str_join((') -> Answer[', context.call((undefined(name='result_annotation') if l_1_result_annotation is missing else l_1_result_annotation), l_1_op), ', ', (environment.getattr(l_1_op, 'headers_class') or 'None'), ']:', )))),
                '\n        """`',
                str(environment.getattr(l_1_op, 'method_name')),
                '`, answering the status, declared headers and body together."""\n',
                str(context.call((undefined(name='warn') if l_0_warn is missing else l_0_warn), l_1_op)),
                str(context.call((undefined(name='laid') if l_1_laid is missing else l_1_laid), '        ', 'return ', '_answer(', [context.call((undefined(name='group') if l_1_group is missing else l_1_group), str_join(((undefined(name='aw') if l_1_aw is missing else l_1_aw), 'self._send(', )), [context.call((undefined(name='build_call') if l_1_build_call is missing else l_1_build_call), l_1_op)]), str_join(('_parse_', environment.getattr(l_1_op, 'method_name'), )), (environment.getattr(l_1_op, 'headers_class') or 'None')])),
                '\n',
            ))
            if environment.getattr(l_1_op, 'paging'):
                pass
                context.call(environment.getattr(context.call(environment.getattr((undefined(name='imports') if l_1_imports is missing else l_1_imports), 'name'), '._client_pages', 'Paging', ('_apages' if l_1_is_async else '_pages')), 'name'), '._client_runtime', '_arguments')
                context.call(environment.getattr((undefined(name='imports') if l_1_imports is missing else l_1_imports), 'name'), 'collections.abc', ('AsyncIterator' if l_1_is_async else 'Iterator'))
                if t_5(environment.getattr(environment.getattr(l_1_op, 'paging'), 'item')):
                    pass
                    context.call(environment.getattr((undefined(name='imports') if l_1_imports is missing else l_1_imports), 'name'), 'typing', 'Any')
                t_11.extend((
                    '\n',
                    str(context.call((undefined(name='define') if l_1_define is missing else l_1_define), '    ', str_join(('def ', environment.getattr(l_1_op, 'method_name'), '_iter(', )), context.call((undefined(name='iter_params') if l_1_iter_params is missing else l_1_iter_params), l_1_op), str_join((') -> ', ('AsyncIterator' if l_1_is_async else 'Iterator'), '[', context.call((undefined(name='item_annotation') if l_1_item_annotation is missing else l_1_item_annotation), l_1_op), ']:', )))),
                    '\n        """The items of `',
                    str(environment.getattr(l_1_op, 'method_name')),
                    '`, page after page, fetched as they are asked for;\n        `page_size=` sets the page\'s size, `max_items=` stops after that many items."""\n',
                    str(context.call((undefined(name='laid') if l_1_laid is missing else l_1_laid), '        ', 'return ', ('_apages(' if l_1_is_async else '_pages('), ['self._send', str_join(('_build_', environment.getattr(l_1_op, 'method_name'), )), str_join(('_parse_', environment.getattr(l_1_op, 'method_name'), )), context.call((undefined(name='group') if l_1_group is missing else l_1_group), 'Paging(', environment.getattr(environment.getattr(l_1_op, 'paging'), 'arguments')), '_arguments(locals())'])),
                    '\n',
                ))
            if environment.getattr(l_1_op, 'streams_bytes'):
                pass
                t_11.append(
                    str(context.call((undefined(name='stream_method') if l_0_stream_method is missing else l_0_stream_method), l_1_op, l_1_is_async)),
                )
            if environment.getattr(l_1_op, 'also_events'):
                pass
                t_11.append(
                    str(context.call((undefined(name='events_method') if l_0_events_method is missing else l_0_events_method), l_1_op, l_1_is_async, '_events')),
                )
        return concat(t_11)
    context.exported_vars.add('operation_methods')
    context.vars['operation_methods'] = l_0_operation_methods = Macro(environment, macro, 'operation_methods', ('op', 'is_async'), False, False, False, context.eval_ctx.autoescape)

blocks = {}
debug_info = '3=42&4=49&5=51&6=53&9=59&10=66&11=68&12=70&15=76&16=94&17=95&18=96&19=97&20=98&21=99&22=100&23=101&25=104&26=107&28=110&29=124&31=126&33=130&34=132&35=134&38=136&39=139&41=141&42=143&44=147&45=149&46=151&48=153&51=161&52=173&53=174&55=177&56=180&57=182&59=184&61=188&62=190&65=196&66=204&67=209&70=212&73=219&74=236&75=237&76=238&77=241&78=245&79=247&80=249&81=252&82=254&84=257&85=260&86=262&87=266&88=268&89=269&90=270&91=272&94=275&95=277&97=279&99=282&100=285&101=287&102=290'
