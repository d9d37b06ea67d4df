"""Replay a scripted scenario against a running service and check every answer against the spec.

A scenario is YAML (or JSON), as `EXAMPLE` shows (`contractgen conformance --example` prints it).

Every response must have a status the operation declares (exactly, by range or `default`), the
media type declared for it, and a body valid against the declared schema.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from ..problems import Level, SpecError
from ..spec import load
from ..spec.loader import Document, load_document
from ..spec.paths import iter_operations
from ..spec.tree import escape, resolve_pointer

EXAMPLE = """\
# A scenario for `contractgen conformance SPEC --scenario FILE --base-url URL`.
steps:
  - operation: CreateSession          # an operationId
    body: {}                          # JSON body; or `form:` / `files:` for multipart
    expect: 201                       # optional: the status wanted
    save: {sid: /session_id}          # optional: JSON pointers into the response body
  - operation: Execute
    path: {session_id: "${sid}"}      # `${name}` is replaced by a saved value
    query: {}                         # optional query parameters
    headers: {}                       # optional headers
    body: {tool: code_execution, input: {code: "print(1)"}}
    check: {/result_block/content/stdout: "1"}   # optional: values at pointers
"""
_SPEC_URI = "urn:contractgen:spec"
_VARIABLE = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")


@dataclass
class StepResult:
    """One replayed step: what was sent, what came back, what was wrong with it."""

    index: int
    operation: str
    method: str
    url: str
    status: int | None = None
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


@dataclass(frozen=True)
class _Operation:
    method: str
    path: str
    pointer: str  # of the operation object, for finding response schemas
    responses: Mapping[str, Any]


def _operations(spec: Mapping[str, Any]) -> dict[str, _Operation]:
    return {site.operation_id: _Operation(site.method.upper(), site.path, site.pointer,
                                          site.operation.get("responses") or {})
            for site in iter_operations(spec)}


def _substitute(value: Any, saved: Mapping[str, Any]) -> Any:
    if isinstance(value, str):
        whole = _VARIABLE.fullmatch(value)
        if whole:
            return saved[whole.group(1)]
        return _VARIABLE.sub(lambda m: str(saved[m.group(1)]), value)
    if isinstance(value, list):
        return [_substitute(v, saved) for v in value]
    if isinstance(value, dict):
        return {k: _substitute(v, saved) for k, v in value.items()}
    return value


def _declared(responses: Mapping[str, Any], status: int) -> str | None:
    for key in (str(status), f"{str(status)[0]}XX", f"{str(status)[0]}xx", "default"):
        if key in responses:
            return key
    return None


class _Checker:
    """Validates bodies against schemas of the spec, with its `$ref`s resolvable."""

    def __init__(self, spec: Mapping[str, Any]) -> None:
        from openapi_schema_validator import OAS30Validator, OAS31Validator
        from referencing import Registry, Resource
        from referencing.jsonschema import DRAFT4, DRAFT202012

        is_31 = str(spec.get("openapi", "")).startswith("3.1")
        dialect = DRAFT202012 if is_31 else DRAFT4
        # The spec is a resource of its own, so its `#/components/...` refs resolve within it.
        self._registry: Any = Registry().with_resource(
            _SPEC_URI, Resource.from_contents(dict(spec), default_specification=dialect))
        self._validator_class: Any = OAS31Validator if is_31 else OAS30Validator
        self.spec = spec

    def problems(self, pointer: str, body: Any) -> list[str]:
        validator = self._validator_class({"$ref": f"{_SPEC_URI}#{pointer}"},
                                          registry=self._registry)
        out = []
        for error in sorted(validator.iter_errors(body), key=lambda e: list(e.absolute_path)):
            where = "/" + "/".join(escape(p) for p in error.absolute_path)
            out.append(f"body {where}: {error.message}")
        return out


_SCENARIO_HINT = ("a scenario is a mapping whose `steps:` lists steps such as "
                  "`- {operation: CreateSession, body: {}, expect: 201}`")


def _steps(scenario: Document) -> list[dict[str, Any]]:
    """The scenario's steps; SpecError, located, when `steps` is not a list of mappings."""
    steps = scenario.data.get("steps")
    if steps is None:
        return []
    if not isinstance(steps, list):
        raise SpecError([scenario.problem(Level.ERROR, "/steps", "`steps` must be a list of steps",
                                          _SCENARIO_HINT)])
    problems = [scenario.problem(Level.ERROR, f"/steps/{i}", "a step must be a mapping with an "
                                 "`operation` (an operationId)", _SCENARIO_HINT)
                for i, step in enumerate(steps) if not isinstance(step, dict)]
    if problems:
        raise SpecError(problems)
    return steps


