"""The account of a contract's wire and type keywords (issue 37, item 3): every field of
tests/corpus/every_field_31.yaml has its effect in the generated code, or a located warning
that says what the code does instead; `validate --account` prints the account."""

from __future__ import annotations

import json
from pathlib import Path

import contractgen
import pytest
import yaml
from contractgen.model.account import account, site_of
from gen_support import cli

CORPUS = Path(__file__).resolve().parent.parent / "corpus"
SPEC = CORPUS / "every_field_31.yaml"
SPEC_30 = CORPUS / "every_field_30.yaml"
THINGS = "/paths/~1things~1{id}"
FORM = "/components/requestBodies/Thing/content/application~1x-www-form-urlencoded"
UPLOAD = "/components/pathItems/Upload/post/requestBody/content/multipart~1form-data"

# field -> (generated module, text it must hold): the field's effect.
EFFECTS = {
    "info.title": ("client.py", "Every field 3.1"),
    "servers[].url + variables": ("client.py", "https://{region}.example.com/v1"),
    "pathItem.servers": ("client.py", "https://files.example.com/v1"),
    "operation.servers": ("client.py", "https://read.example.com/v1"),
    "operation.operationId": ("server.py", "getThing"),
    "operation.description": ("client.py", "Gets a thing"),
    "parameter.style pipeDelimited + explode": ("client.py", '"fields": ("pipeDelimited", "array", False)'),
    "parameter.content (JSON)": ("client.py", '"filter": ("json", "object", False)'),
    "parameter in cookie": ("client.py", "session"),
    "parameter in header": ("client.py", "X-Trace"),
    "response.headers": ("client.py", "X-Rate"),
    "response.links (docstring)": ("client.py", "update (200): putThing with id=$response.body#/id"),
    "securitySchemes apiKey": ("client.py", "X-Key"),
    "webhooks": ("webhooks.py", "thingCreated"),
    "callbacks": ("webhook_sender.py", "putThing"),
    "pathItems in components": ("client.py", "_build_upload"),
    "schema.const": ("models.py", 'Literal["thing"]'),
    "schema.prefixItems + items: false": ("models.py", "pair: tuple[str, int]"),
    "schema.type list with null": ("models.py", "maybe: str | None"),
    "schema.maxLength": ("models.py", "max_length=20"),
    "schema.uniqueItems": ("models.py", "unique_items"),
    "schema.readOnly (request model)": ("models.py", "class ThingRequest"),
    "schema.discriminator.mapping": ("models.py", "shape: \"Shape | None\""),
}

# field -> (pointer, text of its warning): what the code does instead.
WARNINGS = {
    "parameter.allowReserved": (f"{THINGS}/get/parameters/0", "`allowReserved: true` is not honoured"),
    "parameter.allowEmptyValue": (f"{THINGS}/get/parameters/0", "`allowEmptyValue` is not read"),
    "response.links": (f"{THINGS}/get/responses/200", "the client does not follow them"),
    "header.content": (f"{THINGS}/get/responses/200/headers/X-Meta", "a header's `content` is not parsed"),
    "encoding.style spaceDelimited": (f"{FORM}/encoding/tags", "encoding style `spaceDelimited`"),
    "encoding.allowReserved": (f"{FORM}/encoding/tags", "`allowReserved: true` is not honoured"),
    "encoding.contentType": (f"{UPLOAD}/encoding/file", "`contentType: image/png` is not written"),
    "encoding.headers": (f"{UPLOAD}/encoding/file", "a part's `headers` are neither sent"),
    "schema.$dynamicRef": ("/components/schemas/Node/properties/next", "dynamic references are not followed"),
    "schema.$dynamicAnchor": ("/components/schemas/Node", "dynamic references are not followed"),
    "schema.contentMediaType": ("/components/schemas/Thing/properties/blob", "`contentMediaType: image/png`"),
    "schema.contentEncoding": ("/components/schemas/Thing/properties/blob", "`contentEncoding: base64`"),
    "schema.contentSchema": ("/components/schemas/Thing/properties/doc", "not checked against `contentSchema`"),
    "schema.contains": ("/components/schemas/Thing/properties/tags", "`contains`"),
    "schema.patternProperties": ("/components/schemas/Thing/properties/meta", "`patternProperties`"),
    "schema.propertyNames": ("/components/schemas/Thing/properties/meta", "`propertyNames`"),
    "schema.if/then/else": ("/components/schemas/Thing/properties/cond", "`if`/`then`/`else`"),
    "schema.dependentRequired": ("/components/schemas/Thing/properties/cond", "`dependentRequired`"),
    "schema.unevaluatedItems": ("/components/schemas/Thing/properties/list", "`unevaluatedItems`"),
    "securitySchemes mutualTLS": ("/components/securitySchemes/tls", "`mutualTLS`"),
}


