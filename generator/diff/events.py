"""Webhooks and callbacks in `contractgen diff`: requests the API *sends*, so the roles invert.

The API sends a webhook's (or callback's) request and receives the consumer's response, so its
request body and parameters are compared with the response rules (a property the API stops
sending breaks the consumers that read it; one it adds does not) and the responses the API
expects back with the request rules. Rule ids carry `webhook-`/`callback-` in front and name
the flow: `webhook-response-body-…` is the body the API sends. Operations are matched by the
webhook's name (a callback's name and expression) and method.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager

from ..spec.paths import HTTP_METHODS
from ..spec.tree import escape
from .bodies import BodyWalk
from .operations import _items
from .rules import Json, Side, Site

_Event = tuple[Mapping[str, Json], str]  # an operation the API sends, and its pointer


def _events(side: Side, items: Json, pointer: str, label: str) -> dict[str, _Event]:
    """The operations of a map of path items (webhooks, or one callback), keyed for people."""
    found: dict[str, _Event] = {}
    for name, raw in _items(items):
        item, at = side.resolve(raw, f"{pointer}/{escape(name)}")
        if not isinstance(item, Mapping):
            continue
        for method, operation in sorted(item.items()):
            if method in HTTP_METHODS and isinstance(operation, Mapping):
                found[f"{label}{name} {method.upper()}"] = (operation, f"{at}/{method}")
    return found


def _callbacks(side: Side, operation: Mapping[str, Json], pointer: str, label: str
               ) -> dict[str, _Event]:
    found: dict[str, _Event] = {}
    for name, raw in _items(operation.get("callbacks")):
        callback, at = side.resolve(raw, f"{pointer}/callbacks/{escape(name)}")
        found.update(_events(side, callback, at, f"{label} callback {name} "))
    return found


class EventWalk(BodyWalk):
    """The comparison of the webhooks, and of an operation's callbacks."""

    @contextmanager
    def _prefixed(self, prefix: str) -> Iterator[None]:
        self.report.prefix = prefix
        try:
            yield
        finally:
            self.report.prefix = ""

    def webhooks(self) -> None:
        """Compare the document's `webhooks`."""
        with self._prefixed("webhook-"):
            self._compare_events(_events(self.old, self.old.data.get("webhooks"), "/webhooks",
                                         "webhook "),
                                 _events(self.new, self.new.data.get("webhooks"), "/webhooks",
                                         "webhook "))

    def callbacks(self, old: _Event, new: _Event, label: str) -> None:
        """Compare the callbacks of one operation."""
        with self._prefixed("callback-"):
            self._compare_events(_callbacks(self.old, *old, label),
                                 _callbacks(self.new, *new, label))

    def _compare_events(self, olds: dict[str, _Event], news: dict[str, _Event]) -> None:
        for key in sorted(olds.keys() - news.keys()):
            self.add("removed", True, "response", key, "the API no longer sends this request, "
                     "so consumers waiting for it never get it", at=olds[key][1])
        for key in sorted(news.keys() - olds.keys()):
            self.add("added", False, "response", key, "the API sends a new request, which "
                     "existing consumers do not subscribe to", at=news[key][1])
        for key in sorted(olds.keys() & news.keys()):
            self._event(olds[key], news[key], key)

    def _event(self, old: _Event, new: _Event, label: str) -> None:
        (old_op, old_at), (new_op, new_at) = old, new
        old_body, old_ptr = self.old.resolve(old_op.get("requestBody"), f"{old_at}/requestBody")
        new_body, new_ptr = self.new.resolve(new_op.get("requestBody"), f"{new_at}/requestBody")
        where = f"{label} request body"
        if isinstance(old_body, Mapping) and not isinstance(new_body, Mapping):
            self.add("request-body-removed", True, "response", where, "the request body was "
                     "removed, so consumers that read it get nothing", at=old_ptr)
        elif isinstance(new_body, Mapping) and not isinstance(old_body, Mapping):
            self.add("request-body-added", False, "response", where, "a request body was added, "
                     "which consumers that do not know it ignore", at=new_ptr)
        elif isinstance(old_body, Mapping) and isinstance(new_body, Mapping):
            self._content(old_body, new_body, old_ptr, new_ptr, Site("response", where, "body"))
            if ("webhook-direction" in self.lifecycle.oasdiff and new_body.get("required") is True
                    and old_body.get("required") is not True):  # oasdiff: as if the API received it
                self.add("request-body-became-required", True, "request", where, "the request "
                         "body became required (oasdiff's reading)", at=f"{new_ptr}/required")
        olds, news = dict(_items(old_op.get("responses"))), dict(_items(new_op.get("responses")))
        for status in sorted(olds.keys() & news.keys()):
            old_resp, old_rp = self.old.resolve(olds[status], f"{old_at}/responses/{status}")
            new_resp, new_rp = self.new.resolve(news[status], f"{new_at}/responses/{status}")
            if isinstance(old_resp, Mapping) and isinstance(new_resp, Mapping):
                self._content(old_resp, new_resp, old_rp, new_rp,
                              Site("request", f"{label} response {status} body", "body"))
        for status in sorted(olds.keys() - news.keys()):
            self.add("response-status-removed", True, "request", f"{label} response {status}",
                     f"the API no longer expects a {status} answer, so consumers answering "
                     "with it may be retried or failed", at=f"{old_at}/responses/{status}")
