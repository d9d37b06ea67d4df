"""Constructs of real contracts that went wrong on the wire (issue 37), each a minimal
reproduction, driven through the generated client and the generated server over loopback
HTTP, the request checked on the wire with openapi-core where it can judge it:

- Stripe's form bodies with `encoding` deepObject (`metadata[k]=v`, `expand[0]=x`, lists of
  objects) and its deepObject query parameters that are arrays or `anyOf[object, integer]`;
- GitHub's asset upload: `servers` of its own (`uploads.github.com`; GitHub Enterprise's
  `/api/uploads` beside `/api/v3`) and a body declared as `*/*`;
- a path parameter whose value holds `/`, sent as `%2F` (GitHub `contents/{path}`, Xero,
  Sentry): Starlette decodes the path before it matches routes, so the server answered 404;
- errors declared as `text/event-stream` (TGI): one event whose data is the declared body,
  where the server answered FastAPI's `{"detail"}`.
"""

from __future__ import annotations

import asyncio
import copy
import dataclasses
from collections.abc import Iterator
from typing import Any
from urllib.parse import parse_qsl, unquote

import httpx
import pytest
from gen_support import Generated, generate_package, openapi, serve

FORM = "application/x-www-form-urlencoded"
DEEP = {"style": "deepObject", "explode": True}
_ERROR = {"description": "refused", "content": {"application/json": {"schema": {
    "$ref": "#/components/schemas/Error"}}}}
_ECHO = {"description": "what the service read", "content": {"application/json": {
    "schema": {"type": "object", "additionalProperties": True}}}}
_OR_EMPTY = {"type": "string", "enum": [""]}  # Stripe's way to clear a value

# Stripe's POST /v1/customers and GET /v1/customers, cut to the shapes that matter.
CUSTOMER_FORM = {
    "type": "object",
    "properties": {
        "address": {"anyOf": [{"type": "object", "title": "optional_fields_address",
                               "properties": {"city": {"type": "string"},
                                              "line1": {"type": "string"}}}, _OR_EMPTY]},
        "balance": {"type": "integer"},
        "email": {"type": "string"},
        "expand": {"type": "array", "items": {"type": "string"}},
        "metadata": {"anyOf": [{"type": "object", "additionalProperties": {"type": "string"}},
                               _OR_EMPTY]},
        "tax_id_data": {"type": "array", "items": {
            "type": "object", "required": ["type", "value"],
            "properties": {"type": {"type": "string", "enum": ["eu_vat", "gb_vat"]},
                           "value": {"type": "string"}}}},
        "invoice_settings": {"type": "object", "properties": {
            "custom_fields": {"anyOf": [{"type": "array", "items": {
                "type": "object", "required": ["name", "value"],
                "properties": {"name": {"type": "string"}, "value": {"type": "string"}}}},
                _OR_EMPTY]},
            "footer": {"type": "string"}}},
    },
}
STRIPE = openapi({"/v1/customers": {
    "get": {
        "operationId": "GetCustomers",
        "parameters": [
            {"name": "created", "in": "query", **DEEP, "schema": {"anyOf": [
                {"type": "object", "title": "range_query_specs", "properties": {
                    "gt": {"type": "integer"}, "lte": {"type": "integer"}}},
                {"type": "integer"}]}},
            {"name": "expand", "in": "query", **DEEP,
             "schema": {"type": "array", "items": {"type": "string"}}},
            {"name": "limit", "in": "query", "style": "form", "schema": {"type": "integer"}},
        ],
        "responses": {"200": _ECHO, "400": _ERROR},
    },
    "post": {
        "operationId": "PostCustomers",
        "requestBody": {"content": {FORM: {
            "schema": CUSTOMER_FORM,
            "encoding": {name: DEEP for name in ("address", "expand", "metadata",
                                                 "tax_id_data", "invoice_settings")}}}},
        "responses": {"200": _ECHO, "400": _ERROR},
    },
}}, {"Error": {"type": "object", "required": ["error"], "properties": {"error": {
    "type": "object", "properties": {"message": {"type": "string"}}}}}}, version="3.0.0")


def plain(value: Any) -> Any:
    """What a service received, as JSON: models as they were sent, forms as their fields."""
    if isinstance(value, list):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if hasattr(value, "model_dump"):
        return value.model_dump(mode="json", exclude_unset=True)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    return value


