"""Form bodies (application/x-www-form-urlencoded, multipart/form-data) as the contract declares
them, over real HTTP: `a=` is the empty string (FastAPI's own form parameters read it as `a`
missing, so a required field was refused and an optional one read as unset: Twilio's way to
clear a value), repeated keys are a list, wire names that are not identifiers, an optional body,
and every refusal located by wire name in the declared error shape."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from gen_support import Generated, generate_package, openapi, serve

FORM = "application/x-www-form-urlencoded"


def _post(operation_id: str, media: str, schema: dict[str, Any], *, required: bool = True
          ) -> dict[str, Any]:
    return {"post": {
        "operationId": operation_id,
        "requestBody": {"required": required, "content": {media: {"schema": schema}}},
        "responses": {
            "200": {"description": "echo", "content": {"application/json": {"schema": {}}}},
            "400": {"description": "refused", "content": {"application/json": {"schema": {
                "$ref": "#/components/schemas/Problem"}}}},
        }}}


ROLE = {
    "type": "object",
    "required": ["FriendlyName", "Permission"],
    "properties": {
        "FriendlyName": {"type": "string"},
        "Permission": {"type": "array", "items": {"type": "string"}},
        "Timeout": {"type": "integer"},
        "StatusCallback": {"type": "string"},
        "AutoCreation.Enabled": {"type": "boolean"},
    },
}
SPEC = openapi(
    {
        "/roles": _post("createRole", FORM, ROLE),
        "/notes": _post("createNote", FORM, {"type": "object", "properties": {
            "Text": {"type": "string"}}}, required=False),
        "/files": _post("putFile", "multipart/form-data", {
            "type": "object", "required": ["file", "path"],
            "properties": {"file": {"type": "string", "format": "binary"},
                           "path": {"type": "string"}}}),
    },
    {"Problem": {"type": "object", "required": ["code", "message"], "properties": {
        "code": {"type": "string"}, "message": {"type": "string"}}}},
)
# Box's upload: an object part (JSON, OpenAPI's default for it) before the file.
SPEC["paths"]["/uploads"] = _post("upload", "multipart/form-data", {
    "type": "object", "required": ["attributes", "file"],
    "properties": {
        "attributes": {"type": "object", "required": ["name", "parent"], "properties": {
            "name": {"type": "string"},
            "parent": {"type": "object", "required": ["id"], "properties": {
                "id": {"type": "string"}}}}},
        "tags": {"type": "array", "items": {"type": "object", "properties": {
            "label": {"type": "string"}}}},
        "file": {"type": "string", "format": "binary"}}})


@pytest.fixture(scope="module")
def pkg(tmp_path_factory: pytest.TempPathFactory) -> Generated:
    return generate_package(SPEC, tmp_path_factory.mktemp("forms"))


@pytest.fixture(scope="module")
def url(pkg: Generated) -> Iterator[str]:
    import dataclasses

    class Service(pkg.server.ServiceBase):  # type: ignore[misc,name-defined]
        async def create_role(self, form: Any) -> Any:
            return {"type": type(form).__name__, **dataclasses.asdict(form)}

        async def create_note(self, form: Any) -> Any:
            return {"absent": True} if form is None else dataclasses.asdict(form)

        async def put_file(self, form: Any) -> Any:
            return {"path": form.path, "size": len(await form.file.read())}

        async def upload(self, form: Any) -> Any:
            return {"name": form.attributes.name, "parent": form.attributes.parent.id,
                    "tags": [t.label for t in form.tags or ()],
                    "size": len(await form.file.read())}

    with serve(pkg.server.create_app(Service())) as base:
        yield base


def test_an_empty_value_is_the_empty_string(url: str) -> None:
    sent = "FriendlyName=&Permission=&StatusCallback="
    answer = httpx.post(url + "/roles", content=sent, headers={"Content-Type": FORM})
    assert answer.status_code == 200, answer.text
    assert answer.json() == {
        "type": "CreateRoleForm", "FriendlyName": "", "Permission": [""], "Timeout": None,
        "StatusCallback": "", "auto_creation_enabled": None}


def test_repeated_keys_are_a_list_and_wire_names_are_kept(url: str) -> None:
    sent = [("FriendlyName", "ops"), ("Permission", "read"), ("Permission", "write"),
            ("Timeout", "30"), ("AutoCreation.Enabled", "true")]
    answer = httpx.post(url + "/roles", content="&".join(f"{k}={v}" for k, v in sent),
                        headers={"Content-Type": FORM})
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert (body["Permission"], body["Timeout"], body["auto_creation_enabled"]) == (
        ["read", "write"], 30, True)


@pytest.mark.parametrize(("sent", "where"), [
    ("Permission=read", "FriendlyName"),  # a required field missing
    ("FriendlyName=x", "Permission"),
    ("FriendlyName=x&Permission=a&Timeout=", "Timeout"),  # "" is no integer
    ("FriendlyName=x&Permission=a&AutoCreation.Enabled=maybe", "AutoCreation.Enabled"),
])
def test_refusals_name_the_wire_field_in_the_declared_shape(url: str, sent: str, where: str
                                                            ) -> None:
    answer = httpx.post(url + "/roles", content=sent, headers={"Content-Type": FORM})
    assert answer.status_code == 400, answer.text
    assert set(answer.json()) == {"code", "message"}
    assert answer.json()["message"].startswith(f"{where}: ")


def test_an_optional_body_may_be_left_out(url: str) -> None:
    assert httpx.post(url + "/notes").json() == {"absent": True}
    answer = httpx.post(url + "/notes", content="Text=", headers={"Content-Type": FORM})
    assert answer.json() == {"Text": ""}


def test_multipart_files_and_empty_text_parts(url: str, pkg: Generated) -> None:
    answer = httpx.post(url + "/files", files={"file": ("a.txt", b"hello")}, data={"path": ""})
    assert (answer.status_code, answer.json()) == (200, {"path": "", "size": 5})
    missing = httpx.post(url + "/files", data={"path": "x"})
    assert missing.status_code == 400 and missing.json()["message"].startswith("file: ")
    with pkg.client.Client(url) as client:  # the generated client sends "" as sent
        echoed = client.create_role(FriendlyName="", Permission=["a", "b"], StatusCallback="")
        assert (echoed["FriendlyName"], echoed["Permission"], echoed["StatusCallback"]) == (
            "", ["a", "b"], "")


def test_an_object_part_is_json_validated_as_its_schema(url: str, pkg: Generated) -> None:
    models = pkg.models
    with pkg.client.Client(url) as client:
        attributes = models.UploadFormAttributes(
            name="a.txt", parent=models.UploadFormAttributesParent(id="0"))
        sent = client.upload(attributes=attributes, file=("a.txt", b"hello"),
                             tags=[models.UploadFormTagsItem(label="x")])
    assert sent == {"name": "a.txt", "parent": "0", "tags": ["x"], "size": 5}
    for part, where in (('{"name": "a"}', "attributes.parent: "), ("{nope", "attributes: "),
                        ('{"name": 5, "parent": {"id": "0"}}', "attributes.name: ")):
        answer = httpx.post(url + "/uploads", data={"attributes": part},
                            files={"file": ("a", b"x")})
        assert answer.status_code == 400, answer.text
        assert answer.json()["message"].startswith(where), answer.text


def test_a_structured_urlencoded_field_is_text_with_a_located_warning(tmp_path: Any) -> None:
    import json

    import contractgen.api

    spec = openapi({"/prefs": _post("setPrefs", FORM, {"type": "object", "properties": {
        "Options": {"type": "object", "properties": {"dark": {"type": "boolean"}}},
        # A union of values is a value, without a warning: read as the member its text spells
        # (test_wire_answers.py).
        "Mode": {"oneOf": [{"type": "string"}, {"type": "integer"}]}}})},
        SPEC["components"]["schemas"])
    path = tmp_path / "spec.json"
    path.write_text(json.dumps(spec), encoding="utf-8")
    files, problems = contractgen.api.render(path)
    (warning,) = [p for p in problems if "`Options`" in p.message]
    assert warning.pointer == (
        "/paths/~1prefs/post/requestBody/content/application~1x-www-form-urlencoded/schema")
    assert "read and sent as its text" in warning.message
    assert "    Options: str | None = None" in files["server.py"]
    assert not [p for p in problems if "`Mode`" in p.message]
    assert "    Mode: str | int | None = None" in files["server.py"]
