"""The judge of the wire (issue 37) on real contracts: every operation, called through the
generated client against the generated server, agrees by openapi-core's reading, or the
generator warns about it (located), or it is listed here with its construct.

A listed disagreement that now agrees fails the test (remove it from the list): the fixes of
issue 37's twelve constructs flip them. An unlisted one fails with the contract, the operation,
the arguments and the difference. docs/judge.md keeps the table of every contract.
"""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
from judge import Report, judge_contract
from judge_calls import lost_value
from judge_corpus import FETCHED, SEEDS, SHARED, SMALL, fetched_contract, shared_contract
from judge_known import UNJUDGED, known
from judge_values import Values

pytestmark = pytest.mark.slow


def _verdict(report: Report, listed: dict[str, str]) -> None:
    """Every operation agrees, is warned about, or disagrees as `listed` says (and no more)."""
    disagreed = {v.operation: v for v in report.of("disagreed")}
    unexpected = [str(v) for op, v in disagreed.items() if op not in listed]
    assert unexpected == [], "\n".join(unexpected)
    flipped = sorted(op for op in listed if op not in disagreed)
    assert flipped == [], (f"{report.contract}: these now agree (or are warned about): remove "
                           f"them from judge_known.KNOWN: {flipped}")


def _operations(report: Report) -> list[str]:
    return [v.operation for v in report.verdicts]


@pytest.mark.parametrize("seed", sorted(SEEDS))
def test_the_seeds_agree(seed: str, tmp_path: Path) -> None:
    spec, overlay = SEEDS[seed]
    report = judge_contract(seed, spec, tmp_path, overlay=overlay)
    assert report.of("unjudged") == []
    assert report.verdicts
    _verdict(report, known(seed, _operations(report)))


@pytest.mark.parametrize("spec", SMALL, ids=[p.stem for p in SMALL])
def test_the_small_corpus_agrees(spec: Path, tmp_path: Path) -> None:
    report = judge_contract(spec.stem, spec, tmp_path)
    allowed = UNJUDGED.get(spec.stem, {})
    assert [str(v) for v in report.of("unjudged") if v.operation not in allowed] == []
    _verdict(report, known(spec.stem, _operations(report)))


@pytest.mark.parametrize("name", [pytest.param(n, marks=pytest.mark.corpus) for n in SHARED])
def test_the_shared_corpus(name: str, tmp_path: Path) -> None:
    """The large contracts: no disagreement but the listed ones; the operations the harness
    cannot call yet are counted in docs/judge.md, not judged."""
    contract = shared_contract(name, tmp_path)
    report = judge_contract(name, contract.spec, tmp_path / "generated",
                            overlay=contract.overlay, lenient=contract.lenient)
    assert report.verdicts
    _verdict(report, known(name, _operations(report)))


@pytest.mark.parametrize("name", [pytest.param(n, marks=pytest.mark.corpus) for n in FETCHED])
def test_the_fetched_contracts(name: str, tmp_path: Path) -> None:
    contract = fetched_contract(name)
    report = judge_contract(name, contract.spec, tmp_path, lenient=contract.lenient)
    assert report.verdicts
    _verdict(report, known(name, _operations(report)))


def _drop_a_required_field(response: httpx.Response) -> httpx.Response:
    """A server that leaves `name` out of every pet it answers."""
    if not response.content.startswith(b"["):
        return response
    return httpx.Response(response.status_code, headers=response.headers,
                          content=b'[{"id": 1}]', request=response.request)


def test_the_judge_finds_a_wrong_response(tmp_path: Path) -> None:
    """The judge can fail: a response without a required property disagrees, named by
    openapi-core, and the client's value differs from the service's."""
    spec = SMALL[[p.stem for p in SMALL].index("petstore")]
    report = judge_contract("petstore", spec, tmp_path, tamper=_drop_a_required_field)
    wrong = report.of("disagreed") + report.of("warned")
    assert [v.operation for v in wrong] == ["GET /pets"]
    assert "'name' is a required property" in wrong[0].detail
    assert "petstore: GET /pets:" in str(wrong[0])


def test_a_value_lost_on_the_way_is_named() -> None:
    """What the contract gave must reach the service; defaults the service holds besides are
    no loss, nor another spelling of the same instant."""
    wire = {"name": "judge", "tags": [{"id": 1}], "at": "2024-01-02T03:04:05Z"}
    same = {"name": "judge", "tags": [{"id": 1, "extra": 0}], "at": "2024-01-02T03:04:05+00:00",
            "count": 10}
    assert lost_value(wire, same, "body") is None
    assert lost_value(wire, {**same, "tags": [{}]}, "body") == "body.tags[0].id"
    assert lost_value(wire, {**same, "name": "x"}, "body") == 'body.name="judge" (received "x")'


