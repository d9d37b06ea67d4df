"""The judge of the wire (issue 37): every operation of a contract, called through the generated
client against the generated server (in-process, httpx's ASGI transport), judged by openapi-core.

For each operation: arguments are drawn from the contract (judge_values.py: its examples first,
then values made from its schemas, checked with jsonschema); the client is called with them; a
service answers a valid value for the first declared 2xx status (none: 3xx)
and records what it received.
The operation agrees when openapi-core finds the request and the response on the wire valid
(judge_wire.py), the service received what the client was given, and the client returned what
the service answered. Otherwise it is `warned` when the generator warned (located) about the
operation or a component it uses, else `disagreed`, with the value and the difference. An
operation the harness cannot call (no value fits a schema) is `unjudged`, with why.
"""

from __future__ import annotations

import asyncio
import importlib
import inspect
import json
import re
import sys
import time
import uuid
import warnings
from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from contractgen.emit.package import write_package
from contractgen.options import Options
from contractgen.pipeline import generate
from judge_brackets import EMPTY, WHY, judge_brackets, unsendable
from judge_calls import Call, Session, arguments_of, call_one
from judge_values import NoValue, Refused, Values, dumps
from judge_wire import HOST, Recorder, judge_of, wire_errors, wrong_judge

OUTCOMES = ("agreed", "warned", "disagreed", "unjudged")
# Warnings that say nothing of what goes on the wire: they excuse no disagreement.
# (the judge sends only valid values, and judges only the first 2xx answer)
_NOT_ABOUT_THE_WIRE = ("has no operationId", "looks paged", "is deprecated",
                       "exclusivity is not enforced", "has no field for a message")


@dataclass(frozen=True)
class Verdict:
    """What the judge found of one operation."""

    contract: str
    operation: str  # `METHOD /path`
    outcome: str  # one of OUTCOMES
    detail: str = ""

    def __str__(self) -> str:
        return f"{self.contract}: {self.operation}: {self.outcome}: {self.detail}"


@dataclass
class Report:
    """A contract's verdicts, and how long judging it took."""

    contract: str
    verdicts: list[Verdict] = field(default_factory=list)
    seconds: float = 0.0

    def counts(self) -> Counter[str]:
        return Counter(v.outcome for v in self.verdicts)

    def of(self, outcome: str) -> list[Verdict]:
        return [v for v in self.verdicts if v.outcome == outcome]


def judge_contract(name: str, spec: Path, base: Path, *, overlay: Path | None = None,
                   lenient: bool = False, tamper: Any = None) -> Report:
    """Generate `spec` into `base`, then judge every operation of it."""
    started = time.perf_counter()
    made = generate(spec, Options(overlay=overlay, lenient=lenient))
    assert made.api is not None
    package = f"judged_{uuid.uuid4().hex[:10]}"
    write_package(base / package, made.files)
    if str(base) not in sys.path:
        sys.path.insert(0, str(base))
    importlib.invalidate_caches()
    modules = {part: importlib.import_module(f"{package}.{part}")
               for part in ("models", "server", "client")}
    doc = json.loads(made.files["openapi.json"])
    report = Report(name)
    with warnings.catch_warnings():  # the same verdicts under pytest's `error` filter as
        warnings.simplefilter("ignore")  # outside it: what a warning hides is judged on the wire
        report.verdicts = asyncio.run(_judge_all(name, doc, made, modules, tamper))
    if lenient:
        report.verdicts += _dropped(name, spec, doc, made.warnings)
    report.seconds = time.perf_counter() - started
    return report


async def _judge_all(name: str, doc: dict[str, Any], made: Any, modules: dict[str, Any],
                     tamper: Any) -> list[Verdict]:
    calls: list[Call] = []
    recorder = Recorder(modules["server"].create_app(_service(modules["server"], calls),
                                                     insecure_no_auth=True), tamper=tamper)
    session = Session(Values(doc), _client(modules, doc, recorder, _base_url(doc)), modules,
                      recorder, calls)
    # a deployment of the whole API on the judge's host (base_url none of the contract's
    # servers): the operations with a server of their own go there under its path
    deployed = replace(session, client=_client(
        modules, doc, recorder, HOST + urlsplit(_base_url(doc)).path))
    judges, moved = _Judges(doc), _Judges(_moved(doc))
    generated = {(op.http_method.upper(), op.path): op for op in made.api.operations}
    verdicts = []
    async with session.client, deployed.client:
        for method, path, node, shared in _operations(doc):
            op = generated.get((method, path))  # as spelled: `/shared_items#folders` too
            where = Verdict(name, f"{method} {path}", "")
            warned = _warnings(doc, made.warnings, path, method.lower(), node)
            if op is None:
                verdicts.append(replace(where, outcome="warned" if warned else "disagreed",
                                        detail=warned or "not generated"))
                continue
            verdict = await _judged(where, op, (node, shared), session, judges=judges)
            if op.server and verdict.outcome == "agreed":
                verdict = await _judged(replace(where, detail="deployed on the judge's host: "),
                                        op, (node, shared), deployed, judges=moved)
            if verdict.outcome == "disagreed" and warned:
                verdict = replace(verdict, outcome="warned",
                                  detail=f"{warned} || {verdict.detail}")
            verdicts.append(verdict)
    return verdicts