class Recorder(httpx.HTTPTransport):
    """An HTTP transport that keeps every request it sends."""

    def __init__(self) -> None:
        super().__init__()
        self.sent: list[httpx.Request] = []

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        request.read()
        self.sent.append(request)
        return super().handle_request(request)


def judged(spec: dict[str, Any], request: httpx.Request) -> list[Exception]:
    """openapi-core's errors for a request as it went on the wire (none: it agrees)."""
    from openapi_core import OpenAPI
    from openapi_core.datatypes import RequestParameters
    from werkzeug.datastructures import Headers, ImmutableMultiDict

    class Wire:
        parameters = RequestParameters(
            query=ImmutableMultiDict(parse_qsl(request.url.query.decode(),
                                               keep_blank_values=True)),
            header=Headers(dict(request.headers)), cookie=ImmutableMultiDict())
        host_url = f"{request.url.scheme}://{request.url.netloc.decode()}"
        path = request.url.raw_path.split(b"?")[0].decode()
        method = request.method.lower()
        body = request.content
        content_type = request.headers.get("content-type", "")

    return list(OpenAPI.from_dict(spec).unmarshal_request(Wire()).errors)


@pytest.fixture(scope="module")
def stripe(tmp_path_factory: pytest.TempPathFactory) -> Generated:
    return generate_package(STRIPE, tmp_path_factory.mktemp("stripe"))


@pytest.fixture(scope="module")
def stripe_url(stripe: Generated) -> Iterator[str]:
    class Service(stripe.server.ServiceBase):  # type: ignore[misc,name-defined]
        async def post_customers(self, body: Any = None) -> Any:
            return plain(body)

        async def get_customers(self, **kwargs: Any) -> Any:
            return plain(kwargs)

    with serve(stripe.server.create_app(Service())) as url:
        yield url


def _pairs(request: httpx.Request) -> list[tuple[str, str]]:
    text = request.content.decode() or request.url.query.decode()
    return [(unquote(k), v) for k, v in parse_qsl(text, keep_blank_values=True)]


def test_form_deep_objects_go_as_stripe_sends_them(stripe: Generated, stripe_url: str) -> None:
    models, recorder = stripe.models, Recorder()
    with stripe.client.Client(stripe_url, transport=recorder) as client:
        read = client.post_customers(
            address=models.PostCustomersFormAddressOptionalFieldsAddress(city="Paris"),
            balance=5, expand=["customer", "tax"], metadata={"order": "6735"},
            tax_id_data=[models.PostCustomersFormTaxIdDataItem(type="eu_vat", value="FR1")],
            invoice_settings=models.PostCustomersFormInvoiceSettings(
                custom_fields=[{"name": "po", "value": "7"}], footer="thanks"))
        cleared = client.post_customers(metadata="", address="")
    assert _pairs(recorder.sent[0]) == [
        ("address[city]", "Paris"), ("balance", "5"), ("expand[0]", "customer"),
        ("expand[1]", "tax"), ("metadata[order]", "6735"), ("tax_id_data[0][type]", "eu_vat"),
        ("tax_id_data[0][value]", "FR1"), ("invoice_settings[custom_fields][0][name]", "po"),
        ("invoice_settings[custom_fields][0][value]", "7"),
        ("invoice_settings[footer]", "thanks")]
    assert read == {
        "address": {"city": "Paris"}, "balance": 5, "email": None,
        "expand": ["customer", "tax"], "metadata": {"order": "6735"},
        "tax_id_data": [{"type": "eu_vat", "value": "FR1"}],
        "invoice_settings": {"custom_fields": [{"name": "po", "value": "7"}],
                             "footer": "thanks"}}
    assert _pairs(recorder.sent[1]) == [("address", ""), ("metadata", "")]
    assert cleared["metadata"] == "" and cleared["address"] == ""


@pytest.mark.parametrize(("body", "where"), [
    ("balance=five", "balance"),
    ("tax_id_data[0][type]=us_ein&tax_id_data[0][value]=1", "tax_id_data"),
    ("metadata[a][b]=1", "metadata"),
    ("metadata=x&metadata[a]=1", "metadata"),
    ("invoice_settings[custom_fields][0][name]=po", "invoice_settings"),
])
def test_a_bad_form_field_is_the_declared_400(stripe_url: str, body: str, where: str) -> None:
    answer = httpx.post(f"{stripe_url}/v1/customers", content=body.encode(),
                        headers={"content-type": FORM})
    assert answer.status_code == 400, answer.text
    assert where in answer.json()["error"]["message"]


