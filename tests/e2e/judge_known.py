"""The operations the judge (judge.py) finds in disagreement today, by contract: operation ->
the construct, and whether it is one of issue 37's twelve (fixed in other branches: when a fix
lands, the operation agrees and test_judge.py asks for its line here to go)."""

from __future__ import annotations

PATH_SERVERS = "issue 37 (twelve): `servers` on a path or operation; the client sends to the API's host"
NO_RESPONSES = ("not of the twelve: an operation without `responses` (3.1): the client raises "
                "UnexpectedStatus on the 200 the server answers, and nothing warns")

KNOWN: dict[str, dict[str, str]] = {
    "odds_and_ends": {
        "GET /items": PATH_SERVERS,
        "OPTIONS /items": PATH_SERVERS,
        "HEAD /items": PATH_SERVERS,
        "GET /items/": PATH_SERVERS,
    },
    "non_oauth_scopes": {"GET /users": NO_RESPONSES},
}
