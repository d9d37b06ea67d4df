# Template models_part.py.jinja, compiled by Jinja; written by `make regen`. DO NOT EDIT.
KEY = '1afb8b76ca42efe797967656b017294a'
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
    l_0_imports = resolve('imports')
    l_0_exported_models = resolve('exported_models')
    l_0_enums = resolve('enums')
    l_0_classes = resolve('classes')
    l_0_aliases = resolve('aliases')
    l_0_quoted = resolve('quoted')
    l_0_defaults = resolve('defaults')
    l_0_m = missing
    try:
        t_1 = environment.filters['all_statement']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'all_statement' found.")
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
    yield str((undefined(name='imports') if l_0_imports is missing else l_0_imports))
    yield '\n\n'
    yield str(t_1((undefined(name='exported_models') if l_0_exported_models is missing else l_0_exported_models)))
    yield '\n'
    yield str(context.call(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'definitions'), (undefined(name='enums') if l_0_enums is missing else l_0_enums), (undefined(name='classes') if l_0_classes is missing else l_0_classes), (undefined(name='aliases') if l_0_aliases is missing else l_0_aliases), (undefined(name='quoted') if l_0_quoted is missing else l_0_quoted), (undefined(name='defaults') if l_0_defaults is missing else l_0_defaults)))
    yield '\n'

blocks = {}
debug_info = '1=29&2=31&3=33&8=41&10=43&11=45'