def test_other_spellings_of_deep_keys_are_read(stripe_url: str) -> None:
    body = "expand[]=a&expand[]=b&metadata[0]=zero&tax_id_data[1][type]=gb_vat" \
           "&tax_id_data[1][value]=2&tax_id_data[0][type]=eu_vat&tax_id_data[0][value]=1"
    answer = httpx.post(f"{stripe_url}/v1/customers", content=body.encode(),
                        headers={"content-type": FORM})
    assert answer.status_code == 200, answer.text
    read = answer.json()
    assert read["expand"] == ["a", "b"]
    assert read["metadata"] == {"0": "zero"}  # a map whose key is a number stays a map
    assert read["tax_id_data"] == [{"type": "eu_vat", "value": "1"},
                                   {"type": "gb_vat", "value": "2"}]


def test_deep_object_query_arrays_and_integers(stripe: Generated, stripe_url: str) -> None:
    recorder = Recorder()
    range_ = stripe.models.GetCustomersCreatedRangeQuerySpecs(gt=1, lte=9)
    with stripe.client.Client(stripe_url, transport=recorder) as client:
        assert client.get_customers(created=1700000000, expand=["data.tax"], limit=3) == {
            "created": 1700000000, "expand": ["data.tax"], "limit": 3}
        assert client.get_customers(created=range_) == {
            "created": {"gt": 1, "lte": 9}, "expand": None, "limit": None}
    assert _pairs(recorder.sent[0]) == [("created", "1700000000"), ("expand[0]", "data.tax"),
                                        ("limit", "3")]
    assert _pairs(recorder.sent[1]) == [("created[gt]", "1"), ("created[lte]", "9")]
    for query in ("created[gt]=soon", "created=soon", "expand[x]=1", "created[gt]=1&created=2"):
        answer = httpx.get(f"{stripe_url}/v1/customers?{query}")
        assert answer.status_code == 400, (query, answer.text)


# Stripe's POST /v1/files: a multipart body whose `encoding` puts its object in deepObject style.
FILES = openapi({"/v1/files": {"post": {
    "operationId": "PostFiles",
    "requestBody": {"required": True, "content": {"multipart/form-data": {
        "schema": {"type": "object", "required": ["file", "purpose"], "properties": {
            "file": {"type": "string", "format": "binary"},
            "purpose": {"type": "string", "enum": ["dispute_evidence", "identity_document"]},
            "expand": {"type": "array", "items": {"type": "string"}},
            "file_link_data": {"type": "object", "title": "file_link_creation_params",
                               "required": ["create"], "properties": {
                                   "create": {"type": "boolean"},
                                   "expires_at": {"type": "integer"}}}}},
        "encoding": {"expand": DEEP, "file_link_data": DEEP}}}},
    "responses": {"200": _ECHO, "400": _ERROR}}}},
    STRIPE["components"]["schemas"], version="3.0.0")


def test_multipart_deep_objects_are_parts_of_their_own(tmp_path: Any) -> None:
    pkg = generate_package(FILES, tmp_path)

    class Service(pkg.server.ServiceBase):  # type: ignore[misc,name-defined]
        async def post_files(self, form: Any) -> Any:
            return {**plain(form), "file": None, "size": len(await form.file.read())}

    recorder = Recorder()
    with serve(pkg.server.create_app(Service())) as url, \
            pkg.client.Client(url, transport=recorder) as client:
        read = client.post_files(
            file=("evidence.pdf", b"%PDF-1.4"), purpose="dispute_evidence", expand=["links"],
            file_link_data=pkg.models.PostFilesFormFileLinkData(
                create=True, expires_at=1700000000))
        refused = httpx.post(f"{url}/v1/files", files={"file": ("a", b"x")}, data={
            "purpose": "dispute_evidence", "file_link_data[create]": "maybe"})
    assert read == {"size": 8, "file": None, "purpose": "dispute_evidence", "expand": ["links"],
                    "file_link_data": {"create": True, "expires_at": 1700000000}}
    body = recorder.sent[0].content
    for name, value in (("expand[0]", b"links"), ("file_link_data[create]", b"true"),
                        ("file_link_data[expires_at]", b"1700000000")):
        assert f'name="{name}"\r\n\r\n'.encode() + value + b"\r\n" in body, name
    assert refused.status_code == 400 and "file_link_data" in refused.json()["error"]["message"]