def test_values_are_valid_and_requests_carry_no_read_only_property() -> None:
    doc = {"openapi": "3.0.3", "components": {"schemas": {"Pet": {
        "type": "object", "required": ["id", "name"],
        "properties": {"id": {"type": "integer", "readOnly": True, "minimum": 5},
                       "name": {"type": "string", "pattern": "^[a-z]{3}$"},
                       "born": {"type": "string", "format": "date-time",
                                "example": "2021-02-11T16:37:03"}}}}}}
    values = Values(doc)
    pet = {"$ref": "#/components/schemas/Pet"}
    made = values.value(pet)
    assert values.errors(pet, made) == []
    assert made["id"] >= 5 and len(made["name"]) == 3
    assert made["born"] != "2021-02-11T16:37:03"  # the example has no time zone: not used
    assert "id" not in values.writable(pet, made)


def test_bracket_notation_is_judged_by_stripes_encoder() -> None:
    """A form body in deepObject style, which openapi-core cannot read, agrees when it is what
    stripe-python's encoder writes of the same arguments, and differs, named, when it is not."""
    from types import SimpleNamespace

    from judge_brackets import judge_brackets, unsendable

    field = SimpleNamespace(name="items", wire="items", deep=True, is_file=False,
                            is_file_list=False)
    plain = SimpleNamespace(name="name", wire="name", deep=False, is_file=False,
                            is_file_list=False)
    op = SimpleNamespace(query_params=[], body=SimpleNamespace(form_fields=[field, plain]))
    wire = {"items": [{"price": "p", "tax_rates": ["a", "b"], "on": True}], "name": "n"}

    def sent(body: str) -> httpx.Request:
        return httpx.Request("POST", "http://judge.test/x", content=body.encode(), headers={
            "content-type": "application/x-www-form-urlencoded"})

    good = ("items%5B0%5D%5Bprice%5D=p&items%5B0%5D%5Btax_rates%5D%5B0%5D=a&name=n"
            "&items%5B0%5D%5Btax_rates%5D%5B1%5D=b&items%5B0%5D%5Bon%5D=true")
    judged = judge_brackets(op, wire, sent(good))
    assert judged.problems == [] and judged.excuses("Request body validation error: ...")
    wrong = judge_brackets(op, wire, sent(good.replace("%5B1%5D=b", "%5B%5D=b")))
    assert wrong.problems == ["the body in bracket notation differs from stripe-python's "
                              "encoding: sent but not encoded [items[0][tax_rates][]=b], "
                              "encoded but not sent [items[0][tax_rates][1]=b]"]
    # `tax_rates: []` has no spelling: received without it, the rest whole, it is no loss
    empty = {"items": [{"price": "p", "tax_rates": []}]}
    received = {"body": SimpleNamespace(items=[{"price": "p", "tax_rates": None}])}
    assert unsendable(op, empty, received) == ["items"]
    received = {"body": SimpleNamespace(items=[{"price": "q"}])}
    assert unsendable(op, empty, received) == []


def test_the_contract_deployed_on_the_judges_host() -> None:
    """Every server of the contract moved to the judge's host at its own path: where the
    client sends the operations when its base_url is none of the contract's servers."""
    from judge import _base_url, _moved

    doc = {"servers": [{"url": "https://{host}/v2", "variables": {"host": {"default": "a.io"}}}],
           "paths": {"/up": {"servers": [{"url": "https://up.a.io/v1"}],
                             "post": {"servers": [{"url": "https://files.a.io"}]}}}}
    assert _base_url(doc) == "https://a.io/v2"
    assert _base_url({"paths": {}}) == "http://judge.test"
    moved = _moved(doc)
    assert moved["servers"] == [{"url": "http://judge.test/v2"}]
    assert moved["paths"]["/up"]["servers"] == [{"url": "http://judge.test/v1"}]
    assert moved["paths"]["/up"]["post"]["servers"] == [{"url": "http://judge.test"}]


