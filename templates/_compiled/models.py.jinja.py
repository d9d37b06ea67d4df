# Template models.py.jinja, compiled by Jinja; written by `make regen`. DO NOT EDIT.
KEY = '621e5499aa6d0c90c3c3c52b0006828e'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'models.py.jinja'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_header = resolve('header')
    l_0_import_set = resolve('import_set')
    l_0_name_set = resolve('name_set')
    l_0_m = l_0_imports = l_0_exported = l_0_body = missing
    try:
        t_1 = environment.filters['all_statement']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'all_statement' found.")
    try:
        t_2 = environment.filters['map']
    except KeyError:
        @internalcode
        def t_2(*unused):
            raise TemplateRuntimeError("No filter named 'map' found.")
    pass
    l_0_m = context.vars['m'] = environment.get_template('_macros.jinja', 'models.py.jinja')._get_default_module(context)
    context.exported_vars.discard('m')
    yield str((undefined(name='header') if l_0_header is missing else l_0_header))
    yield '\n'
    yield from context.blocks['docstring'][0](context)
    l_0_imports = context.call((undefined(name='import_set') if l_0_import_set is missing else l_0_import_set))
    context.vars['imports'] = l_0_imports
    context.exported_vars.add('imports')
    l_0_exported = context.call((undefined(name='name_set') if l_0_name_set is missing else l_0_name_set))
    context.vars['exported'] = l_0_exported
    context.exported_vars.add('exported')
    l_1_api = resolve('api')
    l_1_deferred_helper = resolve('deferred_helper')
    l_1_definition_imports = resolve('definition_imports')
    l_1_enums = resolve('enums')
    l_1_classes = resolve('classes')
    l_1_aliases = resolve('aliases')
    l_1_quoted = resolve('quoted')
    l_1_defaults = resolve('defaults')
    t_3 = []
    pass
    context.call(environment.getattr(context.call(environment.getattr((undefined(name='imports') if l_0_imports is missing else l_0_imports), 'name'), 'typing', 'Any', 'ClassVar'), 'name'), 'pydantic_core', 'core_schema')
    context.call(environment.getattr((undefined(name='imports') if l_0_imports is missing else l_0_imports), 'name'), 'pydantic', 'BaseModel', 'ConfigDict', 'GetCoreSchemaHandler', 'SerializationInfo', 'SerializerFunctionWrapHandler')
    gen = context.blocks['base_model'][0](context)
    try:
        for event in gen:
            t_3.append(event)
    finally: gen.close()
    t_3.append(
        '\n\ndef _wire(info: Any, name: str) -> str:\n    """A field\'s wire name: its alias, which may be "" (a property named so), else its name."""\n    return name if info.alias is None else str(info.alias)\n\n\ndef undefer_models() -> None:\n    """Let adapters made from now on build a model\'s schema as they are made, not at first use.\n\n    The models defer building their schemas to first use, so that a large contract imports\n    fast. FastAPI wraps a body model in a TypeAdapter that inherits that deferral and would\n    build it at the first request, outside the warning filter FastAPI sets for its own\n    parameter alias (pydantic\'s UnsupportedFieldAttributeWarning). The server calls this as it\n    adds its routes; a model\'s own schema is still built where it is first used.\n    """\n    _Model.contractgen_undeferred = True\n    pending: list[type[_Model]] = _Model.__subclasses__()\n    while pending:\n        model = pending.pop()\n        model.model_config["defer_build"] = False\n        pending.extend(model.__subclasses__())\n',
    )
    if environment.getattr((undefined(name='api') if l_1_api is missing else l_1_api), 'uses_excluding'):
        pass
        t_3.append(
            '\n\nclass Excluding:\n    """`not`: an after-validator rejecting values of some JSON types or some values."""\n\n    def __init__(self, types: tuple[str, ...], values: tuple[Any, ...]) -> None:\n        self.types = types\n        self.values = values\n\n    def __call__(self, value: Any) -> Any:\n        kinds = _json_types(value)\n        if kinds & set(self.types) or any(\n            v == value and isinstance(v, bool) == isinstance(value, bool)\n            for v in self.values\n        ):\n            raise ValueError(f"must not be {value!r}")\n        return value\n\n\ndef _json_types(value: Any) -> set[str]:\n    if value is None:\n        return {"null"}\n    if isinstance(value, bool):\n        return {"boolean"}\n    if isinstance(value, int) or (isinstance(value, float) and value.is_integer()):\n        return {"integer", "number"}\n    if isinstance(value, float):\n        return {"number"}\n    if isinstance(value, str):\n        return {"string"}\n    if isinstance(value, list | tuple):\n        return {"array"}\n    return {"object"}\n',
        )
    if ('unique_items' in environment.getattr((undefined(name='api') if l_1_api is missing else l_1_api), 'checks')):
        pass
        context.call(environment.getattr(context.call(environment.getattr((undefined(name='imports') if l_0_imports is missing else l_0_imports), 'module'), 'json'), 'name'), 'pydantic_core', 'to_jsonable_python')
        t_3.append(
            '\n\ndef check_unique_items(value: list[Any]) -> list[Any]:\n    """`uniqueItems`: no two items are equal as JSON values (1 and 1.0 are, true and 1 not)."""\n    seen: set[str] = set()\n    for item in value:\n        key = json.dumps(\n            _canonical(to_jsonable_python(item, by_alias=True)), sort_keys=True\n        )\n        if key in seen:\n            raise ValueError(f"items must be unique: {item!r} repeats")\n        seen.add(key)\n    return value\n\n\ndef _canonical(value: Any) -> Any:\n    if isinstance(value, float) and value.is_integer():\n        return int(value)\n    if isinstance(value, list):\n        return [_canonical(v) for v in value]\n    if isinstance(value, dict):\n        return {k: _canonical(v) for k, v in value.items()}\n    return value\n',
        )
    if ('email' in environment.getattr((undefined(name='api') if l_1_api is missing else l_1_api), 'checks')):
        pass
        context.call(environment.getattr((undefined(name='imports') if l_0_imports is missing else l_0_imports), 'module'), 'importlib')
        t_3.append(
            '\n\ntry:  # the optional dependency: without it an email is any string\n    _email_validator: Any = importlib.import_module("email_validator")\nexcept ImportError:\n    _email_validator = None\n\n\ndef check_email(value: str) -> str:\n    """`format: email`, checked when `email-validator` is installed; kept as written."""\n    if _email_validator is not None:\n        try:\n            _email_validator.validate_email(value, check_deliverability=False)\n        except _email_validator.EmailNotValidError as exc:\n            raise ValueError(f"not an email address: {exc}") from None\n    return value\n',
        )
    if ('uri' in environment.getattr((undefined(name='api') if l_1_api is missing else l_1_api), 'checks')):
        pass
        context.call(environment.getattr(context.call(environment.getattr((undefined(name='imports') if l_0_imports is missing else l_0_imports), 'name'), 'pydantic', 'AnyUrl'), 'name'), '._enums', 'reading_response')
        t_3.append(
            '\n\ndef check_uri(value: str) -> str:\n    """`format: uri`: an absolute URI (scheme first), kept as written (not normalized); in\n    a response the client reads, a relative reference too (Twilio\'s `next_page_uri`)."""\n    try:\n        AnyUrl(value)\n    except ValueError:\n        if not (reading_response() and value and not any(c.isspace() for c in value)):\n            raise ValueError(f"not an absolute URI: {value!r}") from None\n    return value\n',
        )
    if (undefined(name='deferred_helper') if l_1_deferred_helper is missing else l_1_deferred_helper):
        pass
        context.call(environment.getattr(context.call(environment.getattr((undefined(name='imports') if l_0_imports is missing else l_0_imports), 'name'), 'pydantic', 'TypeAdapter'), 'name'), 'typing', 'Annotated', 'get_args', 'get_origin')
        t_3.append(
            '\n\ndef _deferred(kind: Any) -> TypeAdapter[Any]:\n    """A TypeAdapter whose schema is built on first use, as the models\' are."""\n    bare = get_args(kind)[0] if get_origin(kind) is Annotated else kind\n    if isinstance(bare, type) and issubclass(bare, BaseModel):  # keeps its own config\n        return TypeAdapter(kind)\n    return TypeAdapter(kind, config=ConfigDict(defer_build=True))\n',
        )
    context.call((undefined(name='definition_imports') if l_1_definition_imports is missing else l_1_definition_imports), (undefined(name='imports') if l_0_imports is missing else l_0_imports), (undefined(name='enums') if l_1_enums is missing else l_1_enums), (undefined(name='classes') if l_1_classes is missing else l_1_classes), (undefined(name='aliases') if l_1_aliases is missing else l_1_aliases))
    context.call(environment.getattr((undefined(name='exported') if l_0_exported is missing else l_0_exported), 'update'), t_2(context, (((undefined(name='enums') if l_1_enums is missing else l_1_enums) + (undefined(name='classes') if l_1_classes is missing else l_1_classes)) + (undefined(name='aliases') if l_1_aliases is missing else l_1_aliases)), attribute='name'))
    context.call(environment.getattr((undefined(name='exported') if l_0_exported is missing else l_0_exported), 'update'), t_2(context, (undefined(name='aliases') if l_1_aliases is missing else l_1_aliases), attribute='adapter'))
    if context.call(environment.getattr((undefined(name='imports') if l_0_imports is missing else l_0_imports), 'has'), '._enums', 'UnknownMember'):
        pass
        context.call(environment.getattr((undefined(name='exported') if l_0_exported is missing else l_0_exported), 'add'), 'UnknownMember')
    t_3.extend((
        str(context.call(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'definitions'), (undefined(name='enums') if l_1_enums is missing else l_1_enums), (undefined(name='classes') if l_1_classes is missing else l_1_classes), (undefined(name='aliases') if l_1_aliases is missing else l_1_aliases), (undefined(name='quoted') if l_1_quoted is missing else l_1_quoted), (undefined(name='defaults') if l_1_defaults is missing else l_1_defaults))),
        '\n',
    ))
    gen = context.blocks['extra'][0](context)
    try:
        for event in gen:
            t_3.append(event)
    finally: gen.close()
    l_0_body = (Markup if context.eval_ctx.autoescape else identity)(concat(t_3))
    context.vars['body'] = l_0_body
    context.exported_vars.add('body')
    l_1_api = l_1_deferred_helper = l_1_definition_imports = l_1_enums = l_1_classes = l_1_aliases = l_1_quoted = l_1_defaults = missing
    yield '\n'
    yield from context.blocks['imports'][0](context)
    yield '\n'
    yield str(t_1((undefined(name='exported') if l_0_exported is missing else l_0_exported)))
    yield '\n\n\n'
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
    yield '"""Models of '
    yield str(environment.getattr((undefined(name='api') if l_0_api is missing else l_0_api), 'title'))
    yield ' (version '
    yield str(environment.getattr((undefined(name='api') if l_0_api is missing else l_0_api), 'version'))
    yield ')."""\n'

