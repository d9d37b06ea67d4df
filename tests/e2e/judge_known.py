"""The operations the judge (judge.py) finds in disagreement today: by contract, by construct.

Each construct says whether it is one of issue 37's twelve (fixed in other branches: when a fix
lands, its operations agree, and test_judge.py asks for their lines here to go) or not (then
it is a finding of the judge, for an issue of its own).
"""

from __future__ import annotations

TWELVE = "issue 37, one of the twelve"
FOUND = "not of the twelve: found by the judge"

PATH_SERVERS = (f"{TWELVE}: `servers` on a path or an operation: the client sends the request "
                "to the API's first server, not the operation's")
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

# contract -> construct -> operations
KNOWN: dict[str, dict[str, tuple[str, ...]]] = {
    "odds_and_ends": {
        PATH_SERVERS: ("GET /items", "OPTIONS /items", "HEAD /items", "GET /items/"),
    },
    "non_oauth_scopes": {NO_RESPONSES: ("GET /users",)},
}


def known(contract: str) -> dict[str, str]:
    """The known disagreements of a contract: operation -> its construct."""
    return {op: construct for construct, ops in KNOWN.get(contract, {}).items() for op in ops}
