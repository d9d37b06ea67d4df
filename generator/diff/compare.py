"""The operation walk of `contractgen diff`: operations matched by method and path, then
their parameters, bodies, responses and security compared; schemas go to `schema.SchemaDiff`.
The bodies and responses are compared by `bodies.BodyWalk`, security by `security`."""

from __future__ import annotations

from collections.abc import Mapping

from .bodies import became
from .events import EventWalk
from .lifecycle import deprecated_removal, deprecation, exempt, names_for, removal
from .operations import _Operation, _operations, _parameter_schema, _parameters
from .rules import Json, Site, show
from .security import compare_schemes, compare_security, effective_security

_Key = tuple[str, str]  # a parameter's (location, name)
_Param = tuple[Mapping[str, Json], str]  # a parameter and its pointer
_Params = dict[_Key, _Param]
_PARAMETER = names_for("request-parameter")


class _Walk(EventWalk):
    """One comparison: walks the operations of both documents and fills a report."""

    def run(self) -> None:
        old_ops, new_ops = _operations(self.old), _operations(self.new)
        new_paths = {path for _, path in new_ops}
        for key in sorted(old_ops.keys() - new_ops.keys()):
            op = old_ops[key]
            rule, breaking, message = removal(op.node, self.lifecycle, key[1] not in new_paths)
            self.report.exempt = exempt(op.node, self.lifecycle)
            self.add(rule, breaking, "operation", op.label, message, at=op.pointer)
            self.report.exempt = ""
        for key in sorted(new_ops.keys() - old_ops.keys()):
            op = new_ops[key]
            self.add("endpoint-added", False, "operation", op.label,
                     "the operation was added, which no existing client calls", at=op.pointer)
        for key in sorted(old_ops.keys() & new_ops.keys()):
            self._operation(old_ops[key], new_ops[key])
        compare_security(self.add, self.old.data.get("security"), self.new.data.get("security"),
                         prefix="api-global", where="document security", pointer="/security")
        compare_schemes(self.add, self.old, self.new)
        self.webhooks()

    def _operation(self, old: _Operation, new: _Operation) -> None:
        where = new.label
        self.report.exempt = exempt(old.node, self.lifecycle)
        old_id, new_id = old.node.get("operationId"), new.node.get("operationId")
        if old_id != new_id:
            action = "added" if old_id is None else "removed" if new_id is None else "changed"
            self.add(f"api-operation-id-{action}", True, "operation", where,
                     f"the operationId changed from {show(old_id)} to {show(new_id)}; HTTP "
                     "clients are unaffected, but generated clients rename the method",
                     at=f"{new.pointer}/operationId")
        for rule, breaking, message in deprecation(old.node, new.node, self.lifecycle):
            self.add(rule, breaking, "operation", where, message, at=new.pointer)
        self._parameters(old, new)
        self._request_body(old, new)
        self._responses(old, new)
        if "callbacks" in old.node or "callbacks" in new.node:
            self.callbacks((old.node, old.pointer), (new.node, new.pointer), new.label)
        if "security" in old.node or "security" in new.node:
            compare_security(self.add, effective_security(self.old, old),
                             effective_security(self.new, new), prefix="api", where=where,
                             pointer=f"{new.pointer}/security")
        self.report.exempt = ""

    # -- parameters ---------------------------------------------------------------------------

    def _parameters(self, old: _Operation, new: _Operation) -> None:
        olds, news = _parameters(self.old, old), _parameters(self.new, new)
        moved = self._parameters_removed(olds, news, old.label)
        for key in sorted(news.keys() - olds.keys() - moved):
            param, ptr = news[key]
            where = f"{new.label} {key[0]} parameter {param.get('name')}"
            if param.get("required") is True:
                self.add("new-required-request-parameter", True, "request", where,
                         "a required parameter was added, so requests without it are rejected",
                         at=ptr)
            else:
                self.add("new-optional-request-parameter", False, "request", where,
                         "an optional parameter was added, which existing requests may omit",
                         at=ptr)
        for key in sorted(olds.keys() & news.keys()):
            self._parameter(olds[key], news[key], f"{new.label} {key[0]} parameter")

    def _parameters_removed(self, olds: _Params, news: _Params, label: str) -> set[_Key]:
        """Report the parameters gone (or moved to another location); the moved ones' keys."""
        moved = set()
        for key in sorted(olds.keys() - news.keys()):
            param, ptr = olds[key]
            where = f"{label} {key[0]} parameter {param.get('name')}"
            name = str(param.get("name")).lower()
            elsewhere = [k for k in sorted(news.keys() - olds.keys())
                         if str(news[k][0].get("name")).lower() == name and k[0] != "path"]
            if elsewhere:
                moved.add(elsewhere[0])
                self.add("request-parameter-location-changed", True, "request", where,
                         f"the parameter moved from {key[0]} to {elsewhere[0][0]}, so requests "
                         "that send it where it was are rejected", at=news[elsewhere[0]][1])
            elif param.get("deprecated") is True:
                rule, breaking, message = deprecated_removal(param, self.lifecycle, _PARAMETER)
                self.add(rule, breaking, "request", where, message, at=ptr)
            else:
                self.add("request-parameter-removed", False, "request", where,
                         "the parameter was removed, so servers may reject or ignore clients "
                         "that still send it", at=ptr)
        return moved

    def _parameter(self, old: _Param, new: _Param, label: str) -> None:
        (old_param, old_ptr), (new_param, new_ptr) = old, new
        site = Site("request", f"{label} {new_param.get('name')}", "parameter")
        for rule, breaking, message in deprecation(old_param, new_param, self.lifecycle,
                                                   _PARAMETER):
            self.add(rule, breaking, "request", site.location, message, at=new_ptr)
        new_req = became(old_param, new_param)
        if new_req is not None:
            self.add(f"request-parameter-became-{'required' if new_req else 'optional'}",
                     new_req, "request", site.location,
                     "the parameter became required, so requests without it are rejected"
                     if new_req else
                     "the parameter became optional, so requests that send it stay valid",
                     at=new_ptr)
        old_schema, old_at = _parameter_schema(old_param, old_ptr)
        new_schema, new_at = _parameter_schema(new_param, new_ptr)
        self.schemas.compare(old_schema, new_schema, old_at, new_at, site)