# openapi-core reads deepObject only one level deep and only where the schema is `type:
# object` (`deep_object_loads`; python-openapi/openapi-core#250, #379): it refuses Stripe's
# arrays (`expand[0]`), nesting and `anyOf` members, which OpenAPI leaves undefined for the
# style. It judges the shape it defines: a flat map, in a form body and in a query.
JUDGED = openapi({"/v1/charges": {"post": {
    "operationId": "PostCharges",
    "parameters": [{"name": "filter", "in": "query", **DEEP, "schema": {
        "type": "object", "properties": {"status": {"type": "string"},
                                         "limit": {"type": "integer"}}}}],
    "requestBody": {"content": {FORM: {
        "schema": {"type": "object", "properties": {
            "amount": {"type": "integer"},
            "metadata": {"type": "object", "additionalProperties": {"type": "string"}}}},
        "encoding": {"metadata": DEEP}}}},
    "responses": {"200": _ECHO},
}}}, version="3.0.0")


def test_openapi_core_agrees_with_the_deep_objects_on_the_wire(
        tmp_path: Any) -> None:
    judged_pkg = generate_package(JUDGED, tmp_path)

    class Service(judged_pkg.server.ServiceBase):  # type: ignore[misc,name-defined]
        async def post_charges(self, body: Any = None, **kwargs: Any) -> Any:
            return {"body": plain(body), **plain(kwargs)}

    recorder = Recorder()
    with serve(judged_pkg.server.create_app(Service())) as url, \
            judged_pkg.client.Client(url, transport=recorder) as client:
        read = client.post_charges(amount=100, metadata={"order": "6735", "team": "a"},
                                   filter=judged_pkg.models.PostChargesFilter(limit=2))
    assert read == {"body": {"amount": 100, "metadata": {"order": "6735", "team": "a"}},
                    "filter": {"limit": 2}}
    assert judged(JUDGED, recorder.sent[0]) == []


# GitHub's `contents/{path}` (its last segment) and Xero's `{ItemID}` (one in the middle).
SLASHES = openapi({
    "/repos/{owner}/{repo}/contents/{path}": {"get": {
        "operationId": "repos/get-content",
        "parameters": [{"name": n, "in": "path", "required": True, "schema": {"type": "string"}}
                       for n in ("owner", "repo", "path")],
        "responses": {"200": _ECHO}}},
    "/Items/{ItemID}/History": {"get": {
        "operationId": "getItemHistory",
        "parameters": [{"name": "ItemID", "in": "path", "required": True,
                        "schema": {"type": "string"}}],
        "responses": {"200": _ECHO}}},
    "/Items/{ItemID}": {"get": {
        "operationId": "getItem",
        "parameters": [{"name": "ItemID", "in": "path", "required": True,
                        "schema": {"type": "string"}}],
        "responses": {"200": _ECHO}}},
})


def test_a_path_parameter_holding_slashes_is_routed_and_decoded(tmp_path: Any) -> None:
    pkg = generate_package(SLASHES, tmp_path)

    class Service(pkg.server.ServiceBase):  # type: ignore[misc,name-defined]
        async def repos_get_content(self, owner: str, repo: str, path: str) -> Any:
            return {"owner": owner, "repo": repo, "path": path}

        async def get_item_history(self, item_id: str) -> Any:
            return {"history": item_id}

        async def get_item(self, item_id: str) -> Any:
            return {"item": item_id}

    recorder = Recorder()
    with serve(pkg.server.create_app(Service())) as url, \
            pkg.client.Client(url, transport=recorder) as client:
        assert client.repos_get_content("octo", "hello", "docs/a b/README.md") == {
            "owner": "octo", "repo": "hello", "path": "docs/a b/README.md"}
        assert client.get_item_history("A/B 100%") == {"history": "A/B 100%"}
        assert client.get_item("A/B") == {"item": "A/B"}
        assert client.get_item("plain") == {"item": "plain"}
        # Unencoded, `/` still separates segments: no operation has three of them here.
        assert httpx.get(f"{url}/Items/A/B/History").status_code == 404
    assert [r.url.raw_path.decode() for r in recorder.sent[:2]] == [
        "/repos/octo/hello/contents/docs%2Fa%20b%2FREADME.md", "/Items/A%2FB%20100%25/History"]
    assert [judged(SLASHES, r) for r in recorder.sent] == [[], [], [], []]


