"""RFC 6902 JSON Patch: the operations on their own (the RFC's Appendix A cases), then applied by
the mock to stored items over loopback HTTP, a failing `test` answered with the declared 409,
else 400, and the stored item left as it was."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from contractgen.mock import serving
from contractgen.mock.jsonpatch import PatchError, apply

PATCHING = Path(__file__).resolve().parent / "patching.yaml"
PATCH = {"Content-Type": "application/json-patch+json"}


@pytest.mark.parametrize(("document", "patch", "expected"), [
    ({"foo": "bar"}, [{"op": "add", "path": "/baz", "value": "qux"}],
     {"foo": "bar", "baz": "qux"}),  # A.1
    ({"foo": ["bar", "baz"]}, [{"op": "add", "path": "/foo/1", "value": "qux"}],
     {"foo": ["bar", "qux", "baz"]}),  # A.2
    ({"baz": "qux", "foo": "bar"}, [{"op": "remove", "path": "/baz"}], {"foo": "bar"}),  # A.3
    ({"foo": ["bar", "qux", "baz"]}, [{"op": "remove", "path": "/foo/1"}],
     {"foo": ["bar", "baz"]}),  # A.4
    ({"baz": "qux", "foo": "bar"}, [{"op": "replace", "path": "/baz", "value": "boo"}],
     {"baz": "boo", "foo": "bar"}),  # A.5
    ({"foo": {"bar": "baz", "waldo": "fred"}, "qux": {"corge": "grault"}},
     [{"op": "move", "from": "/foo/waldo", "path": "/qux/thud"}],
     {"foo": {"bar": "baz"}, "qux": {"corge": "grault", "thud": "fred"}}),  # A.6
    ({"foo": ["all", "grass", "cows", "eat"]}, [{"op": "move", "from": "/foo/1", "path": "/foo/3"}],
     {"foo": ["all", "cows", "eat", "grass"]}),  # A.7
    ({"baz": "qux", "foo": ["a", 2, "c"]},
     [{"op": "test", "path": "/baz", "value": "qux"}, {"op": "test", "path": "/foo/1", "value": 2}],
     {"baz": "qux", "foo": ["a", 2, "c"]}),  # A.8
    ({"foo": "bar"}, [{"op": "add", "path": "/child", "value": {"grandchild": {}}}],
     {"foo": "bar", "child": {"grandchild": {}}}),  # A.10
    ({"foo": ["bar"]}, [{"op": "add", "path": "/foo/-", "value": ["abc", "def"]}],
     {"foo": ["bar", ["abc", "def"]]}),  # A.16
    ({"/": 9, "~1": 10}, [{"op": "test", "path": "/~01", "value": 10}],
     {"/": 9, "~1": 10}),  # A.14
    ({"a": 1}, [{"op": "copy", "from": "/a", "path": "/b"}], {"a": 1, "b": 1}),
])
def test_the_rfcs_examples_apply(document: Any, patch: Any, expected: Any) -> None:
    before = json.dumps(document)
    assert apply(document, patch) == expected
    assert json.dumps(document) == before  # applied to a copy


@pytest.mark.parametrize(("document", "patch", "is_test"), [
    ({"baz": "qux"}, [{"op": "test", "path": "/baz", "value": "bar"}], True),  # A.9
    ({"foo": "bar"}, [{"op": "add", "path": "/baz/bat", "value": "qux"}], False),  # A.12
    ({"a": 1}, [{"op": "test", "path": "/a", "value": True}], True),  # JSON: 1 is not true
    ({"a": [1]}, [{"op": "remove", "path": "/a/1"}], False),
    ({"a": 1}, [{"op": "replace", "path": "/b", "value": 2}], False),
    ({"a": {"b": 1}}, [{"op": "move", "from": "/a", "path": "/a/c"}], False),
    ({"a": 1}, [{"op": "frobnicate", "path": "/a"}], False),
    ({"a": [1]}, [{"op": "add", "path": "/a/01", "value": 2}], False),
])
def test_a_patch_that_cannot_apply_is_refused(document: Any, patch: Any, is_test: bool) -> None:
    with pytest.raises(PatchError) as refused:
        apply(document, patch)
    assert refused.value.failed_test is is_test


@pytest.fixture(scope="module")
def client() -> Iterator[httpx.Client]:
    with serving(PATCHING) as url, httpx.Client(base_url=url) as http:
        yield http


def _patch(client: httpx.Client, where: str, operations: list[dict[str, Any]]) -> httpx.Response:
    return client.patch(where, content=json.dumps(operations), headers=PATCH)


def test_the_mock_applies_a_json_patch_to_the_stored_item(client: httpx.Client) -> None:
    doc = client.post("/docs", json={"title": "a", "tags": ["x"], "meta": {"owner": "o"}}).json()
    answered = _patch(client, f"/docs/{doc['id']}", [
        {"op": "test", "path": "/title", "value": "a"},
        {"op": "replace", "path": "/title", "value": "b"},
        {"op": "add", "path": "/tags/-", "value": "y"},
        {"op": "copy", "from": "/title", "path": "/meta/owner"},
        {"op": "remove", "path": "/meta/draft"} if "draft" in doc["meta"] else
        {"op": "add", "path": "/meta/draft", "value": False},
    ])
    assert answered.status_code == 200, answered.text
    stored = client.get(f"/docs/{doc['id']}").json()
    assert stored == answered.json()
    assert (stored["title"], stored["tags"], stored["meta"]["owner"]) == ("b", ["x", "y"], "b")
    assert ("draft" in stored["meta"]) is not ("draft" in doc["meta"])


def test_a_failing_test_is_the_declared_409_and_changes_nothing(client: httpx.Client) -> None:
    doc = client.post("/docs", json={"title": "a"}).json()
    refused = _patch(client, f"/docs/{doc['id']}", [
        {"op": "replace", "path": "/title", "value": "b"},
        {"op": "test", "path": "/title", "value": "a"}])
    assert refused.status_code == 409
    assert refused.json()["code"] == "CONFLICT" and "test /title" in refused.json()["message"]
    assert client.get(f"/docs/{doc['id']}").json() == doc


def test_a_patch_that_breaks_the_item_is_the_declared_422(client: httpx.Client) -> None:
    doc = client.post("/docs", json={"title": "a"}).json()
    for operations in ([{"op": "remove", "path": "/title"}],  # required
                       [{"op": "replace", "path": "/id", "value": 99}],  # the id stays
                       [{"op": "remove", "path": "/nowhere"}]):
        refused = _patch(client, f"/docs/{doc['id']}", operations)
        assert refused.status_code == 422, (operations, refused.text)
        assert set(refused.json()) == {"code", "message"}
    assert client.get(f"/docs/{doc['id']}").json() == doc


def test_a_failing_test_is_400_where_only_400_is_declared(client: httpx.Client) -> None:
    tag = client.post("/tags", json={"name": "n"}).json()
    refused = _patch(client, f"/tags/{tag['id']}", [{"op": "test", "path": "/name", "value": "m"}])
    assert refused.status_code == 400 and refused.json()["code"] == "BAD_REQUEST"
    applied = _patch(client, f"/tags/{tag['id']}", [{"op": "add", "path": "/color", "value": "red"}])
    assert applied.json() == {**tag, "color": "red"}


def test_a_json_patch_sent_with_put_is_applied_too(client: httpx.Client) -> None:
    """Box updates its metadata with a PUT of `application/json-patch+json`."""
    doc = client.post("/docs", json={"title": "a"}).json()
    put = client.put(f"/docs/{doc['id']}", headers=PATCH,
                     content=json.dumps([{"op": "replace", "path": "/title", "value": "c"}]))
    assert put.status_code == 200 and put.json() == {**doc, "title": "c"}
