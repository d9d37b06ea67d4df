# Template _client_streams.jinja, compiled by Jinja; written by `make regen`. DO NOT EDIT.
KEY = 'dee8ab4a7900c5d67183282d7306a21f'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = '_client_streams.jinja'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_deprecation = l_0_warn = l_0_events_method = l_0_stream_method = l_0_overloads = missing
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
        if l_1_op is missing:
            l_1_op = undefined("parameter 'op' was not provided", name='op')
        pass
        if environment.getattr(l_1_op, 'deprecated'):
            pass
            context.call(environment.getattr((undefined(name='imports') if l_1_imports is missing else l_1_imports), 'name'), 'typing_extensions', 'deprecated')
            t_6.extend((
                '    @deprecated(',
                str(t_4(str_join((environment.getattr(l_1_op, 'id'), ' is deprecated', )))),
                ', category=None)\n',
            ))
        return concat(t_6)
    context.exported_vars.add('deprecation')
    context.vars['deprecation'] = l_0_deprecation = Macro(environment, macro, 'deprecation', ('op',), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_op):
        t_7 = []
        l_1_imports = resolve('imports')
        if l_1_op is missing:
            l_1_op = undefined("parameter 'op' was not provided", name='op')
        pass
        if environment.getattr(l_1_op, 'deprecated'):
            pass
            context.call(environment.getattr((undefined(name='imports') if l_1_imports is missing else l_1_imports), 'module'), 'warnings')
            t_7.extend((
                '        warnings.warn(',
                str(t_4(str_join((environment.getattr(l_1_op, 'id'), ' is deprecated', )))),
                ', DeprecationWarning, stacklevel=2)\n',
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
        l_1_group = resolve('group')
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
        context.call(environment.getattr(context.call(environment.getattr((undefined(name='imports') if l_1_imports is missing else l_1_imports), 'module'), 'functools'), 'name'), '._client_runtime', '_arguments')
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
            str(context.call((undefined(name='laid') if l_1_laid is missing else l_1_laid), '            ', '', '_authorize(', [context.call((undefined(name='group') if l_1_group is missing else l_1_group), str_join(('_build_', environment.getattr(l_1_op, 'method_name'), '(', )), ['**_arguments(locals())']), 'self._auth'], tail=',')),
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
            str(context.call((undefined(name='laid') if l_1_laid is missing else l_1_laid), '            ', '', '_authorize(', [context.call((undefined(name='group') if l_1_group is missing else l_1_group), str_join(('_build_', environment.getattr(l_1_op, 'method_name'), '(', )), ['**_arguments(locals())']), 'self._auth'], tail=',')),
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
        l_1_group = resolve('group')
        if l_1_op is missing:
            l_1_op = undefined("parameter 'op' was not provided", name='op')
        if l_1_is_async is missing:
            l_1_is_async = undefined("parameter 'is_async' was not provided", name='is_async')
        pass
        context.call(environment.getattr(context.call(environment.getattr((undefined(name='imports') if l_1_imports is missing else l_1_imports), 'module'), 'functools'), 'name'), '._client_runtime', '_arguments')
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
            str(context.call((undefined(name='laid') if l_1_laid is missing else l_1_laid), '            ', '', '_authorize(', [context.call((undefined(name='group') if l_1_group is missing else l_1_group), str_join(('_build_', environment.getattr(l_1_op, 'method_name'), '(', )), ['**_arguments(locals())']), 'self._auth'], tail=',')),
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

blocks = {}
debug_info = '2=42&3=48&4=50&5=53&8=59&9=65&10=67&11=70&14=76&15=94&16=95&17=96&18=97&19=98&20=99&21=100&22=101&24=104&25=107&27=110&28=124&30=126&32=130&33=132&34=134&37=136&38=139&40=141&41=143&43=147&44=149&45=151&47=153&50=161&51=173&52=174&54=177&55=180&56=182&58=184&60=188&61=190&64=196&65=204&66=209&69=212'