# GitHub Enterprise Server's shape: the API under /api/v3, uploads under /api/uploads.
UPLOADS = openapi({
    "/repos/{owner}/{repo}/releases/{release_id}/assets": {"post": {
        "operationId": "repos/upload-release-asset",
        "servers": [{"url": "{protocol}://{hostname}/api/uploads", "variables": {
            "protocol": {"default": "https"}, "hostname": {"default": "github.example.com"}}}],
        "parameters": [
            {"name": "owner", "in": "path", "required": True, "schema": {"type": "string"}},
            {"name": "repo", "in": "path", "required": True, "schema": {"type": "string"}},
            {"name": "release_id", "in": "path", "required": True, "schema": {"type": "integer"}},
            {"name": "name", "in": "query", "required": True, "schema": {"type": "string"}}],
        "requestBody": {"required": False, "content": {"*/*": {"schema": {
            "type": "string", "description": "The raw file data"}}}},
        "responses": {"201": _ECHO}}},
    "/repos/{owner}/{repo}/releases/{release_id}": {"get": {
        "operationId": "repos/get-release",
        "parameters": [
            {"name": "owner", "in": "path", "required": True, "schema": {"type": "string"}},
            {"name": "repo", "in": "path", "required": True, "schema": {"type": "string"}},
            {"name": "release_id", "in": "path", "required": True, "schema": {"type": "integer"}}],
        "responses": {"200": _ECHO}}},
}, servers=[{"url": "{protocol}://{hostname}/api/v3", "variables": {
    "protocol": {"default": "https"}, "hostname": {"default": "github.example.com"}}}])


@pytest.fixture(scope="module")
def github(tmp_path_factory: pytest.TempPathFactory) -> Generated:
    return generate_package(UPLOADS, tmp_path_factory.mktemp("github"))


def test_an_operation_with_its_own_server_is_sent_and_routed_there(github: Generated) -> None:
    class Service(github.server.ServiceBase):  # type: ignore[misc,name-defined]
        async def repos_upload_release_asset(self, owner: str, repo: str, release_id: int,
                                             body: bytes | None = None, *, name: str) -> Any:
            return {"name": name, "size": len(body or b""), "release": release_id}

        async def repos_get_release(self, owner: str, repo: str, release_id: int) -> Any:
            return {"release": release_id}

    app = github.server.create_app(Service())
    paths = sorted(getattr(r, "path", "") for r in app.routes)
    assert "/api/uploads/repos/{owner}/{repo}/releases/{release_id}/assets" in paths
    assert "/api/v3/repos/{owner}/{repo}/releases/{release_id}" in paths
    recorder = Recorder()
    with serve(app) as url:
        # A deployment of the whole API (base_url is none of the contract's servers): the
        # upload goes to its host, under the upload server's path, where the stub routes it.
        with github.client.Client(url + "/api/v3", transport=recorder) as client:
            assert client.repos_get_release("o", "r", 1) == {"release": 1}
            assert client.repos_upload_release_asset("o", "r", 1, b"PK\x03\x04", name="a.zip",
                                                     content_type="application/zip") == {
                "name": "a.zip", "size": 4, "release": 1}
            assert client.repos_upload_release_asset("o", "r", 1, b"x", name="b") == {
                "name": "b", "size": 1, "release": 1}
        moved = {"https://github.example.com/api/uploads": url + "/api/uploads"}
        with github.client.Client(github.client.SERVERS[0], servers=moved,
                                  transport=recorder) as client:
            client.repos_upload_release_asset("o", "r", 2, b"y", name="c")
    assert [str(r.url).removeprefix(url) for r in recorder.sent] == [
        "/api/v3/repos/o/r/releases/1", "/api/uploads/repos/o/r/releases/1/assets?name=a.zip",
        "/api/uploads/repos/o/r/releases/1/assets?name=b",
        "/api/uploads/repos/o/r/releases/2/assets?name=c"]
    assert [r.headers.get("content-type") for r in recorder.sent[1:]] == [
        "application/zip", "application/octet-stream", "application/octet-stream"]
    with pytest.raises(ValueError, match="unknown servers"):
        github.client.Client(url, servers={"https://uploads.github.com": url})
    # openapi-core finds each request's operation by its servers: here, where they were served.
    local = copy.deepcopy(UPLOADS)
    local["servers"] = [{"url": url + "/api/v3"}]
    local["paths"]["/repos/{owner}/{repo}/releases/{release_id}/assets"]["post"]["servers"] = [
        {"url": url + "/api/uploads"}]
    assert judged(local, recorder.sent[0]) == []
    # The uploads' server, path and parameters agree; their bytes openapi-core checks as a
    # `type: string` value, which bytes never are (python-openapi/openapi-core#854).
    assert [[type(e).__name__ for e in judged(local, r)] for r in recorder.sent[1:]] == [
        ["InvalidRequestBody"]] * 3


