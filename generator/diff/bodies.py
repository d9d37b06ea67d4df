"""`contractgen diff` on what an operation carries: its request body, its responses, their
media types and headers; the schemas go to `schema.SchemaDiff`. `compare._Walk` adds the
operations and their parameters on top."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from ..spec.tree import escape
from .lifecycle import Lifecycle
from .operations import _JSON, _headers, _items, _Operation
from .rules import Json, Report, Side, Site, show
from .schema import SchemaDiff

_Header = tuple[str, Mapping[str, Json], str]  # a response header's name, node and pointer


def _target(link: Json) -> tuple[str, ...]:
    """Where a link leads and what it passes, as compared across versions."""
    link = link if isinstance(link, Mapping) else {}
    return tuple(show(link.get(k)) for k in ("operationId", "operationRef", "parameters",
                                             "requestBody", "server"))


def became(old: Mapping[str, Json], new: Mapping[str, Json]) -> bool | None:
    """Whether a parameter, body or header is now required, when that changed; else None."""
    new_req = new.get("required") is True
    return None if (old.get("required") is True) == new_req else new_req


class BodyWalk:
    """The comparison's state (both sides, the report, the schema differ) and the bodies."""

    def __init__(self, old: Side, new: Side, lifecycle: Lifecycle | None = None) -> None:
        self.old, self.new, self.report = old, new, Report()
        self.lifecycle = lifecycle or Lifecycle()
        self.schemas = SchemaDiff(old, new, self.report, self.lifecycle)
        self.add = self.report.add

    # -- request body -------------------------------------------------------------------------

    def _request_body(self, old: _Operation, new: _Operation) -> None:
        old_body, old_ptr = self.old.resolve(old.node.get("requestBody"),
                                             f"{old.pointer}/requestBody")
        new_body, new_ptr = self.new.resolve(new.node.get("requestBody"),
                                             f"{new.pointer}/requestBody")
        where = f"{new.label} request body"
        if not isinstance(old_body, Mapping) and not isinstance(new_body, Mapping):
            return
        if not isinstance(new_body, Mapping):
            self.add("request-body-removed", True, "request", where,
                     "the request body was removed, so requests that send one may be rejected",
                     at=old_ptr)
            return
        new_req = new_body.get("required") is True
        if not isinstance(old_body, Mapping):
            kind = "required" if new_req else "optional"
            self.add(f"request-body-added-{kind}", new_req, "request", where,
                     f"a {kind} request body was added"
                     + (", so requests without it are rejected" if new_req else ""), at=new_ptr)
            return
        if became(old_body, new_body) is not None:
            self.add(f"request-body-became-{'required' if new_req else 'optional'}", new_req,
                     "request", where,
                     "the request body became required, so requests without it are rejected"
                     if new_req else
                     "the request body became optional, so requests that send one stay valid",
                     at=new_ptr)
        self._content(old_body, new_body, old_ptr, new_ptr, Site("request", where, "body"))

    def _content(self, old: Mapping[str, Json], new: Mapping[str, Json], old_ptr: str,
                 new_ptr: str, site: Site) -> None:
        """Compare the media types of a request body or response and their schemas."""
        olds, news = dict(_items(old.get("content"))), dict(_items(new.get("content")))
        kind = "request-body" if site.direction == "request" else "response"
        for media in sorted(olds.keys() - news.keys()):
            self.add(f"{kind}-media-type-removed", True, site.direction, site.location,
                     f"the media type {media} was removed, so clients using it fail",
                     at=f"{old_ptr}/content/{escape(media)}")
        for media in sorted(news.keys() - olds.keys()):
            self.add(f"{kind}-media-type-added", False, site.direction, site.location,
                     f"the media type {media} was added; clients keep using the ones they know",
                     at=f"{new_ptr}/content/{escape(media)}")
        for media in sorted(olds.keys() & news.keys()):
            old_media, new_media = olds[media], news[media]
            if not isinstance(old_media, Mapping) or not isinstance(new_media, Mapping):
                continue
            at = site if media == _JSON or len(news) == 1 else replace(
                site, where=f"{site.where} [{media}]")
            self.schemas.compare(old_media.get("schema", {}), new_media.get("schema", {}),
                                 f"{old_ptr}/content/{escape(media)}/schema",
                                 f"{new_ptr}/content/{escape(media)}/schema", at)

    # -- responses ----------------------------------------------------------------------------

    def _responses(self, old: _Operation, new: _Operation) -> None:
        olds = dict(_items(old.node.get("responses")))
        news = dict(_items(new.node.get("responses")))
        old_at, new_at = f"{old.pointer}/responses", f"{new.pointer}/responses"
        for status in sorted(olds.keys() - news.keys()):
            success = status.startswith("2")
            self.add(f"response-{'' if success else 'non-'}success-status-removed", success,
                     "response", f"{old.label} response {status}",
                     f"the {status} response was removed" + (
                         ", so clients expecting it fail" if success
                         else "; clients still handle it as an undeclared status"),
                     at=f"{old_at}/{escape(status)}")
        for status in sorted(news.keys() - olds.keys()):
            success = status.startswith("2")
            self.add(f"response-{'' if success else 'non-'}success-status-added", False,
                     "response", f"{new.label} response {status}",
                     f"the {status} response was added; clients that do not know it treat it "
                     "as an unexpected status", at=f"{new_at}/{escape(status)}")
        for status in sorted(olds.keys() & news.keys()):
            old_resp, old_ptr = self.old.resolve(olds[status], f"{old_at}/{escape(status)}")
            new_resp, new_ptr = self.new.resolve(news[status], f"{new_at}/{escape(status)}")
            if not isinstance(old_resp, Mapping) or not isinstance(new_resp, Mapping):
                continue
            where = f"{new.label} response {status}"
            self._content(old_resp, new_resp, old_ptr, new_ptr,
                          Site("response", f"{where} body", "body"))
            self._headers(old_resp, new_resp, old_ptr, new_ptr, where)
            self._links(old_resp, new_resp, old_ptr, new_ptr, where)

    def _links(self, old: Mapping[str, Json], new: Mapping[str, Json], old_ptr: str,
               new_ptr: str, where: str) -> None:
        """A response's links: clients that follow a link removed or changed lose their way."""
        olds, news = dict(_items(old.get("links"))), dict(_items(new.get("links")))
        for name in sorted(olds.keys() | news.keys()):
            old_link = self.old.resolve(olds.get(name), f"{old_ptr}/links/{escape(name)}")[0]
            new_link = self.new.resolve(news.get(name), f"{new_ptr}/links/{escape(name)}")[0]
            if name not in news:
                action, what = "removed", "was removed, so clients that follow it lose it"
            elif name not in olds:
                action, what = "added", "was added, which existing clients do not follow"
            elif _target(old_link) != _target(new_link):
                action, what = "changed", "now leads elsewhere or with other parameters"
            else:
                continue
            at = f"{new_ptr if name in news else old_ptr}/links/{escape(name)}"
            self.add(f"response-link-{action}", False, "response", f"{where} link {name}",
                     f"the link {what}", at=at)

    def _headers(self, old: Mapping[str, Json], new: Mapping[str, Json], old_ptr: str,
                 new_ptr: str, where: str) -> None:
        olds, news = _headers(self.old, old, old_ptr), _headers(self.new, new, new_ptr)
        for key in sorted(olds.keys() - news.keys()):
            name, header, at = olds[key]
            required = header.get("required") is True
            self.add(f"{'required' if required else 'optional'}-response-header-removed",
                     required, "response", f"{where} header {name}",
                     "the response header was removed, so clients relying on it fail"
                     if required else
                     "the optional response header was removed, which clients already cope with",
                     at=at)
        for key in sorted(news.keys() - olds.keys()):
            name, _, at = news[key]
            self.add("response-header-added", False, "response", f"{where} header {name}",
                     "the response header was added; clients that do not know it ignore it",
                     at=at)
        for key in sorted(olds.keys() & news.keys()):
            self._header(olds[key], news[key], where)

    def _header(self, old: _Header, new: _Header, where: str) -> None:
        (_, old_header, old_at), (name, new_header, new_at) = old, new
        site = Site("response", f"{where} header {name}", "header")
        new_req = became(old_header, new_header)
        if new_req is not None:
            self.add(f"response-header-became-{'required' if new_req else 'optional'}",
                     not new_req, "response", site.location,
                     "the response header became required, which clients already handle"
                     if new_req else
                     "the response header became optional, so clients relying on it may not get it",
                     at=new_at)
        self.schemas.compare(old_header.get("schema", {}), new_header.get("schema", {}),
                             f"{old_at}/schema", f"{new_at}/schema", site)
