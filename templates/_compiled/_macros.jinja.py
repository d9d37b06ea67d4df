# Template _macros.jinja, compiled by Jinja; written by `make regen`. DO NOT EDIT.
KEY = '440fb93f9e1bf5bbe80fb5dfe18260cf'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = '_macros.jinja'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_model_class = l_0_enum_class = l_0_type_alias = l_0_definitions = l_0_lazy_getattr = missing
    try:
        t_1 = environment.filters['class_constant']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'class_constant' found.")
    try:
        t_2 = environment.filters['class_line']
    except KeyError:
        @internalcode
        def t_2(*unused):
            raise TemplateRuntimeError("No filter named 'class_line' found.")
    try:
        t_3 = environment.filters['comment']
    except KeyError:
        @internalcode
        def t_3(*unused):
            raise TemplateRuntimeError("No filter named 'comment' found.")
    try:
        t_4 = environment.filters['docstring']
    except KeyError:
        @internalcode
        def t_4(*unused):
            raise TemplateRuntimeError("No filter named 'docstring' found.")
    try:
        t_5 = environment.filters['enum_class_line']
    except KeyError:
        @internalcode
        def t_5(*unused):
            raise TemplateRuntimeError("No filter named 'enum_class_line' found.")
    try:
        t_6 = environment.filters['field_annotation']
    except KeyError:
        @internalcode
        def t_6(*unused):
            raise TemplateRuntimeError("No filter named 'field_annotation' found.")
    try:
        t_7 = environment.filters['field_statement']
    except KeyError:
        @internalcode
        def t_7(*unused):
            raise TemplateRuntimeError("No filter named 'field_statement' found.")
    try:
        t_8 = environment.filters['py']
    except KeyError:
        @internalcode
        def t_8(*unused):
            raise TemplateRuntimeError("No filter named 'py' found.")
    try:
        t_9 = environment.filters['pyrepr']
    except KeyError:
        @internalcode
        def t_9(*unused):
            raise TemplateRuntimeError("No filter named 'pyrepr' found.")
    try:
        t_10 = environment.filters['subscript']
    except KeyError:
        @internalcode
        def t_10(*unused):
            raise TemplateRuntimeError("No filter named 'subscript' found.")
    pass
    yield '\n'
    def macro(l_1_model, l_1_quoted, l_1_defaults):
        t_11 = []
        l_1_extra = resolve('extra')
        if l_1_model is missing:
            l_1_model = undefined("parameter 'model' was not provided", name='model')
        if l_1_quoted is missing:
            l_1_quoted = undefined("parameter 'quoted' was not provided", name='quoted')
        if l_1_defaults is missing:
            l_1_defaults = undefined("parameter 'defaults' was not provided", name='defaults')
        pass
        t_11.extend((
            str(t_2(environment.getattr(l_1_model, 'name'), ['_Model'])),
            '\n',
        ))
        if environment.getattr(l_1_model, 'description'):
            pass
            t_11.extend((
                '    """',
                str(t_4(environment.getattr(l_1_model, 'description'))),
                '"""\n\n',
            ))
        if (environment.getattr(l_1_model, 'extra') != 'allow'):
            pass
            t_11.extend((
                '    model_config = ConfigDict(extra=',
                str(t_9(environment.getattr(l_1_model, 'extra'))),
                ')\n',
            ))
        if environment.getattr(l_1_model, 'non_nullable'):
            pass
            t_11.extend((
                str(t_1(environment.getattr(l_1_model, 'non_nullable'), 'contractgen_non_nullable', 'ClassVar[frozenset[str]]', 'frozenset')),
                '\n',
            ))
        if environment.getattr(l_1_model, 'dropped'):
            pass
            t_11.extend((
                str(t_1(environment.getattr(l_1_model, 'dropped'), 'contractgen_dropped', 'ClassVar[frozenset[str]]', 'frozenset')),
                '\n',
            ))
        if environment.getattr(l_1_model, 'required_extra'):
            pass
            t_11.extend((
                str(t_1(environment.getattr(l_1_model, 'required_extra'), 'contractgen_required_extra', 'ClassVar[frozenset[str]]', 'frozenset')),
                '\n',
            ))
        if environment.getattr(l_1_model, 'extra_type'):
            pass
            l_1_extra = str_join(('dict[str, ', t_8(environment.getattr(l_1_model, 'extra_type')), ']', ))
            t_11.extend((
                '    __pydantic_extra__: ',
                str((t_9((undefined(name='extra') if l_1_extra is missing else l_1_extra)) if ('__pydantic_extra__' in l_1_quoted) else (undefined(name='extra') if l_1_extra is missing else l_1_extra))),
                ' = Field(init=False)\n',
            ))
        for l_2_field in environment.getattr(l_1_model, 'fields'):
            l_2_annotation = missing
            _loop_vars = {}
            pass
            if environment.getattr(l_2_field, 'comment'):
                pass
                t_11.extend((
                    '    # ',
                    str(environment.getattr(l_2_field, 'comment')),
                    '\n',
                ))
            l_2_annotation = t_6(l_2_field)
            _loop_vars['annotation'] = l_2_annotation
            t_11.extend((
                str(t_7(l_2_field, (t_9((undefined(name='annotation') if l_2_annotation is missing else l_2_annotation)) if (environment.getattr(l_2_field, 'name') in l_1_quoted) else (undefined(name='annotation') if l_2_annotation is missing else l_2_annotation)), l_1_defaults)),
                '\n',
            ))
        l_2_field = l_2_annotation = missing
        if (not ((((((environment.getattr(l_1_model, 'fields') or environment.getattr(l_1_model, 'extra_type')) or environment.getattr(l_1_model, 'description')) or (environment.getattr(l_1_model, 'extra') != 'allow')) or environment.getattr(l_1_model, 'non_nullable')) or environment.getattr(l_1_model, 'dropped')) or environment.getattr(l_1_model, 'required_extra'))):
            pass
            t_11.append(
                '    pass\n',
            )
        return concat(t_11)
    context.exported_vars.add('model_class')
    context.vars['model_class'] = l_0_model_class = Macro(environment, macro, 'model_class', ('model', 'quoted', 'defaults'), False, False, False, context.eval_ctx.autoescape)
    yield '\n'
    def macro(l_1_enum):
        t_12 = []
        if l_1_enum is missing:
            l_1_enum = undefined("parameter 'enum' was not provided", name='enum')
        pass
        t_12.extend((
            str(t_5(l_1_enum)),
            '\n',
        ))
        if environment.getattr(l_1_enum, 'description'):
            pass
            t_12.extend((
                '    """',
                str(t_4(environment.getattr(l_1_enum, 'description'))),
                '"""\n\n',
            ))
        for (l_2_member, l_2_value) in environment.getattr(l_1_enum, 'members'):
            l_2_assignment = resolve('assignment')
            _loop_vars = {}
            pass
            t_12.extend((
                str(context.call((undefined(name='assignment') if l_2_assignment is missing else l_2_assignment), '    ', l_2_member, t_9(l_2_value), _loop_vars=_loop_vars)),
                '\n',
            ))
        l_2_member = l_2_value = l_2_assignment = missing
        if (not environment.getattr(l_1_enum, 'closed')):
            pass
            t_12.append(
                '\n    _missing_ = classmethod(unknown_member)  # responses keep unknown values\n',
            )
        return concat(t_12)
    context.exported_vars.add('enum_class')
    context.vars['enum_class'] = l_0_enum_class = Macro(environment, macro, 'enum_class', ('enum',), False, False, False, context.eval_ctx.autoescape)
    yield '\n'
    def macro(l_1_alias):
        t_13 = []
        l_1_statement = resolve('statement')
        if l_1_alias is missing:
            l_1_alias = undefined("parameter 'alias' was not provided", name='alias')
        pass
        if environment.getattr(l_1_alias, 'description'):
            pass
            t_13.extend((
                str(t_3(environment.getattr(l_1_alias, 'description'))),
                '\n',
            ))
        if environment.getattr(l_1_alias, 'recursive'):
            pass
            t_13.extend((
                str(environment.getattr(l_1_alias, 'name')),
                ' = TypeAliasType(',
                str(t_9(environment.getattr(l_1_alias, 'name'))),
                ', ',
                str(t_9(t_8(environment.getattr(l_1_alias, 'type')))),
                ')\n',
            ))
        else:
            pass
            t_13.extend((
                str(context.call((undefined(name='statement') if l_1_statement is missing else l_1_statement), '', str_join((environment.getattr(l_1_alias, 'name'), ': TypeAlias = ', )), t_10(t_8(environment.getattr(l_1_alias, 'type'))))),
                '\n',
            ))
        return concat(t_13)
    context.exported_vars.add('type_alias')
    context.vars['type_alias'] = l_0_type_alias = Macro(environment, macro, 'type_alias', ('alias',), False, False, False, context.eval_ctx.autoescape)
    yield '\n'
    def macro(l_1_enums, l_1_classes, l_1_aliases, l_1_quoted, l_1_defaults):
        t_14 = []
        if l_1_enums is missing:
            l_1_enums = undefined("parameter 'enums' was not provided", name='enums')
        if l_1_classes is missing:
            l_1_classes = undefined("parameter 'classes' was not provided", name='classes')
        if l_1_aliases is missing:
            l_1_aliases = undefined("parameter 'aliases' was not provided", name='aliases')
        if l_1_quoted is missing:
            l_1_quoted = undefined("parameter 'quoted' was not provided", name='quoted')
        if l_1_defaults is missing:
            l_1_defaults = undefined("parameter 'defaults' was not provided", name='defaults')
        pass
        for l_2_definition in l_1_enums:
            _loop_vars = {}
            pass
            t_14.extend((
                '\n\n',
                str(context.call((undefined(name='enum_class') if l_0_enum_class is missing else l_0_enum_class), l_2_definition, _loop_vars=_loop_vars)),
                '\n',
            ))
        l_2_definition = missing
        for l_2_definition in l_1_classes:
            _loop_vars = {}
            pass
            t_14.extend((
                '\n\n',
                str(context.call((undefined(name='model_class') if l_0_model_class is missing else l_0_model_class), l_2_definition, environment.getitem(l_1_quoted, environment.getattr(l_2_definition, 'name')), l_1_defaults, _loop_vars=_loop_vars)),
                '\n',
            ))
        l_2_definition = missing
        for l_2_definition in l_1_aliases:
            _loop_vars = {}
            pass
            t_14.extend((
                '\n\n',
                str(context.call((undefined(name='type_alias') if l_0_type_alias is missing else l_0_type_alias), l_2_definition, _loop_vars=_loop_vars)),
                '\n',
            ))
        l_2_definition = missing
        if l_1_aliases:
            pass
            t_14.append(
                '\n\n# One TypeAdapter per alias, for raw data: `<Alias>Adapter.validate_python(data)`.\n',
            )
            for l_2_definition in l_1_aliases:
                l_2_typed = resolve('typed')
                l_2_group = resolve('group')
                _loop_vars = {}
                pass
                if environment.getattr(l_2_definition, 'recursive'):
                    pass
                    t_14.extend((
                        str(context.call((undefined(name='typed') if l_2_typed is missing else l_2_typed), '', environment.getattr(l_2_definition, 'adapter'), str_join(('TypeAdapter[', environment.getattr(l_2_definition, 'name'), ']', )), context.call((undefined(name='group') if l_2_group is missing else l_2_group), 'TypeAdapter(', [environment.getattr(l_2_definition, 'name')], _loop_vars=_loop_vars), _loop_vars=_loop_vars)),
                        '\n',
                    ))
                else:
                    pass
                    t_14.extend((
                        str(context.call((undefined(name='typed') if l_2_typed is missing else l_2_typed), '', environment.getattr(l_2_definition, 'adapter'), str_join(('TypeAdapter[', environment.getattr(l_2_definition, 'name'), ']', )), context.call((undefined(name='group') if l_2_group is missing else l_2_group), '_deferred(', [environment.getattr(l_2_definition, 'name')], _loop_vars=_loop_vars), _loop_vars=_loop_vars)),
                        '\n',
                    ))
            l_2_definition = l_2_typed = l_2_group = missing
        return concat(t_14)
    context.exported_vars.add('definitions')
    context.vars['definitions'] = l_0_definitions = Macro(environment, macro, 'definitions', ('enums', 'classes', 'aliases', 'quoted', 'defaults'), False, False, False, context.eval_ctx.autoescape)
    yield '\n'
    def macro(l_1_doc):
        t_15 = []
        if l_1_doc is missing:
            l_1_doc = undefined("parameter 'doc' was not provided", name='doc')
        pass
        t_15.extend((
            'def _import(name: str) -> Any:\n    """',
            str(l_1_doc),
            '"""\n    import importlib\n\n    if name not in _MODULES:\n        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")\n    module = importlib.import_module(_MODULES[name], __package__)\n    value = module if _MODULES[name] == "." + name else getattr(module, name)\n    globals()[name] = value\n    return value\n\n\ndef _names() -> list[str]:\n    return sorted({*globals(), *__all__})\n\n\n# Hidden from type checkers, which read the imports above: a misspelt name stays an error.\nif not TYPE_CHECKING:\n    __getattr__ = _import\n    __dir__ = _names',
        ))
        return concat(t_15)
    context.exported_vars.add('lazy_getattr')
    context.vars['lazy_getattr'] = l_0_lazy_getattr = Macro(environment, macro, 'lazy_getattr', ('doc',), False, False, False, context.eval_ctx.autoescape)

blocks = {}
debug_info = '2=73&3=84&4=87&5=91&8=94&9=98&11=101&12=104&14=107&15=110&17=113&18=116&20=119&21=121&22=124&24=127&25=131&26=135&28=138&29=141&31=145&37=154&38=160&39=163&40=167&43=170&44=175&46=179&52=188&53=194&54=197&56=200&57=203&59=213&63=220&64=233&67=238&69=242&72=247&74=251&77=256&79=260&83=265&84=270&85=273&87=279&93=287&95=294'