def test_from_the_contracts_servers_the_upload_goes_to_its_own(github: Generated) -> None:
    seen: list[str] = []

    def answer(request: httpx.Request) -> httpx.Response:
        seen.append(str(request.url))
        return httpx.Response(201, json={})

    async def uploaded(base_url: str) -> None:
        async with github.client.AsyncClient(
                base_url, transport=httpx.MockTransport(answer)) as client:
            await client.repos_upload_release_asset("o", "r", 1, b"x", name="n")

    for base_url in (github.client.SERVERS[0], github.client.server_url(hostname="ghe.corp")):
        with github.client.Client(base_url, transport=httpx.MockTransport(answer)) as client:
            client.repos_upload_release_asset("o", "r", 1, b"x", name="n")
        asyncio.run(uploaded(base_url))
    # The second host is no server of the contract as written (its variables at their
    # defaults): a deployment of the whole API, as with a local one.
    home = "https://github.example.com/api/uploads/repos/o/r/releases/1/assets?name=n"
    other = "https://ghe.corp/api/uploads/repos/o/r/releases/1/assets?name=n"
    assert seen == [home, home, other, other]


def test_what_is_not_written_as_declared_is_warned_about_where_it_is(tmp_path: Any) -> None:
    import json

    import contractgen.api

    spec = openapi({"/a": {
        "servers": [{"url": "/uploads"}],
        "post": {
            "operationId": "postA",
            "requestBody": {"content": {FORM: {
                "schema": {"type": "object", "properties": {
                    "ids": {"type": "array", "items": {"type": "integer"}},
                    "tags": {"type": "array", "items": {"type": "string"}}}},
                "encoding": {"ids": {"style": "form", "explode": False},
                             "tags": {"style": "pipeDelimited"}}}}},
            "responses": {"200": _ECHO}}},
        "/b": {"servers": [{"url": "https://files.example.com/v2/"}],
               "get": {"operationId": "getB", "responses": {"200": _ECHO}}}})
    path = tmp_path / "spec.json"
    path.write_text(json.dumps(spec, indent=1), encoding="utf-8")
    files, problems = contractgen.api.render(path)
    found = {p.pointer: p for p in problems if "encoding style" in p.message
             or "server URL" in p.message}
    media = "/paths/~1a/post/requestBody/content/application~1x-www-form-urlencoded"
    assert sorted(found) == sorted(["/paths/~1a/servers/0", f"{media}/encoding/ids",
                                    f"{media}/encoding/tags"])
    assert all(p.line is not None for p in found.values())
    assert "sent as `form` explodes it" in found[f"{media}/encoding/ids"].message
    assert "sent to, and served at, the API's own" in found["/paths/~1a/servers/0"].message
    assert [line for line in files["server.py"].splitlines() if "@_route(" in line] == [
        '    @_route("postA", "POST", "/a", ("application/json",))',  # no server_path
        '    @_route("getB", "GET", "/b", ("application/json",), server_path="/v2")']
    assert '"https://files.example.com/v2/b",' in files["client.py"]  # a path item's server