def run_scenario(spec: str | Path, scenario: str | Path, base_url: str, *,
                 overlay: str | Path | None = None, token: str | None = None,
                 timeout: float = 60.0) -> list[StepResult]:
    """Replay `scenario` against `base_url`; one result per step, in order."""
    import httpx

    document, _ = load(spec, overlay=overlay)
    data = document.data
    operations = _operations(data)
    checker = _Checker(data)
    steps = _steps(load_document(scenario, kind="a scenario", hint=_SCENARIO_HINT))
    saved: dict[str, Any] = {}
    results: list[StepResult] = []
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    with httpx.Client(base_url=base_url, timeout=timeout, headers=headers) as client:
        for index, raw in enumerate(steps):
            name = str(raw.get("operation", ""))
            try:
                step = _substitute(raw, saved)
            except KeyError as exc:
                results.append(StepResult(index, name, "?", "?",
                                          problems=[f"no saved value {exc.args[0]!r}"]))
                continue
            op = operations.get(name)
            if op is None:
                result = StepResult(index, name, "?", "?", problems=[f"unknown operation {name!r}"])
                results.append(result)
                continue
            url = op.path
            for key, value in (step.get("path") or {}).items():
                url = url.replace("{" + key + "}", httpx.URL("/" + str(value)).raw_path.decode()[1:])
            result = StepResult(index, name, op.method, url)
            results.append(result)
            kwargs: dict[str, Any] = {"params": step.get("query"), "headers": step.get("headers")}
            if "body" in step:
                kwargs["json"] = step["body"]
            if "form" in step:
                kwargs["data"] = step["form"]
            if "files" in step:
                kwargs["files"] = {
                    k: (f.get("name", k), str(f.get("content", "")).encode())
                    for k, f in step["files"].items()
                }
            try:
                response = client.request(op.method, url, **kwargs)
            except httpx.HTTPError as exc:
                result.problems.append(f"request failed: {exc}")
                continue
            result.status = response.status_code
            _check_response(result, step, op, response, checker=checker, saved=saved)
    return results


def _check_response(result: StepResult, step: Mapping[str, Any], op: _Operation, response: Any,
                    *, checker: _Checker, saved: dict[str, Any]) -> None:
    status = response.status_code
    if "expect" in step and status != int(step["expect"]):
        result.problems.append(f"status {status}, expected {step['expect']}: {response.text[:200]}")
    key = _declared(op.responses, status)
    if key is None:
        result.problems.append(f"status {status} is not declared for {result.operation}")
        return
    declared = op.responses[key]
    if isinstance(declared, dict) and isinstance(declared.get("$ref"), str):
        declared = resolve_pointer(checker.spec, declared["$ref"][1:])
    content = (declared or {}).get("content") or {}
    media = response.headers.get("content-type", "").split(";")[0].strip()
    if not content:
        if response.content and status != 204:
            result.problems.append(f"status {status} declares no body, got {len(response.content)} bytes")
        return
    # `application/octet-stream` is "any bytes": a backend may label them more precisely
    # (Otari's GetFile returns "whatever media type the backend derived").
    generic = ("*/*", "application/octet-stream")
    if media not in content and not any(m.endswith("/*") or m in generic for m in content):
        result.problems.append(f"media type {media or '(none)'} is not declared (declared: "
                               f"{', '.join(content)})")
        return
    if "json" not in media:
        return
    try:
        body = response.json()
    except ValueError:
        result.problems.append("body is not JSON")
        return
    if "schema" in (content.get(media) or {}):
        pointer = f"{op.pointer}/responses/{escape(key)}/content/{escape(media)}/schema"
        if isinstance(op.responses[key], dict) and "$ref" in op.responses[key]:
            pointer = f"{op.responses[key]['$ref'][1:]}/content/{escape(media)}/schema"
        result.problems.extend(checker.problems(pointer, body))
    for name, where in (step.get("save") or {}).items():
        try:
            saved[name] = resolve_pointer(body, where)
        except LookupError:
            result.problems.append(f"save {name}: nothing at {where}")
    for where, wanted in (step.get("check") or {}).items():
        try:
            actual = resolve_pointer(body, where)
        except LookupError:
            actual = None
        if actual != wanted:
            result.problems.append(f"check {where}: {json.dumps(actual)} != {json.dumps(wanted)}")


def run_conformance(spec: str | Path, scenario: str | Path, base_url: str, *,
                    overlay: str | Path | None = None, token: str | None = None,
                    out: TextIO | None = None) -> int:
    """The CLI: print a line per step and the problems; exit 1 when anything does not conform."""
    out = out or sys.stdout
    results = run_scenario(spec, scenario, base_url, overlay=overlay, token=token)
    if not results:
        print(f"{scenario} has no steps: nothing was checked. List them under `steps:` "
              "(see tests/scenarios/otari-session.yaml)", file=sys.stderr)
        return 1
    for result in results:
        mark = "ok  " if result.ok else "FAIL"
        print(f"{mark} {result.index + 1:3} {result.method} {result.url} -> {result.status} "
              f"({result.operation})", file=out)
        for problem in result.problems:
            print(f"         {problem}", file=out)
    failed = sum(1 for r in results if not r.ok)
    print(f"{len(results) - failed} passed, {failed} failed", file=out)
    return 1 if failed else 0
