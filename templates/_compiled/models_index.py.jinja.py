# Template models_index.py.jinja, compiled by Jinja; written by `make regen`. DO NOT EDIT.
KEY = '842a4a1d9fcb086b5b9500a4e6cd8f54'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'models_index.py.jinja'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_header = resolve('header')
    l_0_api = resolve('api')
    l_0_where = resolve('where')
    l_0_parts = resolve('parts')
    l_0_import_set = resolve('import_set')
    l_0_m = l_0_imports = missing
    try:
        t_1 = environment.filters['all_statement']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'all_statement' found.")
    try:
        t_2 = environment.filters['indent']
    except KeyError:
        @internalcode
        def t_2(*unused):
            raise TemplateRuntimeError("No filter named 'indent' found.")
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
        t_5 = environment.filters['map']
    except KeyError:
        @internalcode
        def t_5(*unused):
            raise TemplateRuntimeError("No filter named 'map' found.")
    try:
        t_6 = environment.filters['pyrepr']
    except KeyError:
        @internalcode
        def t_6(*unused):
            raise TemplateRuntimeError("No filter named 'pyrepr' found.")
    pass
    l_0_m = context.vars['m'] = environment.get_template('_macros.jinja', 'models_index.py.jinja')._get_default_module(context)
    context.exported_vars.discard('m')
    yield str((undefined(name='header') if l_0_header is missing else l_0_header))
    yield '\n"""Models of '
    yield str(environment.getattr((undefined(name='api') if l_0_api is missing else l_0_api), 'title'))
    yield ' (version '
    yield str(environment.getattr((undefined(name='api') if l_0_api is missing else l_0_api), 'version'))
    yield ').\n\nThe '
    yield str(t_3((undefined(name='where') if l_0_where is missing else l_0_where)))
    yield ' names live in `_models_base` (the base class and validators)\nand '
    yield str((undefined(name='parts') if l_0_parts is missing else l_0_parts))
    yield ' parts, `_models_*`; each part is imported on the first use of a name it defines,\nwith the parts it refers to (PEP 562), so that importing a large contract builds no model it\ndoes not use. Type checkers read every name from the imports below.\n"""\n\nfrom typing import TYPE_CHECKING, Any\n\n'
    l_0_imports = context.call((undefined(name='import_set') if l_0_import_set is missing else l_0_import_set))
    context.vars['imports'] = l_0_imports
    context.exported_vars.add('imports')
    for (l_1_name, l_1_module) in (undefined(name='where') if l_0_where is missing else l_0_where):
        _loop_vars = {}
        pass
        context.call(environment.getattr((undefined(name='imports') if l_0_imports is missing else l_0_imports), 'name'), str_join(('.', l_1_module, )), l_1_name, _loop_vars=_loop_vars)
    l_1_name = l_1_module = missing
    yield 'if TYPE_CHECKING:\n'
    yield str(t_2(context.call(environment.getattr((undefined(name='imports') if l_0_imports is missing else l_0_imports), 'render'), 4), 4, first=True))
    yield '\n\n'
    yield str(t_1(t_4(context.eval_ctx, t_5(context, (undefined(name='where') if l_0_where is missing else l_0_where), attribute=0))))
    yield '\n\n# Where each name is defined.\n_MODULES = {\n'
    for (l_1_name, l_1_module) in (undefined(name='where') if l_0_where is missing else l_0_where):
        _loop_vars = {}
        pass
        yield '    '
        yield str(t_6(l_1_name))
        yield ': '
        yield str(t_6(str_join(('.', l_1_module, ))))
        yield ',\n'
    l_1_name = l_1_module = missing
    yield '}\n\n\n'
    yield str(context.call(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'lazy_getattr'), "The model `name`, its module imported now (this module's `__getattr__`)."))
    yield '\n'

blocks = {}
debug_info = '1=53&2=55&3=57&5=61&6=63&13=65&14=68&15=71&18=74&20=76&24=78&25=82&30=88'