# Hugging Face text-generation-inference's /generate_stream, cut to its shapes.
_EVENT_ERROR = {"text/event-stream": {"schema": {"$ref": "#/components/schemas/ErrorResponse"}}}
TGI = openapi({"/generate_stream": {"post": {
    "operationId": "generate_stream",
    "requestBody": {"required": True, "content": {"application/json": {"schema": {
        "type": "object", "required": ["inputs"], "properties": {"inputs": {"type": "string"}}}}}},
    "responses": {
        "200": {"description": "Generated Text", "content": {"text/event-stream": {"schema": {
            "$ref": "#/components/schemas/StreamResponse"}}}},
        **{status: {"description": text, "content": _EVENT_ERROR} for status, text in (
            ("422", "Input validation error"), ("424", "Generation Error"),
            ("429", "Model is overloaded"), ("500", "Incomplete generation"))}}}}},
    {"StreamResponse": {"type": "object", "required": ["token"],
                        "properties": {"token": {"type": "string"}}},
     "ErrorResponse": {"type": "object", "required": ["error", "error_type"], "properties": {
         "error": {"type": "string"}, "error_type": {"type": "string"}}}}, version="3.0.3")


def test_errors_declared_as_events_are_one_event_of_the_declared_shape(tmp_path: Any) -> None:
    import json

    pkg = generate_package(TGI, tmp_path)

    class Service(pkg.server.ServiceBase):  # type: ignore[misc,name-defined]
        async def generate_stream(self, body: Any) -> Any:
            if body.inputs == "busy":
                raise pkg.errors.ApiError({"error": "Model is overloaded",
                                           "error_type": "overloaded"}, status_code=429)

            async def tokens() -> Any:
                yield pkg.models.StreamResponse(token="Hello")
            return tokens()

    with serve(pkg.server.create_app(Service())) as url:
        refused = httpx.post(f"{url}/generate_stream", json={"inputs": 5})
        busy = httpx.post(f"{url}/generate_stream", json={"inputs": "busy"})
        with pkg.client.Client(url) as client:
            assert [e.data.token for e in client.generate_stream(
                pkg.models.GenerateStreamRequest(inputs="hi"))] == ["Hello"]
            with pytest.raises(pkg.errors.GenerateStreamTooManyRequests) as caught:
                list(client.generate_stream(pkg.models.GenerateStreamRequest(inputs="busy")))
    for answer in (refused, busy):
        assert answer.headers["content-type"].startswith("text/event-stream")
        data = answer.text.removeprefix("data: ").removesuffix("\n\n")
        assert answer.text == f"data: {data}\n\n"
        assert sorted(json.loads(data)) == ["error", "error_type"]
    assert refused.status_code == 422 and "inputs" in json.loads(refused.text[6:])["error"]
    assert busy.status_code == 429
    assert caught.value.body.error_type == "overloaded"


def _stripe_customers() -> dict[str, Any]:
    """Stripe's own /v1/customers (list and create) from ../shared/corpus, their requests as
    published; their answers an echo of what the service read (the point is the request)."""
    import gzip

    import yaml
    from shared_corpus import CORPUS

    source = CORPUS / "stripe-spec3.yaml.gz"
    if not source.exists():
        pytest.skip(f"corpus contract {source} is not here")
    whole = yaml.load(gzip.decompress(source.read_bytes()), Loader=yaml.CSafeLoader)
    item = whole["paths"]["/v1/customers"]
    for operation in item.values():
        operation["responses"] = {"200": _ECHO, "400": _ERROR}
    return openapi({"/v1/customers": item}, STRIPE["components"]["schemas"],
                   version=whole["openapi"])


