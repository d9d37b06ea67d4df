# Template errors.py.jinja, compiled by Jinja; written by `make regen`. DO NOT EDIT.
KEY = '26f19ee94ce1f3ca65ddd0e1cbd5816e'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'errors.py.jinja'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_header = resolve('header')
    l_0_exported_errors = resolve('exported_errors')
    l_0_status_classes = resolve('status_classes')
    l_0_errors = resolve('errors')
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
        t_4 = environment.filters['pyrepr']
    except KeyError:
        @internalcode
        def t_4(*unused):
            raise TemplateRuntimeError("No filter named 'pyrepr' found.")
    pass
    yield str((undefined(name='header') if l_0_header is missing else l_0_header))
    yield '\n'
    yield from context.blocks['docstring'][0](context)
    yield '\n'
    yield from context.blocks['imports'][0](context)
    yield '\n'
    yield str(t_1((undefined(name='exported_errors') if l_0_exported_errors is missing else l_0_exported_errors)))
    yield '\n\n\n# (operation id, declared status) -> exception class; "default" and ranges ("4XX") as declared.\n# Each declared error below registers itself here.\nERRORS: dict[tuple[str, str], type[ApiError]] = {}\n\n\nclass ApiError(Exception):\n    """An error answer: HTTP status, body and headers; in a client, also the operation, the\n    body as received (`raw`), the request id and the number of attempts made."""\n\n    status_code: int = 500\n    operation_id: ClassVar[str | None] = None\n    body_type: ClassVar[Any] = None  # what a client parses the body as\n\n    def __init__(\n        self,\n        body: Any = None,\n        *,\n        headers: Mapping[str, str] | None = None,\n        status_code: int | None = None,\n    ) -> None:\n        if status_code is not None:\n            self.status_code = status_code\n        self.body = body\n        self.headers: dict[str, str] = dict(headers or {})\n        self.operation: str | None = self.operation_id\n        self.raw: bytes | None = None\n        self.request_id: str | None = None\n        self.attempts = 1\n        super().__init__(f"HTTP {self.status_code}: {body!r}")\n\n    def __str__(self) -> str:\n        return describe(self)\n\n\nclass ClientError(ApiError):\n    """A 4xx answer: the request needs changing before it can succeed."""\n\n    status_code = 400\n\n\nclass ServerError(ApiError):\n    """A 5xx answer: the service failed; retrying later may succeed."""\n\n\nclass TransportError(ApiError):\n    """No answer: the connection failed or dropped, or a timeout passed (`__cause__` says\n    which); `status_code` is 0."""\n\n    status_code = 0\n\n\nclass TimedOut(TransportError):\n    """A connect, read or total timeout, or the deadline across retries, passed."""\n'
    for (l_1_code, l_1_name, l_1_family, l_1_phrase) in (undefined(name='status_classes') if l_0_status_classes is missing else l_0_status_classes):
        _loop_vars = {}
        pass
        yield '\n\nclass '
        yield str(l_1_name)
        yield '('
        yield str(l_1_family)
        yield '):\n    """HTTP '
        yield str(l_1_code)
        yield ' '
        yield str(l_1_phrase)
        yield '."""\n\n    status_code = '
        yield str(l_1_code)
        yield '\n'
    l_1_code = l_1_name = l_1_family = l_1_phrase = missing
    yield '\n\n# A status -> its class (NotFound for 404); other statuses map to ClientError or ServerError.\nSTATUS_ERRORS: dict[int, type[ApiError]] = {\n'
    for (l_1_code, l_1_name, l_1_family, l_1_phrase) in (undefined(name='status_classes') if l_0_status_classes is missing else l_0_status_classes):
        _loop_vars = {}
        pass
        yield '    '
        yield str(l_1_code)
        yield ': '
        yield str(l_1_name)
        yield ',\n'
    l_1_code = l_1_name = l_1_family = l_1_phrase = missing
    yield '}\n\n\ndef status_error(status_code: int) -> type[ApiError]:\n    """The class of an error answer\'s status: NotFound for 404, else its family."""\n    found = STATUS_ERRORS.get(status_code)\n    if found is not None:\n        return found\n    if 400 <= status_code < 500:\n        return ClientError\n    return ServerError if status_code >= 500 else ApiError\n\n\ndef with_status(cls: type[ErrorT], status_code: int) -> type[ErrorT]:\n    """`cls`, or its subclass that is also the status\'s class (a `default` answer\'s 404 is then\n    a NotFound too)."""\n    family = status_error(status_code)\n    if issubclass(cls, family):\n        return cls\n    made = _MADE.get((cls, family))\n    if made is None:\n        named = {"__module__": cls.__module__, "__qualname__": cls.__qualname__}\n        made = _MADE[(cls, family)] = type(cls.__name__, (cls, family), named)\n    return cast(type[ErrorT], made)\n\n\nErrorT = TypeVar("ErrorT", bound=ApiError)\n_MADE: dict[tuple[type[ApiError], type[ApiError]], type[ApiError]] = {}\n\n\ndef describe(error: ApiError) -> str:\n    """One line about an error: operation, status, what the body says, request id, a hint."""\n    where = f"{error.operation}: " if error.operation else ""\n    if isinstance(error, TransportError):\n        what = str(error.body or type(error).__name__)\n    else:\n        phrase = (\n            HTTPStatus(error.status_code).phrase if error.status_code in _CODES else ""\n        )\n        what = f"HTTP {error.status_code} {phrase}".rstrip()\n        detail = _summary(error.body if error.body is not None else error.raw)\n        what += f": {detail}" if detail else ""\n    notes = []\n    if error.request_id:\n        notes.append(f"request id {error.request_id}")\n    if error.attempts > 1:\n        notes.append(f"after {error.attempts} attempts")\n    retry_after = {k.lower(): v for k, v in error.headers.items()}.get("retry-after")\n    if retry_after:\n        notes.append(f"retry after {retry_after}")\n    return where + what + (f" ({\'; \'.join(notes)})" if notes else "")\n\n\n_CODES = frozenset(int(status) for status in HTTPStatus)\n\n\ndef _summary(body: Any, limit: int = 200) -> str:\n    """A body as one line of at most `limit` characters."""\n    if body is None:\n        return ""\n    if hasattr(body, "model_dump_json"):\n        text = body.model_dump_json(by_alias=True, exclude_none=True)\n    elif isinstance(body, bytes | bytearray):\n        text = body.decode("utf-8", "replace")\n    elif isinstance(body, str):\n        text = body\n    else:\n        try:\n            text = json.dumps(body)\n        except (TypeError, ValueError):\n            text = repr(body)\n    text = " ".join(text.split())\n    return text if len(text) <= limit else text[: limit - 3] + "..."\n\n\nclass UnexpectedStatus(ApiError):\n    """A response whose status the contract does not declare for the operation.\n\n    `body` is the JSON body parsed (when the response says it is JSON and it parses), else\n    the text; `text` and `content` (the bytes received) are kept as they came.\n    """\n\n    def __init__(\n        self,\n        status_code: int,\n        text: str,\n        *,\n        headers: Mapping[str, str] | None = None,\n        content: bytes | None = None,\n    ) -> None:\n        super().__init__(\n            _parsed(text, headers), headers=headers, status_code=status_code\n        )\n        self.text = text\n        self.content = content if content is not None else text.encode()\n\n\nclass ResponseValidationError(ApiError):\n    """(client) A response whose body does not match the contract\'s schema for its status:\n    `body` the JSON received (or its text), `raw` its bytes, `__cause__` pydantic\'s error.\n    """\n\n    def __str__(self) -> str:\n        found = getattr(self.__cause__, "errors", None)\n        problems: list[Any] = found() if callable(found) else []\n        if not problems:\n            return f"{describe(self)}; does not match the contract"\n        where = ".".join(str(part) for part in problems[0].get("loc", ())) or "body"\n        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""\n        what = problems[0].get("msg", "")\n        return f"{describe(self)}; does not match the contract at {where}: {what}{more}"\n\n\ndef _parsed(text: str, headers: Mapping[str, str] | None) -> Any:\n    """A JSON body (by its Content-Type) parsed; any other body, or invalid JSON, as text."""\n    found = (v for k, v in (headers or {}).items() if k.lower() == "content-type")\n    kind = next(found, "")\n    if "json" not in kind.split(";")[0]:\n        return text\n    try:\n        return json.loads(text)\n    except ValueError:\n        return text\n\n\nBodyT = TypeVar("BodyT")\n\n\nclass _BodyType:\n    """`body_type` of a declared error: its type argument, evaluated here on first read."""\n\n    def __get__(self, instance: object, owner: type[Any]) -> Any:\n        ref = owner.body_ref\n        if isinstance(ref, ForwardRef):\n            holder = SimpleNamespace(__annotations__={"body": ref})\n            ref = get_type_hints(holder, globalns=globals())["body"]\n            owner.body_ref = ref\n        return ref\n\n\nclass DeclaredError(ApiError, Generic[BodyT]):\n    """A response the contract declares; `body` has the declared type.\n\n    Each subclass below names its operation and declared status (`"404"`, `"4XX"`,\n    `"default"`) in its class statement. That registers it in ERRORS and sets `status_code`,\n    the code it is raised with unless given another (a range\'s floor, 400 for `4XX`; 500 for\n    `default`); a client parses its body as the type argument (kept as the bytes received\n    with `parsed=False`).\n    """\n\n    body: BodyT\n    # The type argument as written: a ForwardRef where it names models (a string in the class\n    # statement, so that importing this module builds no model), resolved on first read.\n    body_ref: ClassVar[Any] = None\n    body_type: ClassVar[Any] = _BodyType()\n\n    def __init_subclass__(\n        cls,\n        *,\n        operation_id: str | None = None,\n        status: str | None = None,\n        parsed: bool = True,\n        **kwargs: Any,\n    ) -> None:\n        super().__init_subclass__(**kwargs)\n        if operation_id is None or status is None:\n            return  # a subclass of a declared error is that error\n        cls.operation_id = operation_id\n        if status.isdigit():\n            cls.status_code = int(status)\n        else:\n            cls.status_code = int(status[0]) * 100 if status[0].isdigit() else 500\n        arguments = [\n            get_args(base)[0]\n            for base in cls.__dict__.get("__orig_bases__", ())\n            if get_origin(base) is DeclaredError\n        ]\n        body_type = arguments[0] if arguments else None\n        cls.body_ref = body_type if parsed and body_type is not type(None) else None\n        ERRORS[(operation_id, status)] = cls\n\n    def __init__(\n        self,\n        body: BodyT,\n        *,\n        headers: Mapping[str, str] | None = None,\n        status_code: int | None = None,\n    ) -> None:\n        super().__init__(body, headers=headers, status_code=status_code)\n'
    for l_1_error in (undefined(name='errors') if l_0_errors is missing else l_0_errors):
        l_1_error_body_type = resolve('error_body_type')
        l_1_status_base = resolve('status_base')
        _loop_vars = {}
        pass
        yield '\n\n'
        yield str(t_2(environment.getattr(l_1_error, 'name'), ((([str_join(('DeclaredError[', context.call((undefined(name='error_body_type') if l_1_error_body_type is missing else l_1_error_body_type), l_1_error, _loop_vars=_loop_vars), ']', ))] + context.call((undefined(name='status_base') if l_1_status_base is missing else l_1_status_base), environment.getattr(environment.getattr(l_1_error, 'response'), 'status'), _loop_vars=_loop_vars)) + [str_join(('operation_id=', t_4(environment.getattr(l_1_error, 'operation_id')), )), str_join(('status=', t_4(environment.getattr(environment.getattr(l_1_error, 'response'), 'status')), ))]) + (['parsed=False'] if ((not environment.getattr(environment.getattr(l_1_error, 'response'), 'type')) and (environment.getattr(environment.getattr(l_1_error, 'response'), 'kind') != 'empty')) else []))))
        yield '\n    """'
        yield str(environment.getattr(l_1_error, 'operation_id'))
        yield ': '
        yield str(environment.getattr(environment.getattr(l_1_error, 'response'), 'status'))
        if environment.getattr(environment.getattr(l_1_error, 'response'), 'description'):
            pass
            yield ' — '
            yield str(t_3(environment.getattr(environment.getattr(l_1_error, 'response'), 'description')))
        yield '"""\n'
    l_1_error = l_1_error_body_type = l_1_status_base = missing
    yield '\n\ndef error_class(operation_id: str, status_code: int) -> type[ApiError] | None:\n    """The declared exception for a status: exact code first, then its range, then default."""\n    for key in (str(status_code), f"{str(status_code)[0]}XX", "default"):\n        found = ERRORS.get((operation_id, key))\n        if found is not None:\n            return found\n    return None\n'
    yield from context.blocks['extra'][0](context)

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
    yield ": one tree, one typed exception per declared non-2xx response.\n\n    ApiError                      any error; operation, status_code, body, raw, headers, request_id\n    ├── ClientError               a 4xx answer: BadRequest, Unauthorized, NotFound, TooManyRequests...\n    ├── ServerError               a 5xx answer: InternalServerError, ServiceUnavailable...\n    ├── TransportError            (client) no answer: connection refused or dropped, TimedOut\n    ├── UnexpectedStatus          (client) a status the contract does not declare; .text, .content\n    ├── ResponseValidationError   (client) a body not matching its schema; __cause__ pydantic's\n    └── DeclaredError[Body]\n        └── <Operation><Status>   a declared response, e.g. "
    yield str((undefined(name='example_error') if l_0_example_error is missing else l_0_example_error))
    yield '; .body is typed\n\nA declared error (and, in the client, an UnexpectedStatus) is also its status\'s class: a 404\nis a NotFound and a ClientError, whichever operation raised it. The server renders any ApiError\na service method raises as its status, body and headers; the client raises the same classes for\nthe responses it receives, with `str(error)` one line naming the operation, status, message and\nrequest id.\n"""\n'

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

def block_extra(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    _block_vars = {}
    pass

blocks = {'docstring': block_docstring, 'imports': block_imports, 'extra': block_extra}
debug_info = '1=39&2=41&22=43&30=45&86=47&89=51&90=55&92=59&98=63&99=67&290=73&293=79&294=81&305=91&2=93&3=104&12=106&22=109&23=119&24=121&305=125'
