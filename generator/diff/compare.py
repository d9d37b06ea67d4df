"""The operation walk of `contractgen diff`: operations matched by method and path, then
their parameters, bodies, responses and security compared; schemas go to `schema.SchemaDiff`."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from ..spec.tree import escape
from .operations import (
    _JSON,
    _alternatives,
    _headers,
    _honoured,
    _items,
    _Operation,
    _operations,
    _parameter_schema,
    _parameters,
    _show_alt,
)
from .rules import Json, Report, Side, Site, as_mapping, show
from .schema import SchemaDiff


class _Walk:
    """One comparison: walks the operations of both documents and fills a report."""

    def __init__(self, old: Side, new: Side) -> None:
        self.old, self.new, self.report = old, new, Report()
        self.schemas = SchemaDiff(old, new, self.report)

    def add(
        self, rule_id: str, breaking: bool, direction: str, where: str, what: str, *, at: str
    ) -> None:
        self.report.add(rule_id, breaking, direction, where, what, pointer=at)

    def run(self) -> None:
        old_ops, new_ops = _operations(self.old), _operations(self.new)
        new_paths = {path for _, path in new_ops}
        for key in sorted(old_ops.keys() - new_ops.keys()):
            op = old_ops[key]
            whole = key[1] not in new_paths
            note = " (it was deprecated)" if op.node.get("deprecated") is True else ""
            self.add(
                "api-path-removed" if whole else "api-removed",
                True,
                "operation",
                op.label,
                f"the operation was removed{note}, so clients calling it fail",
                at=op.pointer,
            )
        for key in sorted(new_ops.keys() - old_ops.keys()):
            op = new_ops[key]
            self.add(
                "endpoint-added",
                False,
                "operation",
                op.label,
                "the operation was added, which no existing client calls",
                at=op.pointer,
            )
        for key in sorted(old_ops.keys() & new_ops.keys()):
            self._operation(old_ops[key], new_ops[key])
        self._security(
            self.old.data.get("security"),
            self.new.data.get("security"),
            "api-global",
            "document security",
            "/security",
        )
        self._security_schemes()

    def _operation(self, old: _Operation, new: _Operation) -> None:
        where = new.label
        old_id, new_id = old.node.get("operationId"), new.node.get("operationId")
        if old_id != new_id:
            action = "added" if old_id is None else "removed" if new_id is None else "changed"
            self.add(
                f"api-operation-id-{action}",
                True,
                "operation",
                where,
                f"the operationId changed from {show(old_id)} to {show(new_id)}; HTTP "
                "clients are unaffected, but generated clients rename the method",
                at=f"{new.pointer}/operationId",
            )
        old_dep, new_dep = old.node.get("deprecated") is True, new.node.get("deprecated") is True
        if old_dep != new_dep:
            self.add(
                "endpoint-deprecated" if new_dep else "endpoint-reactivated",
                False,
                "operation",
                where,
                (
                    "the operation was deprecated, which changes no payload"
                    if new_dep
                    else "the operation is no longer deprecated, which changes no payload"
                ),
                at=new.pointer,
            )
        self._parameters(old, new)
        self._request_body(old, new)
        self._responses(old, new)
        if "security" in old.node or "security" in new.node:
            self._security(
                self._effective_security(self.old, old),
                self._effective_security(self.new, new),
                "api",
                where,
                f"{new.pointer}/security",
            )

    # -- parameters ---------------------------------------------------------------------------

    def _parameters(self, old: _Operation, new: _Operation) -> None:
        olds, news = _parameters(self.old, old), _parameters(self.new, new)
        moved = set()
        for key in sorted(olds.keys() - news.keys()):
            param, ptr = olds[key]
            where = f"{old.label} {key[0]} parameter {param.get('name')}"
            name = str(param.get("name")).lower()
            elsewhere = [
                k
                for k in sorted(news.keys() - olds.keys())
                if str(news[k][0].get("name")).lower() == name and k[0] != "path"
            ]
            if elsewhere:
                moved.add(elsewhere[0])
                self.add(
                    "request-parameter-location-changed",
                    True,
                    "request",
                    where,
                    f"the parameter moved from {key[0]} to {elsewhere[0][0]}, so requests "
                    "that send it where it was are rejected",
                    at=news[elsewhere[0]][1],
                )
            else:
                self.add(
                    "request-parameter-removed",
                    False,
                    "request",
                    where,
                    "the parameter was removed, so servers may reject or ignore clients "
                    "that still send it",
                    at=ptr,
                )
        for key in sorted(news.keys() - olds.keys() - moved):
            param, ptr = news[key]
            where = f"{new.label} {key[0]} parameter {param.get('name')}"
            if param.get("required") is True:
                self.add(
                    "new-required-request-parameter",
                    True,
                    "request",
                    where,
                    "a required parameter was added, so requests without it are rejected",
                    at=ptr,
                )
            else:
                self.add(
                    "new-optional-request-parameter",
                    False,
                    "request",
                    where,
                    "an optional parameter was added, which existing requests may omit",
                    at=ptr,
                )
        for key in sorted(olds.keys() & news.keys()):
            (old_param, old_ptr), (new_param, new_ptr) = olds[key], news[key]
            site = Site(
                "request", f"{new.label} {key[0]} parameter {new_param.get('name')}", "parameter"
            )
            old_req, new_req = old_param.get("required") is True, new_param.get("required") is True
            if old_req != new_req:
                self.add(
                    f"request-parameter-became-{'required' if new_req else 'optional'}",
                    new_req,
                    "request",
                    site.location,
                    (
                        "the parameter became required, so requests without it are rejected"
                        if new_req
                        else "the parameter became optional, so requests that send it stay valid"
                    ),
                    at=new_ptr,
                )
            old_schema, old_at = _parameter_schema(old_param, old_ptr)
            new_schema, new_at = _parameter_schema(new_param, new_ptr)
            self.schemas.compare(old_schema, new_schema, old_at, new_at, site)

    # -- request body -------------------------------------------------------------------------

    def _request_body(self, old: _Operation, new: _Operation) -> None:
        old_body, old_ptr = self.old.resolve(
            old.node.get("requestBody"), f"{old.pointer}/requestBody"
        )
        new_body, new_ptr = self.new.resolve(
            new.node.get("requestBody"), f"{new.pointer}/requestBody"
        )
        where = f"{new.label} request body"
        if not isinstance(old_body, Mapping) and not isinstance(new_body, Mapping):
            return
        if not isinstance(new_body, Mapping):
            self.add(
                "request-body-removed",
                True,
                "request",
                where,
                "the request body was removed, so requests that send one may be rejected",
                at=old_ptr,
            )
            return
        new_req = new_body.get("required") is True
        if not isinstance(old_body, Mapping):
            kind = "required" if new_req else "optional"
            self.add(
                f"request-body-added-{kind}",
                new_req,
                "request",
                where,
                f"a {kind} request body was added"
                + (", so requests without it are rejected" if new_req else ""),
                at=new_ptr,
            )
            return
        if (old_body.get("required") is True) != new_req:
            self.add(
                f"request-body-became-{'required' if new_req else 'optional'}",
                new_req,
                "request",
                where,
                (
                    "the request body became required, so requests without " "it are rejected"
                    if new_req
                    else "the request body became optional, so requests that send one stay valid"
                ),
                at=new_ptr,
            )
        self._content(old_body, new_body, old_ptr, new_ptr, Site("request", where, "body"))

    def _content(
        self,
        old: Mapping[str, Json],
        new: Mapping[str, Json],
        old_ptr: str,
        new_ptr: str,
        site: Site,
    ) -> None:
        """Compare the media types of a request body or response and their schemas."""
        olds, news = dict(_items(old.get("content"))), dict(_items(new.get("content")))
        kind = "request-body" if site.direction == "request" else "response"
        for media in sorted(olds.keys() - news.keys()):
            self.add(
                f"{kind}-media-type-removed",
                True,
                site.direction,
                site.location,
                f"the media type {media} was removed, so clients using it fail",
                at=f"{old_ptr}/content/{escape(media)}",
            )
        for media in sorted(news.keys() - olds.keys()):
            self.add(
                f"{kind}-media-type-added",
                False,
                site.direction,
                site.location,
                f"the media type {media} was added; clients keep using the ones they know",
                at=f"{new_ptr}/content/{escape(media)}",
            )
        for media in sorted(olds.keys() & news.keys()):
            old_media, new_media = olds[media], news[media]
            if not isinstance(old_media, Mapping) or not isinstance(new_media, Mapping):
                continue
            at = (
                site
                if media == _JSON or len(news) == 1
                else replace(site, where=f"{site.where} [{media}]")
            )
            self.schemas.compare(
                old_media.get("schema", {}),
                new_media.get("schema", {}),
                f"{old_ptr}/content/{escape(media)}/schema",
                f"{new_ptr}/content/{escape(media)}/schema",
                at,
            )

    # -- responses ----------------------------------------------------------------------------

    def _responses(self, old: _Operation, new: _Operation) -> None:
        olds = dict(_items(old.node.get("responses")))
        news = dict(_items(new.node.get("responses")))
        old_at, new_at = f"{old.pointer}/responses", f"{new.pointer}/responses"
        for status in sorted(olds.keys() - news.keys()):
            success = status.startswith("2")
            self.add(
                f"response-{'' if success else 'non-'}success-status-removed",
                success,
                "response",
                f"{old.label} response {status}",
                f"the {status} response was removed"
                + (
                    ", so clients expecting it fail"
                    if success
                    else "; clients still handle it as an undeclared status"
                ),
                at=f"{old_at}/{escape(status)}",
            )
        for status in sorted(news.keys() - olds.keys()):
            success = status.startswith("2")
            self.add(
                f"response-{'' if success else 'non-'}success-status-added",
                False,
                "response",
                f"{new.label} response {status}",
                f"the {status} response was added; clients that do not know it treat it "
                "as an unexpected status",
                at=f"{new_at}/{escape(status)}",
            )
        for status in sorted(olds.keys() & news.keys()):
            old_resp, old_ptr = self.old.resolve(olds[status], f"{old_at}/{escape(status)}")
            new_resp, new_ptr = self.new.resolve(news[status], f"{new_at}/{escape(status)}")
            if not isinstance(old_resp, Mapping) or not isinstance(new_resp, Mapping):
                continue
            where = f"{new.label} response {status}"
            self._content(
                old_resp, new_resp, old_ptr, new_ptr, Site("response", f"{where} body", "body")
            )
            self._headers(old_resp, new_resp, old_ptr, new_ptr, where)

    def _headers(
        self,
        old: Mapping[str, Json],
        new: Mapping[str, Json],
        old_ptr: str,
        new_ptr: str,
        where: str,
    ) -> None:
        olds, news = _headers(self.old, old, old_ptr), _headers(self.new, new, new_ptr)
        for key in sorted(olds.keys() - news.keys()):
            name, header, at = olds[key]
            required = header.get("required") is True
            self.add(
                f"{'required' if required else 'optional'}-response-header-removed",
                required,
                "response",
                f"{where} header {name}",
                (
                    "the response header was removed, so clients relying on it fail"
                    if required
                    else "the optional response header was removed, which clients already cope with"
                ),
                at=at,
            )
        for key in sorted(news.keys() - olds.keys()):
            name, _, at = news[key]
            self.add(
                "response-header-added",
                False,
                "response",
                f"{where} header {name}",
                "the response header was added; clients that do not know it ignore it",
                at=at,
            )
        for key in sorted(olds.keys() & news.keys()):
            (_, old_header, old_at), (name, new_header, new_at) = olds[key], news[key]
            site = Site("response", f"{where} header {name}", "header")
            old_req, new_req = (
                old_header.get("required") is True,
                new_header.get("required") is True,
            )
            if old_req != new_req:
                self.add(
                    f"response-header-became-{'required' if new_req else 'optional'}",
                    not new_req,
                    "response",
                    site.location,
                    (
                        "the response header became optional, so clients relying on it may not get it"
                        if old_req
                        else "the response header became required, which clients already handle"
                    ),
                    at=new_at,
                )
            self.schemas.compare(
                old_header.get("schema", {}),
                new_header.get("schema", {}),
                f"{old_at}/schema",
                f"{new_at}/schema",
                site,
            )

    # -- security -----------------------------------------------------------------------------

    def _effective_security(self, doc: Side, op: _Operation) -> Json:
        return op.node["security"] if "security" in op.node else doc.data.get("security")

    def _security(self, old: Json, new: Json, prefix: str, where: str, pointer: str) -> None:
        """Compare two security requirement lists: alternatives (OR) of schemes (AND)."""
        olds, news = _alternatives(old), _alternatives(new)
        anonymous = frozenset[str]()
        lost_anonymous = anonymous in olds and anonymous not in news
        for key in sorted(olds.keys() - news.keys(), key=sorted):
            if not key:
                required = " or ".join(_show_alt(k) for k in sorted(news, key=sorted))
                self.add(
                    f"{prefix}-security-added",
                    True,
                    "security",
                    where,
                    f"credentials are now required ({required}), so anonymous callers "
                    "are refused",
                    at=pointer,
                )
                continue
            kept = _honoured(olds[key], news)
            self.add(
                f"{prefix}-security-removed",
                not kept,
                "security",
                where,
                f"the security requirement {_show_alt(key)} was removed"
                + (
                    ", but what it granted still suffices"
                    if kept
                    else ", so clients authenticating with it are refused"
                ),
                at=pointer,
            )
        for key in sorted(news.keys() - olds.keys(), key=sorted):
            if not key:
                if not olds.keys() - news.keys():
                    self.add(
                        f"{prefix}-security-removed",
                        False,
                        "security",
                        where,
                        "anonymous access is now allowed, so credentials are simply not needed",
                        at=pointer,
                    )
            elif not lost_anonymous:
                self.add(
                    f"{prefix}-security-added",
                    False,
                    "security",
                    where,
                    f"the security requirement {_show_alt(key)} was added as an "
                    "alternative, so existing credentials still work",
                    at=pointer,
                )
        for key in sorted(olds.keys() & news.keys(), key=sorted):
            for scheme in sorted(key):
                added = sorted(news[key][scheme] - olds[key][scheme])
                removed = sorted(olds[key][scheme] - news[key][scheme])
                if added:
                    self.add(
                        f"{prefix}-security-scope-added",
                        True,
                        "security",
                        where,
                        f"the scopes {', '.join(added)} are now required for {scheme}, so "
                        "tokens without them are refused",
                        at=pointer,
                    )
                if removed:
                    self.add(
                        f"{prefix}-security-scope-removed",
                        False,
                        "security",
                        where,
                        f"the scopes {', '.join(removed)} are no longer required for {scheme}, "
                        "so existing tokens still work",
                        at=pointer,
                    )

    def _security_schemes(self) -> None:
        def schemes(doc: Side) -> dict[str, Json]:
            return dict(_items(as_mapping(doc.data.get("components")).get("securitySchemes")))

        olds, news = schemes(self.old), schemes(self.new)
        base = "/components/securitySchemes"
        for name in sorted(olds.keys() & news.keys()):
            old = as_mapping(self.old.resolve(olds[name], f"{base}/{escape(name)}")[0])
            new = as_mapping(self.new.resolve(news[name], f"{base}/{escape(name)}")[0])
            for field in ("type", "scheme", "in", "name"):
                if show(old.get(field)) != show(new.get(field)):
                    self.add(
                        "api-security-component-changed",
                        True,
                        "security",
                        f"security scheme {name}",
                        f"its {field} changed from {show(old.get(field))} to "
                        f"{show(new.get(field))}, so existing credentials are sent wrongly",
                        at=f"{base}/{escape(name)}/{field}",
                    )


