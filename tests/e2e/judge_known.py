"""The operations the judge (judge.py) finds in disagreement today: by contract, by construct.

Each construct says whether it is one of issue 37's twelve (fixed in other branches: when a fix
lands, its operations agree, and test_judge.py asks for their lines here to go) or not (then
it is a finding of the judge, for an issue of its own).
"""

from __future__ import annotations

import json
from pathlib import Path

TWELVE = "issue 37, one of the twelve"
FOUND = "not of the twelve: found by the judge"

PATH_SERVERS = (f"{TWELVE}: `servers` on a path or an operation: the client sends the request "
                "elsewhere than the operation's server (given the contract's first server as "
                "written, or, deployed, the judge's host under the server's path)")
INVALID_DEFAULT = (f"{TWELVE}: an inline default that breaks its own schema (`default: '1024'` "
                   "on an integer): the client sends it as written, and the server refuses it")
NO_RESPONSES = (f"{FOUND}: an operation without `responses` (3.1): the client raises "
                "UnexpectedStatus on the 200 the server answers, and nothing warns")
UNION_TEXT = (f"{FOUND}: a parameter of `anyOf: [integer, string]`: `?project=1` arrives as the "
              "string '1' where the client was given the integer 1 (the server reads the text "
              "first), and nothing warns")
MULTIPART_AS_FORM = (f"{FOUND}: a `multipart/form-data` body with no file given goes out as "
                     "`application/x-www-form-urlencoded` (httpx's choice), which the contract "
                     "does not declare")
SAME_SHAPE_PATHS = (f"{FOUND}: two templated paths of one shape (`.../Attachments/{{AttachmentID}}`"
                    " and `.../Attachments/{{FileName}}`, which OpenAPI says MUST NOT exist): the "
                    "server routes both to the first, and nothing warns")

DEEPOBJECT_ARRAY = (f"{TWELVE}: `style: deepObject` on a query parameter that is an array "
                    "(Stripe's `expand`): the client raises AttributeError")
FORM_ENCODING = (f"{TWELVE}: a form body or query in deepObject style (`expand[0]=x`, "
                 "`metadata[key]=v`): what the client sends is not what Stripe's encoder "
                 "(stripe-python) writes of the same arguments, or does not reach the service")
PATH_SLASH = (f"{TWELVE}: a path parameter whose value holds `/` (Linode's `linode/debian11` "
              "image id, sent as `%2F`): the server answers 404")
REDIRECT_ONLY = (f"{FOUND}: an operation whose only success is a 3xx (GitHub's 302 to an "
                 "archive): the server answers 200, which the contract does not declare, and "
                 "the client raises UnexpectedStatus; nothing warns")
JSON_PATCH = (f"{FOUND}: a body declared only as `application/json-patch+json` (Box) goes out "
              "as `application/json`")
UNION_ANSWER = (f"{FOUND}, not yet understood: Box's upload session (a 201 answer): what the "
                "server sends matches no member of its union by openapi-core's reading")
NULL_ANSWER = (f"{FOUND}, not yet understood: PagerDuty's notifications: the answer carries "
               "`null` where openapi-core wants a string")
READONLY_ONEOF = (f"{FOUND}, openapi-core's: a `oneOf` body whose members require, in one "
                  "`allOf` member, a property another member marks `readOnly` (PagerDuty's "
                  "contact methods): the client leaves it out, as OpenAPI says; openapi-core "
                  "wants it (python-openapi/openapi-schema-validator#16), but its `oneOf` error "
                  "hides the members' errors, so judge_wire cannot excuse it precisely")
READONLY_ALLOF = (f"{TWELVE}: `readOnly` inside an `allOf` member (PagerDuty's references, "
                  "whose `id` and `type` are read-only): kept, and required, in the request "
                  "model, so the client refuses a request the contract allows")
LOST_NESTED = (f"{FOUND}, the judge's own: PagerDuty's service orchestration declares "
               "`orchestration_path` in two `allOf` members; judge_values.merged merges the two "
               "shallowly (the later `sets.items` wins), so it misses the rule `id` the other "
               "marks readOnly and expects it at the service, which (rightly) never gets it")
UNCLASSIFIED = "UNCLASSIFIED"  # judge_table.py's name for a new disagreement: known() fails on it
EVERY = ("*",)  # every operation of the contract

# contract -> the name of a construct above -> its operations ("*": every operation)
_FILE = Path(__file__).with_name("judge_known.json")
KNOWN: dict[str, dict[str, list[str]]] = json.loads(_FILE.read_text(encoding="utf-8"))


# operations the judge cannot call yet, by contract (the seeds and tests/corpus allow no other)
UNJUDGED: dict[str, dict[str, str]] = {}


def known(contract: str, operations: list[str]) -> dict[str, str]:
    """The known disagreements of a contract (of these operations): operation -> construct."""
    unnamed = KNOWN.get(contract, {}).get(UNCLASSIFIED)
    assert not unnamed, (f"judge_known.json lists {contract}'s {unnamed} as {UNCLASSIFIED}: "
                         "name their construct in judge_known.py (judge_table.py put them there)")
    return {op: globals()[name] for name, ops in KNOWN.get(contract, {}).items()
            for op in (operations if ops == list(EVERY) else ops)}
