"""Request bodies go on the wire in the media type the contract declares (issue 37, found by
the judge of the wire), each a minimal reproduction driven through the generated client and
server over loopback HTTP, the request judged by openapi-core:

- a `multipart/form-data` body with no file given (Linode's support ticket attachment, Sentry's
  release files) went out as `application/x-www-form-urlencoded`: httpx sends a body of fields
  alone urlencoded;
- a JSON body declared only in another JSON media type (`application/json-patch+json`,
  `application/merge-patch+json`, a vendor `+json`) goes out in it, and the server accepts it
  and no other, answering the declared 415 to the rest.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import contractgen
import httpx
import pytest
from contractgen.model.paths import narrowed, same_shape_notes
from contractgen.options import Options
from contractgen.pipeline import generate
from gen_support import Generated, generate_package, openapi, serve
from test_wire_constructs import Recorder, judged, plain

MULTIPART = "multipart/form-data"
_ECHO = {"description": "what the service read", "content": {"application/json": {
    "schema": {"type": "object", "additionalProperties": True}}}}
_ERROR = {"description": "refused", "content": {"application/json": {"schema": {
    "type": "object", "required": ["message"], "properties": {"message": {"type": "string"}}}}}}

# Linode's POST /{apiVersion}/support/tickets/{ticketId}/attachments: its `file` is a string.
ATTACHMENTS = openapi({"/tickets/{ticketId}/attachments": {"post": {
    "operationId": "postTicketAttachment",
    "parameters": [{"name": "ticketId", "in": "path", "required": True,
                    "schema": {"type": "integer"}}],
    "requestBody": {"required": True, "content": {MULTIPART: {
        "schema": {"type": "object", "required": ["file"], "additionalProperties": False,
                   "properties": {"file": {"type": "string"},
                                  "tags": {"type": "array", "items": {"type": "string"}},
                                  "note": {"type": "object", "properties": {
                                      "text": {"type": "string"}}}}},
        "encoding": {"note": {"contentType": "application/json"}}}}},
    "responses": {"200": _ECHO, "400": _ERROR}}}}, version="3.0.3")


@pytest.fixture(scope="module")
def attachments(tmp_path_factory: pytest.TempPathFactory) -> Generated:
    return generate_package(ATTACHMENTS, tmp_path_factory.mktemp("attachments"))


@pytest.fixture(scope="module")
def attachments_url(attachments: Generated) -> Iterator[str]:
    class Service(attachments.server.ServiceBase):  # type: ignore[misc,name-defined]
        async def post_ticket_attachment(self, ticket_id: int, form: Any) -> Any:
            return {"ticket": ticket_id, **plain(form)}

    with serve(attachments.server.create_app(Service())) as url:
        yield url


def test_a_multipart_body_without_a_file_goes_as_multipart(
        attachments: Generated, attachments_url: str) -> None:
    recorder = Recorder()
    note = attachments.models.PostTicketAttachmentFormNote(text="seen")
    with attachments.client.Client(attachments_url, transport=recorder) as client:
        read = client.post_ticket_attachment(7, file="shot.jpg",
                                             tags=["a", "b"], note=note)
        alone = client.post_ticket_attachment(8, file="only")
    assert read == {"ticket": 7, "file": "shot.jpg", "tags": ["a", "b"],
                    "note": {"text": "seen"}}
    assert alone == {"ticket": 8, "file": "only", "tags": None, "note": None}
    for request in recorder.sent:
        assert request.headers["content-type"].startswith(MULTIPART + "; boundary=")
        assert judged(ATTACHMENTS, request) == []
    body = recorder.sent[0].content
    assert body.count(b'name="tags"') == 2  # a list: one part per item
    assert b'name="note"\r\nContent-Type: application/json\r\n\r\n{"text":"seen"}' in body
    assert b"Content-Type" not in body.split(b'name="file"')[1].split(b"--")[0]


PATCHES = ("application/json-patch+json", "application/merge-patch+json",
           "application/vnd.x+json")
_PATCH = {"type": "array", "items": {"type": "object", "required": ["op", "path"], "properties": {
    "op": {"type": "string", "enum": ["add", "remove", "replace"]},
    "path": {"type": "string"}, "value": {}}}}
_MERGE = {"type": "object", "properties": {"name": {"type": "string"}}}


def _patched(operation_id: str, media: str, schema: dict[str, Any]) -> dict[str, Any]:
    return {"operationId": operation_id, "requestBody": {"required": True, "content": {
        media: {"schema": schema}}}, "responses": {"200": _ECHO, "400": _ERROR, "415": _ERROR}}


# Box's PUT /files/{file_id}/metadata/{scope}/{template_key} (JSON Patch), a merge patch and
# a vendor type; and a body declared as plain JSON, which takes no other JSON type either.
PATCHED = openapi({
    "/metadata": {"put": _patched("updateMetadata", PATCHES[0], _PATCH)},
    "/profile": {"patch": _patched("mergeProfile", PATCHES[1], _MERGE)},
    "/vendor": {"post": _patched("postVendor", PATCHES[2], _MERGE)},
    "/plain": {"post": _patched("postPlain", "application/json", _MERGE)},
}, version="3.0.3")


@pytest.fixture(scope="module")
def patched_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Generated, str]]:
    pkg = generate_package(PATCHED, tmp_path_factory.mktemp("patched"))

    class Service(pkg.server.ServiceBase):  # type: ignore[misc,name-defined]
        async def update_metadata(self, body: Any) -> Any:
            return {"read": plain(body)}

        async def merge_profile(self, body: Any) -> Any:
            return {"read": plain(body)}

        async def post_vendor(self, body: Any) -> Any:
            return {"read": plain(body)}

        async def post_plain(self, body: Any) -> Any:
            return {"read": plain(body)}

    with serve(pkg.server.create_app(Service())) as url:
        yield pkg, url


def test_a_json_body_goes_in_its_declared_media_type(
        patched_url: tuple[Generated, str]) -> None:
    pkg, url = patched_url
    item = pkg.models.UpdateMetadataRequestItem(op="replace", path="/a", value=1)
    recorder = Recorder()
    with pkg.client.Client(url, transport=recorder) as client:
        assert client.update_metadata([item]) == {
            "read": [{"op": "replace", "path": "/a", "value": 1}]}
        assert client.merge_profile({"name": "n"}) == {"read": {"name": "n"}}
        assert client.post_vendor({"name": "v"}) == {"read": {"name": "v"}}
        assert client.post_plain({"name": "p"}) == {"read": {"name": "p"}}
    sent = [r.headers["content-type"] for r in recorder.sent]
    assert sent == [*PATCHES, "application/json"]
    for request in recorder.sent:
        assert _judged_as_json(PATCHED, request) == []


def _judged_as_json(spec: dict[str, Any], request: httpx.Request) -> list[Exception]:
    """openapi-core's errors for a request, its `+json` types read as JSON (RFC 6839):
    openapi-core reads only `application/json` so (python-openapi/openapi-core#224)."""
    from openapi_core import Config, OpenAPI
    from openapi_core.datatypes import RequestParameters
    from werkzeug.datastructures import Headers, ImmutableMultiDict

    class Wire:
        parameters = RequestParameters(query=ImmutableMultiDict(), header=Headers(
            dict(request.headers)), cookie=ImmutableMultiDict())
        host_url = f"{request.url.scheme}://{request.url.netloc.decode()}"
        path = request.url.path
        method = request.method.lower()
        body = request.content
        content_type = request.headers.get("content-type", "")

    config = Config(extra_media_type_deserializers=dict.fromkeys(
        PATCHES, lambda value, **_: json.loads(value)))
    return list(OpenAPI.from_dict(spec, config=config).unmarshal_request(Wire()).errors)


@pytest.mark.parametrize(("method", "path", "declared"), [
    ("PUT", "/metadata", PATCHES[0]), ("PATCH", "/profile", PATCHES[1]),
    ("POST", "/vendor", PATCHES[2]), ("POST", "/plain", "application/json")])
def test_the_server_takes_the_declared_json_media_type_alone(
        patched_url: tuple[Generated, str], method: str, path: str, declared: str) -> None:
    """Another JSON type (`application/json` for a JSON Patch), or text, is the declared 415;
    the declared type with parameters is the declared type."""
    _, url = patched_url
    body = b'[{"op": "add", "path": "/x"}]' if path == "/metadata" else b'{"name": "n"}'
    for media in ("application/json", "application/merge-patch+json", "text/plain"):
        answer = httpx.request(method, url + path, content=body,
                               headers={"content-type": media})
        if media == declared:
            assert answer.status_code == 200, answer.text
        else:
            assert answer.status_code == 415, (media, answer.text)
            assert answer.json() == {"message": f"Unsupported media type {media!r}: "
                                                f"expected {declared}"}
    answer = httpx.request(method, url + path, content=body,
                           headers={"content-type": declared + "; charset=utf-8"})
    assert answer.status_code == 200, answer.text


# Xero's attachments: one URL shape twice (`{AttachmentID}`, a uuid, and `{FileName}`).
_ATTACHMENT = "/Invoices/{InvoiceID}/Attachments/"
_IDS = [{"name": "InvoiceID", "in": "path", "required": True,
         "schema": {"type": "string", "format": "uuid"}}]


def _attachment(operation_id: str, name: str, schema: dict[str, Any]) -> dict[str, Any]:
    return {"get": {"operationId": operation_id, "parameters": [*_IDS, {
        "name": name, "in": "path", "required": True, "schema": schema}],
        "responses": {"200": _ECHO, "400": _ERROR}}}


XERO = openapi({
    _ATTACHMENT + "{AttachmentID}": _attachment(
        "getInvoiceAttachmentById", "AttachmentID", {"type": "string", "format": "uuid"}),
    _ATTACHMENT + "{FileName}": _attachment(
        "getInvoiceAttachmentByFileName", "FileName", {"type": "string"}),
}, version="3.0.3")
_INVOICE = "7d9b5c0e-3f8a-4b52-9c1d-0e2f4a6b8c10"


def test_paths_of_one_shape_are_told_apart_by_their_parameters_and_warned_about(
        tmp_path: Path) -> None:
    """OpenAPI: templated paths of one shape MUST NOT exist. The second is warned about where
    it is written (its pointer and line), naming the first and saying what the server does:
    it calls the first path's operation where the URL's values validate as its parameters
    (a uuid), else the second's (`receipt.pdf`)."""
    spec = tmp_path / "xero.json"
    spec.write_text(json.dumps(XERO, indent=1), encoding="utf-8")
    pointer = "/paths/" + (_ATTACHMENT + "{FileName}").replace("/", "~1") + "/get"
    problems = contractgen.validate(spec)
    said = [p for p in problems if p.pointer == pointer]
    assert len(said) == 1 and said[0].line is not None and said[0].file.endswith("xero.json")
    assert "`GET /Invoices/{InvoiceID}/Attachments/{AttachmentID}`" in said[0].message
    assert "calls `get_invoice_attachment_by_file_name` when the URL's values are refused " \
           "by the paths before it (`/Invoices/{InvoiceID}/Attachments/{AttachmentID}` by " \
           "`AttachmentID`)" in said[0].message
    assert not [p for p in problems if "{AttachmentID}/get" in p.pointer]

    pkg = generate_package(XERO, tmp_path)

    class Service(pkg.server.ServiceBase):  # type: ignore[misc,name-defined]
        async def get_invoice_attachment_by_id(self, invoice: Any, attachment: Any) -> Any:
            return {"by": "id", "attachment": str(attachment)}

        async def get_invoice_attachment_by_file_name(self, invoice: Any, name: Any) -> Any:
            return {"by": "file name", "name": name}

    attachment = "0e2f4a6b-8c10-4b52-9c1d-7d9b5c0e3f8a"
    with serve(pkg.server.create_app(Service())) as url, pkg.client.Client(url) as client:
        assert client.get_invoice_attachment_by_id(_INVOICE, attachment) == {
            "by": "id", "attachment": attachment}
        assert client.get_invoice_attachment_by_file_name(_INVOICE, "receipt.pdf") == {
            "by": "file name", "name": "receipt.pdf"}
        # a file name that is a uuid goes to the first, as the warning says
        assert client.get_invoice_attachment_by_file_name(_INVOICE, attachment)["by"] == "id"
        refused = httpx.get(f"{url}/Invoices/not-a-uuid/Attachments/receipt.pdf")
    assert refused.status_code == 400 and "InvoiceID" in refused.text


def test_a_path_that_takes_every_value_first_leaves_the_second_unreachable(
        tmp_path: Path) -> None:
    """The other order: `{FileName}` (any string) first, so the server never calls the
    operation of `{AttachmentID}`, and the warning says so."""
    swapped = {**XERO, "paths": dict(reversed(list(XERO["paths"].items())))}
    spec = tmp_path / "swapped.json"
    spec.write_text(json.dumps(swapped), encoding="utf-8")
    api = generate(spec, Options()).api
    assert api is not None
    [(pointer, message)] = same_shape_notes(api.operations)
    assert pointer.endswith("{AttachmentID}/get")
    assert "routes every such request to `get_invoice_attachment_by_file_name`" in message
    assert "never calls `get_invoice_attachment_by_id`" in message
    assert narrowed(api.operations) == {"getInvoiceAttachmentByFileName": (
        "invoice_id", "file_name")}


# Box's classification schema: one URL, two operations (`#add` in JSON, `#update` in JSON
# Patch); a request carries no fragment, so the server tells them apart by Content-Type.
_SCHEMA = "/metadata_templates/enterprise/classification/schema"
_ADD = {"type": "array", "items": {"type": "object", "required": ["op"], "properties": {
    "op": {"type": "string", "enum": ["addEnumOption"]}, "key": {"type": "string"}}}}
BOX = openapi({
    _SCHEMA + "#add": {"put": _patched("addClassification", "application/json", _ADD)},
    _SCHEMA + "#update": {"put": _patched("updateClassification", PATCHES[0], _PATCH)},
}, version="3.0.3")


def test_operations_of_one_url_are_told_apart_by_their_body_media_type(
        tmp_path: Path) -> None:
    spec = tmp_path / "box.json"
    spec.write_text(json.dumps(BOX, indent=1), encoding="utf-8")
    said = {p.pointer.rsplit("#", 1)[-1]: p.message for p in contractgen.validate(spec)
            if p.pointer.startswith("/paths/")}
    assert sorted(said) == ["add/put", "update/put"]
    assert "the server tells them apart by the body's Content-Type (`application/json` to " \
           "`add_classification`, `application/json-patch+json` to `update_classification`" \
           in said["add/put"]

    pkg = generate_package(BOX, tmp_path)

    class Service(pkg.server.ServiceBase):  # type: ignore[misc,name-defined]
        async def add_classification(self, body: Any) -> Any:
            return {"added": plain(body)}

        async def update_classification(self, body: Any) -> Any:
            return {"updated": plain(body)}

    added = pkg.models.AddClassificationRequestItem(op="addEnumOption", key="Sensitive")
    changed = pkg.models.UpdateClassificationRequestItem(op="replace", path="/k", value="v")
    recorder = Recorder()
    with serve(pkg.server.create_app(Service())) as url, \
            pkg.client.Client(url, transport=recorder) as client:
        assert client.add_classification([added]) == {
            "added": [{"op": "addEnumOption", "key": "Sensitive"}]}
        assert client.update_classification([changed]) == {
            "updated": [{"op": "replace", "path": "/k", "value": "v"}]}
        other = httpx.put(url + _SCHEMA, content=b"[]", headers={"content-type": "text/plain"})
    assert [r.url.path for r in recorder.sent] == [_SCHEMA, _SCHEMA]
    assert other.status_code == 415, other.text