@pytest.mark.slow
def test_stripes_own_customer_requests_round_trip(tmp_path: Any) -> None:
    pkg = generate_package(_stripe_customers(), tmp_path)

    class Service(pkg.server.ServiceBase):  # type: ignore[misc,name-defined]
        async def post_customers(self, body: Any = None) -> Any:
            return plain(body)

        async def get_customers(self, body: Any = None, **kwargs: Any) -> Any:
            return plain(kwargs)  # Stripe declares an (empty) form body on its GETs

    recorder = Recorder()
    with serve(pkg.server.create_app(Service())) as url, \
            pkg.client.Client(url, transport=recorder) as client:
        created = client.post_customers(
            email="jenny@example.com", metadata={"order_id": "6735"}, expand=["tax"],
            preferred_locales=["fr", "en"],
            tax_id_data=[{"type": "eu_vat", "value": "FR12345678901"}],
            invoice_settings={"custom_fields": [{"name": "PO", "value": "7"}]})
        listed = client.get_customers(created={"gte": 1700000000}, expand=["data.tax"], limit=3)
        exact = client.get_customers(created=1700000000)
    assert _pairs(recorder.sent[0]) == [
        ("email", "jenny@example.com"), ("expand[0]", "tax"),
        ("invoice_settings[custom_fields][0][name]", "PO"),
        ("invoice_settings[custom_fields][0][value]", "7"),
        ("metadata[order_id]", "6735"), ("preferred_locales[0]", "fr"),
        ("preferred_locales[1]", "en"), ("tax_id_data[0][type]", "eu_vat"),
        ("tax_id_data[0][value]", "FR12345678901")]
    assert {k: v for k, v in created.items() if v is not None} == {
        "email": "jenny@example.com", "expand": ["tax"],
        "invoice_settings": {"custom_fields": [{"name": "PO", "value": "7"}]},
        "metadata": {"order_id": "6735"}, "preferred_locales": ["fr", "en"],
        "tax_id_data": [{"type": "eu_vat", "value": "FR12345678901"}]}
    assert listed["created"] == {"gte": 1700000000} and listed["expand"] == ["data.tax"]
    assert exact["created"] == 1700000000
    assert _pairs(recorder.sent[1])[:2] == [("created[gte]", "1700000000"),
                                            ("expand[0]", "data.tax")]


def test_a_required_list_that_may_be_empty_in_bracket_notation_is_warned_about(
        tmp_path: Any) -> None:
    """`[]` and `{}` have no spelling in bracket notation (Stripe's encoder sends nothing for
    them): a deepObject field whose required list or object may be empty is warned about at
    its encoding, naming the property; a `minItems: 1` list is not."""
    import json

    import contractgen.api

    line = {"type": "object", "required": ["price", "tax_rates", "done"], "properties": {
        "price": {"type": "string"},
        "tax_rates": {"type": "array", "items": {"type": "string"}},
        "done": {"type": "array", "minItems": 1, "items": {"type": "string"}}}}
    spec = openapi({"/a": {"post": {
        "operationId": "postA",
        "requestBody": {"content": {FORM: {
            "schema": {"type": "object", "properties": {
                "items": {"type": "array", "items": line},
                "expand": {"type": "array", "items": {"type": "string"}}}},
            "encoding": {"items": {"style": "deepObject", "explode": True},
                         "expand": {"style": "deepObject", "explode": True}}}}},
        "responses": {"200": _ECHO}}}})
    path = tmp_path / "spec.json"
    path.write_text(json.dumps(spec, indent=1), encoding="utf-8")
    _, problems = contractgen.api.render(path)
    found = [p for p in problems if "bracket notation" in p.message]
    media = "/paths/~1a/post/requestBody/content/application~1x-www-form-urlencoded"
    assert [p.pointer for p in found] == [f"{media}/encoding/items"]
    assert "`items[].tax_rates` is required" in found[0].message
    assert "done" not in found[0].message and found[0].line is not None


def test_an_own_server_the_client_cannot_honour_is_warned_about(tmp_path: Any) -> None:
    """No top-level server with a host (OpenAPI's default `/`): no base_url is one of the API's,
    so an operation's own server is used only through `servers=`, and that is said where it is
    declared; a server URL that is a scheme alone (DigitalOcean's `https://`) is not used."""
    import json

    import contractgen.api

    spec = openapi({
        "/items": {"servers": [{"url": "https://items.example.com/v1"}],
                   "get": {"operationId": "getItems", "responses": {"200": _ECHO}}},
        "/upload": {"put": {"operationId": "upload", "servers": [{"url": "https://"}],
                            "responses": {"200": _ECHO}}}})
    path = tmp_path / "spec.json"
    path.write_text(json.dumps(spec, indent=1), encoding="utf-8")
    files, problems = contractgen.api.render(path)
    found = {p.pointer: p.message for p in problems if "server" in p.message}
    assert sorted(found) == ["/paths/~1items/servers/0", "/paths/~1upload/put/servers/0"]
    assert ("sends this operation to its base_url's host under `/v1`, not to "
            "`https://items.example.com/v1`, unless `servers=` says so"
            in found["/paths/~1items/servers/0"])
    assert found["/paths/~1upload/put/servers/0"].startswith(
        "`PUT /upload`: the server URL without a host `https://` is not used")
    assert '"https://items.example.com/v1/items",' in files["client.py"]
