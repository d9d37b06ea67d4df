"""Security by scheme, over real HTTP: each declared scheme checked where and as it is declared,
alternatives and combinations, identities reaching the service, secure by default, and the
generated client sending each credential where the contract says."""

from __future__ import annotations

import base64
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from gen_support import Generated, GenerateFn, openapi, serve

OK = {"200": {"description": "ok", "content": {"application/json": {"schema": {
    "type": "object", "properties": {"who": {"type": "string"}}}}}}}
UNAUTHORIZED = {"401": {"description": "no", "content": {"application/problem+json": {"schema": {
    "type": "object", "properties": {"title": {"type": "string"}}}}}}}


def _op(op_id: str, security: list[dict[str, list[str]]]) -> dict[str, Any]:
    return {"get": {"operationId": op_id, "security": security,
                    "responses": {**OK, **UNAUTHORIZED}}}


SPEC = openapi(
    {
        "/bearer": _op("viaBearer", [{"bearer": []}]),
        "/basic": _op("viaBasic", [{"basic": []}]),
        "/header-key": _op("viaHeaderKey", [{"headerKey": []}]),
        "/query-key": _op("viaQueryKey", [{"queryKey": []}]),
        "/cookie-key": _op("viaCookieKey", [{"cookieKey": []}]),
        "/oauth": _op("viaOauth", [{"oauth": ["items:read", "items:write"]}]),
        "/oidc": _op("viaOidc", [{"oidc": ["profile"]}]),
        "/either": _op("viaEither", [{"basic": []}, {"headerKey": []}]),
        "/both": _op("viaBoth", [{"bearer": [], "queryKey": []}]),
        "/open": _op("viaOpen", [{}, {"bearer": []}]),
        "/problem": {"post": {
            "operationId": "makeProblem",
            "requestBody": {"required": True, "content": {"application/json": {"schema": {
                "type": "object", "required": ["n"], "properties": {"n": {"type": "integer"}}}}}},
            "responses": {**OK, **{status: {"description": "problem", "content": {
                "application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}}}
                for status in ("400", "404")}}}},
    },
    {"Problem": {"type": "object", "properties": {
        "title": {"type": "string"}, "status": {"type": "integer"}}}},
    components={"securitySchemes": {
        "bearer": {"type": "http", "scheme": "bearer"},
        "basic": {"type": "http", "scheme": "basic"},
        "headerKey": {"type": "apiKey", "in": "header", "name": "X-API-Key"},
        "queryKey": {"type": "apiKey", "in": "query", "name": "api_key"},
        "cookieKey": {"type": "apiKey", "in": "cookie", "name": "session"},
        "oauth": {"type": "oauth2", "flows": {"clientCredentials": {
            "tokenUrl": "https://auth.example/token",
            "scopes": {"items:read": "read", "items:write": "write"}}}},
        "oidc": {"type": "openIdConnect",
                 "openIdConnectUrl": "https://auth.example/.well-known/openid-configuration"},
    }},
)
SPEC["info"]["title"] = "Secure"
SECRETS = {"bearer": "tok", "headerKey": "hk", "queryKey": "qk", "cookieKey": "ck",
           "oauth": "otok", "oidc": "itok"}


@pytest.fixture(scope="module")
def secure(tmp_path_factory: pytest.TempPathFactory) -> Generated:
    from gen_support import generate_package

    return generate_package(SPEC, tmp_path_factory.mktemp("secure"))


@pytest.fixture(scope="module")
def seen() -> list[Any]:
    return []


def _verifiers(seen: list[Any]) -> dict[str, Any]:
    def verify(credential: Any) -> Any:
        seen.append((credential.scheme, credential.kind, credential.scopes,
                     credential.operation_id))
        if credential.kind == "basic":
            ok = (credential.username, credential.password) == ("ann", "pw:1")
            return f"user:{credential.username}" if ok else None
        return f"{credential.scheme}-id" if credential.value == SECRETS[credential.scheme] else None

    async def verify_async(credential: Any) -> Any:
        return verify(credential)

    verifiers: dict[str, Any] = dict.fromkeys(SECRETS, verify)
    verifiers["basic"] = verify_async
    return verifiers


@pytest.fixture(scope="module")
def url(secure: Generated, seen: list[Any]) -> Iterator[str]:
    server = secure.server

    def who() -> dict[str, str]:
        caller = server.current_caller()
        if caller is None:
            return {"who": "anonymous"}
        return {"who": ",".join(f"{k}={v}" for k, v in caller.identities.items())}

    class Service(server.ServiceBase):  # type: ignore[misc,name-defined]
        pass

    async def make_problem(self: Any, body: Any) -> Any:
        raise secure.errors.MakeProblemNotFound(secure.models.Problem(title="gone", status=404))

    Service.make_problem = make_problem
    for op in ("via_bearer", "via_basic", "via_header_key", "via_query_key", "via_cookie_key",
               "via_oauth", "via_oidc", "via_either", "via_both", "via_open"):
        async def method(self: Any) -> Any:
            return who()

        setattr(Service, op, method)
    with serve(server.create_app(Service(), verifiers=_verifiers(seen))) as base:
        yield base


def _basic(user: str, password: str) -> str:
    return "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode()


@pytest.mark.parametrize(("path", "good", "who"), [
    ("/bearer", {"headers": {"Authorization": "Bearer tok"}}, "bearer=bearer-id"),
    ("/basic", {"headers": {"Authorization": _basic("ann", "pw:1")}}, "basic=user:ann"),
    ("/header-key", {"headers": {"X-API-Key": "hk"}}, "headerKey=headerKey-id"),
    ("/query-key", {"params": {"api_key": "qk"}}, "queryKey=queryKey-id"),
    ("/cookie-key", {"headers": {"Cookie": "session=ck"}}, "cookieKey=cookieKey-id"),
    ("/oauth", {"headers": {"Authorization": "Bearer otok"}}, "oauth=oauth-id"),
    ("/oidc", {"headers": {"Authorization": "Bearer itok"}}, "oidc=oidc-id"),
])
def test_each_scheme_is_read_where_declared(url: str, path: str, good: dict[str, Any],
                                            who: str) -> None:
    response = httpx.get(url + path, **good)
    assert response.status_code == 200, response.text
    assert response.json() == {"who": who}
    assert httpx.get(url + path).status_code == 401


def test_a_credential_in_the_wrong_place_or_wrong_scheme_is_refused(url: str) -> None:
    assert httpx.get(url + "/header-key", params={"X-API-Key": "hk"}).status_code == 401
    assert httpx.get(url + "/query-key", headers={"api_key": "qk"}).status_code == 401
    assert httpx.get(url + "/bearer", headers={"Authorization": "Basic tok"}).status_code == 401
    assert httpx.get(url + "/basic", headers={"Authorization": "Basic !!"}).status_code == 401
    assert httpx.get(url + "/basic", headers={"Authorization": _basic("ann", "no")}
                     ).status_code == 401


def test_verifiers_are_told_scheme_and_required_scopes(url: str, seen: list[Any]) -> None:
    seen.clear()
    httpx.get(url + "/oauth", headers={"Authorization": "Bearer otok"})
    httpx.get(url + "/oidc", headers={"Authorization": "Bearer x"})
    assert seen == [("oauth", "oauth2", ("items:read", "items:write"), "viaOauth"),
                    ("oidc", "openid", ("profile",), "viaOidc")]


def test_401s_challenge_with_the_declared_schemes(url: str) -> None:
    challenges = {path: httpx.get(url + path).headers["www-authenticate"]
                  for path in ("/bearer", "/basic", "/header-key", "/oauth", "/either")}
    assert challenges == {
        "/bearer": "Bearer",
        "/basic": 'Basic realm="Secure"',
        "/header-key": 'APIKey in="header", name="X-API-Key"',
        "/oauth": 'Bearer scope="items:read items:write"',
        "/either": 'Basic realm="Secure", APIKey in="header", name="X-API-Key"',
    }


def test_alternatives_and_combinations(url: str) -> None:
    either = url + "/either"
    assert httpx.get(either, headers={"X-API-Key": "hk"}).json() == {"who": "headerKey=headerKey-id"}
    assert httpx.get(either, headers={"Authorization": _basic("ann", "pw:1")}).status_code == 200
    assert httpx.get(either, headers={"X-API-Key": "bad"}).status_code == 401
    both = url + "/both"
    assert httpx.get(both, headers={"Authorization": "Bearer tok"}).status_code == 401
    assert httpx.get(both, params={"api_key": "qk"}).status_code == 401
    response = httpx.get(both, params={"api_key": "qk"}, headers={"Authorization": "Bearer tok"})
    assert response.json() == {"who": "bearer=bearer-id,queryKey=queryKey-id"}


def test_anonymous_alternative_serves_without_credentials_but_refuses_bad_ones(url: str) -> None:
    assert httpx.get(url + "/open").json() == {"who": "anonymous"}
    assert httpx.get(url + "/open", headers={"Authorization": "Bearer tok"}).json() == {
        "who": "bearer=bearer-id"}
    assert httpx.get(url + "/open", headers={"Authorization": "Bearer bad"}).status_code == 401


def test_create_app_refuses_schemes_without_a_verifier(secure: Generated) -> None:
    server = secure.server
    with pytest.raises(ValueError, match="basic, bearer, cookieKey, headerKey, oauth, oidc, "
                                         "queryKey") as refused:
        server.create_app(server.ServiceBase())
    assert "insecure_no_auth=True" in str(refused.value)
    with pytest.raises(ValueError, match="basic"):
        server.create_app(server.ServiceBase(),
                          verifiers={k: v for k, v in _verifiers([]).items() if k != "basic"})
    with pytest.raises(ValueError, match="undeclared security schemes"):
        server.create_app(server.ServiceBase(), verifiers={"nope": lambda c: c})
    app = server.create_app(server.ServiceBase(), insecure_no_auth=True)
    with serve(app) as base:
        assert httpx.get(base + "/bearer").status_code == 501  # served, unauthenticated


def test_the_client_sends_each_credential_where_declared(secure: Generated, url: str) -> None:
    auth = {**SECRETS, "basic": ("ann", "pw:1")}
    with secure.client.Client(url, auth=auth) as client:
        assert client.via_bearer().who == "bearer=bearer-id"
        assert client.via_basic().who == "basic=user:ann"
        assert client.via_header_key().who == "headerKey=headerKey-id"
        assert client.via_query_key().who == "queryKey=queryKey-id"
        assert client.via_cookie_key().who == "cookieKey=cookieKey-id"
        assert client.via_oauth().who == "oauth=oauth-id"
        assert client.via_oidc().who == "oidc=oidc-id"
        assert client.via_either().who == "basic=user:ann"  # the first satisfiable alternative
        assert client.via_both().who == "bearer=bearer-id,queryKey=queryKey-id"
    with secure.client.Client(url, auth={"headerKey": "hk"}) as client:
        assert client.via_either().who == "headerKey=headerKey-id"
        assert client.via_open().who == "anonymous"
        with pytest.raises(secure.errors.ViaBearerUnauthorized):
            client.via_bearer()
    with secure.client.Client(url, token="tok") as client:  # token: every bearer-like scheme
        assert client.via_bearer().who == "bearer=bearer-id"
        assert client.via_open().who == "bearer=bearer-id"


def test_the_async_client_sends_credentials_too(secure: Generated, url: str) -> None:
    import asyncio

    async def main() -> tuple[str, str]:
        async with secure.client.AsyncClient(url, auth={"basic": ("ann", "pw:1"),
                                                        "cookieKey": "ck"}) as client:
            return (await client.via_basic()).who, (await client.via_cookie_key()).who

    assert asyncio.run(main()) == ("basic=user:ann", "cookieKey=cookieKey-id")


def test_unparsed_http_schemes_are_a_located_warning(generate: GenerateFn, tmp_path: Any) -> None:
    import json

    import contractgen

    spec = openapi({"/x": _op("x", [{"digest": []}])}, components={"securitySchemes": {
        "digest": {"type": "http", "scheme": "digest"}}})
    path = tmp_path / "digest.json"
    path.write_text(json.dumps(spec))
    _, warnings = contractgen.render(path)
    found = [w for w in warnings if "digest" in w.message]
    assert found and found[0].pointer == "/components/securitySchemes/digest"
    assert httpx is not None


def test_errors_go_out_in_the_declared_media_type(secure: Generated, url: str) -> None:
    denied = httpx.get(url + "/bearer")
    assert (denied.status_code, denied.headers["content-type"]) == (401, "application/problem+json")
    invalid = httpx.post(url + "/problem", json={"n": "x"})
    assert (invalid.status_code, invalid.headers["content-type"]) == (
        400, "application/problem+json")
    declared = httpx.post(url + "/problem", json={"n": 1})
    assert declared.headers["content-type"] == "application/problem+json"
    assert declared.json() == {"title": "gone", "status": 404}
    with secure.client.Client(url) as client, pytest.raises(
            secure.errors.MakeProblemNotFound) as raised:
        client.make_problem(secure.models.MakeProblemRequest(n=1))
    assert raised.value.body == secure.models.Problem(title="gone", status=404)
