# Template server.py.jinja, compiled by Jinja; written by `make regen`. DO NOT EDIT.
KEY = '87d803e0a4afe23b11c54c05e4ce93cc'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'server.py.jinja'

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
    l_0_imports = l_0_exported = l_0_own_servers = l_0_body = missing
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
        t_3 = environment.filters['entries']
    except KeyError:
        @internalcode
        def t_3(*unused):
            raise TemplateRuntimeError("No filter named 'entries' found.")
    try:
        t_4 = environment.filters['first']
    except KeyError:
        @internalcode
        def t_4(*unused):
            raise TemplateRuntimeError("No filter named 'first' found.")
    try:
        t_5 = environment.filters['firstline']
    except KeyError:
        @internalcode
        def t_5(*unused):
            raise TemplateRuntimeError("No filter named 'firstline' found.")
    try:
        t_6 = environment.filters['list']
    except KeyError:
        @internalcode
        def t_6(*unused):
            raise TemplateRuntimeError("No filter named 'list' found.")
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
        t_9 = environment.filters['pyrepr']
    except KeyError:
        @internalcode
        def t_9(*unused):
            raise TemplateRuntimeError("No filter named 'pyrepr' found.")
    try:
        t_10 = environment.filters['selectattr']
    except KeyError:
        @internalcode
        def t_10(*unused):
            raise TemplateRuntimeError("No filter named 'selectattr' found.")
    try:
        t_11 = environment.filters['string']
    except KeyError:
        @internalcode
        def t_11(*unused):
            raise TemplateRuntimeError("No filter named 'string' found.")
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
    l_0_own_servers = t_6(context.eval_ctx, t_10(context, environment.getattr((undefined(name='api') if l_0_api is missing else l_0_api), 'operations'), 'server'))
    context.vars['own_servers'] = l_0_own_servers
    context.exported_vars.add('own_servers')
    l_1_forms = resolve('forms')
    l_1_error_builders = resolve('error_builders')
    l_1_body = l_0_body
    l_1_braced = resolve('braced')
    l_1_shared_requirements = resolve('shared_requirements')
    l_1_uses_models = resolve('uses_models')
    l_1_statement = resolve('statement')
    l_1_value = resolve('value')
    l_1_route_params = resolve('route_params')
    l_1_negotiates = resolve('negotiates')
    l_1_json_bodies = resolve('json_bodies')
    l_1_narrowed = resolve('narrowed')
    l_1_content_types = resolve('content_types')
    l_1_route_args = resolve('route_args')
    l_1_define = resolve('define')
    l_1_routed_operations = resolve('routed_operations')
    l_1_laid = resolve('laid')
    l_1_serve_spec = resolve('serve_spec')
    l_1_serve_docs = resolve('serve_docs')
    l_1_redoc_url = resolve('redoc_url')
    t_12 = []
    pass
    context.call(environment.getattr((undefined(name='imports') if l_0_imports is missing else l_0_imports), 'name'), '__future__', 'annotations')
    context.call(environment.getattr((undefined(name='imports') if l_0_imports is missing else l_0_imports), 'name'), '._server_runtime', 'Binary')
    context.call(environment.getattr((undefined(name='imports') if l_0_imports is missing else l_0_imports), 'name'), '._server_auth', 'BearerVerifier', 'Caller', 'Credential', 'Verifier', 'current_caller')
    context.call(environment.getattr((undefined(name='exported') if l_0_exported is missing else l_0_exported), 'update'), ['Binary', 'BearerVerifier', 'Caller', 'Credential', 'Verifier', 'current_caller'])
    for l_2_form in (undefined(name='forms') if l_1_forms is missing else l_1_forms):
        _loop_vars = {}
        pass
        context.call(environment.getattr((undefined(name='imports') if l_0_imports is missing else l_0_imports), 'name'), 'dataclasses', 'dataclass', _loop_vars=_loop_vars)
        context.call(environment.getattr((undefined(name='exported') if l_0_exported is missing else l_0_exported), 'add'), environment.getattr(l_2_form, 'form_class'), _loop_vars=_loop_vars)
        t_12.extend((
            '\n\n@dataclass\nclass ',
            str(environment.getattr(l_2_form, 'form_class')),
            ':\n    """',
            str(environment.getattr(l_2_form, 'media_type')),
            ' body',
        ))
        if environment.getattr(l_2_form, 'description'):
            pass
            t_12.extend((
                ': ',
                str(t_5(environment.getattr(l_2_form, 'description'))),
            ))
        t_12.append(
            '"""\n\n',
        )
        def t_13(fiter):
            for l_3_field in fiter:
                if (environment.getattr(l_3_field, 'is_file') or environment.getattr(l_3_field, 'is_file_list')):
                    yield l_3_field
        for l_3_field in t_13(environment.getattr(l_2_form, 'form_fields')):
            _loop_vars = {}
            pass
            context.call(environment.getattr((undefined(name='imports') if l_0_imports is missing else l_0_imports), 'name'), 'fastapi', 'UploadFile', _loop_vars=_loop_vars)
        l_3_field = missing
        def t_14(fiter):
            for l_3_field in fiter:
                if environment.getattr(l_3_field, 'required'):
                    yield l_3_field
        for l_3_field in t_14(environment.getattr(l_2_form, 'form_fields')):
            l_3_annotated = resolve('annotated')
            l_3_form_field_type = resolve('form_field_type')
            _loop_vars = {}
            pass
            t_12.extend((
                str(context.call((undefined(name='annotated') if l_3_annotated is missing else l_3_annotated), '    ', environment.getattr(l_3_field, 'name'), context.call((undefined(name='form_field_type') if l_3_form_field_type is missing else l_3_form_field_type), l_3_field, _loop_vars=_loop_vars), _loop_vars=_loop_vars)),
                '\n',
            ))
        l_3_field = l_3_annotated = l_3_form_field_type = missing
        def t_15(fiter):
            for l_3_field in fiter:
                if (not environment.getattr(l_3_field, 'required')):
                    yield l_3_field
        for l_3_field in t_15(environment.getattr(l_2_form, 'form_fields')):
            l_3_annotated = resolve('annotated')
            l_3_form_field_type = resolve('form_field_type')
            _loop_vars = {}
            pass
            t_12.extend((
                str(context.call((undefined(name='annotated') if l_3_annotated is missing else l_3_annotated), '    ', environment.getattr(l_3_field, 'name'), str_join((context.call((undefined(name='form_field_type') if l_3_form_field_type is missing else l_3_form_field_type), l_3_field, _loop_vars=_loop_vars), ' | None', )), 'None', _loop_vars=_loop_vars)),
                '\n',
            ))
        l_3_field = l_3_annotated = l_3_form_field_type = missing
    l_2_form = missing
    def t_16(fiter):
        for l_2_op in fiter:
            if environment.getattr(l_2_op, 'headers_class'):
                yield l_2_op
    for l_2_op in t_16(environment.getattr((undefined(name='api') if l_0_api is missing else l_0_api), 'operations')):
        l_2_headers_source = resolve('headers_source')
        _loop_vars = {}
        pass
        context.call(environment.getattr(context.call(environment.getattr((undefined(name='imports') if l_0_imports is missing else l_0_imports), 'module'), 'dataclasses', _loop_vars=_loop_vars), 'name'), '._server_runtime', 'Reply', _loop_vars=_loop_vars)
        context.call(environment.getattr((undefined(name='exported') if l_0_exported is missing else l_0_exported), 'update'), [environment.getattr(l_2_op, 'headers_class'), 'Reply'], _loop_vars=_loop_vars)
        t_12.extend((
            '\n\n',
            str(context.call((undefined(name='headers_source') if l_2_headers_source is missing else l_2_headers_source), l_2_op, _loop_vars=_loop_vars)),
            '\n',
        ))
    l_2_op = l_2_headers_source = missing
    context.call(environment.getattr(context.call(environment.getattr((undefined(name='imports') if l_0_imports is missing else l_0_imports), 'name'), 'typing', 'Any'), 'name'), '._server_runtime', 'ErrorBodyBuilder')
    for (l_2_name, l_2_expression) in (undefined(name='error_builders') if l_1_error_builders is missing else l_1_error_builders):
        _loop_vars = {}
        pass
        if ('error_lines(' in l_2_expression):
            pass
            context.call(environment.getattr((undefined(name='imports') if l_0_imports is missing else l_0_imports), 'name'), '._server_runtime', 'error_lines', _loop_vars=_loop_vars)
        t_12.extend((
            '\n\n',
            str(context.call((undefined(name='define') if l_1_define is missing else l_1_define), '', str_join(('def ', l_2_name, '(', )), ['status: int', 'code: str', 'message: str', 'errors: list[Any] | None'], ') -> Any:', _loop_vars=_loop_vars)),
            '\n    return ',
            str(l_2_expression),
            '\n',
        ))
    l_2_name = l_2_expression = missing
    t_12.append(
        '\n\n',
    )
    l_2_op_error_builders = resolve('op_error_builders')
    t_17 = []
    pass
    def t_18(fiter):
        for (l_3_op_id, l_3_builders) in fiter:
            if l_3_builders:
                yield (l_3_op_id, l_3_builders)
    for (l_3_op_id, l_3_builders) in t_18(context.call(environment.getattr((undefined(name='op_error_builders') if l_2_op_error_builders is missing else l_2_op_error_builders), 'items'))):
        _loop_vars = {}
        pass
        t_17.extend((
            str(context.call((undefined(name='laid') if l_1_laid is missing else l_1_laid), '    ', str_join((t_9(l_3_op_id), ': ', )), '{', t_3(l_3_builders), closer='}', tail=',', _loop_vars=_loop_vars)),
            '\n',
        ))
    l_3_op_id = l_3_builders = missing
    l_1_body = (Markup if context.eval_ctx.autoescape else identity)(concat(t_17))
    l_2_op_error_builders = missing
    t_12.extend((
        str(context.call((undefined(name='braced') if l_1_braced is missing else l_1_braced), '_ERROR_BODIES: dict[str, dict[str, ErrorBodyBuilder]] = ', (undefined(name='body') if l_1_body is missing else l_1_body))),
        "\n# Each operation's path parameters named differently in Python: errors name the wire names.\n",
    ))
    l_2_wire_names = resolve('wire_names')
    t_19 = []
    pass
    for (l_3_op_id, l_3_names) in context.call(environment.getattr((undefined(name='wire_names') if l_2_wire_names is missing else l_2_wire_names), 'items')):
        _loop_vars = {}
        pass
        t_19.extend((
            str(context.call((undefined(name='laid') if l_1_laid is missing else l_1_laid), '    ', str_join((t_9(l_3_op_id), ': ', )), '{', t_3(context.call(environment.getattr(l_3_names, 'items'), _loop_vars=_loop_vars), True), closer='}', tail=',', _loop_vars=_loop_vars)),
            '\n',
        ))
    l_3_op_id = l_3_names = missing
    l_1_body = (Markup if context.eval_ctx.autoescape else identity)(concat(t_19))
    l_2_wire_names = missing
    t_12.extend((
        str(context.call((undefined(name='braced') if l_1_braced is missing else l_1_braced), '_WIRE_NAMES: dict[str, dict[str, str]] = ', (undefined(name='body') if l_1_body is missing else l_1_body))),
        '\n',
    ))
    context.call(environment.getattr((undefined(name='imports') if l_0_imports is missing else l_0_imports), 'name'), '._server_runtime', 'Statuses')
    t_12.append(
        "# The statuses of a request the contract's validation refuses, where they are not the\n# undeclared ones (422, an unknown discriminator tag 422, a body too large 413).\n",
    )
    t_20 = []
    pass
    def t_21(fiter):
        for l_3_op in fiter:
            if ((environment.getattr(l_3_op, 'validation_status'), environment.getattr(l_3_op, 'unknown_tag_status'), environment.getattr(l_3_op, 'too_large_status')) != (422, 422, 413)):
                yield l_3_op
    for l_3_op in t_21(environment.getattr((undefined(name='api') if l_0_api is missing else l_0_api), 'operations')):
        _loop_vars = {}
        pass
        t_20.extend((
            str(context.call((undefined(name='laid') if l_1_laid is missing else l_1_laid), '    ', str_join((t_9(environment.getattr(l_3_op, 'id')), ': ', )), 'Statuses(', [t_11(environment.getattr(l_3_op, 'validation_status')), t_11(environment.getattr(l_3_op, 'unknown_tag_status')), t_11(environment.getattr(l_3_op, 'too_large_status'))], tail=',', _loop_vars=_loop_vars)),
            '\n',
        ))
    l_3_op = missing
    l_1_body = (Markup if context.eval_ctx.autoescape else identity)(concat(t_20))
    t_12.extend((
        str(context.call((undefined(name='braced') if l_1_braced is missing else l_1_braced), '_STATUSES: dict[str, Statuses] = ', (undefined(name='body') if l_1_body is missing else l_1_body))),
        "\n# The media type of each declared error response, for operations where one is not JSON's.\n",
    ))
    l_2_declared_error_media = resolve('declared_error_media')
    t_22 = []
    pass
    for (l_3_op_id, l_3_media) in context.call(environment.getattr((undefined(name='declared_error_media') if l_2_declared_error_media is missing else l_2_declared_error_media), 'items')):
        _loop_vars = {}
        pass
        t_22.extend((
            str(context.call((undefined(name='laid') if l_1_laid is missing else l_1_laid), '    ', str_join((t_9(l_3_op_id), ': ', )), '{', t_3(context.call(environment.getattr(l_3_media, 'items'), _loop_vars=_loop_vars), True), closer='}', tail=',', _loop_vars=_loop_vars)),
            '\n',
        ))
    l_3_op_id = l_3_media = missing
    l_1_body = (Markup if context.eval_ctx.autoescape else identity)(concat(t_22))
    l_2_declared_error_media = missing
    t_12.extend((
        str(context.call((undefined(name='braced') if l_1_braced is missing else l_1_braced), '_ERROR_MEDIA: dict[str, dict[str, str]] = ', (undefined(name='body') if l_1_body is missing else l_1_body))),
        "\n\n# The declared security schemes, and each secured operation's alternatives of requirements.\n",
    ))
    t_23 = []
    pass
    for l_3_scheme in environment.getattr((undefined(name='api') if l_0_api is missing else l_0_api), 'security_schemes'):
        l_3_challenge = resolve('challenge')
        _loop_vars = {}
        pass
        t_23.extend((
            str(context.call((undefined(name='laid') if l_1_laid is missing else l_1_laid), '    ', str_join((t_9(environment.getattr(l_3_scheme, 'name')), ': ', )), 'Scheme(', [t_9(environment.getattr(l_3_scheme, 'kind')), t_9(environment.getattr(l_3_scheme, 'location')), t_9(environment.getattr(l_3_scheme, 'parameter')), t_9(context.call((undefined(name='challenge') if l_3_challenge is missing else l_3_challenge), l_3_scheme, environment.getattr((undefined(name='api') if l_0_api is missing else l_0_api), 'title'), _loop_vars=_loop_vars))], tail=',', _loop_vars=_loop_vars)),
            '\n',
        ))
    l_3_scheme = l_3_challenge = missing
    l_1_body = (Markup if context.eval_ctx.autoescape else identity)(concat(t_23))
    t_12.extend((
        str(context.call((undefined(name='braced') if l_1_braced is missing else l_1_braced), '_SCHEMES: dict[str, Scheme] = ', (undefined(name='body') if l_1_body is missing else l_1_body))),
        '\n',
    ))
    context.call(environment.getattr((undefined(name='imports') if l_0_imports is missing else l_0_imports), 'name'), '._server_auth', 'Scheme', 'Requirements')
    for (l_2_requirements, l_2_name) in context.call(environment.getattr((undefined(name='shared_requirements') if l_1_shared_requirements is missing else l_1_shared_requirements), 'items')):
        _loop_vars = {}
        pass
        t_12.extend((
            str(context.call((undefined(name='statement') if l_1_statement is missing else l_1_statement), '', str_join((l_2_name, ': Requirements = ', )), context.call((undefined(name='value') if l_1_value is missing else l_1_value), l_2_requirements, _loop_vars=_loop_vars), _loop_vars=_loop_vars)),
            '\n',
        ))
    l_2_requirements = l_2_name = missing
    t_24 = []
    pass
    def t_25(fiter):
        for l_3_op in fiter:
            if environment.getattr(l_3_op, 'secured'):
                yield l_3_op
    for l_3_op in t_25(environment.getattr((undefined(name='api') if l_0_api is missing else l_0_api), 'operations')):
        _loop_vars = {}
        pass
        t_24.extend((
            str(context.call((undefined(name='statement') if l_1_statement is missing else l_1_statement), '    ', str_join((t_9(environment.getattr(l_3_op, 'id')), ': ', )), (context.call(environment.getattr((undefined(name='shared_requirements') if l_1_shared_requirements is missing else l_1_shared_requirements), 'get'), environment.getattr(l_3_op, 'requirements'), _loop_vars=_loop_vars) or context.call((undefined(name='value') if l_1_value is missing else l_1_value), environment.getattr(l_3_op, 'requirements'), _loop_vars=_loop_vars)), ',', _loop_vars=_loop_vars)),
            '\n',
        ))
    l_3_op = missing
    l_1_body = (Markup if context.eval_ctx.autoescape else identity)(concat(t_24))
    t_12.extend((
        str(context.call((undefined(name='braced') if l_1_braced is missing else l_1_braced), '_SECURITY: dict[str, Requirements] = ', (undefined(name='body') if l_1_body is missing else l_1_body))),
        '\n\n\n',
    ))
    context.call(environment.getattr(context.call(environment.getattr((undefined(name='imports') if l_0_imports is missing else l_0_imports), 'name'), '.', 'errors'), 'name'), '._server_runtime', 'error_builder', 'media_type_of')
    if (undefined(name='uses_models') if l_1_uses_models is missing else l_1_uses_models):
        pass
        context.call(environment.getattr((undefined(name='imports') if l_0_imports is missing else l_0_imports), 'name'), '.', 'models')
    context.call(environment.getattr((undefined(name='exported') if l_0_exported is missing else l_0_exported), 'add'), 'ServiceBase')
    t_12.append(
        '\n\nclass ServiceBase:\n    """The service: one async method per operation. Subclass it and override what you serve."""\n',
    )
    for l_2_op in environment.getattr((undefined(name='api') if l_0_api is missing else l_0_api), 'operations'):
        l_2_operation_types = resolve('operation_types')
        l_2_service_def = resolve('service_def')
        _loop_vars = {}
        pass
        context.call(environment.getattr((undefined(name='imports') if l_0_imports is missing else l_0_imports), 'types'), context.call((undefined(name='operation_types') if l_2_operation_types is missing else l_2_operation_types), l_2_op, server=True, _loop_vars=_loop_vars), _loop_vars=_loop_vars)
        if (environment.getattr(l_2_op, 'streams_events') or environment.getattr(l_2_op, 'also_events')):
            pass
            context.call(environment.getattr(context.call(environment.getattr((undefined(name='imports') if l_0_imports is missing else l_0_imports), 'name'), 'collections.abc', 'AsyncIterable', _loop_vars=_loop_vars), 'name'), '._server_media', 'ServerEvent', _loop_vars=_loop_vars)
            context.call(environment.getattr((undefined(name='exported') if l_0_exported is missing else l_0_exported), 'add'), 'ServerEvent', _loop_vars=_loop_vars)
        t_12.extend((
            '\n',
            str(context.call((undefined(name='service_def') if l_2_service_def is missing else l_2_service_def), l_2_op, _loop_vars=_loop_vars)),
            '\n        """',
            str(t_2(t_8(l_2_op), 8)),
        ))
        for l_3_note in environment.getattr(l_2_op, 'notes'):
            _loop_vars = {}
            pass
            t_12.extend((
                '\n        ',
                str(t_2(l_3_note, 8)),
            ))
        l_3_note = missing
        t_12.extend((
            '"""\n',
            str(context.call((undefined(name='laid') if l_1_laid is missing else l_1_laid), '        ', 'raise ', 'self.not_implemented(', [t_9(environment.getattr(l_2_op, 'id'))], _loop_vars=_loop_vars)),
            '\n',
        ))
    l_2_op = l_2_operation_types = l_2_service_def = missing
    t_12.append(
        '\n    def not_implemented(self, operation_id: str) -> errors.ApiError:\n        """The 501 answer of an operation this service does not implement."""\n        body = self.error_body(\n            operation_id,\n            501,\n            "NOT_IMPLEMENTED",\n            f"{operation_id} is not implemented",\n            None,\n        )\n        return errors.ApiError(body, status_code=501)\n\n    def error_media_type(self, operation_id: str, status: int) -> str:\n        """The media type of an error the server answers itself, as the contract declares it."""\n        return media_type_of(_ERROR_MEDIA.get(operation_id, {}), status)\n\n    def error_body(\n        self,\n        operation_id: str,\n        status: int,\n        code: str,\n        message: str,\n        errors: list[Any] | None,\n    ) -> Any:\n        """A body for an error the server answers itself, in the shape the contract declares."""\n        builder = error_builder(_ERROR_BODIES, operation_id, status)\n        return builder(status, code, message, errors)\n\n',
    )
    context.call(environment.getattr((undefined(name='exported') if l_0_exported is missing else l_0_exported), 'add'), 'BASE_PATH')
    t_12.extend((
        '\n\nBASE_PATH = ',
        str(t_9(environment.getattr((undefined(name='api') if l_0_api is missing else l_0_api), 'base_path'))),
        '\n"""The path of the contract\'s first server URL: where create_app mounts the operations."""\n\n\n',
        str(context.call((undefined(name='statement') if l_1_statement is missing else l_1_statement), '', '_SERVER_TEMPLATE: tuple[str, dict[str, str]] = ', context.call((undefined(name='value') if l_1_value is missing else l_1_value), (t_4(environment, t_7(context, environment.getattr((undefined(name='api') if l_0_api is missing else l_0_api), 'servers'), 'server_tuple')) if environment.getattr((undefined(name='api') if l_0_api is missing else l_0_api), 'servers') else ('', {}))))),
        '\n\n',
    ))
    context.call(environment.getattr(context.call(environment.getattr((undefined(name='imports') if l_0_imports is missing else l_0_imports), 'name'), 'collections.abc', 'Mapping'), 'name'), 'urllib.parse', 'urlsplit')
    t_12.append(
        '\n\ndef _base_path(path: str | None, variables: Mapping[str, str] | None = None) -> str:\n    if path is None:  # the first server URL\'s path, its variables substituted\n        url, defaults = _SERVER_TEMPLATE\n        unknown = sorted(set(variables or {}) - set(defaults))\n        if unknown:\n            raise ValueError(\n                f"unknown server variables {unknown}; declared: {sorted(defaults)}"\n            )\n        for name, default in defaults.items():\n            url = url.replace("{" + name + "}", (variables or {}).get(name, default))\n        path = urlsplit(url).path.rstrip("/")\n        path = path if path.startswith("/") else ""\n    if path and not path.startswith("/"):\n        raise ValueError(f"base_path must be empty or start with \'/\': {path!r}")\n    return path.rstrip("/")\n\n',
    )
    context.call(environment.getattr(context.call(environment.getattr((undefined(name='imports') if l_0_imports is missing else l_0_imports), 'name'), 'typing', 'NamedTuple'), 'name'), 'collections.abc', 'Awaitable', 'Callable')
    t_12.append(
        '\n\nclass _Auth(NamedTuple):\n    verifiers: dict[str, Verifier]\n    anonymous: Callable[[], bool | Awaitable[bool]] | None\n\n',
    )
    context.call(environment.getattr((undefined(name='imports') if l_0_imports is missing else l_0_imports), 'module'), 'functools')
    context.call(environment.getattr((undefined(name='imports') if l_0_imports is missing else l_0_imports), 'name'), '._server_auth', 'legacy_verifier', 'missing_verifiers', 'token_verifier')
    t_12.append(
        '\n\ndef _auth(\n    verifiers: Mapping[str, Verifier] | None,\n    verify_bearer: BearerVerifier | None,\n    bearer_token: str | None,\n    insecure_no_auth: bool,\n) -> _Auth:\n    """The verifier of each scheme; refuses to serve a secured operation unchecked."""\n    if bearer_token is not None:\n        if verify_bearer is not None:\n            raise ValueError("pass bearer_token or verify_bearer, not both")\n        verify_bearer = token_verifier(bearer_token)\n    chosen = dict(verifiers or {})\n    unknown = sorted(set(chosen) - set(_SCHEMES))\n    if unknown:\n        raise ValueError(\n            f"verifiers for undeclared security schemes {unknown}; declared: {sorted(_SCHEMES)}"\n        )\n    anonymous: Callable[[], bool | Awaitable[bool]] | None = None\n    if verify_bearer is not None:\n        if chosen:\n            raise ValueError("pass verifiers, or verify_bearer/bearer_token, not both")\n        chosen = dict.fromkeys(_SCHEMES, legacy_verifier(verify_bearer))\n        anonymous = functools.partial(verify_bearer, None)\n    missing = missing_verifiers(_SECURITY, chosen)\n    if missing and not insecure_no_auth:\n        raise ValueError(\n            f"no verifier for security scheme(s) {\', \'.join(missing)}: pass verifiers "\n            "(scheme -> Verifier), or insecure_no_auth=True to serve their operations "\n            "unauthenticated"\n        )\n    return _Auth(chosen, anonymous)\n\n',
    )
    context.call(environment.getattr(context.call(environment.getattr((undefined(name='imports') if l_0_imports is missing else l_0_imports), 'name'), 'fastapi', 'Depends'), 'name'), '._server_auth', 'checkable', 'guard')
    t_12.append(
        '\n\ndef _security(service: ServiceBase, operation_id: str, auth: _Auth) -> list[Any]:\n    """The route dependency checking `operation_id`\'s requirements, if any can be checked."""\n    alternatives = _SECURITY.get(operation_id, ())\n    if not checkable(alternatives, auth.verifiers):\n        return []\n    return [\n        Depends(\n            guard(\n                service,\n                operation_id,\n                _SCHEMES,\n                alternatives,\n                verifiers=auth.verifiers,\n                anonymous=auth.anonymous,\n            )\n        )\n    ]\n\n',
    )
    context.call(environment.getattr((undefined(name='imports') if l_0_imports is missing else l_0_imports), 'name'), 'fastapi', 'APIRouter')
    context.call(environment.getattr((undefined(name='exported') if l_0_exported is missing else l_0_exported), 'add'), 'create_router')
    t_12.append(
        '\n\ndef create_router(\n    service: ServiceBase,\n    *,\n    verifiers: Mapping[str, Verifier] | None = None,\n    verify_bearer: BearerVerifier | None = None,\n    insecure_no_auth: bool = False,\n    base_path: str | None = None,\n    server_variables: Mapping[str, str] | None = None,\n) -> APIRouter:\n    """The contract\'s routes, served by `service` (security as in `create_app`)."""\n    router = APIRouter()\n    auth = _auth(verifiers, verify_bearer, None, insecure_no_auth)\n    _add_routes(router, service, auth, _base_path(base_path, server_variables))\n    return router\n\n',
    )
    if environment.getattr((undefined(name='route_params') if l_1_route_params is missing else l_1_route_params), 'definitions'):
        pass
        t_12.append(
            "\n\n# Parameter annotations that several routes declare alike, and each form body's reader.\n",
        )
        for l_2_definition in environment.getattr((undefined(name='route_params') if l_1_route_params is missing else l_1_route_params), 'definitions'):
            _loop_vars = {}
            pass
            t_12.extend((
                str(l_2_definition),
                '\n',
            ))
        l_2_definition = missing
    t_12.append(
        '\n\ndef _add_routes(\n    router: APIRouter, service: ServiceBase, auth: _Auth, base_path: str\n) -> None:\n    """Add the contract\'s routes to `router`.\n\n    create_app adds them to the app\'s own router, so that `app.routes` lists every operation\n    (recent FastAPI versions nest an included router as one opaque route).\n    """\n    undefer_models()\n',
    )
    context.call(environment.getattr((undefined(name='imports') if l_0_imports is missing else l_0_imports), 'name'), '._server_runtime', 'undefer_models')
    if environment.getattr((undefined(name='api') if l_0_api is missing else l_0_api), 'operations'):
        pass
        context.call(environment.getattr(context.call(environment.getattr((undefined(name='imports') if l_0_imports is missing else l_0_imports), 'name'), 'fastapi.types', 'DecoratedCallable'), 'name'), '._server_runtime', 'LazyRoute', 'respond')
        if (undefined(name='negotiates') if l_1_negotiates is missing else l_1_negotiates):
            pass
            context.call(environment.getattr((undefined(name='imports') if l_0_imports is missing else l_0_imports), 'name'), '._server_media', 'answer_as', 'chosen_media_type', 'negotiation')
            context.call(environment.getattr((undefined(name='exported') if l_0_exported is missing else l_0_exported), 'add'), 'answer_as')
            context.call(environment.getattr((undefined(name='exported') if l_0_exported is missing else l_0_exported), 'add'), 'chosen_media_type')
        t_12.append(
            '\n',
        )
        l_1_route_args = (((((['operation_id: str', 'method: str', 'path: str'] + (['media_types: tuple[str, ...] = ()'] if (undefined(name='negotiates') if l_1_negotiates is missing else l_1_negotiates) else [])) + (['body_media: str | None = None'] if (undefined(name='json_bodies') if l_1_json_bodies is missing else l_1_json_bodies) else [])) + (['narrowed: tuple[str, ...] = ()'] if (undefined(name='narrowed') if l_1_narrowed is missing else l_1_narrowed) else [])) + (['content_type: str | None = None'] if (undefined(name='content_types') if l_1_content_types is missing else l_1_content_types) else [])) + (['server_path: str | None = None'] if (undefined(name='own_servers') if l_0_own_servers is missing else l_0_own_servers) else []))
        t_12.extend((
            str(context.call((undefined(name='define') if l_1_define is missing else l_1_define), '    ', 'def _route(', (undefined(name='route_args') if l_1_route_args is missing else l_1_route_args), ') -> Callable[[DecoratedCallable], DecoratedCallable]:')),
            '\n        """An operation\'s route: its security',
        ))
        if (undefined(name='negotiates') if l_1_negotiates is missing else l_1_negotiates):
            pass
            t_12.append(
                ' and its media type negotiation',
            )
        if (undefined(name='own_servers') if l_0_own_servers is missing else l_0_own_servers):
            pass
            t_12.append(
                "; under its own server's path where it declares one",
            )
        t_12.append(
            '.',
        )
        if (((undefined(name='json_bodies') if l_1_json_bodies is missing else l_1_json_bodies) or (undefined(name='narrowed') if l_1_narrowed is missing else l_1_narrowed)) or (undefined(name='content_types') if l_1_content_types is missing else l_1_content_types)):
            pass
            t_12.append(
                '\n\n',
            )
            if (undefined(name='json_bodies') if l_1_json_bodies is missing else l_1_json_bodies):
                pass
                t_12.append(
                    "        `body_media`: its JSON body's media type (another is the declared 415).\n",
                )
            if (undefined(name='narrowed') if l_1_narrowed is missing else l_1_narrowed):
                pass
                t_12.append(
                    '        `narrowed`: the path parameters that must validate for it to match.\n',
                )
            if (undefined(name='content_types') if l_1_content_types is missing else l_1_content_types):
                pass
                t_12.append(
                    '        `content_type`: the one media type of a body it matches.\n',
                )
            t_12.append(
                '        """\n',
            )
        else:
            pass
            t_12.append(
                '"""\n',
            )
        t_12.append(
            '        dependencies = _security(service, operation_id, auth)\n',
        )
        if (undefined(name='negotiates') if l_1_negotiates is missing else l_1_negotiates):
            pass
            t_12.append(
                '        if media_types:\n            dependencies.append(\n                negotiation(service.error_body, operation_id, media_types)\n            )\n',
            )
        if (undefined(name='json_bodies') if l_1_json_bodies is missing else l_1_json_bodies):
            pass
            context.call(environment.getattr((undefined(name='imports') if l_0_imports is missing else l_0_imports), 'name'), '._server_media', 'json_media')
            t_12.append(
                '        if body_media is not None:\n            dependencies.append(json_media(body_media))\n',
            )
        t_12.append(
            '\n        def add(endpoint: DecoratedCallable) -> DecoratedCallable:\n            router.add_api_route(\n',
        )
        if (undefined(name='own_servers') if l_0_own_servers is missing else l_0_own_servers):
            pass
            t_12.append(
                '                (base_path if server_path is None else server_path) + path,\n',
            )
        else:
            pass
            t_12.append(
                '                base_path + path,\n',
            )
        t_12.append(
            '                endpoint,\n                methods=[method],\n                name=operation_id,\n                include_in_schema=False,\n                dependencies=dependencies,\n                route_class_override=LazyRoute,\n            )\n',
        )
        if (undefined(name='narrowed') if l_1_narrowed is missing else l_1_narrowed):
            pass
            t_12.append(
                '            router.routes[-1].narrowed = narrowed  # type: ignore[attr-defined]\n',
            )
        if (undefined(name='content_types') if l_1_content_types is missing else l_1_content_types):
            pass
            t_12.append(
                '            router.routes[-1].content_type = content_type  # type: ignore[attr-defined]\n',
            )
        t_12.append(
            '            return endpoint\n\n        return add\n',
        )
    for l_2_op in (undefined(name='routed_operations') if l_1_routed_operations is missing else l_1_routed_operations):
        l_2_route_path = resolve('route_path')
        l_2_server_path = resolve('server_path')
        l_2_call_argument_list = resolve('call_argument_list')
        l_2_success_kind = resolve('success_kind')
        l_2_success_media = resolve('success_media')
        _loop_vars = {}
        pass
        for l_3_param in (environment.getattr(l_2_op, 'path_params') + environment.getattr(l_2_op, 'keyword_params')):
            _loop_vars = {}
            pass
            context.call(environment.getattr(context.call(environment.getattr((undefined(name='imports') if l_0_imports is missing else l_0_imports), 'name'), 'typing', 'Annotated', _loop_vars=_loop_vars), 'name'), 'fastapi', environment.getattr(l_3_param, 'fastapi_marker'), _loop_vars=_loop_vars)
            if environment.getattr(l_3_param, 'parsed'):
                pass
                context.call(environment.getattr((undefined(name='imports') if l_0_imports is missing else l_0_imports), 'types'), [environment.getattr(l_3_param, 'type')], _loop_vars=_loop_vars)
                context.call(environment.getattr((undefined(name='imports') if l_0_imports is missing else l_0_imports), 'name'), '._server_requests', ('query_parameter' if (environment.getattr(l_3_param, 'location') == 'query') else 'text_parameter'), _loop_vars=_loop_vars)
        l_3_param = missing
        if (environment.getattr(l_2_op, 'body') and environment.getattr(environment.getattr(l_2_op, 'body'), 'also_form')):
            pass
            context.call(environment.getattr(context.call(environment.getattr((undefined(name='imports') if l_0_imports is missing else l_0_imports), 'name'), 'typing', 'Annotated', _loop_vars=_loop_vars), 'name'), '._server_requests', 'json_or_form', _loop_vars=_loop_vars)
        elif (environment.getattr(l_2_op, 'body') and (environment.getattr(environment.getattr(l_2_op, 'body'), 'kind') == 'json')):
            pass
            context.call(environment.getattr(context.call(environment.getattr(context.call(environment.getattr((undefined(name='imports') if l_0_imports is missing else l_0_imports), 'name'), 'typing', 'Annotated', _loop_vars=_loop_vars), 'name'), 'fastapi', 'Body', _loop_vars=_loop_vars), 'name'), '._json_types', 'JsonTyped', _loop_vars=_loop_vars)
        elif (environment.getattr(l_2_op, 'body') and environment.getattr(environment.getattr(l_2_op, 'body'), 'is_form')):
            pass
            context.call(environment.getattr(context.call(environment.getattr((undefined(name='imports') if l_0_imports is missing else l_0_imports), 'name'), 'typing', 'Annotated', _loop_vars=_loop_vars), 'name'), '._server_requests', 'form_body', _loop_vars=_loop_vars)
        elif environment.getattr(l_2_op, 'body'):
            pass
            context.call(environment.getattr((undefined(name='imports') if l_0_imports is missing else l_0_imports), 'name'), 'fastapi', 'Request', _loop_vars=_loop_vars)
        t_12.extend((
            '\n',
            str(context.call((undefined(name='laid') if l_1_laid is missing else l_1_laid), '    ', '@', '_route(', ((((([t_9(environment.getattr(l_2_op, 'id')), t_9(environment.getattr(l_2_op, 'http_method')), t_9(context.call((undefined(name='route_path') if l_2_route_path is missing else l_2_route_path), l_2_op, _loop_vars=_loop_vars))] + ([t_9(environment.getattr(l_2_op, 'media_types'))] if environment.getattr(l_2_op, 'media_types') else [])) + ([str_join(('body_media=', t_9(environment.getattr(environment.getattr(l_2_op, 'body'), 'media_type')), ))] if ((environment.getattr(l_2_op, 'body') and (environment.getattr(environment.getattr(l_2_op, 'body'), 'kind') == 'json')) and (not environment.getattr(environment.getattr(l_2_op, 'body'), 'also_form'))) else [])) + ([str_join(('narrowed=', t_9(environment.getitem((undefined(name='narrowed') if l_1_narrowed is missing else l_1_narrowed), environment.getattr(l_2_op, 'id'))), ))] if (environment.getattr(l_2_op, 'id') in (undefined(name='narrowed') if l_1_narrowed is missing else l_1_narrowed)) else [])) + ([str_join(('content_type=', t_9(environment.getitem((undefined(name='content_types') if l_1_content_types is missing else l_1_content_types), environment.getattr(l_2_op, 'id'))), ))] if (environment.getattr(l_2_op, 'id') in (undefined(name='content_types') if l_1_content_types is missing else l_1_content_types)) else [])) + ([str_join(('server_path=', t_9(context.call((undefined(name='server_path') if l_2_server_path is missing else l_2_server_path), l_2_op, _loop_vars=_loop_vars)), ))] if environment.getattr(l_2_op, 'server') else [])), _loop_vars=_loop_vars)),
            '\n',
            str(context.call(environment.getattr((undefined(name='route_params') if l_1_route_params is missing else l_1_route_params), 'define'), l_2_op, _loop_vars=_loop_vars)),
            '\n',
        ))
        if (environment.getattr(l_2_op, 'body') and (environment.getattr(environment.getattr(l_2_op, 'body'), 'kind') in ('binary', 'text'))):
            pass
            context.call(environment.getattr((undefined(name='imports') if l_0_imports is missing else l_0_imports), 'name'), '._server_requests', ('raw_body' if (environment.getattr(environment.getattr(l_2_op, 'body'), 'kind') == 'binary') else 'text_body'), _loop_vars=_loop_vars)
            t_12.extend((
                str(context.call((undefined(name='laid') if l_1_laid is missing else l_1_laid), '        ', 'body = await ', ('raw_body(' if (environment.getattr(environment.getattr(l_2_op, 'body'), 'kind') == 'binary') else 'text_body('), ['request', t_9(environment.getattr(environment.getattr(l_2_op, 'body'), 'media_type')), t_11(environment.getattr(environment.getattr(l_2_op, 'body'), 'required'))], _loop_vars=_loop_vars)),
                '\n',
            ))
        if (environment.getattr(l_2_op, 'returns_nothing') and (not environment.getattr(l_2_op, 'headers_class'))):
            pass
            t_12.extend((
                str(context.call((undefined(name='laid') if l_1_laid is missing else l_1_laid), '        ', 'await ', str_join(('service.', environment.getattr(l_2_op, 'method_name'), '(', )), context.call((undefined(name='call_argument_list') if l_2_call_argument_list is missing else l_2_call_argument_list), l_2_op, _loop_vars=_loop_vars), _loop_vars=_loop_vars)),
                '\n        return respond(None, ',
                str(environment.getattr(l_2_op, 'success_status')),
                ', "empty", None)\n',
            ))
        else:
            pass
            t_12.extend((
                str(context.call((undefined(name='laid') if l_1_laid is missing else l_1_laid), '        ', 'result = await ', str_join(('service.', environment.getattr(l_2_op, 'method_name'), '(', )), context.call((undefined(name='call_argument_list') if l_2_call_argument_list is missing else l_2_call_argument_list), l_2_op, _loop_vars=_loop_vars), _loop_vars=_loop_vars)),
                '\n',
                str(context.call((undefined(name='laid') if l_1_laid is missing else l_1_laid), '        ', 'return ', 'respond(', (['result', t_11(environment.getattr(l_2_op, 'success_status')), t_9(context.call((undefined(name='success_kind') if l_2_success_kind is missing else l_2_success_kind), l_2_op, _loop_vars=_loop_vars)), t_9(context.call((undefined(name='success_media') if l_2_success_media is missing else l_2_success_media), l_2_op, _loop_vars=_loop_vars))] + ([environment.getattr(l_2_op, 'headers_class')] if environment.getattr(l_2_op, 'headers_class') else [])), _loop_vars=_loop_vars)),
                '\n',
            ))
    l_2_op = l_2_route_path = l_2_server_path = l_2_call_argument_list = l_2_success_kind = l_2_success_media = missing
    t_12.append(
        '\n',
    )
    context.call(environment.getattr(context.call(environment.getattr((undefined(name='imports') if l_0_imports is missing else l_0_imports), 'name'), 'fastapi', 'FastAPI'), 'name'), 'fastapi.responses', 'Response')
    context.call(environment.getattr((undefined(name='imports') if l_0_imports is missing else l_0_imports), 'name'), '._server_runtime', 'Gate', 'install_handlers')
    context.call(environment.getattr((undefined(name='imports') if l_0_imports is missing else l_0_imports), 'name'), 'importlib', 'resources')
    context.call(environment.getattr((undefined(name='exported') if l_0_exported is missing else l_0_exported), 'update'), ['install_error_handlers', 'contract', 'create_app'])
    t_12.extend((
        '\n\ndef install_error_handlers(app: FastAPI, service: ServiceBase) -> None:\n    """Answer errors in the contract\'s shapes: ApiError, validation, and anything unexpected."""\n    install_handlers(app, service, _STATUSES, _WIRE_NAMES)\n\n\ndef contract() -> bytes:\n    """The contract as written (after any overlay), as JSON."""\n    return (\n        resources.files(__package__ or __name__).joinpath("openapi.json").read_bytes()\n    )\n\n\ndef create_app(\n    service: ServiceBase,\n    *,\n    verifiers: Mapping[str, Verifier] | None = None,\n    insecure_no_auth: bool = False,\n    verify_bearer: BearerVerifier | None = None,\n    bearer_token: str | None = None,\n    max_body_bytes: int | Mapping[str, int] | None = None,\n    base_path: str | None = None,\n    server_variables: Mapping[str, str] | None = None,\n    **fastapi_kwargs: Any,\n) -> FastAPI:\n    """A FastAPI app serving the contract with `service`, plus /openapi.json and /docs.\n\n    `verifiers` maps each security scheme to a `Verifier`: it receives the `Credential` the\n    request presents where the scheme says (with the operation\'s required scopes) and returns\n    the caller\'s identity, or None to refuse (401); the service reads it with\n    `current_caller()`. An operation that requires a scheme lacking a verifier makes this\n    raise ValueError, unless `insecure_no_auth=True`. Credentials are checked before a\n    request\'s body is read. `bearer_token` (accepts exactly that credential, compared in\n    constant time) and `verify_bearer` (called with every scheme\'s credential, None when\n    absent) are shorthands that check every scheme alike.\n    `base_path` prefixes every operation\'s path: by default the path of the contract\'s first\n    server URL (',
        str(t_2((environment.getattr((undefined(name='api') if l_0_api is missing else l_0_api), 'base_path') or 'none'), 4)),
        '); pass "" behind a proxy that strips it.\n    `server_variables` sets that URL\'s variables (others at their defaults; an undeclared one\n    raises ValueError), e.g. `{"version": "v2"}`; an explicit `base_path` wins over them.\n    `max_body_bytes` caps request bodies as they stream in, for every operation or per\n    operationId (`{"PutFile": 2**30, "*": 2**22}`, `*` for the rest); over it an operation\n    answers its declared 413 (else 400, else 413) in its declared error shape.\n    """\n    auth = _auth(verifiers, verify_bearer, bearer_token, insecure_no_auth)\n',
        str(context.call((undefined(name='laid') if l_1_laid is missing else l_1_laid), '    ', '', 'fastapi_kwargs.setdefault(', ['"title"', t_9(environment.getattr((undefined(name='api') if l_0_api is missing else l_0_api), 'title'))])),
        '\n',
        str(context.call((undefined(name='laid') if l_1_laid is missing else l_1_laid), '    ', '', 'fastapi_kwargs.setdefault(', ['"version"', t_9(environment.getattr((undefined(name='api') if l_0_api is missing else l_0_api), 'version'))])),
        '\n    app = FastAPI(openapi_url=None, docs_url=None, redoc_url=None, **fastapi_kwargs)\n    app.state.service = service\n    install_error_handlers(app, service)\n    mounted = _base_path(base_path, server_variables)\n    _add_routes(app.router, service, auth, mounted)\n    checks = {\n        op: guard(\n            service,\n            op,\n            _SCHEMES,\n            alternatives,\n            verifiers=auth.verifiers,\n            anonymous=auth.anonymous,\n        )\n        for op, alternatives in _SECURITY.items()\n        if checkable(alternatives, auth.verifiers)\n    }\n    app.add_middleware(\n        Gate,\n        routes=app.router.routes,\n        service=service,\n        checks=checks,\n        statuses=_STATUSES,\n        max_body_bytes=max_body_bytes,\n    )\n',
    ))
    if (undefined(name='serve_spec') if l_1_serve_spec is missing else l_1_serve_spec):
        pass
        t_12.append(
            '    spec = contract()\n\n    @app.get("/openapi.json", include_in_schema=False)\n    async def openapi_json() -> Response:\n        return Response(spec, media_type="application/json")\n',
        )
    if (undefined(name='serve_docs') if l_1_serve_docs is missing else l_1_serve_docs):
        pass
        context.call(environment.getattr((undefined(name='imports') if l_0_imports is missing else l_0_imports), 'name'), '._server_runtime', 'install_docs')
        if (undefined(name='serve_spec') if l_1_serve_spec is missing else l_1_serve_spec):
            pass
            t_12.append(
                '\n',
            )
        t_12.extend((
            str(context.call((undefined(name='laid') if l_1_laid is missing else l_1_laid), '    ', '', 'install_docs(', ['app', 'contract()', str_join(('title=', t_9(environment.getattr((undefined(name='api') if l_0_api is missing else l_0_api), 'title')), )), str_join(('redoc_url=', t_9((undefined(name='redoc_url') if l_1_redoc_url is missing else l_1_redoc_url)), )), 'base_path=mounted'])),
            '\n',
        ))
    t_12.append(
        '\n    return app\n\n\n',
    )
    gen = context.blocks['extra'][0](context)
    try:
        for event in gen:
            t_12.append(event)
    finally: gen.close()
    l_0_body = (Markup if context.eval_ctx.autoescape else identity)(concat(t_12))
    context.vars['body'] = l_0_body
    context.exported_vars.add('body')
    l_1_forms = l_1_error_builders = l_1_body = l_1_braced = l_1_shared_requirements = l_1_uses_models = l_1_statement = l_1_value = l_1_route_params = l_1_negotiates = l_1_json_bodies = l_1_narrowed = l_1_content_types = l_1_route_args = l_1_define = l_1_routed_operations = l_1_laid = l_1_serve_spec = l_1_serve_docs = l_1_redoc_url = missing
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
    yield '"""FastAPI server of '
    yield str(environment.getattr((undefined(name='api') if l_0_api is missing else l_0_api), 'title'))
    yield '.\n\nSubclass `ServiceBase`, override the operations you serve, and build the app with\n`create_app(service)`. Operations you do not override answer 501. Never edit this file:\n`contractgen generate` rewrites it.\n"""\n'

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
debug_info = '1=82&2=84&12=85&13=88&14=91&18=116&20=117&21=118&22=119&23=120&24=123&25=124&29=127&30=129&32=141&33=148&35=150&36=160&38=164&39=174&42=179&43=187&44=188&47=191&49=195&50=196&51=199&52=201&56=204&57=206&62=216&63=224&61=228&66=231&69=237&70=241&68=245&73=248&74=251&78=257&79=265&77=269&82=271&85=277&86=281&84=285&89=288&93=293&94=298&92=302&97=304&98=307&99=308&100=312&103=318&104=326&102=330&107=332&110=335&111=336&112=338&114=339&119=343&120=348&121=349&122=351&123=352&126=355&127=357&129=364&130=369&160=376&163=379&167=381&169=384&188=388&195=392&196=393&231=397&252=401&253=402&271=406&275=411&276=415&290=422&291=423&292=425&293=426&294=428&295=429&296=430&299=434&300=436&301=439&304=457&307=462&310=467&317=483&323=488&324=490&331=497&343=510&346=515&354=523&357=531&358=534&359=535&360=537&361=538&364=540&365=542&366=543&367=545&368=546&369=548&370=549&371=551&374=554&375=556&376=559&377=561&378=563&380=566&381=569&382=571&384=577&385=579&389=586&390=587&391=588&392=589&430=592&438=594&439=596&465=599&472=604&473=606&474=607&477=613&484=621&15=624&487=629&491=631&493=633&2=636&3=646&484=649&487=658&488=667'
