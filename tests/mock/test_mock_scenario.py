"""Scenarios: the steps file `contractgen conformance` replays scripts the mock's answers in order
(both seed contracts pass conformance against their mocks), and a call out of order is refused
and reported."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
from contractgen.cli import main
from contractgen.mock import MockOptions, serving
from contractgen.project.conformance import run_scenario

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
OTARI = (ROOT / "specs/otari-code-execution.openapi.yaml",
         ROOT / "specs/otari-code-execution.overlay.yaml", ROOT / "tests/scenarios/otari-session.yaml")
TPMJS = (ROOT / "specs/tpmjs-executor.openapi.yaml", ROOT / "specs/tpmjs-executor.overlay.yaml",
         HERE / "tpmjs-session.yaml")


def _control(url: str, what: str) -> str:
    return "/".join(url.split("/")[:3]) + f"/__mock/{what}"


@pytest.mark.slow
@pytest.mark.parametrize("seed", [OTARI, TPMJS], ids=["otari", "tpmjs"])
def test_conformance_passes_against_the_mock_of_each_seed(
        seed: tuple[Path, Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    spec, overlay, scenario = seed
    with serving(spec, MockOptions(overlay=overlay, scenario=scenario)) as url:
        code = main(["conformance", str(spec), "--overlay", str(overlay), "--scenario",
                     str(scenario), "--base-url", url, "--token", "t"])
        report = httpx.get(_control(url, "scenario")).json()
    out = capsys.readouterr().out
    assert code == 0, out
    assert report["done"] and report["out_of_order"] == []


def test_calls_out_of_order_are_refused_and_reported() -> None:
    spec, overlay, scenario = OTARI
    with serving(spec, MockOptions(overlay=overlay, scenario=scenario)) as url:
        auth = {"Authorization": "Bearer t"}
        early = httpx.delete(f"{url}/sessions/abc", headers=auth)
        assert early.status_code == 409 and early.headers["X-Mock-Error"] == "OUT_OF_ORDER"
        first = httpx.post(f"{url}/sessions", json={}, headers=auth)
        assert first.status_code == 201
        wrong_id = httpx.post(f"{url}/sessions/not-the-saved-one/exec", headers=auth,
                              json={"tool": "code_execution", "input": {"code": "1"}})
        assert wrong_id.status_code == 409
        report = httpx.get(_control(url, "scenario")).json()
        assert report["answered"] == 1 and not report["done"]
        assert [m.split(":")[0] for m in report["out_of_order"]] == ["step 1", "step 2"]
        assert "session_id=" in report["out_of_order"][1]
        httpx.post(_control(url, "reset"))
        assert httpx.get(_control(url, "scenario")).json()["answered"] == 0


def test_a_scripted_answer_carries_the_steps_checks_and_status() -> None:
    spec, overlay, scenario = TPMJS
    with serving(spec, MockOptions(overlay=overlay, scenario=scenario)) as url:
        results = run_scenario(spec, scenario, url, overlay=overlay, token="t")
    assert [r.status for r in results] == [200, 200, 200, 400, 500, 503]
    assert all(r.ok for r in results), [r.problems for r in results]