# OAS 3.0's own fields, and those written differently there: field -> (module, text).
EFFECTS_30 = {
    "info.license.url, servers": ("client.py", "https://{region}.example.com/v1"),
    "operation.servers": ("client.py", "https://read.example.com/v1"),
    "parameter.style pipeDelimited + explode": ("client.py", '"fields": ("pipeDelimited", "array", False)'),
    "header $ref to components/headers": ("client.py", 'x_rate: int = dataclasses.field(metadata={"wire": "X-Rate"})'),
    "response.links (docstring)": ("client.py", "update (200): putThing with id=$response.body#/id"),
    "callbacks": ("webhook_sender.py", "putThing"),
    "schema.nullable": ("models.py", "maybe: str | None"),
    "schema.exclusiveMinimum (boolean)": ("models.py", "ratio: Annotated[float, Field(gt=0)]"),
    "schema.exclusiveMaximum (boolean)": ("models.py", "lt=2000000"),
    "schema.multipleOf": ("models.py", "multiple_of=1"),
    "schema.pattern": ("models.py", 'pattern="^[a-z]+$"'),
    "schema.default": ("models.py", '= "a"'),
    "schema.writeOnly": ("models.py", 'contractgen_dropped: ClassVar[frozenset[str]] = frozenset(["secret"])'),
    "schema.allOf": ("models.py", "both: Error | None"),
    "schema.not": ("models.py", 'Excluding(("number",), ())'),
    "schema.anyOf": ("models.py", "either: str | int | None"),
    "schema.minProperties/maxProperties": ("models.py", "Field(min_length=0, max_length=9)"),
}
UPLOAD_30 = "/paths/~1uploads/post/requestBody/content/multipart~1form-data"
WARNINGS_30 = {
    "parameter.allowReserved": (f"{THINGS}/get/parameters/0", "`allowReserved: true` is not honoured"),
    "parameter.allowEmptyValue": (f"{THINGS}/get/parameters/0", "`allowEmptyValue` is not read"),
    "response.links": (f"{THINGS}/get/responses/200", "the client does not follow them"),
    "header.content": (f"{THINGS}/get/responses/200/headers/X-Meta", "a header's `content` is not parsed"),
    "encoding.style spaceDelimited": (f"{FORM}/encoding/tags", "encoding style `spaceDelimited`"),
    "encoding.contentType": (f"{UPLOAD_30}/encoding/file", "`contentType: image/png` is not written"),
    "encoding.headers": (f"{UPLOAD_30}/encoding/file", "a part's `headers` are neither sent"),
}