def _client(modules: dict[str, Any], doc: dict[str, Any], recorder: Recorder,
            base_url: str) -> Any:
    return modules["client"].AsyncClient(base_url, transport=recorder, auth=_credentials(doc),
                                         retry=modules["client"].NO_RETRY)


async def _judged(where: Verdict, op: Any, nodes: tuple[dict[str, Any], Any], session: Session,
                  *, judges: _Judges) -> Verdict:
    try:
        verdict = await _judge_one(where, op, nodes, session, judges=judges)
    except Exception as exc:  # the harness's own failure: unjudged, and said
        verdict = replace(where, outcome="unjudged",
                          detail=f"the judge failed: {type(exc).__name__}: {exc}"[:600])
    return replace(verdict, detail=where.detail + verdict.detail) if where.detail else verdict


async def _judge_one(where: Verdict, op: Any, nodes: tuple[dict[str, Any], Any],
                     session: Session, *, judges: _Judges) -> Verdict:
    node, shared = nodes
    try:
        given = arguments_of(op, node, shared, session)
    except NoValue as exc:
        return replace(where, outcome="unjudged", detail=f"no valid argument: {exc}")
    except Refused as exc:
        return replace(where, outcome="disagreed", detail=str(exc))
    session.calls.clear()
    session.recorder.exchanges.clear()
    problems = await call_one(op, node, given, session)
    if problems is None:
        return replace(where, outcome="unjudged", detail="not called: " + "; ".join(given.skipped))
    empty = unsendable(op, given.wire, session.calls[-1].received if session.calls else None)
    problems = [p for p in problems if not any(
        re.match(rf"the (service received|contract's) {n}\b", p) for n in empty)]
    found: list[tuple[str, str]] = []
    brackets = []
    for exchange in session.recorder.exchanges:
        said = wire_errors(judges.strict, exchange)
        if any("ServerNotFound" in s for s, _ in said):  # judge the rest as if sent there
            said += wire_errors(judges.blind(), exchange)
        brackets.append(judge_brackets(op, given.wire, exchange.request))
        found += [(s, raw) for s, raw in said if not brackets[-1].excuses(raw)]
        problems += brackets[-1].problems
    real, excused = wrong_judge(found)
    problems += real
    excused += [WHY] if any(b.parts for b in brackets) else []
    excused += [f"{EMPTY}: {', '.join(empty)}"] if empty else []
    if problems:
        shown = {k: dumps(v) for k, v in given.wire.items()}
        return replace(where, outcome="disagreed",
                       detail=f"{'; '.join(problems)} (arguments: {shown})")
    return replace(where, outcome="agreed", detail="; ".join(excused))


def _dropped(name: str, spec: Path, doc: dict[str, Any], warnings: list[Any]) -> list[Verdict]:
    """The operations `--lenient` left out: warned when a located warning says so."""
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    written = yaml.load(spec.read_text(encoding="utf-8"), Loader=loader)
    kept = {(m, p) for m, p, _, _ in _operations(doc)}
    verdicts = []
    for method, path, node, _ in _operations(written):
        if (method, path) not in kept:
            said = _warnings(written, warnings, path, method.lower(), node)
            verdicts.append(Verdict(name, f"{method} {path}", "warned" if said else "disagreed",
                                    said or "left out by --lenient without a warning"))
    return verdicts


def _service(server: Any, calls: list[Call]) -> Any:
    """A service whose every method records its arguments and answers what the judge set."""
    base = server.ServiceBase

    def recording(method_name: str, original: Any) -> Any:
        signature = inspect.signature(original)

        async def method(self: Any, *args: Any, **kwargs: Any) -> Any:
            bound = signature.bind(self, *args, **kwargs)
            call = calls[-1]
            call.received = {k: v for k, v in bound.arguments.items() if k != "self"}
            return await call.answer()

        method.__signature__ = signature  # type: ignore[attr-defined]
        return method

    methods = {name: recording(name, value) for name, value in vars(base).items()
               if inspect.iscoroutinefunction(value) and not name.startswith("_")}
    return type("JudgedService", (base,), methods)()


def _operations(doc: dict[str, Any]) -> list[tuple[str, str, dict[str, Any], Any]]:
    """(METHOD, path, the operation, its path's parameters) of every operation."""
    methods = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
    return [(m.upper(), path, item[m], item.get("parameters")) for path, item in (doc.get("paths") or {}).items()
            for m in methods if isinstance(item, dict) and isinstance(item.get(m), dict)]


