# Template __init__.py.jinja, compiled by Jinja; written by `make regen`. DO NOT EDIT.
KEY = '61d93386c2b6bb02ec28a2b34263ab58'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = '__init__.py.jinja'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_header = resolve('header')
    l_0_import_set = resolve('import_set')
    l_0_lazy_modules = resolve('lazy_modules')
    l_0_m = l_0_imports = missing
    try:
        t_1 = environment.filters['all_statement']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'all_statement' found.")
    try:
        t_2 = environment.filters['list']
    except KeyError:
        @internalcode
        def t_2(*unused):
            raise TemplateRuntimeError("No filter named 'list' found.")
    try:
        t_3 = environment.filters['map']
    except KeyError:
        @internalcode
        def t_3(*unused):
            raise TemplateRuntimeError("No filter named 'map' found.")
    try:
        t_4 = environment.filters['pyrepr']
    except KeyError:
        @internalcode
        def t_4(*unused):
            raise TemplateRuntimeError("No filter named 'pyrepr' found.")
    pass
    l_0_m = context.vars['m'] = environment.get_template('_macros.jinja', '__init__.py.jinja')._get_default_module(context)
    context.exported_vars.discard('m')
    yield str((undefined(name='header') if l_0_header is missing else l_0_header))
    yield '\n'
    yield from context.blocks['docstring'][0](context)
    yield '\nfrom typing import TYPE_CHECKING, Any\n\n'
    l_0_imports = context.call((undefined(name='import_set') if l_0_import_set is missing else l_0_import_set))
    context.vars['imports'] = l_0_imports
    context.exported_vars.add('imports')
    for (l_1_name, l_1_module) in (undefined(name='lazy_modules') if l_0_lazy_modules is missing else l_0_lazy_modules):
        _loop_vars = {}
        pass
        (context.call(environment.getattr((undefined(name='imports') if l_0_imports is missing else l_0_imports), 'name'), '.', l_1_name, _loop_vars=_loop_vars) if (l_1_module == str_join(('.', l_1_name, ))) else context.call(environment.getattr((undefined(name='imports') if l_0_imports is missing else l_0_imports), 'name'), l_1_module, l_1_name, _loop_vars=_loop_vars))
    l_1_name = l_1_module = missing
    yield from context.blocks['imports'][0](context)
    yield '\n'
    yield str(t_1(t_2(context.eval_ctx, t_3(context, (undefined(name='lazy_modules') if l_0_lazy_modules is missing else l_0_lazy_modules), attribute=0))))
    yield '\n\n# Where each name is defined. The modules are imported on first use (PEP 562): a program that\n# only calls the service never imports FastAPI, one that only serves it never imports the client.\n_MODULES = {\n'
    for (l_1_name, l_1_module) in (undefined(name='lazy_modules') if l_0_lazy_modules is missing else l_0_lazy_modules):
        _loop_vars = {}
        pass
        yield '    '
        yield str(t_4(l_1_name))
        yield ': '
        yield str(t_4(l_1_module))
        yield ',\n'
    l_1_name = l_1_module = missing
    yield '}\n\n\n'
    yield str(context.call(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'lazy_getattr'), "The exported `name`, its module imported now (the package's `__getattr__`)."))
    yield '\n\n'
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
    yield '"""'
    yield str(environment.getattr((undefined(name='api') if l_0_api is missing else l_0_api), 'title'))
    yield ' (version '
    yield str(environment.getattr((undefined(name='api') if l_0_api is missing else l_0_api), 'version'))
    yield '): generated models'
    if ('server' in environment.getattr((undefined(name='api') if l_0_api is missing else l_0_api), 'parts')):
        pass
        yield ', server'
    if ('client' in environment.getattr((undefined(name='api') if l_0_api is missing else l_0_api), 'parts')):
        pass
        yield ', client'
    yield '."""\n'

def block_imports(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    _block_vars = {}
    l_0_imports = resolve('imports')
    try:
        t_5 = environment.filters['indent']
    except KeyError:
        @internalcode
        def t_5(*unused):
            raise TemplateRuntimeError("No filter named 'indent' found.")
    pass
    yield 'if TYPE_CHECKING:\n'
    yield str(t_5(context.call(environment.getattr((undefined(name='imports') if l_0_imports is missing else l_0_imports), 'render'), 4, _block_vars=_block_vars), 4, first=True))
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
debug_info = '1=39&2=41&3=43&9=45&10=48&11=51&13=53&18=55&23=57&24=61&29=67&31=69&3=71&4=81&13=93&15=109&31=112'