def test_the_table_lists_each_disagreement_under_its_construct(monkeypatch: pytest.MonkeyPatch) -> None:
    """judge_table.py: a disagreement keeps the construct it was listed under, else takes the
    one a rule recognises, else UNCLASSIFIED, on which known() fails; one construct for every
    operation is EVERY."""
    import judge_known
    import judge_table

    monkeypatch.setattr(judge_table, "KNOWN", {"c": {"UNION_TEXT": ["GET /a"]}})
    verdicts = [["GET /a", "disagreed", "the service received a='1'"],
                ["GET /b", "disagreed", "request: ServerNotFound: Server not found"],
                ["GET /c", "disagreed", "something new"], ["GET /d", "agreed", ""]]
    assert judge_table.listed("c", verdicts) == {
        "PATH_SERVERS": ["GET /b"], "UNCLASSIFIED": ["GET /c"], "UNION_TEXT": ["GET /a"]}
    assert judge_table.listed("c", verdicts[1:2] * 2) == {"PATH_SERVERS": ["*"]}
    monkeypatch.setattr(judge_known, "KNOWN", {"c": {"UNCLASSIFIED": ["GET /c"]}})
    with pytest.raises(AssertionError, match="name their construct"):
        judge_known.known("c", ["GET /c"])


def _events_and_media(tmp_path: Path) -> Path:
    """A contract of the judge's own cases: an event stream, an answer declared in a media type
    that is not JSON before `application/json`, a path with a `#fragment`, and an operation
    whose only answer is a redirect with a JSON body (Twilio's recording payload data)."""
    import json

    thing = {"type": "object", "required": ["id"], "properties": {"id": {"type": "integer"}}}

    def answers(content: dict[str, object]) -> dict[str, object]:
        return {"responses": {"200": {"description": "ok", "content": content}}}

    query = {"name": "name", "in": "query", "required": True,
             "schema": {"type": "string", "enum": ["a"]}}
    doc = {"openapi": "3.0.3", "info": {"title": "judge", "version": "1"}, "paths": {
        "/events": {"get": {"operationId": "events", **answers({"text/event-stream": {
            "schema": {"type": "object", "required": ["n"],
                       "properties": {"n": {"type": "integer", "minimum": 1}}}}})}},
        "/thing": {"get": {"operationId": "thing", **answers({
            "application/vnd.acme.object": {"schema": thing},
            "application/json": {"schema": thing}})}},
        "/items": {"get": {"operationId": "items", **answers(
            {"application/json": {"schema": {"type": "array", "items": {"type": "string"}}}})}},
        "/items#named": {"get": {"operationId": "named", "parameters": [query], **answers(
            {"application/json": {"schema": thing}})}},
        "/moved": {"get": {"operationId": "moved", "responses": {"307": {
            "description": "elsewhere", "content": {"application/json": {"schema": {
                "type": "object", "required": ["redirect_to"],
                "properties": {"redirect_to": {"type": "string", "format": "uri"}}}}}}}}}}}
    spec = tmp_path / "judge.json"
    spec.write_text(json.dumps(doc), encoding="utf-8")
    return spec


def test_the_judges_own_cases(tmp_path: Path) -> None:
    """An event stream agrees on its own merit (openapi-core's reading of the stream as one
    value is excused, named); the service answers the declared JSON media type; a path with a
    `#fragment` is judged as its own operation, not as the bare path's; a redirect-only
    operation is answered its 3xx with the declared body."""
    report = judge_contract("judge", _events_and_media(tmp_path), tmp_path / "generated")
    verdicts = {v.operation: v for v in report.verdicts}
    assert {op: v.outcome for op, v in verdicts.items()} == {
        "GET /events": "agreed", "GET /thing": "agreed", "GET /items": "agreed",
        "GET /items#named": "warned", "GET /moved": "agreed"}
    assert "text/event-stream" in verdicts["GET /events"].detail
    assert "the service received name=null" in verdicts["GET /items#named"].detail


def _a_wrong_event(response: httpx.Response) -> httpx.Response:
    """A server whose events carry `n: 0`, below the declared minimum."""
    if not response.headers.get("content-type", "").startswith("text/event-stream"):
        return response
    return httpx.Response(response.status_code, headers=response.headers,
                          content=b'data: {"n": 0}\n\n', request=response.request)


def test_the_judge_finds_a_wrong_event(tmp_path: Path) -> None:
    """openapi-core's refusal of a stream is excused, not the events: one that breaks the
    declared schema disagrees, named by jsonschema."""
    report = judge_contract("judge", _events_and_media(tmp_path), tmp_path / "generated",
                            tamper=_a_wrong_event)
    wrong = {v.operation: v.detail for v in report.of("disagreed")}
    assert list(wrong) == ["GET /events"]
    assert "event 0: n: 0 is less than the minimum of 1" in wrong["GET /events"]
