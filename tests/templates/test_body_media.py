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

from collections.abc import Iterator
from typing import Any

import httpx
import pytest
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
        read = client.post_ticket_attachment(7, file="/Users/me/shot.jpg",
                                             tags=["a", "b"], note=note)
        alone = client.post_ticket_attachment(8, file="only")
    assert read == {"ticket": 7, "file": "/Users/me/shot.jpg", "tags": ["a", "b"],
                    "note": {"text": "seen"}}
    assert alone == {"ticket": 8, "file": "only", "tags": None, "note": None}
    for request in recorder.sent:
        assert request.headers["content-type"].startswith(MULTIPART + "; boundary=")
        assert judged(ATTACHMENTS, request) == []
    body = recorder.sent[0].content
    assert body.count(b'name="tags"') == 2  # a list: one part per item
    assert b'name="note"\r\nContent-Type: application/json\r\n\r\n{"text":"seen"}' in body
    assert b"Content-Type" not in body.split(b'name="file"')[1].split(b"--")[0]
