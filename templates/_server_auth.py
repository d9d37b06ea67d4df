"""Security of the generated server: each declared scheme checked the way it is declared.

Copied verbatim into every server (already black-formatted). Import from `server` instead.
"""

import base64
import binascii
import inspect
from collections.abc import Awaitable, Callable, Mapping
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, NamedTuple, TypeAlias

from fastapi import Request

from . import errors
from ._server_runtime import AUTHENTICATED, ErrorBodies

BearerVerifier: TypeAlias = Callable[[str | None], bool | Awaitable[bool]]
"""Called with the request's credential (None when absent and anonymous access is allowed)."""


@dataclass(frozen=True)
class Credential:
    """What a request presented for one security scheme, as a verifier receives it."""

    scheme: str  # the scheme's name under components.securitySchemes
    kind: str  # "bearer", "basic", "api_key", "oauth2" or "openid"
    value: str  # the token, the API key, or basic's base64 user:password as sent
    operation_id: str
    scopes: tuple[str, ...] = ()  # the scopes the operation requires of this scheme
    username: str | None = None  # basic only
    password: str | None = None  # basic only


Verifier: TypeAlias = Callable[[Credential], Any]
"""Returns the caller's identity (anything but None or False), or None/False to refuse (401).

May be async, and may raise `errors.ApiError` itself (a 403 for a missing scope, say).
"""


@dataclass(frozen=True)
class Caller:
    """Who called: the identity each verifier of the satisfied requirement returned."""

    identities: Mapping[str, Any] = field(default_factory=dict)

    @property
    def identity(self) -> Any:
        """The identity of the requirement's first scheme."""
        return next(iter(self.identities.values()), None)


_CALLER: ContextVar[Caller | None] = ContextVar("contractgen_caller", default=None)


def current_caller() -> Caller | None:
    """The caller of the operation being served; None when it was served anonymously."""
    return _CALLER.get()


class Scheme(NamedTuple):
    """A declared security scheme, as the server reads and challenges it."""

    kind: str
    location: str | None  # api_key: "header", "query" or "cookie"
    parameter: str | None  # api_key: the header, query or cookie name
    challenge: str  # the WWW-Authenticate challenge of a 401


# Alternatives of requirements: each a tuple of (scheme name, required scopes).
Requirements: TypeAlias = tuple[tuple[tuple[str, tuple[str, ...]], ...], ...]


def authorization(request: Request, scheme: str) -> str | None:
    # RFC 9110: the auth scheme is case-insensitive.
    value = request.headers.get("authorization", "")
    kind, _, credential = value.strip().partition(" ")
    return credential.strip() or None if kind.lower() == scheme else None


def token_verifier(token: str) -> BearerVerifier:
    """A verifier accepting exactly `token`, compared in constant time."""
    import hmac

    if not token:
        raise ValueError(
            "an empty bearer token would let anyone in; pass None to disable"
        )
    expected = token.encode()

    def verify(credential: str | None) -> bool:
        return hmac.compare_digest((credential or "").encode(), expected)

    return verify


def legacy_verifier(verify: BearerVerifier) -> Verifier:
    """`verify_bearer`'s check of the credential's value, as a per-scheme verifier."""

    async def check(credential: Credential) -> Any:
        verdict = verify(credential.value)
        if inspect.isawaitable(verdict):
            verdict = await verdict
        return credential.value if verdict else None

    return check


def credential_of(
    request: Request, name: str, scheme: Scheme, scopes: tuple[str, ...], op: str
) -> Credential | None:
    """The credential `request` presents for scheme `name`, where the scheme says."""
    if scheme.kind == "api_key":
        if scheme.location == "query":
            value = request.query_params.get(scheme.parameter or "")
        elif scheme.location == "cookie":
            value = request.cookies.get(scheme.parameter or "")
        else:
            value = request.headers.get(scheme.parameter or "")
        return Credential(name, scheme.kind, value, op, scopes) if value else None
    if scheme.kind != "basic":
        header = request.headers.get("authorization")
        value = header if scheme.kind == "other" else authorization(request, "bearer")
        return Credential(name, scheme.kind, value, op, scopes) if value else None
    value = authorization(request, "basic")
    if not value:
        return None
    try:
        decoded = base64.b64decode(value, validate=True).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError):
        return None
    user, colon, password = decoded.partition(":")
    if not colon:
        return None
    return Credential(name, "basic", value, op, scopes, user, password)


async def _verified(verifier: Verifier, credential: Credential) -> Any:
    identity = verifier(credential)
    if inspect.isawaitable(identity):
        identity = await identity
    return None if identity is False else identity


def guard(
    service: ErrorBodies,
    operation_id: str,
    schemes: Mapping[str, Scheme],
    requirements: Requirements,
    *,
    verifiers: Mapping[str, Verifier],
    anonymous: Callable[[], bool | Awaitable[bool]] | None,
) -> Callable[[Request], Awaitable[None]]:
    """A check of an operation's requirements: the first alternative whose every scheme
    presents a credential its verifier accepts admits the caller (`current_caller()`).

    An operation that lists `{}` admits a request presenting no credential (after
    `anonymous()`, when given); a credential presented and refused is a 401 all the same.
    """
    allows_anonymous = any(not alternative for alternative in requirements)
    challenges = list(
        dict.fromkeys(
            schemes[name].challenge + _scope(schemes[name].kind, scopes)
            for alternative in requirements
            for name, scopes in alternative
        )
    )

    async def check(request: Request) -> None:
        if request.scope.get(AUTHENTICATED) == operation_id:
            return  # the gate has checked it before the body was read
        presented = False
        for alternative in requirements:
            if not alternative:
                continue
            identities: dict[str, Any] = {}
            for name, scopes in alternative:
                verifier = verifiers.get(name)
                found = credential_of(
                    request, name, schemes[name], scopes, operation_id
                )
                if verifier is None or found is None:
                    break
                presented = True
                identity = await _verified(verifier, found)
                if identity is None:
                    break
                identities[name] = identity
            else:
                _CALLER.set(Caller(identities))
                return
        if allows_anonymous and not presented:
            verdict = anonymous() if anonymous is not None else True
            if inspect.isawaitable(verdict):
                verdict = await verdict
            if verdict:
                _CALLER.set(None)
                return
        message = "Invalid or missing credentials"
        body = service.error_body(operation_id, 401, "UNAUTHORIZED", message, None)
        raise errors.ApiError(
            body, status_code=401, headers={"WWW-Authenticate": ", ".join(challenges)}
        )

    return check


def _scope(kind: str, scopes: tuple[str, ...]) -> str:
    return f' scope="{" ".join(scopes)}"' if scopes and kind != "basic" else ""


def missing_verifiers(
    requirements: Mapping[str, Requirements], verifiers: Mapping[str, Verifier]
) -> list[str]:
    """Schemes that operations without anonymous access use and no verifier checks."""
    return sorted(
        {
            name
            for alternatives in requirements.values()
            if all(alternatives)
            for alternative in alternatives
            for name, _ in alternative
        }
        - set(verifiers)
    )


def checkable(alternatives: Requirements, verifiers: Mapping[str, Verifier]) -> bool:
    """Some alternative of the operation can be satisfied with these verifiers."""
    return any(
        alternative and all(name in verifiers for name, _ in alternative)
        for alternative in alternatives
    )
