# Template models_part.py.jinja, compiled by Jinja; written by `make regen`. DO NOT EDIT.
KEY = 'ddd6b935faeedad0327ff7418f03efd1'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'models_part.py.jinja'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_header = resolve('header')
    l_0_api = resolve('api')
    l_0_part = resolve('part')
    l_0_parts = resolve('parts')
    l_0_import_set = resolve('import_set')
    l_0_definition_imports = resolve('definition_imports')
    l_0_enums = resolve('enums')
    l_0_classes = resolve('classes')
    l_0_aliases = resolve('aliases')
    l_0_refers = resolve('refers')
    l_0_quoted = resolve('quoted')
    l_0_defaults = resolve('defaults')
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
        t_4 = environment.filters['rejectattr']
    except KeyError:
        @internalcode
        def t_4(*unused):
            raise TemplateRuntimeError("No filter named 'rejectattr' found.")
    pass
    l_0_m = context.vars['m'] = environment.get_template('_macros.jinja', 'models_part.py.jinja')._get_default_module(context)
    context.exported_vars.discard('m')
    yield str((undefined(name='header') if l_0_header is missing else l_0_header))
    yield '\n"""Models of '
    yield str(environment.getattr((undefined(name='api') if l_0_api is missing else l_0_api), 'title'))
    yield ' (version '
    yield str(environment.getattr((undefined(name='api') if l_0_api is missing else l_0_api), 'version'))
    yield '), part '
    yield str((undefined(name='part') if l_0_part is missing else l_0_part))
    yield ' of '
    yield str((undefined(name='parts') if l_0_parts is missing else l_0_parts))
    yield '.\n\n`models` imports this module on the first use of a name it defines (with the parts it uses).\n"""\n\n'
    l_0_imports = context.call((undefined(name='import_set') if l_0_import_set is missing else l_0_import_set))
    context.vars['imports'] = l_0_imports
    context.exported_vars.add('imports')
    context.call((undefined(name='definition_imports') if l_0_definition_imports is missing else l_0_definition_imports), (undefined(name='imports') if l_0_imports is missing else l_0_imports), (undefined(name='enums') if l_0_enums is missing else l_0_enums), (undefined(name='classes') if l_0_classes is missing else l_0_classes), (undefined(name='aliases') if l_0_aliases is missing else l_0_aliases))
    if (undefined(name='classes') if l_0_classes is missing else l_0_classes):
        pass
        context.call(environment.getattr((undefined(name='imports') if l_0_imports is missing else l_0_imports), 'name'), '._models_base', '_Model')
    if t_2(context.eval_ctx, t_4(context, (undefined(name='aliases') if l_0_aliases is missing else l_0_aliases), 'recursive')):
        pass
        context.call(environment.getattr((undefined(name='imports') if l_0_imports is missing else l_0_imports), 'name'), '._models_base', '_deferred')
    for (l_1_name, l_1_module) in (undefined(name='refers') if l_0_refers is missing else l_0_refers):
        _loop_vars = {}
        pass
        context.call(environment.getattr((undefined(name='imports') if l_0_imports is missing else l_0_imports), 'name'), str_join(('.', l_1_module, )), l_1_name, _loop_vars=_loop_vars)
    l_1_name = l_1_module = missing
    yield str((undefined(name='imports') if l_0_imports is missing else l_0_imports))
    yield '\n\n'
    yield str(t_1((t_2(context.eval_ctx, t_3(context, (((undefined(name='enums') if l_0_enums is missing else l_0_enums) + (undefined(name='classes') if l_0_classes is missing else l_0_classes)) + (undefined(name='aliases') if l_0_aliases is missing else l_0_aliases)), attribute='name')) + t_2(context.eval_ctx, t_3(context, (undefined(name='aliases') if l_0_aliases is missing else l_0_aliases), attribute='adapter')))))
    yield '\n'
    yield str(context.call(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'definitions'), (undefined(name='enums') if l_0_enums is missing else l_0_enums), (undefined(name='classes') if l_0_classes is missing else l_0_classes), (undefined(name='aliases') if l_0_aliases is missing else l_0_aliases), (undefined(name='quoted') if l_0_quoted is missing else l_0_quoted), (undefined(name='defaults') if l_0_defaults is missing else l_0_defaults)))
    yield '\n'

blocks = {}
debug_info = '1=48&2=50&3=52&8=60&9=63&10=64&11=66&13=67&14=69&17=70&18=73&20=75&22=77&23=79'
