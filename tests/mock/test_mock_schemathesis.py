"""schemathesis (its 4.x CLI, over loopback HTTP) against the mock of every contract of
tests/corpus: no answer breaks the contract.

Two runs a contract, with a credential of the right form for each declared scheme. Every
request, valid or not: no server error, and every answer's body,
media type and headers as declared for its status. Valid requests only: every status declared
and no valid request refused. (An invalid request gets the 4xx the generated server answers,
which a contract declaring none cannot declare: that is the generated server's, not the mock's.)
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from contractgen.mock import serving
from contractgen.spec import load

CORPUS = Path(__file__).resolve().parents[1] / "corpus"
# Each contract takes 8-30 s of schemathesis: `make test` runs these, which between them have
# the security schemes, media types, compositions, paging and every OAS field; `make
# test-corpus` runs every contract of tests/corpus (large_synthetic.json's hundreds of
# operations take minutes: 11 on a busy 2-core machine).
IN_MAKE_TEST = {"petstore.yaml", "security_zoo.yaml", "media_types.yaml", "composition.yaml",
                "every_field_31.yaml"}
CONTRACTS = [name if name in IN_MAKE_TEST else pytest.param(name, marks=pytest.mark.corpus)
             for name in sorted(p.name for p in CORPUS.iterdir()
                                if p.suffix in (".yaml", ".json"))]
_EMPTY_BODY = ("an empty body for a required requestBody of text or bytes: the generated server "
               "reads no bytes as no body, where schemathesis sends the empty string")
_NO_RESPONSES = ("an operation declaring no responses (3.1 allows it): every status is "
                 "undeclared")
_ECMA_CLASS = ("schemathesis reads patterns with Python's re, which refuses the ECMA-262 class "
               "`[\\w-./:]` (bad character range \\w-.): it drops the pattern and sends any "
               "string as a valid `ref`, which the generated server (reading ECMA-262) refuses "
               "with its 422")
_DEEP_REPEATED = ("schemathesis writes an array inside a deepObject as repeated keys "
                  "(`filter[k]=a&filter[k]=b`, for the undeclared extra members the schema "
                  "allows), a serialization OpenAPI leaves undefined; the generated server reads "
                  "deepObject keys as Stripe writes them (`filter[k][0]=a`) and answers repeated "
                  "keys with its 422 (Keys contradict each other)")
_DYNAMIC_REF = ("schemathesis cannot load the operation (a Schema Error, no request made): "
                "Thing's `$dynamicRef: '#node'` resolves against Thing's `$id` "
                "(https://example.com/schemas/thing), which has no anchor `node` (Node's is the "
                "document's)")
# What schemathesis reports that is not the mock's: (reason, the failure codes it explains;
# none for a Schema Error).
KNOWN: dict[str, dict[str, tuple[str, set[str]]]] = {
    "ecma_patterns.yaml": {"GET /refs/{ref}": (_ECMA_CLASS, {"ST202", "ST103"})},
    "every_field_31.yaml": {"GET /things/{id}": (_DYNAMIC_REF, set()),
                            "PUT /things/{id}": (_DYNAMIC_REF, set())},
    "media_types.yaml": {"POST /notes": (_EMPTY_BODY, {"ST202", "ST103"}),
                         "PUT /files/{fileId}": (_EMPTY_BODY, {"ST202", "ST103"})},
    "non_oauth_scopes.yaml": {"GET /users": (_NO_RESPONSES, {"ST103"})},
    "odds_and_ends.yaml": {"GET /items": (_DEEP_REPEATED, {"ST202", "ST103"})},
}
RUNS = {
    "all": "not_a_server_error,response_schema_conformance,content_type_conformance,"
           "response_headers_conformance",
    "positive": "status_code_conformance,positive_data_acceptance,response_schema_conformance",
}


def _credentials(spec: Path) -> list[str]:
    """`-H` options presenting a credential of the right form for each declared scheme (one
    bearer-like or basic `Authorization`, each API key header): the mock checks forms only."""
    schemes = ((load(spec)[0].data.get("components") or {}).get("securitySchemes") or {})
    headers: dict[str, str] = {}
    for scheme in schemes.values():
        kind, name = scheme.get("type"), str(scheme.get("scheme", "")).lower()
        if kind == "apiKey" and scheme.get("in") == "header":
            headers[scheme["name"]] = "key"
        elif kind == "apiKey" and scheme.get("in") == "cookie":
            headers["Cookie"] = f"{scheme['name']}=key"
        elif kind in ("oauth2", "openIdConnect") or name == "bearer":
            headers["Authorization"] = "Bearer token"
        elif name == "basic":
            headers.setdefault("Authorization", "Basic dXNlcjpwYXNz")
    return [option for name, value in headers.items() for option in ("-H", f"{name}: {value}")]


def _failures(report: Path) -> dict[str, str]:
    failed: dict[str, str] = {}
    for case in ET.parse(report).getroot().iter("testcase"):
        for failure in (*case.iter("failure"), *case.iter("error")):
            failed[case.get("name", "")] = (failure.get("message") or "") + (failure.text or "")
    return failed


@pytest.mark.slow
@pytest.mark.timeout(900)
@pytest.mark.parametrize("name", CONTRACTS)
def test_no_answer_of_the_mock_breaks_the_contract(name: str, tmp_path: Path) -> None:
    cli = shutil.which("schemathesis", path=str(Path(sys.executable).parent)) or "schemathesis"
    found: dict[str, str] = {}
    with serving(CORPUS / name) as url:
        root = "/".join(url.split("/")[:3])
        for mode, checks in RUNS.items():
            report = tmp_path / f"{mode}.xml"
            run = subprocess.run(
                [cli, "run", f"{root}/openapi.json", "--url", url, "--checks", checks,
                 "--mode", mode, "--phases", "examples,fuzzing", "--max-examples", "10",
                 "--seed", "20261207", "--generation-database", "none",
                 "--request-timeout", "20", "--no-color", "--report", "junit",
                 "--report-junit-path", str(report), *_credentials(CORPUS / name)],
                capture_output=True, text=True, timeout=420, check=False)
            if "defines no API operations" in run.stdout:
                pytest.skip(f"{name} has no operations to call")
            assert report.exists(), run.stdout[-3000:] + run.stderr[-2000:]
            known = KNOWN.get(name, {})
            found |= {f"{mode}: {op}": text[:1500] for op, text in _failures(report).items()
                      if not (op in known and set(re.findall(r"- (ST\d+) ", text))
                              <= known[op][1])}
    assert found == {}
