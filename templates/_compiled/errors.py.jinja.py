# Template errors.py.jinja, compiled by Jinja; written by `make regen`. DO NOT EDIT.
KEY = 'cb1de978ece60ea17092ba954cd63b35'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'errors.py.jinja'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_header = resolve('header')
    l_0_import_set = resolve('import_set')
    l_0_name_set = resolve('name_set')
    l_0_imports = l_0_exported = l_0_body = missing
    try:
        t_1 = environment.filters['all_statement']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'all_statement' found.")
    try:
        t_2 = environment.filters['class_line']
    except KeyError:
        @internalcode
        def t_2(*unused):
            raise TemplateRuntimeError("No filter named 'class_line' found.")
    try:
        t_3 = environment.filters['firstline']
    except KeyError:
        @internalcode
        def t_3(*unused):
            raise TemplateRuntimeError("No filter named 'firstline' found.")
    try:
        t_4 = environment.filters['map']
    except KeyError:
        @internalcode
        def t_4(*unused):
            raise TemplateRuntimeError("No filter named 'map' found.")
    try:
        t_5 = environment.filters['pyrepr']
    except KeyError:
        @internalcode
        def t_5(*unused):
            raise TemplateRuntimeError("No filter named 'pyrepr' found.")
    try:
        t_6 = environment.tests['none']
    except KeyError:
        @internalcode
        def t_6(*unused):
            raise TemplateRuntimeError("No test named 'none' found.")
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
    l_1_status_classes = resolve('status_classes')
    l_1_errors = resolve('errors')
    t_7 = []
    pass
    context.call(environment.getattr((undefined(name='imports') if l_0_imports is missing else l_0_imports), 'name'), '__future__', 'annotations')
    context.call(environment.getattr(context.call(environment.getattr((undefined(name='imports') if l_0_imports is missing else l_0_imports), 'name'), 'typing', 'TYPE_CHECKING', 'Any', 'ClassVar'), 'name'), 'collections.abc', 'Mapping')
    context.call(environment.getattr((undefined(name='exported') if l_0_exported is missing else l_0_exported), 'update'), ['ERRORS', 'ApiError', 'ClientError', 'ServerError', 'TransportError', 'TimedOut'])
    t_7.append(
        '# (operation id, declared status) -> exception class; "default" and ranges ("4XX") as declared.\n# Each declared error below registers itself here.\nERRORS: dict[tuple[str, str], type[ApiError]] = {}\n\n\nclass ApiError(Exception):\n    """An error answer: HTTP status, body and headers; in a client, also the operation, the\n    body as received (`raw`), the request id and the number of attempts made."""\n\n    status_code: int = 500\n    operation_id: ClassVar[str | None] = None\n    body_type: ClassVar[Any] = None  # what a client parses the body as\n\n    def __init__(\n        self,\n        body: Any = None,\n        *,\n        headers: Mapping[str, str] | None = None,\n        status_code: int | None = None,\n    ) -> None:\n        if status_code is not None:\n            self.status_code = status_code\n        self.body = body\n        self.headers = _case_insensitive(headers)\n        self.operation: str | None = self.operation_id\n        self.raw: bytes | None = None\n        self.request_id: str | None = None\n        self.attempts = 1\n        super().__init__(f"HTTP {self.status_code}: {body!r}")\n\n    def __str__(self) -> str:\n        return describe(self)\n\n\nclass ClientError(ApiError):\n    """A 4xx answer: the request needs changing before it can succeed."""\n\n    status_code = 400\n\n\nclass ServerError(ApiError):\n    """A 5xx answer: the service failed; retrying later may succeed."""\n\n\nclass TransportError(ApiError):\n    """No answer: the connection failed or dropped, or a timeout passed (`__cause__` says\n    which); `status_code` is 0."""\n\n    status_code = 0\n\n\nclass TimedOut(TransportError):\n    """A connect, read or total timeout, or the deadline across retries, passed."""\n',
    )
    for (l_2_code, l_2_name, l_2_family, l_2_phrase) in (undefined(name='status_classes') if l_1_status_classes is missing else l_1_status_classes):
        _loop_vars = {}
        pass
        t_7.extend((
            '\n\nclass ',
            str(l_2_name),
            '(',
            str(l_2_family),
            '):\n    """HTTP ',
            str(l_2_code),
            ' ',
            str(l_2_phrase),
            '."""\n\n    status_code = ',
            str(l_2_code),
            '\n',
        ))
    l_2_code = l_2_name = l_2_family = l_2_phrase = missing
    t_7.append(
        '\n\n',
    )
    context.call(environment.getattr((undefined(name='exported') if l_0_exported is missing else l_0_exported), 'update'), t_4(context, (undefined(name='status_classes') if l_1_status_classes is missing else l_1_status_classes), attribute=1))
    context.call(environment.getattr((undefined(name='imports') if l_0_imports is missing else l_0_imports), 'name'), 'typing', 'TypeVar', 'cast')
    context.call(environment.getattr((undefined(name='exported') if l_0_exported is missing else l_0_exported), 'update'), ['STATUS_ERRORS', 'status_error', 'with_status'])
    t_7.append(
        '# A status -> its class (NotFound for 404); other statuses map to ClientError or ServerError.\nSTATUS_ERRORS: dict[int, type[ApiError]] = {\n',
    )
    for (l_2_code, l_2_name, l_2_family, l_2_phrase) in (undefined(name='status_classes') if l_1_status_classes is missing else l_1_status_classes):
        _loop_vars = {}
        pass
        t_7.extend((
            '    ',
            str(l_2_code),
            ': ',
            str(l_2_name),
            ',\n',
        ))
    l_2_code = l_2_name = l_2_family = l_2_phrase = missing
    t_7.append(
        '}\n\n\ndef status_error(status_code: int) -> type[ApiError]:\n    """The class of an error answer\'s status: NotFound for 404, else its family."""\n    found = STATUS_ERRORS.get(status_code)\n    if found is not None:\n        return found\n    if 400 <= status_code < 500:\n        return ClientError\n    return ServerError if status_code >= 500 else ApiError\n\n\ndef with_status(cls: type[ErrorT], status_code: int) -> type[ErrorT]:\n    """`cls`, or its subclass that is also the status\'s class (a `default` answer\'s 404 is\n    then a NotFound too), named after the response, or after the status when undeclared\n    (a 503: `ServiceUnavailable`, still an UnexpectedStatus)."""\n    family = status_error(status_code)\n    if issubclass(cls, family):\n        return cls\n    made = _MADE.get((cls, family))\n    if made is None:\n        named = family if cls is UnexpectedStatus else cls\n        where = {"__module__": cls.__module__, "__qualname__": named.__qualname__}\n        made = _MADE[(cls, family)] = type(named.__name__, (cls, family), where)\n    return cast(type[ErrorT], made)\n\n\nErrorT = TypeVar("ErrorT", bound=ApiError)\n_MADE: dict[tuple[type[ApiError], type[ApiError]], type[ApiError]] = {}\n\n\ndef _case_insensitive(headers: Mapping[str, str] | None) -> httpx.Headers:\n    """`error.headers["X-Request-Id"]` whatever case the answer used; httpx is imported when\n    the first error is made, so a server that only serves does not load it at start."""\n    import httpx\n\n    return httpx.Headers(headers)\n\n\ndef describe(error: ApiError) -> str:\n    """One line about an error: operation, status, what the body says, request id, a hint."""\n    where = f"{error.operation}: " if error.operation else ""\n    if isinstance(error, TransportError):\n        what = str(error.body or type(error).__name__)\n    else:\n        phrase = (\n            HTTPStatus(error.status_code).phrase if error.status_code in _CODES else ""\n        )\n        what = f"HTTP {error.status_code} {phrase}".rstrip()\n        detail = _summary(error.body if error.body is not None else error.raw)\n        what += f": {detail}" if detail else ""\n    notes = []\n    if error.request_id:\n        notes.append(f"request id {error.request_id}")\n    if error.attempts > 1:\n        notes.append(f"after {error.attempts} attempts")\n    retry_after = error.headers.get("retry-after")\n    if retry_after:\n        notes.append(f"retry after {retry_after}")\n    return where + what + (f" ({\'; \'.join(notes)})" if notes else "")\n\n\n',
    )
    context.call(environment.getattr(context.call(environment.getattr((undefined(name='imports') if l_0_imports is missing else l_0_imports), 'module'), 'json'), 'name'), 'http', 'HTTPStatus')
    t_7.append(
        '_CODES = frozenset(int(status) for status in HTTPStatus)\n\n\ndef _summary(body: Any, limit: int = 200) -> str:\n    """A body as one line of at most `limit` characters."""\n    if body is None:\n        return ""\n    if hasattr(body, "model_dump_json"):\n        text = body.model_dump_json(by_alias=True, exclude_none=True)\n    elif isinstance(body, bytes | bytearray):\n        text = body.decode("utf-8", "replace")\n    elif isinstance(body, str):\n        text = body\n    else:\n        try:\n            text = json.dumps(body)\n        except (TypeError, ValueError):\n            text = repr(body)\n    text = " ".join(text.split())\n    return text if len(text) <= limit else text[: limit - 3] + "..."\n\n',
    )
    context.call(environment.getattr((undefined(name='exported') if l_0_exported is missing else l_0_exported), 'update'), ['UnexpectedStatus', 'ResponseValidationError'])
    t_7.append(
        '\n\nclass UnexpectedStatus(ApiError):\n    """A response whose status the contract does not declare for the operation.\n\n    `body` is the JSON body parsed (when the response says it is JSON and it parses), else\n    the text; `text` and `content` (the bytes received) are kept as they came.\n    """\n\n    def __init__(\n        self,\n        status_code: int,\n        text: str,\n        *,\n        headers: Mapping[str, str] | None = None,\n        content: bytes | None = None,\n    ) -> None:\n        super().__init__(\n            _parsed(text, headers), headers=headers, status_code=status_code\n        )\n        self.text = text\n        self.content = content if content is not None else text.encode()\n\n\nclass ResponseValidationError(ApiError):\n    """(client) A response whose body does not match the contract\'s schema for its status:\n    `body` the JSON received (or its text), `raw` its bytes, `__cause__` pydantic\'s error.\n    """\n\n    def __str__(self) -> str:\n        found = getattr(self.__cause__, "errors", None)\n        problems: list[Any] = found() if callable(found) else []\n        if not problems:\n            return f"{describe(self)}; does not match the contract"\n        where = ".".join(str(part) for part in problems[0].get("loc", ())) or "body"\n        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""\n        what = problems[0].get("msg", "")\n        return f"{describe(self)}; does not match the contract at {where}: {what}{more}"\n\n\ndef _parsed(text: str, headers: Mapping[str, str] | None) -> Any:\n    """A JSON body (by its Content-Type) parsed; any other body, or invalid JSON, as text."""\n    found = (v for k, v in (headers or {}).items() if k.lower() == "content-type")\n    kind = next(found, "")\n    if "json" not in kind.split(";")[0]:\n        return text\n    try:\n        return json.loads(text)\n    except ValueError:\n        return text\n\n\nBodyT = TypeVar("BodyT")\n\n',
    )
    context.call(environment.getattr((undefined(name='imports') if l_0_imports is missing else l_0_imports), 'name'), 'typing', 'ForwardRef', 'Generic', 'get_args', 'get_origin', 'get_type_hints')
    context.call(environment.getattr((undefined(name='imports') if l_0_imports is missing else l_0_imports), 'name'), 'types', 'SimpleNamespace')
    context.call(environment.getattr((undefined(name='exported') if l_0_exported is missing else l_0_exported), 'update'), ['DeclaredError', 'error_class'])
    t_7.append(
        '\n\nclass _BodyType:\n    """`body_type` of a declared error: its type argument, evaluated here on first read."""\n\n    def __get__(self, instance: object, owner: type[Any]) -> Any:\n        ref = owner.body_ref\n        if isinstance(ref, ForwardRef):\n            holder = SimpleNamespace(__annotations__={"body": ref})\n            ref = get_type_hints(holder, globalns=globals())["body"]\n            owner.body_ref = ref\n        return ref\n\n\nclass DeclaredError(ApiError, Generic[BodyT]):\n    """A response the contract declares; `body` has the declared type.\n\n    Each subclass below names its operation and declared status (`"404"`, `"4XX"`,\n    `"default"`) in its class statement. That registers it in ERRORS and sets `status_code`,\n    the code it is raised with unless given another (a range\'s floor, 400 for `4XX`; 500 for\n    `default`); a client parses its body as the type argument (kept as the bytes received\n    with `parsed=False`).\n    """\n\n    body: BodyT\n    # The type argument as written: a ForwardRef where it names models (a string in the class\n    # statement, so that importing this module builds no model), resolved on first read.\n    body_ref: ClassVar[Any] = None\n    body_type: ClassVar[Any] = _BodyType()\n\n    def __init_subclass__(\n        cls,\n        *,\n        operation_id: str | None = None,\n        status: str | None = None,\n        parsed: bool = True,\n        **kwargs: Any,\n    ) -> None:\n        super().__init_subclass__(**kwargs)\n        if operation_id is None or status is None:\n            return  # a subclass of a declared error is that error\n        cls.operation_id = operation_id\n        if status.isdigit():\n            cls.status_code = int(status)\n        else:\n            cls.status_code = int(status[0]) * 100 if status[0].isdigit() else 500\n        arguments = [\n            get_args(base)[0]\n            for base in cls.__dict__.get("__orig_bases__", ())\n            if get_origin(base) is DeclaredError\n        ]\n        body_type = arguments[0] if arguments else None\n        cls.body_ref = body_type if parsed and body_type is not type(None) else None\n        ERRORS[(operation_id, status)] = cls\n\n    def __init__(\n        self,\n        body: BodyT,\n        *,\n        headers: Mapping[str, str] | None = None,\n        status_code: int | None = None,\n    ) -> None:\n        super().__init__(body, headers=headers, status_code=status_code)\n',
    )
    for l_2_error in (undefined(name='errors') if l_1_errors is missing else l_1_errors):
        l_2_error_body_type = resolve('error_body_type')
        l_2_status_base = resolve('status_base')
        _loop_vars = {}
        pass
        context.call(environment.getattr((undefined(name='imports') if l_0_imports is missing else l_0_imports), 'types'), ([environment.getattr(environment.getattr(l_2_error, 'response'), 'type')] if (not t_6(environment.getattr(environment.getattr(l_2_error, 'response'), 'type'))) else []), _loop_vars=_loop_vars)
        context.call(environment.getattr((undefined(name='exported') if l_0_exported is missing else l_0_exported), 'add'), environment.getattr(l_2_error, 'name'), _loop_vars=_loop_vars)
        t_7.extend((
            '\n\n',
            str(t_2(environment.getattr(l_2_error, 'name'), ((([str_join(('DeclaredError[', context.call((undefined(name='error_body_type') if l_2_error_body_type is missing else l_2_error_body_type), l_2_error, _loop_vars=_loop_vars), ']', ))] + context.call((undefined(name='status_base') if l_2_status_base is missing else l_2_status_base), environment.getattr(environment.getattr(l_2_error, 'response'), 'status'), _loop_vars=_loop_vars)) + [str_join(('operation_id=', t_5(environment.getattr(l_2_error, 'operation_id')), )), str_join(('status=', t_5(environment.getattr(environment.getattr(l_2_error, 'response'), 'status')), ))]) + (['parsed=False'] if ((not environment.getattr(environment.getattr(l_2_error, 'response'), 'type')) and (environment.getattr(environment.getattr(l_2_error, 'response'), 'kind') != 'empty')) else [])))),
            '\n    """',
            str(environment.getattr(l_2_error, 'operation_id')),
            ': ',
            str(environment.getattr(environment.getattr(l_2_error, 'response'), 'status')),
        ))
        if environment.getattr(environment.getattr(l_2_error, 'response'), 'description'):
            pass
            t_7.extend((
                ' — ',
                str(t_3(environment.getattr(environment.getattr(l_2_error, 'response'), 'description'))),
            ))
        t_7.append(
            '"""\n',
        )
    l_2_error = l_2_error_body_type = l_2_status_base = missing
    t_7.append(
        '\n\ndef error_class(operation_id: str, status_code: int) -> type[ApiError] | None:\n    """The declared exception for a status: exact code first, then its range, then default."""\n    for key in (str(status_code), f"{str(status_code)[0]}XX", "default"):\n        found = ERRORS.get((operation_id, key))\n        if found is not None:\n            return found\n    return None\n',
    )
    gen = context.blocks['extra'][0](context)
    try:
        for event in gen:
            t_7.append(event)
    finally: gen.close()
    l_0_body = (Markup if context.eval_ctx.autoescape else identity)(concat(t_7))
    context.vars['body'] = l_0_body
    context.exported_vars.add('body')
    l_1_status_classes = l_1_errors = missing
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
    l_0_example_error = resolve('example_error')
    pass
    yield '"""Errors of '
    yield str(environment.getattr((undefined(name='api') if l_0_api is missing else l_0_api), 'title'))
    yield '.\n\nOne tree, one typed exception per declared non-2xx response:\n\n    ApiError                  any error: operation, status_code, body, raw, headers...\n    ├── ClientError           a 4xx answer: BadRequest, NotFound, TooManyRequests...\n    ├── ServerError           a 5xx answer: InternalServerError, ServiceUnavailable...\n    ├── TransportError        (client) no answer: refused or dropped, TimedOut\n    ├── UnexpectedStatus      (client) a status not declared; .text, .content\n    ├── ResponseValidationError  (client) a body not matching its schema\n    └── DeclaredError[Body]\n        └── <Operation><Status>  a declared response, e.g.\n                                 '
    yield str((undefined(name='example_error') if l_0_example_error is missing else l_0_example_error))
    yield '; .body is typed\n\nA declared error (and, in the client, an UnexpectedStatus) is also its status\'s class: a 404\nis a NotFound and a ClientError, whichever operation raised it. The server renders any ApiError\na service method raises as its status, body and headers; the client raises the same classes for\nthe responses it receives, with `str(error)` one line naming the operation, status, message and\nrequest id.\n"""\n'

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
    l_0_uses_models = resolve('uses_models')
    pass
    yield str((undefined(name='imports') if l_0_imports is missing else l_0_imports))
    yield '\n'
    if (undefined(name='uses_models') if l_0_uses_models is missing else l_0_uses_models):
        pass
        yield '\nfrom . import models  # noqa: F401 (named in the strings of DeclaredError[...])\n'
    yield '\nif TYPE_CHECKING:\n    import httpx\n'

blocks = {'docstring': block_docstring, 'extra': block_extra, 'imports': block_imports}
debug_info = '1=51&2=53&26=54&27=57&29=64&30=65&31=66&85=70&88=75&89=79&91=83&95=90&96=91&97=92&100=96&101=101&166=110&188=114&243=118&244=119&245=120&309=124&310=129&311=130&314=133&315=135&327=154&28=157&330=162&341=164&344=166&2=169&3=180&15=182&327=185&330=194&331=204&332=206'
