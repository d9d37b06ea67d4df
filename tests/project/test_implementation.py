"""`unimplemented_operations`: which operations a service leaves answering 501.

Each case is a small project on disk (pyproject, spec, generated package, a service module),
imported for real; the source fallback is exercised by a service whose import fails.
"""

from __future__ import annotations

import itertools
import shutil
import sys
import textwrap
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import yaml
from contractgen import SpecError, check, generate
from contractgen.config import load_targets
from contractgen.project.implementation import unimplemented_operations

SPEC = {
    "openapi": "3.1.0",
    "info": {"title": "Shelf", "version": "1"},
    "paths": {
        "/books": {
            "get": {"operationId": "ListBooks",
                    "responses": {"200": {"description": "Books.", "content": {
                        "application/json": {"schema": {"type": "array",
                                                        "items": {"type": "string"}}}}}}},
            "post": {"operationId": "AddBook",
                     "requestBody": {"required": True, "content": {
                         "application/json": {"schema": {"type": "string"}}}},
                     "responses": {"204": {"description": "Added."}}},
        },
        "/books/{title}": {
            "delete": {"operationId": "RemoveBook",
                       "parameters": [{"name": "title", "in": "path", "required": True,
                                       "schema": {"type": "string"}}],
                       "responses": {"204": {"description": "Removed."}}},
        },
    },
}
_names = (f"shelf_{n}" for n in itertools.count())
MakeProject = Callable[..., tuple[Path, str]]


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The generated package of SPEC, made once and copied into each project."""
    root = tmp_path_factory.mktemp("generated")
    (root / "shelf.yaml").write_text(yaml.safe_dump(SPEC), encoding="utf-8")
    generate(root / "shelf.yaml", root / "api", root=root)
    return root


@pytest.fixture
def make_project(tmp_path: Path, generated: Path) -> Iterator[MakeProject]:
    """Write a project whose package (a fresh name each time) holds `modules`."""
    packages: list[str] = []

    def make(modules: dict[str, str], implementation: str = "{pkg}.service:Service",
             spec: dict[str, object] | None = None) -> tuple[Path, str]:
        package = next(_names)
        packages.append(package)
        project = tmp_path / package
        (project / "specs").mkdir(parents=True)
        (project / "specs/shelf.yaml").write_text(yaml.safe_dump(spec or SPEC), encoding="utf-8")
        source = project / "src" / package
        shutil.copytree(generated / "api", source / "api")
        (source / "__init__.py").write_text("", encoding="utf-8")
        for name, text in modules.items():
            (source / f"{name}.py").write_text(textwrap.dedent(text), encoding="utf-8")
        (project / "pyproject.toml").write_text(textwrap.dedent(f"""\
            [[tool.contractgen.targets]]
            spec = "specs/shelf.yaml"
            out = "src/{package}/api"
            implementation = "{implementation.format(pkg=package)}"
            """), encoding="utf-8")
        return project, package

    yield make
    for name in [m for m in sys.modules if m.split(".")[0] in packages]:
        del sys.modules[name]


def missing(project: Path) -> list[str]:
    [target] = load_targets(project / "pyproject.toml")
    return unimplemented_operations(target)


SERVICE = """
    from .api.server import ServiceBase


    class Service(ServiceBase):
        async def add_book(self, body: str) -> None:
            return None
"""


def test_operations_not_overridden_are_listed_in_spec_order(make_project: MakeProject) -> None:
    project, _ = make_project({"service": SERVICE})
    assert missing(project) == ["ListBooks", "RemoveBook"]


def test_an_empty_subclass_implements_nothing(make_project: MakeProject) -> None:
    project, _ = make_project({"service": """
        from .api.server import ServiceBase


        class Service(ServiceBase):
            '''Nothing yet: every operation answers 501.'''
    """})
    assert missing(project) == ["ListBooks", "AddBook", "RemoveBook"]


def test_methods_inherited_from_a_mixin_in_another_module_count(make_project: MakeProject) -> None:
    project, _ = make_project({
        "mixins": """
            class Removal:
                async def remove_book(self, title: str) -> None:
                    return None
        """,
        "service": """
            from .api.server import ServiceBase
            from .mixins import Removal


            class Service(Removal, ServiceBase):
                pass
        """,
    })
    assert missing(project) == ["ListBooks", "AddBook"]


def test_an_operation_newer_than_the_generated_code_is_unimplemented(make_project: MakeProject) -> None:
    spec = yaml.safe_load(yaml.safe_dump(SPEC))
    spec["paths"]["/books/{title}"]["get"] = {
        "operationId": "GetBook",
        "parameters": [{"name": "title", "in": "path", "required": True,
                        "schema": {"type": "string"}}],
        "responses": {"200": {"description": "A book.", "content": {
            "application/json": {"schema": {"type": "string"}}}}}}
    project, _ = make_project({"service": SERVICE}, spec=spec)
    assert missing(project) == ["ListBooks", "RemoveBook", "GetBook"]


def test_when_the_import_fails_the_source_is_read(make_project: MakeProject) -> None:
    project, _ = make_project({"service": """
        import a_dependency_this_environment_lacks

        from .api.server import ServiceBase


        class Listing:
            async def list_books(self) -> list[str]:
                return []


        class Service(Listing, ServiceBase):
            remove_book = ServiceBase.remove_book  # assigned: counts as written here
    """})
    with pytest.warns(RuntimeWarning, match="cannot import .*a_dependency_this_environment_lacks"):
        assert missing(project) == ["AddBook"]


@pytest.mark.parametrize(("modules", "implementation", "message"), [
    ({"service": SERVICE}, "{pkg}.service:Missing", "has no class Missing"),
    ({"service": SERVICE}, "{pkg}.service", "is not `module:Class`"),
    ({}, "{pkg}.nowhere:Service", "cannot find module"),
])
def test_a_wrong_implementation_is_an_error(make_project: MakeProject, modules: dict[str, str],
                                            implementation: str, message: str) -> None:
    project, _ = make_project(modules, implementation)
    with pytest.raises(SpecError) as raised:
        missing(project)
    [problem] = raised.value.problems
    assert message in problem.message
    assert problem.file.endswith("pyproject.toml")


def test_check_reports_them_per_implementation(make_project: MakeProject) -> None:
    project, package = make_project({"service": SERVICE})
    result = check(load_targets(project / "pyproject.toml"))
    assert result.unimplemented == {f"{package}.service:Service": ["ListBooks", "RemoveBook"]}