def _base_url(doc: dict[str, Any]) -> str:
    """The contract's first server as written, its variables at their defaults: what a user
    gives the client (the ASGI transport does not care about hosts). A relative one (OpenAPI's
    default is `/`) is on the judge's host."""
    servers = doc.get("servers") or [{"url": "/"}]
    url = _url(servers[0])
    return url if "://" in url else f"{HOST}/{url.lstrip('/')}".rstrip("/")


def _url(server: dict[str, Any]) -> str:
    url = str(server.get("url", "/"))
    for key, variable in (server.get("variables") or {}).items():
        url = url.replace("{" + key + "}", str(variable.get("default", "")))
    return url


def _moved(doc: dict[str, Any]) -> dict[str, Any]:
    """The contract deployed whole on the judge's host: every server (top-level, of a path, of
    an operation) at its own path there, as the client sends them when its base_url is no
    server of the contract."""
    def move(servers: Any) -> Any:
        return [{"url": HOST + urlsplit(_url(s)).path.rstrip("/") if "://" in _url(s)
                 else s.get("url", "/")} for s in servers]

    paths = {}
    for path, item in (doc.get("paths") or {}).items():
        item = {k: ({**v, "servers": move(v["servers"])} if isinstance(v, dict) and
                    isinstance(v.get("servers"), list) and k != "parameters" else v)
                for k, v in item.items()}
        if isinstance(item.get("servers"), list):
            item["servers"] = move(item["servers"])
        paths[path] = item
    return {**doc, "servers": move(doc.get("servers") or [{"url": "/"}]), "paths": paths}


class _Judges:
    """openapi-core over the contract with its servers as written (`strict`: a request sent
    to another server than its operation's is `ServerNotFound`), and once a request went
    there, over the contract without the servers of paths and operations (`blind`: the rest
    of it judged as if sent to the right one)."""

    def __init__(self, doc: dict[str, Any]) -> None:
        self.doc = doc
        self.strict = judge_of(self.doc)
        self._blind: Any = None

    def blind(self) -> Any:
        if self._blind is None:
            paths = {path: {k: v for k, v in item.items() if k != "servers"}
                     for path, item in (self.doc.get("paths") or {}).items()}
            for item in paths.values():
                for key, node in item.items():
                    if isinstance(node, dict) and "servers" in node:
                        item[key] = {k: v for k, v in node.items() if k != "servers"}
            self._blind = judge_of({**self.doc, "paths": paths})
        return self._blind


def _credentials(doc: dict[str, Any]) -> dict[str, Any]:
    schemes = ((doc.get("components") or {}).get("securitySchemes") or {})
    return {name: ("judge", "secret") if str(s.get("scheme", "")).lower() == "basic"
            else "judge-token" for name, s in schemes.items() if isinstance(s, dict)}


def _warnings(doc: dict[str, Any], warnings: list[Any], path: str, method: str,
              node: dict[str, Any]) -> str:
    """The generator's located warnings about this operation, its path or what it refers to."""
    escaped = "/paths/" + path.replace("~", "~0").replace("/", "~1")
    refs = _refs(doc, node) | {escaped + "/parameters", escaped + "/servers"}
    found = []
    named = re.compile(rf"(?<![\w/]){method.upper()} {re.escape(path)}(?=[,)\s]|$)"
                       rf"|^`{method.upper()} {re.escape(path)}`: ")  # or leading: about it
    for warning in warnings:
        pointer = warning.pointer or ""
        if any(words in warning.message for words in _NOT_ABOUT_THE_WIRE):
            continue
        if (pointer == escaped or pointer.startswith(f"{escaped}/{method}")
                or named.search(warning.message)
                or any(pointer == r or pointer.startswith(r + "/") for r in refs)):
            found.append(warning.format())
    return " | ".join(found)[:1500]


def _refs(doc: dict[str, Any], node: Any) -> set[str]:
    """The pointers of every component `node` refers to, transitively."""
    seen: set[str] = set()
    todo = [node]
    while todo:
        item = todo.pop()
        if isinstance(item, dict):
            ref = item.get("$ref")
            if isinstance(ref, str) and ref.startswith("#/") and ref[1:] not in seen:
                seen.add(ref[1:])
                try:
                    todo.append(_at(doc, ref))
                except (KeyError, IndexError, ValueError):
                    pass
            todo.extend(item.values())
        elif isinstance(item, list):
            todo.extend(item)
    return seen


def _at(doc: dict[str, Any], ref: str) -> Any:
    node: Any = doc
    for part in ref.removeprefix("#/").split("/"):
        part = part.replace("~1", "/").replace("~0", "~")
        node = node[int(part)] if isinstance(node, list) else node[part]
    return node
