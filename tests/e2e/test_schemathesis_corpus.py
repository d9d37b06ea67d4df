"""The generated server of each corpus contract under schemathesis (run as a CLI against it over
loopback HTTP): every operation answers an empty 200, so what is tested is the generated request
handling: no request, valid or not, gets a server error, and no request the contract allows is
refused. This found the route order (a concrete path taken by a templated one) and the empty
form values that FastAPI's `Form()` read as missing. What is still refused is listed below
(`KNOWN_REFUSALS`), each with its reason.
"""

from __future__ import annotations

import inspect
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from gen_support import generate_package, serve
from shared_corpus import CORPUS_SPECS, corpus_data
from starlette.responses import Response

_NULL_IN_A_FORM = ("a form-urlencoded `null` for a nullable integer: OpenAPI gives null no form "
                   "spelling, and the server reads the text `null` as no integer")
_EMPTY_ARRAY = ("an empty required array in a form: no key at all on the wire, which the server "
                "reads as the field missing")
_FRAGMENT = ("a `#variant` of a path: requests carry no fragment, so the bare path's operation "
             "answers (the generator warns)")
_OBJECTS_IN_A_QUERY = ("an array of objects in a query: OpenAPI defines no form for it, the "
                       "server reads JSON and schemathesis sends Python's repr")
# Operations whose schema-valid requests the server refuses, by contract.
KNOWN_REFUSALS: dict[str, dict[str, str]] = {
    "twilio-conversations-v1": {
        "POST /v1/Conversations/{ConversationSid}/Participants/{Sid}": _NULL_IN_A_FORM,
        "POST /v1/Services/{ChatServiceSid}/Conversations/{ConversationSid}/Participants/{Sid}":
            _NULL_IN_A_FORM,
        "POST /v1/Services/{ChatServiceSid}/Users/{UserSid}/Conversations/{ConversationSid}":
            _NULL_IN_A_FORM,
        "POST /v1/Users/{UserSid}/Conversations/{ConversationSid}": _NULL_IN_A_FORM,
        "POST /v1/Conversations/{ConversationSid}/Participants": _NULL_IN_A_FORM,
        "POST /v1/Services/{ChatServiceSid}/Conversations/{ConversationSid}/Participants":
            _NULL_IN_A_FORM,
        "POST /v1/Roles": _EMPTY_ARRAY,
        "POST /v1/Roles/{Sid}": _EMPTY_ARRAY,
        "POST /v1/Services/{ChatServiceSid}/Roles": _EMPTY_ARRAY,
        "POST /v1/Services/{ChatServiceSid}/Roles/{Sid}": _EMPTY_ARRAY,
    },
    "box": {
        "PUT /files/{file_id}#add_shared_link": _FRAGMENT,
        "PUT /files/{file_id}#update_shared_link": _FRAGMENT,
        "PUT /files/{file_id}#remove_shared_link": _FRAGMENT,
        "PUT /folders/{folder_id}#add_shared_link": _FRAGMENT,
        "PUT /folders/{folder_id}#update_shared_link": _FRAGMENT,
        "PUT /folders/{folder_id}#remove_shared_link": _FRAGMENT,
        "PUT /web_links/{web_link_id}#add_shared_link": _FRAGMENT,
        "PUT /web_links/{web_link_id}#update_shared_link": _FRAGMENT,
        "PUT /web_links/{web_link_id}#remove_shared_link": _FRAGMENT,
        "PUT /metadata_templates/enterprise/securityClassification-6VMVochwUWo/schema#update":
            _FRAGMENT,
        "POST /oauth2/token#refresh": _FRAGMENT,
        "GET /search": _OBJECTS_IN_A_QUERY,
    },
}


def _serving(pkg: Any) -> Any:
    """The generated app with every operation answering an empty 200, unauthenticated."""
    async def answer(self: Any, *args: Any, **kwargs: Any) -> Response:
        return Response(status_code=200)

    base = pkg.server.ServiceBase
    methods = {name: answer for name, value in vars(base).items()
               if inspect.iscoroutinefunction(value)}
    return pkg.server.create_app(type("Service", (base,), methods)(), insecure_no_auth=True)


def _failures(report: Path) -> dict[str, str]:
    """Operation -> the failure text of each failed test case of a JUnit report."""
    failed: dict[str, str] = {}
    for case in ET.parse(report).getroot().iter("testcase"):
        for failure in (*case.iter("failure"), *case.iter("error")):
            failed[case.get("name", "")] = (failure.get("message") or "") + (failure.text or "")
    return failed


@pytest.mark.slow
@pytest.mark.timeout(600)
@pytest.mark.parametrize("name", CORPUS_SPECS)
def test_no_server_error_and_no_valid_request_refused(name: str, tmp_path: Path) -> None:
    data = corpus_data(name)
    pkg = generate_package(data, tmp_path)
    cli = shutil.which("schemathesis", path=str(Path(sys.executable).parent)) or "schemathesis"
    report = tmp_path / "junit.xml"
    with serve(_serving(pkg)) as url:
        run = subprocess.run(
            [cli, "run", f"{url}/openapi.json", "--url", url + pkg.server.BASE_PATH,
             "--checks", "not_a_server_error,positive_data_acceptance",
             "--phases", "examples,fuzzing", "--max-examples", "10", "--seed", "20261202",
             "--generation-database", "none", "--request-timeout", "20", "--no-color",
             "--report", "junit", "--report-junit-path", str(report)],
            capture_output=True, text=True, timeout=540, check=False,
        )
    assert report.exists(), run.stdout[-3000:] + run.stderr[-2000:]
    failures = _failures(report)
    server_errors = {op: text for op, text in failures.items()
                     if "Schema-valid request rejected" not in text}
    assert server_errors == {}, run.stdout[-4000:]
    refused = sorted(failures.keys() - server_errors.keys())
    unexplained = sorted(set(refused) - KNOWN_REFUSALS.get(name, {}).keys())
    assert unexplained == [], run.stdout[-6000:]
