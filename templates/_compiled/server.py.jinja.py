# Template server.py.jinja, compiled by Jinja; written by `make regen`. DO NOT EDIT.
KEY = '1e7124aa8dbd370ae7c699fe31255fae'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'server.py.jinja'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_header = resolve('header')
    l_0_exported_server = resolve('exported_server')
    l_0_forms = resolve('forms')
    l_0_api = resolve('api')
    l_0_error_builders = resolve('error_builders')
    l_0_braced = resolve('braced')
    l_0_shared_requirements = resolve('shared_requirements')
    l_0_statement = resolve('statement')
    l_0_value = resolve('value')
    l_0_route_params = resolve('route_params')
    l_0_negotiates = resolve('negotiates')
    l_0_routed_operations = resolve('routed_operations')
    l_0_laid = resolve('laid')
    l_0_serve_spec = resolve('serve_spec')
    l_0_serve_docs = resolve('serve_docs')
    l_0_redoc_url = resolve('redoc_url')
    l_0_body = missing
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
        t_6 = environment.filters['map']
    except KeyError:
        @internalcode
        def t_6(*unused):
            raise TemplateRuntimeError("No filter named 'map' found.")
    try:
        t_7 = environment.filters['operation_doc']
    except KeyError:
        @internalcode
        def t_7(*unused):
            raise TemplateRuntimeError("No filter named 'operation_doc' found.")
    try:
        t_8 = environment.filters['pyrepr']
    except KeyError:
        @internalcode
        def t_8(*unused):
            raise TemplateRuntimeError("No filter named 'pyrepr' found.")
    try:
        t_9 = environment.filters['string']
    except KeyError:
        @internalcode
        def t_9(*unused):
            raise TemplateRuntimeError("No filter named 'string' found.")
    pass
    yield str((undefined(name='header') if l_0_header is missing else l_0_header))
    yield '\n'
    yield from context.blocks['docstring'][0](context)
    yield '\n'
    yield from context.blocks['imports'][0](context)
    yield '\n'
    yield str(t_1((undefined(name='exported_server') if l_0_exported_server is missing else l_0_exported_server)))
    yield '\n\n'
    for l_1_form in (undefined(name='forms') if l_0_forms is missing else l_0_forms):
        _loop_vars = {}
        pass
        yield '\n\n@dataclass\nclass '
        yield str(environment.getattr(l_1_form, 'form_class'))
        yield ':\n    """'
        yield str(environment.getattr(l_1_form, 'media_type'))
        yield ' body'
        if environment.getattr(l_1_form, 'description'):
            pass
            yield ': '
            yield str(t_5(environment.getattr(l_1_form, 'description')))
        yield '"""\n\n'
        def t_10(fiter):
            for l_2_field in fiter:
                if environment.getattr(l_2_field, 'required'):
                    yield l_2_field
        for l_2_field in t_10(environment.getattr(l_1_form, 'form_fields')):
            l_2_annotated = resolve('annotated')
            l_2_form_field_type = resolve('form_field_type')
            _loop_vars = {}
            pass
            yield str(context.call((undefined(name='annotated') if l_2_annotated is missing else l_2_annotated), '    ', environment.getattr(l_2_field, 'name'), context.call((undefined(name='form_field_type') if l_2_form_field_type is missing else l_2_form_field_type), l_2_field, _loop_vars=_loop_vars), _loop_vars=_loop_vars))
            yield '\n'
        l_2_field = l_2_annotated = l_2_form_field_type = missing
        def t_11(fiter):
            for l_2_field in fiter:
                if (not environment.getattr(l_2_field, 'required')):
                    yield l_2_field
        for l_2_field in t_11(environment.getattr(l_1_form, 'form_fields')):
            l_2_annotated = resolve('annotated')
            l_2_form_field_type = resolve('form_field_type')
            _loop_vars = {}
            pass
            yield str(context.call((undefined(name='annotated') if l_2_annotated is missing else l_2_annotated), '    ', environment.getattr(l_2_field, 'name'), str_join((context.call((undefined(name='form_field_type') if l_2_form_field_type is missing else l_2_form_field_type), l_2_field, _loop_vars=_loop_vars), ' | None', )), 'None', _loop_vars=_loop_vars))
            yield '\n'
        l_2_field = l_2_annotated = l_2_form_field_type = missing
    l_1_form = missing
    def t_12(fiter):
        for l_1_op in fiter:
            if environment.getattr(l_1_op, 'headers_class'):
                yield l_1_op
    for l_1_op in t_12(environment.getattr((undefined(name='api') if l_0_api is missing else l_0_api), 'operations')):
        l_1_headers_source = resolve('headers_source')
        _loop_vars = {}
        pass
        yield '\n\n'
        yield str(context.call((undefined(name='headers_source') if l_1_headers_source is missing else l_1_headers_source), l_1_op, _loop_vars=_loop_vars))
        yield '\n'
    l_1_op = l_1_headers_source = missing
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
    yield '\n\n'
    l_1_op_error_builders = resolve('op_error_builders')
    t_13 = []
    pass
    def t_14(fiter):
        for (l_2_op_id, l_2_builders) in fiter:
            if l_2_builders:
                yield (l_2_op_id, l_2_builders)
    for (l_2_op_id, l_2_builders) in t_14(context.call(environment.getattr((undefined(name='op_error_builders') if l_1_op_error_builders is missing else l_1_op_error_builders), 'items'))):
        _loop_vars = {}
        pass
        t_13.extend((
            str(context.call((undefined(name='laid') if l_0_laid is missing else l_0_laid), '    ', str_join((t_8(l_2_op_id), ': ', )), '{', t_3(l_2_builders), closer='}', tail=',', _loop_vars=_loop_vars)),
            '\n',
        ))
    l_2_op_id = l_2_builders = missing
    l_0_body = (Markup if context.eval_ctx.autoescape else identity)(concat(t_13))
    context.vars['body'] = l_0_body
    context.exported_vars.add('body')
    l_1_op_error_builders = missing
    yield str(context.call((undefined(name='braced') if l_0_braced is missing else l_0_braced), '_ERROR_BODIES: dict[str, dict[str, ErrorBodyBuilder]] = ', (undefined(name='body') if l_0_body is missing else l_0_body)))
    yield "\n# Each operation's path parameters named differently in Python: errors name the wire names.\n"
    l_1_wire_names = resolve('wire_names')
    t_15 = []
    pass
    for (l_2_op_id, l_2_names) in context.call(environment.getattr((undefined(name='wire_names') if l_1_wire_names is missing else l_1_wire_names), 'items')):
        _loop_vars = {}
        pass
        t_15.extend((
            str(context.call((undefined(name='laid') if l_0_laid is missing else l_0_laid), '    ', str_join((t_8(l_2_op_id), ': ', )), '{', t_3(context.call(environment.getattr(l_2_names, 'items'), _loop_vars=_loop_vars), True), closer='}', tail=',', _loop_vars=_loop_vars)),
            '\n',
        ))
    l_2_op_id = l_2_names = missing
    l_0_body = (Markup if context.eval_ctx.autoescape else identity)(concat(t_15))
    context.vars['body'] = l_0_body
    context.exported_vars.add('body')
    l_1_wire_names = missing
    yield str(context.call((undefined(name='braced') if l_0_braced is missing else l_0_braced), '_WIRE_NAMES: dict[str, dict[str, str]] = ', (undefined(name='body') if l_0_body is missing else l_0_body)))
    yield "\n# The statuses of a request the contract's validation refuses, where they are not the\n# undeclared ones (422, an unknown discriminator tag 422, a body too large 413).\n"
    t_16 = []
    pass
    def t_17(fiter):
        for l_2_op in fiter:
            if ((environment.getattr(l_2_op, 'validation_status'), environment.getattr(l_2_op, 'unknown_tag_status'), environment.getattr(l_2_op, 'too_large_status')) != (422, 422, 413)):
                yield l_2_op
    for l_2_op in t_17(environment.getattr((undefined(name='api') if l_0_api is missing else l_0_api), 'operations')):
        _loop_vars = {}
        pass
        t_16.extend((
            str(context.call((undefined(name='laid') if l_0_laid is missing else l_0_laid), '    ', str_join((t_8(environment.getattr(l_2_op, 'id')), ': ', )), 'Statuses(', [t_9(environment.getattr(l_2_op, 'validation_status')), t_9(environment.getattr(l_2_op, 'unknown_tag_status')), t_9(environment.getattr(l_2_op, 'too_large_status'))], tail=',', _loop_vars=_loop_vars)),
            '\n',
        ))
    l_2_op = missing
    l_0_body = (Markup if context.eval_ctx.autoescape else identity)(concat(t_16))
    context.vars['body'] = l_0_body
    context.exported_vars.add('body')
    yield str(context.call((undefined(name='braced') if l_0_braced is missing else l_0_braced), '_STATUSES: dict[str, Statuses] = ', (undefined(name='body') if l_0_body is missing else l_0_body)))
    yield "\n# The media type of each declared error response, for operations where one is not JSON's.\n"
    l_1_declared_error_media = resolve('declared_error_media')
    t_18 = []
    pass
    for (l_2_op_id, l_2_media) in context.call(environment.getattr((undefined(name='declared_error_media') if l_1_declared_error_media is missing else l_1_declared_error_media), 'items')):
        _loop_vars = {}
        pass
        t_18.extend((
            str(context.call((undefined(name='laid') if l_0_laid is missing else l_0_laid), '    ', str_join((t_8(l_2_op_id), ': ', )), '{', t_3(context.call(environment.getattr(l_2_media, 'items'), _loop_vars=_loop_vars), True), closer='}', tail=',', _loop_vars=_loop_vars)),
            '\n',
        ))
    l_2_op_id = l_2_media = missing
    l_0_body = (Markup if context.eval_ctx.autoescape else identity)(concat(t_18))
    context.vars['body'] = l_0_body
    context.exported_vars.add('body')
    l_1_declared_error_media = missing
    yield str(context.call((undefined(name='braced') if l_0_braced is missing else l_0_braced), '_ERROR_MEDIA: dict[str, dict[str, str]] = ', (undefined(name='body') if l_0_body is missing else l_0_body)))
    yield "\n\n# The declared security schemes, and each secured operation's alternatives of requirements.\n"
    t_19 = []
    pass
    for l_2_scheme in environment.getattr((undefined(name='api') if l_0_api is missing else l_0_api), 'security_schemes'):
        l_2_challenge = resolve('challenge')
        _loop_vars = {}
        pass
        t_19.extend((
            str(context.call((undefined(name='laid') if l_0_laid is missing else l_0_laid), '    ', str_join((t_8(environment.getattr(l_2_scheme, 'name')), ': ', )), 'Scheme(', [t_8(environment.getattr(l_2_scheme, 'kind')), t_8(environment.getattr(l_2_scheme, 'location')), t_8(environment.getattr(l_2_scheme, 'parameter')), t_8(context.call((undefined(name='challenge') if l_2_challenge is missing else l_2_challenge), l_2_scheme, environment.getattr((undefined(name='api') if l_0_api is missing else l_0_api), 'title'), _loop_vars=_loop_vars))], tail=',', _loop_vars=_loop_vars)),
            '\n',
        ))
    l_2_scheme = l_2_challenge = missing
    l_0_body = (Markup if context.eval_ctx.autoescape else identity)(concat(t_19))
    context.vars['body'] = l_0_body
    context.exported_vars.add('body')
    yield str(context.call((undefined(name='braced') if l_0_braced is missing else l_0_braced), '_SCHEMES: dict[str, Scheme] = ', (undefined(name='body') if l_0_body is missing else l_0_body)))
    yield '\n'
    for (l_1_requirements, l_1_name) in context.call(environment.getattr((undefined(name='shared_requirements') if l_0_shared_requirements is missing else l_0_shared_requirements), 'items')):
        _loop_vars = {}
        pass
        yield str(context.call((undefined(name='statement') if l_0_statement is missing else l_0_statement), '', str_join((l_1_name, ': Requirements = ', )), context.call((undefined(name='value') if l_0_value is missing else l_0_value), l_1_requirements, _loop_vars=_loop_vars), _loop_vars=_loop_vars))
        yield '\n'
    l_1_requirements = l_1_name = missing
    t_20 = []
    pass
    def t_21(fiter):
        for l_2_op in fiter:
            if environment.getattr(l_2_op, 'secured'):
                yield l_2_op
    for l_2_op in t_21(environment.getattr((undefined(name='api') if l_0_api is missing else l_0_api), 'operations')):
        _loop_vars = {}
        pass
        t_20.extend((
            str(context.call((undefined(name='statement') if l_0_statement is missing else l_0_statement), '    ', str_join((t_8(environment.getattr(l_2_op, 'id')), ': ', )), (context.call(environment.getattr((undefined(name='shared_requirements') if l_0_shared_requirements is missing else l_0_shared_requirements), 'get'), environment.getattr(l_2_op, 'requirements'), _loop_vars=_loop_vars) or context.call((undefined(name='value') if l_0_value is missing else l_0_value), environment.getattr(l_2_op, 'requirements'), _loop_vars=_loop_vars)), ',', _loop_vars=_loop_vars)),
            '\n',
        ))
    l_2_op = missing
    l_0_body = (Markup if context.eval_ctx.autoescape else identity)(concat(t_20))
    context.vars['body'] = l_0_body
    context.exported_vars.add('body')
    yield str(context.call((undefined(name='braced') if l_0_braced is missing else l_0_braced), '_SECURITY: dict[str, Requirements] = ', (undefined(name='body') if l_0_body is missing else l_0_body)))
    yield '\n\n\nclass ServiceBase:\n    """The service: one async method per operation. Subclass it and override what you serve."""\n'
    for l_1_op in environment.getattr((undefined(name='api') if l_0_api is missing else l_0_api), 'operations'):
        l_1_service_def = resolve('service_def')
        _loop_vars = {}
        pass
        yield '\n'
        yield str(context.call((undefined(name='service_def') if l_1_service_def is missing else l_1_service_def), l_1_op, _loop_vars=_loop_vars))
        yield '\n        """'
        yield str(t_2(t_7(l_1_op), 8))
        for l_2_note in environment.getattr(l_1_op, 'notes'):
            _loop_vars = {}
            pass
            yield '\n        '
            yield str(t_2(l_2_note, 8))
        l_2_note = missing
        yield '"""\n'
        yield str(context.call((undefined(name='laid') if l_0_laid is missing else l_0_laid), '        ', 'raise ', 'self.not_implemented(', [t_8(environment.getattr(l_1_op, 'id'))], _loop_vars=_loop_vars))
        yield '\n'
    l_1_op = l_1_service_def = missing
    yield '\n    def not_implemented(self, operation_id: str) -> errors.ApiError:\n        """The 501 answer of an operation this service does not implement."""\n        body = self.error_body(\n            operation_id,\n            501,\n            "NOT_IMPLEMENTED",\n            f"{operation_id} is not implemented",\n            None,\n        )\n        return errors.ApiError(body, status_code=501)\n\n    def error_media_type(self, operation_id: str, status: int) -> str:\n        """The media type of an error the server answers itself, as the contract declares it."""\n        return media_type_of(_ERROR_MEDIA.get(operation_id, {}), status)\n\n    def error_body(\n        self,\n        operation_id: str,\n        status: int,\n        code: str,\n        message: str,\n        errors: list[Any] | None,\n    ) -> Any:\n        """A body for an error the server answers itself, in the shape the contract declares."""\n        builder = error_builder(_ERROR_BODIES, operation_id, status)\n        return builder(status, code, message, errors)\n\n\nBASE_PATH = '
    yield str(t_8(environment.getattr((undefined(name='api') if l_0_api is missing else l_0_api), 'base_path')))
    yield '\n"""The path of the contract\'s first server URL: where create_app mounts the operations."""\n\n\n'
    yield str(context.call((undefined(name='statement') if l_0_statement is missing else l_0_statement), '', '_SERVER_TEMPLATE: tuple[str, dict[str, str]] = ', context.call((undefined(name='value') if l_0_value is missing else l_0_value), (t_4(environment, t_6(context, environment.getattr((undefined(name='api') if l_0_api is missing else l_0_api), 'servers'), 'server_tuple')) if environment.getattr((undefined(name='api') if l_0_api is missing else l_0_api), 'servers') else ('', {})))))
    yield '\n\n\ndef _base_path(path: str | None, variables: Mapping[str, str] | None = None) -> str:\n    if path is None:  # the first server URL\'s path, its variables substituted\n        url, defaults = _SERVER_TEMPLATE\n        unknown = sorted(set(variables or {}) - set(defaults))\n        if unknown:\n            raise ValueError(\n                f"unknown server variables {unknown}; declared: {sorted(defaults)}"\n            )\n        for name, default in defaults.items():\n            url = url.replace("{" + name + "}", (variables or {}).get(name, default))\n        path = urlsplit(url).path.rstrip("/")\n        path = path if path.startswith("/") else ""\n    if path and not path.startswith("/"):\n        raise ValueError(f"base_path must be empty or start with \'/\': {path!r}")\n    return path.rstrip("/")\n\n\nclass _Auth(NamedTuple):\n    verifiers: dict[str, Verifier]\n    anonymous: Callable[[], bool | Awaitable[bool]] | None\n\n\ndef _auth(\n    verifiers: Mapping[str, Verifier] | None,\n    verify_bearer: BearerVerifier | None,\n    bearer_token: str | None,\n    insecure_no_auth: bool,\n) -> _Auth:\n    """The verifier of each scheme; refuses to serve a secured operation unchecked."""\n    if bearer_token is not None:\n        if verify_bearer is not None:\n            raise ValueError("pass bearer_token or verify_bearer, not both")\n        verify_bearer = token_verifier(bearer_token)\n    chosen = dict(verifiers or {})\n    unknown = sorted(set(chosen) - set(_SCHEMES))\n    if unknown:\n        raise ValueError(\n            f"verifiers for undeclared security schemes {unknown}; declared: {sorted(_SCHEMES)}"\n        )\n    anonymous: Callable[[], bool | Awaitable[bool]] | None = None\n    if verify_bearer is not None:\n        if chosen:\n            raise ValueError("pass verifiers, or verify_bearer/bearer_token, not both")\n        chosen = dict.fromkeys(_SCHEMES, legacy_verifier(verify_bearer))\n        anonymous = functools.partial(verify_bearer, None)\n    missing = missing_verifiers(_SECURITY, chosen)\n    if missing and not insecure_no_auth:\n        raise ValueError(\n            f"no verifier for security scheme(s) {\', \'.join(missing)}: pass verifiers (scheme -> Verifier), "\n            "or insecure_no_auth=True to serve their operations unauthenticated"\n        )\n    return _Auth(chosen, anonymous)\n\n\ndef _security(service: ServiceBase, operation_id: str, auth: _Auth) -> list[Any]:\n    """The route dependency checking `operation_id`\'s requirements, if any can be checked."""\n    alternatives = _SECURITY.get(operation_id, ())\n    if not checkable(alternatives, auth.verifiers):\n        return []\n    return [\n        Depends(\n            guard(\n                service,\n                operation_id,\n                _SCHEMES,\n                alternatives,\n                verifiers=auth.verifiers,\n                anonymous=auth.anonymous,\n            )\n        )\n    ]\n\n\ndef create_router(\n    service: ServiceBase,\n    *,\n    verifiers: Mapping[str, Verifier] | None = None,\n    verify_bearer: BearerVerifier | None = None,\n    insecure_no_auth: bool = False,\n    base_path: str | None = None,\n    server_variables: Mapping[str, str] | None = None,\n) -> APIRouter:\n    """The contract\'s routes, served by `service` (security as in `create_app`)."""\n    router = APIRouter()\n    auth = _auth(verifiers, verify_bearer, None, insecure_no_auth)\n    _add_routes(router, service, auth, _base_path(base_path, server_variables))\n    return router\n\n'
    if environment.getattr((undefined(name='route_params') if l_0_route_params is missing else l_0_route_params), 'definitions'):
        pass
        yield "\n\n# Parameter annotations that several routes declare alike, and each form body's reader.\n"
        for l_1_definition in environment.getattr((undefined(name='route_params') if l_0_route_params is missing else l_0_route_params), 'definitions'):
            _loop_vars = {}
            pass
            yield str(l_1_definition)
            yield '\n'
        l_1_definition = missing
    yield '\n\ndef _add_routes(\n    router: APIRouter, service: ServiceBase, auth: _Auth, base_path: str\n) -> None:\n    """Add the contract\'s routes to `router`.\n\n    create_app adds them to the app\'s own router, so that `app.routes` lists every operation\n    (recent FastAPI versions nest an included router as one opaque route).\n    """\n    undefer_models()\n'
    if environment.getattr((undefined(name='api') if l_0_api is missing else l_0_api), 'operations'):
        pass
        yield '\n    def _route(\n        operation_id: str, method: str, path: str'
        if (undefined(name='negotiates') if l_0_negotiates is missing else l_0_negotiates):
            pass
            yield ', media_types: tuple[str, ...] = ()'
        yield '\n    ) -> Callable[[DecoratedCallable], DecoratedCallable]:\n        """An operation\'s route: its security'
        if (undefined(name='negotiates') if l_0_negotiates is missing else l_0_negotiates):
            pass
            yield ' and its media type negotiation'
        yield '."""\n        dependencies = _security(service, operation_id, auth)\n'
        if (undefined(name='negotiates') if l_0_negotiates is missing else l_0_negotiates):
            pass
            yield '        if media_types:\n            dependencies.append(\n                negotiation(service.error_body, operation_id, media_types)\n            )\n'
        yield '\n        def add(endpoint: DecoratedCallable) -> DecoratedCallable:\n            router.add_api_route(\n                base_path + path,\n                endpoint,\n                methods=[method],\n                name=operation_id,\n                include_in_schema=False,\n                dependencies=dependencies,\n                route_class_override=LazyRoute,\n            )\n            return endpoint\n\n        return add\n'
    for l_1_op in (undefined(name='routed_operations') if l_0_routed_operations is missing else l_0_routed_operations):
        l_1_route_path = resolve('route_path')
        l_1_call_argument_list = resolve('call_argument_list')
        l_1_success_kind = resolve('success_kind')
        l_1_success_media = resolve('success_media')
        _loop_vars = {}
        pass
        yield '\n'
        yield str(context.call((undefined(name='laid') if l_0_laid is missing else l_0_laid), '    ', '@', '_route(', ([t_8(environment.getattr(l_1_op, 'id')), t_8(environment.getattr(l_1_op, 'http_method')), t_8(context.call((undefined(name='route_path') if l_1_route_path is missing else l_1_route_path), l_1_op, _loop_vars=_loop_vars))] + ([t_8(environment.getattr(l_1_op, 'media_types'))] if environment.getattr(l_1_op, 'media_types') else [])), _loop_vars=_loop_vars))
        yield '\n'
        yield str(context.call(environment.getattr((undefined(name='route_params') if l_0_route_params is missing else l_0_route_params), 'define'), l_1_op, _loop_vars=_loop_vars))
        yield '\n'
        if (environment.getattr(l_1_op, 'body') and (environment.getattr(environment.getattr(l_1_op, 'body'), 'kind') in ('binary', 'text'))):
            pass
            yield str(context.call((undefined(name='laid') if l_0_laid is missing else l_0_laid), '        ', 'body = await ', ('raw_body(' if (environment.getattr(environment.getattr(l_1_op, 'body'), 'kind') == 'binary') else 'text_body('), ['request', t_8(environment.getattr(environment.getattr(l_1_op, 'body'), 'media_type')), t_9(environment.getattr(environment.getattr(l_1_op, 'body'), 'required'))], _loop_vars=_loop_vars))
            yield '\n'
        if (environment.getattr(l_1_op, 'returns_nothing') and (not environment.getattr(l_1_op, 'headers_class'))):
            pass
            yield str(context.call((undefined(name='laid') if l_0_laid is missing else l_0_laid), '        ', 'await ', str_join(('service.', environment.getattr(l_1_op, 'method_name'), '(', )), context.call((undefined(name='call_argument_list') if l_1_call_argument_list is missing else l_1_call_argument_list), l_1_op, _loop_vars=_loop_vars), _loop_vars=_loop_vars))
            yield '\n        return respond(None, '
            yield str(environment.getattr(l_1_op, 'success_status'))
            yield ', "empty", None)\n'
        else:
            pass
            yield str(context.call((undefined(name='laid') if l_0_laid is missing else l_0_laid), '        ', 'result = await ', str_join(('service.', environment.getattr(l_1_op, 'method_name'), '(', )), context.call((undefined(name='call_argument_list') if l_1_call_argument_list is missing else l_1_call_argument_list), l_1_op, _loop_vars=_loop_vars), _loop_vars=_loop_vars))
            yield '\n'
            yield str(context.call((undefined(name='laid') if l_0_laid is missing else l_0_laid), '        ', 'return ', 'respond(', (['result', t_9(environment.getattr(l_1_op, 'success_status')), t_8(context.call((undefined(name='success_kind') if l_1_success_kind is missing else l_1_success_kind), l_1_op, _loop_vars=_loop_vars)), t_8(context.call((undefined(name='success_media') if l_1_success_media is missing else l_1_success_media), l_1_op, _loop_vars=_loop_vars))] + ([environment.getattr(l_1_op, 'headers_class')] if environment.getattr(l_1_op, 'headers_class') else [])), _loop_vars=_loop_vars))
            yield '\n'
    l_1_op = l_1_route_path = l_1_call_argument_list = l_1_success_kind = l_1_success_media = missing
    yield '\n\ndef install_error_handlers(app: FastAPI, service: ServiceBase) -> None:\n    """Answer errors in the contract\'s shapes: ApiError, validation, and anything unexpected."""\n    install_handlers(app, service, _STATUSES, _WIRE_NAMES)\n\n\ndef contract() -> bytes:\n    """The contract as written (after any overlay), as JSON."""\n    return (\n        resources.files(__package__ or __name__).joinpath("openapi.json").read_bytes()\n    )\n\n\ndef create_app(\n    service: ServiceBase,\n    *,\n    verifiers: Mapping[str, Verifier] | None = None,\n    insecure_no_auth: bool = False,\n    verify_bearer: BearerVerifier | None = None,\n    bearer_token: str | None = None,\n    max_body_bytes: int | Mapping[str, int] | None = None,\n    base_path: str | None = None,\n    server_variables: Mapping[str, str] | None = None,\n    **fastapi_kwargs: Any,\n) -> FastAPI:\n    """A FastAPI app serving the contract with `service`, plus /openapi.json and /docs.\n\n    `verifiers` maps each security scheme to a `Verifier`: it receives the `Credential` the\n    request presents where the scheme says (with the operation\'s required scopes) and returns\n    the caller\'s identity, or None to refuse (401); the service reads it with\n    `current_caller()`. An operation that requires a scheme lacking a verifier makes this\n    raise ValueError, unless `insecure_no_auth=True`. Credentials are checked before a\n    request\'s body is read. `bearer_token` (accepts exactly that credential, compared in\n    constant time) and `verify_bearer` (called with every scheme\'s credential, None when\n    absent) are shorthands that check every scheme alike.\n    `base_path` prefixes every operation\'s path: by default the path of the contract\'s first\n    server URL ('
    yield str(t_2((environment.getattr((undefined(name='api') if l_0_api is missing else l_0_api), 'base_path') or 'none'), 4))
    yield '); pass "" behind a proxy that strips it.\n    `server_variables` sets that URL\'s variables (others at their defaults; an undeclared one\n    raises ValueError), e.g. `{"version": "v2"}`; an explicit `base_path` wins over them.\n    `max_body_bytes` caps request bodies as they stream in, for every operation or per\n    operationId (`{"PutFile": 2**30, "*": 2**22}`, `*` for the rest); over it an operation\n    answers its declared 413 (else 400, else 413) in its declared error shape.\n    """\n    auth = _auth(verifiers, verify_bearer, bearer_token, insecure_no_auth)\n'
    yield str(context.call((undefined(name='laid') if l_0_laid is missing else l_0_laid), '    ', '', 'fastapi_kwargs.setdefault(', ['"title"', t_8(environment.getattr((undefined(name='api') if l_0_api is missing else l_0_api), 'title'))]))
    yield '\n'
    yield str(context.call((undefined(name='laid') if l_0_laid is missing else l_0_laid), '    ', '', 'fastapi_kwargs.setdefault(', ['"version"', t_8(environment.getattr((undefined(name='api') if l_0_api is missing else l_0_api), 'version'))]))
    yield '\n    app = FastAPI(openapi_url=None, docs_url=None, redoc_url=None, **fastapi_kwargs)\n    app.state.service = service\n    install_error_handlers(app, service)\n    mounted = _base_path(base_path, server_variables)\n    _add_routes(app.router, service, auth, mounted)\n    checks = {\n        op: guard(\n            service,\n            op,\n            _SCHEMES,\n            alternatives,\n            verifiers=auth.verifiers,\n            anonymous=auth.anonymous,\n        )\n        for op, alternatives in _SECURITY.items()\n        if checkable(alternatives, auth.verifiers)\n    }\n    app.add_middleware(\n        Gate,\n        routes=app.router.routes,\n        service=service,\n        checks=checks,\n        statuses=_STATUSES,\n        max_body_bytes=max_body_bytes,\n    )\n'
    if (undefined(name='serve_spec') if l_0_serve_spec is missing else l_0_serve_spec):
        pass
        yield '    spec = contract()\n\n    @app.get("/openapi.json", include_in_schema=False)\n    async def openapi_json() -> Response:\n        return Response(spec, media_type="application/json")\n'
    if (undefined(name='serve_docs') if l_0_serve_docs is missing else l_0_serve_docs):
        pass
        if (undefined(name='serve_spec') if l_0_serve_spec is missing else l_0_serve_spec):
            pass
            yield '\n'
        yield str(context.call((undefined(name='laid') if l_0_laid is missing else l_0_laid), '    ', '', 'install_docs(', ['app', 'contract()', str_join(('title=', t_8(environment.getattr((undefined(name='api') if l_0_api is missing else l_0_api), 'title')), )), str_join(('redoc_url=', t_8((undefined(name='redoc_url') if l_0_redoc_url is missing else l_0_redoc_url)), )), 'base_path=mounted']))
        yield '\n'
    yield '\n    return app\n\n\n'
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
    yield '"""FastAPI server of '
    yield str(environment.getattr((undefined(name='api') if l_0_api is missing else l_0_api), 'title'))
    yield '.\n\nSubclass `ServiceBase`, override the operations you serve, and build the app with\n`create_app(service)`. Operations you do not override answer 501. Never edit this file:\n`contractgen generate` rewrites it.\n"""\n'

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
debug_info = '1=82&2=84&11=86&15=88&17=90&21=94&22=96&24=103&25=112&27=115&28=124&31=128&34=137&36=140&39=145&40=147&45=154&46=162&44=166&49=170&52=175&53=179&51=183&56=187&60=191&61=199&59=203&64=206&67=211&68=215&66=219&71=223&75=227&76=232&74=236&79=239&80=241&81=244&84=249&85=257&83=261&88=264&93=266&95=271&96=273&98=278&99=281&130=285&134=287&225=289&229=292&230=295&244=299&247=302&250=306&252=310&274=314&276=322&277=324&278=326&279=328&281=330&282=332&283=334&285=338&286=340&326=344&334=346&335=348&361=350&368=353&369=355&372=358&378=361&2=363&3=373&11=376&12=385&378=388'