# Fields with no effect on the wire or the types: the app serves them, as written, in its
# /openapi.json (the package's openapi.json) and /docs. Field -> its pointer in every_field_31.
DOCUMENTATION = {
    "info.summary (3.1)": "/info/summary", "info.termsOfService": "/info/termsOfService",
    "contact.name": "/info/contact/name", "contact.url": "/info/contact/url",
    "contact.email": "/info/contact/email", "license.name": "/info/license/name",
    "license.identifier (3.1)": "/info/license/identifier",
    "jsonSchemaDialect (3.1)": "/jsonSchemaDialect",
    "server.description": "/servers/0/description",
    "serverVariable.enum": "/servers/0/variables/region/enum",
    "serverVariable.description": "/servers/0/variables/region/description",
    "tag.description": "/tags/0/description", "tag.externalDocs": "/tags/0/externalDocs/url",
    "externalDocs.description": "/externalDocs/description",
    "pathItem.summary": "/paths/~1things~1{id}/summary",
    "pathItem.description": "/paths/~1things~1{id}/description",
    "operation.tags": "/paths/~1things~1{id}/get/tags",
    "operation.summary": "/paths/~1things~1{id}/get/summary",
    "operation.externalDocs": "/paths/~1things~1{id}/get/externalDocs/url",
    "operation.security": "/paths/~1things~1{id}/get/security",
    "parameter.example": "/paths/~1things~1{id}/get/parameters/0/example",
    "parameter.examples": "/paths/~1things~1{id}/get/parameters/2/examples/one/$ref",
    "mediaType.example": "/paths/~1things~1{id}/get/responses/200/content/application~1json/example",
    "header.description": "/paths/~1things~1{id}/get/responses/200/headers/X-Rate/description",
    "example.summary": "/components/examples/Trace/summary",
    "example.description": "/components/examples/Trace/description",
    "example.externalValue": "/components/examples/Remote/externalValue",
    "requestBody.description": "/components/requestBodies/Thing/description",
    "link.description": "/components/links/Update/description",
    "link.requestBody": "/components/links/Update/requestBody",
    "schema.xml": "/components/schemas/Thing/xml/namespace",
    "schema.externalDocs": "/components/schemas/Thing/externalDocs/url",
    "schema.$comment": "/components/schemas/Thing/$comment",
    "schema.$id": "/components/schemas/Thing/$id",
    "schema.$anchor": "/components/schemas/Thing/$anchor",
    "schema.examples": "/components/schemas/Thing/properties/name/examples",
    "schema.deprecated": "/components/schemas/Thing/properties/color/deprecated",
    "securityScheme.description": "/components/securitySchemes/key/description",
    "securityScheme.bearerFormat": "/components/securitySchemes/jwt/bearerFormat",
    "oauthFlow.refreshUrl": "/components/securitySchemes/oauth/flows/implicit/refreshUrl",
    "oauthFlow.tokenUrl": "/components/securitySchemes/oauth/flows/password/tokenUrl",
    "oauthFlow.scopes": "/components/securitySchemes/oauth/flows/clientCredentials/scopes",
    "openIdConnectUrl": "/components/securitySchemes/oidc/openIdConnectUrl",
}


@pytest.mark.slow
@pytest.mark.parametrize("field", sorted(DOCUMENTATION))
def test_every_documentation_field_is_served_as_written(generated: Path, field: str) -> None:
    from contractgen.spec.tree import resolve_pointer

    served = json.loads((generated / "openapi.json").read_text(encoding="utf-8"))
    written = yaml.safe_load(SPEC.read_text(encoding="utf-8"))
    pointer = DOCUMENTATION[field]
    assert resolve_pointer(served, pointer) == resolve_pointer(written, pointer), field
    assert resolve_pointer(served, pointer) not in (None, "", [], {})


