"""One operation answering two JSON media types with different schemas (GitHub's `GET
/user/starred`: `application/json` lists repositories, `application/vnd.github.v3.star+json`
lists them with the time they were starred; issue 37), a minimal reproduction over real HTTP:
the server answers the one asked for, and the client parses the answer by its `Content-Type`
with that media type's schema, not the first one's."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from gen_support import Generated, generate_package, openapi, serve

_REF = "#/components/schemas/"
STAR = "application/vnd.github.v3.star+json"
SPEC = openapi({"/user/starred": {"get": {
    "operationId": "listStarred",
    "responses": {"200": {"description": "ok", "content": {
        "application/json": {"schema": {"type": "array", "items": {"$ref": _REF + "Repo"}}},
        STAR: {"schema": {"type": "array", "items": {"$ref": _REF + "Starred"}}}}}}}}},
    {"Repo": {"type": "object", "required": ["id"], "properties": {
        "id": {"type": "integer"}, "name": {"type": "string"}}},
     "Starred": {"type": "object", "required": ["starred_at", "repo"], "properties": {
         "starred_at": {"type": "string"}, "repo": {"$ref": _REF + "Repo"}}}})


@pytest.fixture(scope="module")
def pkg(tmp_path_factory: pytest.TempPathFactory) -> Generated:
    return generate_package(SPEC, tmp_path_factory.mktemp("json_media"))


def _service(pkg: Generated) -> Any:
    models = pkg.models

    class Service(pkg.server.ServiceBase):  # type: ignore[misc,name-defined]
        async def list_starred(self) -> Any:
            repo = models.Repo(id=1, name="contractgen")
            if pkg.server.chosen_media_type() == STAR:
                return [models.Starred(starred_at="2026-12-07T00:00:00Z", repo=repo)]
            return [repo]

    return Service()


def test_the_client_parses_each_media_type_with_its_own_schema(pkg: Generated) -> None:
    with serve(pkg.server.create_app(_service(pkg))) as url:
        starred = httpx.get(f"{url}/user/starred", headers={"Accept": STAR})
        plain = httpx.get(f"{url}/user/starred", headers={"Accept": "application/json"})
        with pkg.client.Client(url) as client:
            stars = client.list_starred(accept=STAR)
            repos = client.list_starred()
    assert starred.headers["content-type"].startswith(STAR)
    assert starred.json() == [{"starred_at": "2026-12-07T00:00:00Z",
                               "repo": {"id": 1, "name": "contractgen"}}]
    assert plain.headers["content-type"].startswith("application/json")
    assert [type(s).__name__ for s in stars] == ["Starred"]
    assert stars[0].repo.id == 1 and stars[0].starred_at == "2026-12-07T00:00:00Z"
    assert [type(r).__name__ for r in repos] == ["Repo"]
    assert repos[0].model_dump(mode="json") == {"id": 1, "name": "contractgen"}


def test_an_answer_that_breaks_its_media_types_schema_is_refused(pkg: Generated) -> None:
    """The star+json schema judges a star+json answer: a plain repository list is refused."""
    from fastapi.responses import Response

    class Careless(pkg.server.ServiceBase):  # type: ignore[misc,name-defined]
        async def list_starred(self) -> Any:
            return Response(b'[{"id": 1}]', media_type=STAR)

    with serve(pkg.server.create_app(Careless())) as url:
        with pkg.client.Client(url) as client:
            with pytest.raises(Exception) as caught:
                client.list_starred(accept=STAR)
    assert "starred_at" in str(caught.value)


def test_the_service_may_answer_in_another_accepted_json_media_type(pkg: Generated) -> None:
    """By default the client accepts both: the service says which it sends, the client reads
    it by the answer's `Content-Type`; a type `Accept` rules out is refused to the service."""
    models = pkg.models
    refused: list[str] = []

    class Chooser(pkg.server.ServiceBase):  # type: ignore[misc,name-defined]
        async def list_starred(self) -> Any:
            try:
                pkg.server.answer_as(STAR)
            except ValueError as exc:
                refused.append(str(exc))
                return [models.Repo(id=2)]
            return [models.Starred(starred_at="t", repo=models.Repo(id=2))]

    with serve(pkg.server.create_app(Chooser())) as url:
        with pkg.client.Client(url) as client:
            chosen = client.list_starred()
            plain = client.list_starred(accept="application/json")
    assert [type(s).__name__ for s in chosen] == ["Starred"]
    assert [type(r).__name__ for r in plain] == ["Repo"]
    assert refused and STAR in refused[0] and "application/json" in refused[0]
