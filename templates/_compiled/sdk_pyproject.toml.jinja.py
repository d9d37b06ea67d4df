# Template sdk_pyproject.toml.jinja, compiled by Jinja; written by `make regen`. DO NOT EDIT.
KEY = '01050a7d2b68e62d996affd7fd2a13f3'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'sdk_pyproject.toml.jinja'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_marker = resolve('marker')
    l_0_sdk = resolve('sdk')
    l_0_description = resolve('description')
    l_0_dependencies = resolve('dependencies')
    l_0_tests = resolve('tests')
    l_0_test_dependencies = resolve('test_dependencies')
    pass
    yield '# '
    yield str((undefined(name='marker') if l_0_marker is missing else l_0_marker))
    yield '\n[build-system]\nrequires = ["setuptools>=77"]\nbuild-backend = "setuptools.build_meta"\n\n[project]\nname = "'
    yield str(environment.getattr((undefined(name='sdk') if l_0_sdk is missing else l_0_sdk), 'distribution'))
    yield '"\nversion = "'
    yield str(environment.getattr((undefined(name='sdk') if l_0_sdk is missing else l_0_sdk), 'version'))
    yield '"\ndescription = '
    yield str((undefined(name='description') if l_0_description is missing else l_0_description))
    yield '\nreadme = "README.md"\nrequires-python = ">=3.11"\ndependencies = [\n'
    for l_1_dependency in (undefined(name='dependencies') if l_0_dependencies is missing else l_0_dependencies):
        _loop_vars = {}
        pass
        yield '    "'
        yield str(l_1_dependency)
        yield '",\n'
    l_1_dependency = missing
    yield "]\n\n[project.optional-dependencies]\n# `pip install '.[test]'`, then `pytest`: "
    yield str((undefined(name='tests') if l_0_tests is missing else l_0_tests))
    yield ' runs the client against `contractgen mock`\ntest = [\n'
    for l_1_dependency in (undefined(name='test_dependencies') if l_0_test_dependencies is missing else l_0_test_dependencies):
        _loop_vars = {}
        pass
        yield '    "'
        yield str(l_1_dependency)
        yield '",\n'
    l_1_dependency = missing
    yield ']\n\n[tool.pytest.ini_options]\ntestpaths = ["tests"]\npythonpath = ["src"]\n\n[tool.setuptools.packages.find]\nwhere = ["src"]\n\n[tool.setuptools.package-data]\n'
    yield str(environment.getattr((undefined(name='sdk') if l_0_sdk is missing else l_0_sdk), 'import_name'))
    yield ' = ["openapi.json", "py.typed"]\n'

blocks = {}
debug_info = '1=18&7=20&8=22&9=24&13=26&14=30&19=34&21=36&22=40&34=44'