@pytest.fixture(scope="module")
def generated_30(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("every_field_30") / "pkg"
    contractgen.generate(SPEC_30, out)
    return out


@pytest.mark.slow
@pytest.mark.parametrize("field", sorted(EFFECTS_30))
def test_every_field_of_30_has_its_effect(generated_30: Path, field: str) -> None:
    module, text = EFFECTS_30[field]
    assert text in (generated_30 / module).read_text(encoding="utf-8"), field


@pytest.mark.parametrize("field", sorted(WARNINGS_30))
def test_every_field_of_30_not_honoured_is_warned_about(field: str) -> None:
    pointer, text = WARNINGS_30[field]
    problems = _problems_30()
    assert [p for p in problems if p.pointer == pointer and text in p.message], field


_CACHE: dict[str, list[contractgen.Problem]] = {}


def _problems_30() -> list[contractgen.Problem]:
    if "30" not in _CACHE:
        _CACHE["30"] = contractgen.validate(SPEC_30)
    return _CACHE["30"]


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("every_field") / "pkg"
    contractgen.generate(SPEC, out)
    return out


@pytest.fixture(scope="module")
def problems() -> list[contractgen.Problem]:
    return contractgen.validate(SPEC)


@pytest.mark.slow
@pytest.mark.parametrize("field", sorted(EFFECTS))
def test_every_field_has_its_effect(generated: Path, field: str) -> None:
    module, text = EFFECTS[field]
    assert text in (generated / module).read_text(encoding="utf-8"), field


@pytest.mark.parametrize("field", sorted(WARNINGS))
def test_every_field_not_honoured_is_warned_about_where_written(
        problems: list[contractgen.Problem], field: str) -> None:
    pointer, text = WARNINGS[field]
    found = [p for p in problems if p.pointer == pointer and text in p.message]
    assert found, f"{field}: no warning at {pointer} saying {text!r}"
    assert found[0].line is not None and found[0].file.endswith("every_field_31.yaml")


def test_the_account_warns_once_and_not_about_what_it_honours(
        problems: list[contractgen.Problem]) -> None:
    messages = [(p.pointer, p.message) for p in problems]
    assert len(messages) == len(set(messages))
    assert not [m for p, m in messages if "`const`" in m or "`prefixItems`" in m]


def test_a_keyword_nobody_reads_is_warned_about() -> None:
    document = {"openapi": "3.1.0", "components": {"schemas": {"A": {
        "type": "string", "futureKeyword": 3, "x-ours": 1, "const": "a"}}}}
    entries = {(e.keyword, e.status) for e in account(document, [])}
    assert ("futureKeyword", "ignored") in entries
    assert ("const", "honoured") in entries
    assert not [e for e in entries if e[0] == "x-ours"]


@pytest.mark.parametrize(("path", "site"), [
    ((), "root"), (("paths", "/a", "get"), "operation"), (("paths", "/a"), "pathitem"),
    (("paths", "/a", "get", "parameters", 0), "parameter"),
    (("components", "schemas", "A"), "schema"), (("components", "schemas", "A", "xml"), None),
    (("components", "schemas", "A", "discriminator"), None),
    (("paths", "/a", "get", "responses", "200", "headers", "X"), "header"),
    (("paths", "/a", "post", "requestBody", "content", "a/b", "encoding", "f"), "encoding"),
    # Stripe's form field named `items`: a name, not the schema keyword
    (("paths", "/a", "post", "requestBody", "content", "a/b", "encoding", "items"), "encoding"),
    (("components", "schemas", "A", "properties", "encoding", "items"), "schema"),
    (("components", "schemas", "A", "properties", "get"), "schema"),
])
def test_sites(path: tuple[str | int, ...], site: str | None) -> None:
    assert site_of(path) == site


def test_validate_account_prints_counts_and_what_instead(capsys: pytest.CaptureFixture[str]) -> None:
    result = cli(capsys, "validate", str(SPEC), "--account")
    assert result.returncode == 0
    rows = {line.split()[0]: line.split()[1:] for line in result.stdout.splitlines()
            if line and line.split()[0].count(".") == 1 and len(line.split()) == 4}
    assert rows["schema.const"] == ["2", "0", "0"]
    assert rows["encoding.headers"] == ["0", "0", "1"]
    assert rows["parameter.allowReserved"] == ["0", "1", "0"]
    assert "ignored: /components/schemas/Node/properties/next `$dynamicRef`" in result.stdout


def _param(**fields: object) -> dict[str, object]:
    return {"openapi": "3.0.3", "paths": {"/a/{p}": {"get": {"parameters": [
        {"name": "p", "in": "path", "required": True, "schema": {"type": "string"}, **fields}],
        "responses": {"200": {"description": "ok"}}}}}}


@pytest.mark.parametrize(("fields", "keyword", "status", "text"), [
    ({"style": "matrix"}, "style", "approximated", "in `simple` style"),
    ({"style": "label", "explode": True}, "style", "approximated", "style `label` is not written"),
    ({"style": "simple"}, "style", "honoured", "style `simple`"),
    ({"allowReserved": False}, "allowReserved", "honoured", "percent-encoded"),
    ({"content": {"text/plain": {}}}, "content", "approximated", "`content: text/plain`"),
    ({"content": {"application/json": {}}}, "content", "honoured", "`application/json` text"),
])
def test_parameter_keywords(fields: dict[str, object], keyword: str, status: str,
                            text: str) -> None:
    found = [e for e in account(_param(**fields), []) if e.keyword == keyword]
    assert [(e.site, e.status) for e in found] == [("parameter", status)]
    assert text in found[0].text


def test_a_warning_of_the_build_makes_a_keyword_approximated() -> None:
    document = {"openapi": "3.1.0", "components": {"schemas": {"A": {
        "type": "array", "prefixItems": [{"type": "string"}]}}}}
    message = "`prefixItems` is not enforced (a tuple needs `items: false`...)"
    [entry] = [e for e in account(document, [("/components/schemas/A", message)])
               if e.keyword == "prefixItems"]
    assert (entry.status, entry.text) == ("approximated", message)


def test_validate_account_of_an_invalid_contract_prints_its_errors_only(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    spec = tmp_path / "bad.yaml"
    spec.write_text("openapi: 3.0.3\ninfo: {title: t}\npaths: {}\n", encoding="utf-8")
    result = cli(capsys, "validate", str(spec), "--account")
    assert result.returncode == 1
    assert "honoured" not in result.stdout


def test_servers_of_a_webhook_are_warned_about() -> None:
    document = {"openapi": "3.1.0", "webhooks": {"w": {"servers": [{"url": "https://a.b"}],
                                                       "post": {"responses": {}}}}}
    [entry] = [e for e in account(document, []) if e.keyword == "servers"]
    assert (entry.pointer, entry.status) == ("/webhooks/w", "ignored")


@pytest.mark.parametrize("composition", ["allOf", "oneOf", "anyOf"])
def test_read_only_on_a_member_of_a_composition_is_read_or_warned_about(
        composition: str, tmp_path: Path) -> None:
    """Asana's shape: `readOnly` in a member of an `allOf` (not beside it) leaves the property
    out of the request model; in a member of a `oneOf`/`anyOf` it is not read, and a warning
    says the property stays in the request model, and it does."""
    spec = tmp_path / "ro.json"
    spec.write_text(json.dumps({
        "openapi": "3.0.3", "info": {"title": "ro", "version": "1"},
        "paths": {"/a": {"post": {"operationId": "make", "requestBody": {"content": {
            "application/json": {"schema": {"$ref": "#/components/schemas/A"}}}},
            "responses": {"204": {"description": "ok"}}}}},
        "components": {"schemas": {"A": {"type": "object", "properties": {
            "sub": {composition: [{"type": "object", "properties": {"q": {"type": "string"}}},
                                  {"readOnly": True}]}}}}}}), encoding="utf-8")
    warned = [p for p in contractgen.validate(spec)
              if p.pointer == f"/components/schemas/A/properties/sub/{composition}/1"]
    out = tmp_path / "pkg"
    contractgen.generate(spec, out)
    request = (out / "models.py").read_text(encoding="utf-8").split("class ARequest(")
    if composition == "allOf":
        assert warned == []
        assert len(request) == 2 and "sub:" not in request[1].split("\nclass ")[0]
        return
    assert [p.message for p in warned] == [
        f"`readOnly`: `readOnly` on a member of `{composition}` is not read: the property stays "
        f"in the models of both directions (hint: write `readOnly` beside the `{composition}`)"]
    assert len(request) == 1 or "sub:" in request[1]


@pytest.mark.parametrize("composition", ["oneOf", "anyOf"])
def test_read_only_on_every_member_of_a_union_is_read(composition: str, tmp_path: Path) -> None:
    """The property is readOnly whichever member its value matches: left out of the request
    model, and no warning."""
    spec = tmp_path / "ro.json"
    spec.write_text(json.dumps({
        "openapi": "3.0.3", "info": {"title": "ro", "version": "1"},
        "paths": {"/a": {"post": {"operationId": "make", "requestBody": {"content": {
            "application/json": {"schema": {"$ref": "#/components/schemas/A"}}}},
            "responses": {"204": {"description": "ok"}}}}},
        "components": {"schemas": {"A": {"type": "object", "properties": {
            "name": {"type": "string"},
            "sub": {composition: [{"type": "string", "readOnly": True},
                                  {"type": "integer", "readOnly": True}]}}}}}}),
        encoding="utf-8")
    assert [p for p in contractgen.validate(spec) if "/properties/sub/" in p.pointer] == []
    entries = [e for e in account(json.loads(spec.read_text(encoding="utf-8")), [])
               if e.keyword == "readOnly"]
    assert [e.status for e in entries] == ["honoured", "honoured"]
    out = tmp_path / "pkg"
    contractgen.generate(spec, out)
    request = (out / "models.py").read_text(encoding="utf-8").split("class ARequest(")
    assert len(request) == 2 and "sub:" not in request[1].split("\nclass ")[0]