def block_base_model(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    _block_vars = {}
    pass
    yield 'class _Model(BaseModel):\n    """Base of every generated model: optional is not nullable, and unset stays absent."""\n\n    # Unknown fields are kept (the contract may grow); both wire and Python names are accepted.\n    model_config = ConfigDict(\n        extra="allow",\n        validate_by_name=True,\n        validate_by_alias=True,\n        serialize_by_alias=True,\n        # The contract\'s ECMA-262 patterns are translated for this engine, which FastAPI\'s\n        # parameters and TypeAdapters use too: one reading of a pattern everywhere.\n        regex_engine="rust-regex",\n        # Schemas are built on first use, not at import: a large contract imports fast.\n        defer_build=True,\n    )\n\n    contractgen_non_nullable: ClassVar[frozenset[str]] = frozenset()\n    # Optional fields left out of the output while unset: those defaulting to None (a\n    # declared `default: null` included), found in each class\'s fields as it is made.\n    contractgen_omit_unset: ClassVar[frozenset[str]] = frozenset()\n    # Wire names this side never carries: readOnly ones in a request model, writeOnly ones in\n    # a response model. They are dropped on input and never serialized, even as extras.\n    contractgen_dropped: ClassVar[frozenset[str]] = frozenset()\n    # Names `required` lists that are not among the properties: they must be present (extras).\n    contractgen_required_extra: ClassVar[frozenset[str]] = frozenset()\n    # Set by undefer_models: classes made from then on (a part of the models imported late)\n    # are undeferred as they are made.\n    contractgen_undeferred: ClassVar[bool] = False\n\n    @classmethod\n    def __pydantic_init_subclass__(cls, **kwargs: Any) -> None:\n        super().__pydantic_init_subclass__(**kwargs)\n        if cls.contractgen_undeferred:\n            cls.model_config["defer_build"] = False\n        cls.contractgen_omit_unset = frozenset(\n            name\n            for name, info in cls.model_fields.items()\n            if not info.is_required()\n            and info.default is None\n            and info.default_factory is None\n        )\n\n    def __init__(self, /, **data: Any) -> None:\n        # In Python, None for an optional field that is not nullable means "not set" (it is\n        # what the annotation `X | None = None` lets through); JSON `null` is still refused.\n        if self.contractgen_non_nullable:\n            fields = type(self).model_fields\n            for name in self.contractgen_non_nullable:\n                for key in {name, _wire(fields[name], name)}:\n                    if key in data and data[key] is None:\n                        del data[key]\n        super().__init__(**data)\n\n    @classmethod\n    def __get_pydantic_core_schema__(\n        cls, source: type[BaseModel], handler: GetCoreSchemaHandler, /\n    ) -> core_schema.CoreSchema:\n        # The checks below wrap the schema pydantic builds, as a model_validator("before") and\n        # a model_serializer("wrap") would; those decorators cost a fifth of a large import.\n        schema = handler(source)\n        if schema["type"] != "model":  # built before, checks included\n            return schema\n        serialization = core_schema.wrap_serializer_function_ser_schema(\n            cls._omit_unset, info_arg=True, return_schema=core_schema.any_schema()\n        )\n        # custom_init off: validation (JSON, model_validate, a nested model) does not call the\n        # __init__ above, which only serves Python callers (pydantic_core\'s model_schema).\n        model = {**schema, "serialization": serialization, "custom_init": False}\n        ref = model.pop("ref", None)  # the checks belong to the model\'s definition\n        return core_schema.no_info_before_validator_function(\n            cls._reject_null, model, ref=ref\n        )\n\n    @classmethod\n    def _reject_null(cls, data: Any) -> Any:\n        if isinstance(data, dict) and cls.contractgen_dropped:\n            data = {k: v for k, v in data.items() if k not in cls.contractgen_dropped}\n        if isinstance(data, dict) and cls.contractgen_required_extra:\n            for key in sorted(cls.contractgen_required_extra - data.keys()):\n                raise ValueError(f"{key}: required")\n        # An optional field that is not nullable may be absent, but not `null`.\n        if isinstance(data, dict) and cls.contractgen_non_nullable:\n            for name in cls.contractgen_non_nullable:\n                info = cls.model_fields[name]\n                for key in {name, _wire(info, name)}:\n                    if key in data and data[key] is None:\n                        raise ValueError(f"{key}: may be omitted but must not be null")\n        return data\n\n    def _omit_unset(\n        self, handler: SerializerFunctionWrapHandler, info: SerializationInfo\n    ) -> Any:\n        # An optional field nobody set is left out of the output rather than sent as null.\n        data = handler(self)\n        if not isinstance(data, dict):\n            return data\n        fields = type(self).model_fields\n        for name in self.contractgen_omit_unset:\n            if name not in self.model_fields_set or (\n                name in self.contractgen_non_nullable and getattr(self, name) is None\n            ):\n                data.pop(name, None)\n                data.pop(_wire(fields[name], name), None)\n        for key in self.contractgen_dropped:\n            data.pop(key, None)\n        return data\n'

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

blocks = {'docstring': block_docstring, 'base_model': block_base_model, 'extra': block_extra, 'imports': block_imports}
debug_info = '1=27&2=29&3=31&8=32&9=35&11=48&12=49&13=52&143=58&178=63&179=65&204=69&205=71&223=75&224=77&237=81&238=83&248=87&249=88&250=89&251=90&252=92&254=94&256=99&10=102&259=107&263=109&266=111&3=114&4=124&13=129&256=139&259=148&260=157'
