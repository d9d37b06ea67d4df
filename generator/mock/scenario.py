"""Scripted answers: the steps file `contractgen conformance` replays, answered in order.

Each call must be the next step's operation (with the step's path parameters, once its saved
values are substituted); it gets the step's `expect` status, with the values its `check` names
at their pointers, and what the step `save`s is kept for the steps after it. A call out of order
gets a problem (409, `X-Mock-Error: OUT_OF_ORDER`), and `GET /__mock/scenario` lists them.
A request the generated server refuses itself (a 4xx of validation or security) counts as its
step too, when its status is the one the step expects.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..project.conformance import _steps, _substitute
from ..spec.loader import load_document
from ..spec.tree import resolve_pointer, split_pointer
from .answers import Answer, Call, Responder, problem
from .contract import Op

if TYPE_CHECKING:
    from .state import Store


def set_pointer(data: Any, pointer: str, value: Any) -> Any:
    """`data` with `value` at `pointer`, objects made on the way."""
    parts = split_pointer(pointer)
    if not parts:
        return value
    out = dict(data) if isinstance(data, dict) else {}
    node = out
    for part in parts[:-1]:
        child = node.get(part)
        node[part] = dict(child) if isinstance(child, dict) else {}
        node = node[part]
    node[parts[-1]] = value
    return out


class Scenario:
    """Where a mock is in its scenario, and the calls that came out of order."""

    def __init__(self, steps: list[dict[str, Any]], responder: Responder, ops: Iterable[Op]):
        self.steps = steps
        self.responder = responder
        self.ids = {op.id for op in ops}
        self.index = 0
        self.saved: dict[str, Any] = {}
        self.mismatches: list[str] = []
        self._answered = False

    @classmethod
    def read(cls, path: Path, responder: Responder, ops: Iterable[Op]) -> Scenario:
        return cls(_steps(load_document(path, kind="a scenario")), responder, ops)

    @property
    def done(self) -> bool:
        return self.index >= len(self.steps)

    def reset(self) -> None:
        self.index, self.saved, self.mismatches = 0, {}, []

    def report(self) -> dict[str, Any]:
        return {"steps": len(self.steps), "answered": self.index, "done": self.done,
                "out_of_order": self.mismatches}

    def _out_of_order(self, call: Call | None, why: str) -> Answer:
        got = f"{call.method} {call.path} ({call.op.id})" if call else "a call to no operation"
        self.mismatches.append(f"step {self.index + 1}: {got}: {why}")
        return problem(409, "OUT_OF_ORDER", self.mismatches[-1])

    def _expected(self, call: Call | None) -> tuple[dict[str, Any] | None, str]:
        """The next step, substituted, and why `call` is not it ("" when it is)."""
        try:
            step = _substitute(self.steps[self.index], self.saved)
        except KeyError as exc:
            return None, f"the step uses {exc.args[0]!r}, which no earlier step saved"
        name = str(step.get("operation", ""))
        if call is None or call.op.id != name:
            return step, f"expected {name}"
        for key, value in (step.get("path") or {}).items():
            if str(call.params.get(key)) != str(value):
                return step, f"expected {name} with {key}={value}"
        return step, ""

    def answer(self, call: Call, store: Store) -> Answer:
        self._answered = True
        step, why = self._expected(call)
        if step is None or why:
            return self._out_of_order(call, why)
        self.index += 1
        success = self.responder.success(call.op)
        status = int(step.get("expect", success))
        answer = store.handle(call) if status == success else None
        if answer is None or answer.status != status:
            answer = self.responder.answer(call, status)
        checks = step.get("check") or {}
        if checks and answer.media is not None and "json" in answer.media:
            answer = self._checked(call, status, answer, checks)
        for name, where in (step.get("save") or {}).items():
            try:
                self.saved[name] = resolve_pointer(answer.body, where)
            except LookupError:
                self.mismatches.append(f"step {self.index}: nothing to save at {where}")
        return answer

    def _checked(self, call: Call, status: int, answer: Answer, checks: dict[str, Any]) -> Answer:
        """The answer with the step's `check` values at their pointers, valid as declared."""
        def fix(made: Any) -> Any:
            for where, value in checks.items():
                made = set_pointer(made, where, value)
            return made

        pointer = self.responder.schema_pointer(call.op, status)
        body = fix(answer.body)
        if pointer is not None and not self.responder.judge.valid(pointer, body):
            body = self.responder.made_up(None, pointer, f"scenario|{self.index}|{call.key}",
                                          fix, pointer_schema=True)
        return Answer(answer.status, answer.media, body, answer.headers)

    def refused(self, call: Call | None, status: int) -> None:
        """After each request: one the generated server answered itself is its step's too."""
        if self._answered or self.done:
            self._answered = False
            return
        step, why = self._expected(call)
        if step is not None and not why and "expect" in step and int(step["expect"]) != status:
            why = f"answered {status}, the step expects {step['expect']}"
        if why:
            self._out_of_order(call, why)
            return
        self.index += 1
