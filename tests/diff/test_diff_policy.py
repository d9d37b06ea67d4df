"""The diff policy: `--policy FILE` or `[tool.contractgen.diff]` of the nearest pyproject.toml."""

from __future__ import annotations

import copy
import io
import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from contractgen.diff import run_diff
from contractgen.errors import OptionError

OLD: dict[str, Any] = {
    "openapi": "3.1.0", "info": {"title": "t", "version": "1.4.0"},
    "paths": {
        "/legacy": {"get": {"responses": {"200": {"description": "OK."}}}},
        "/items": {"get": {"responses": {"200": {"description": "OK.", "content": {
            "application/json": {"schema": {"type": "object", "properties": {
                "status": {"type": "string", "enum": ["a", "b"]}}}}}}}}},
    },
}


def _pair(tmp_path: Path, version: str = "1.5.0") -> tuple[Path, Path]:
    new = copy.deepcopy(OLD)
    new["info"]["version"] = version
    del new["paths"]["/legacy"]  # breaking
    schema = new["paths"]["/items"]["get"]["responses"]["200"]["content"]["application/json"]
    schema["schema"]["properties"]["status"]["enum"].append("c")  # info (open enum)
    old_path, new_path = tmp_path / "old.yaml", tmp_path / "new.yaml"
    old_path.write_text(yaml.safe_dump(OLD), encoding="utf-8")
    new_path.write_text(yaml.safe_dump(new), encoding="utf-8")
    return old_path, new_path


def _run(tmp_path: Path, policy: str, *, version: str = "1.5.0", name: str = "policy.toml"
         ) -> tuple[int, dict[str, Any]]:
    (tmp_path / name).write_text(policy, encoding="utf-8")
    out = io.StringIO()
    code = run_diff(*_pair(tmp_path, version), fmt="json", out=out, policy=tmp_path / name)
    return code, {c["id"]: c["level"] for c in json.loads(out.getvalue())["changes"]}


def test_no_policy_is_the_default(tmp_path: Path) -> None:
    assert _run(tmp_path, "") == (1, {"api-path-removed-without-deprecation": "breaking",
                                      "response-property-enum-value-added": "info"})


def test_severity_per_rule_by_id_or_glob(tmp_path: Path) -> None:
    code, levels = _run(tmp_path, '[severity]\n"api-path-removed-*" = "warning"\n'
                        '"response-property-enum-value-added" = "breaking"\n')
    assert code == 1
    assert levels == {"api-path-removed-without-deprecation": "warning",
                      "response-property-enum-value-added": "breaking"}
    code, _ = _run(tmp_path, '[severity]\n"api-path-removed-*" = "info"\n')
    assert code == 0


def test_an_ignore_with_a_reason_passes_the_run_and_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    policy = ('[[ignore]]\nrule = "api-path-removed-without-deprecation"\nwhere = "GET /legacy"\n'
              'reason = "its last client moved, INC-1"\nexpires = 2999-01-01\n')
    assert _run(tmp_path, policy) == (0, {"response-property-enum-value-added": "info"})
    err = capsys.readouterr().err
    assert "ignored by" in err and "GET /legacy: its last client moved, INC-1" in err
    # elsewhere, it does not apply
    assert _run(tmp_path, policy.replace("GET /legacy", "GET /other"))[0] == 1


def test_an_expired_ignore_fails_the_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    policy = ('[[ignore]]\nrule = "api-path-removed-*"\nreason = "agreed"\n'
              'expires = 2000-01-01\n[severity]\n"api-path-removed-*" = "info"\n')
    code, levels = _run(tmp_path, policy)
    assert code == 1 and levels["api-path-removed-without-deprecation"] == "info"
    assert "expired on 2000-01-01" in capsys.readouterr().err


@pytest.mark.parametrize(("policy", "message"), [
    ('[[ignore]]\nrule = "x"\n', "every ignore says why"),
    ('[[ignore]]\nrule = "x"\nreason = "  "\n', "every ignore says why"),
    ('[[ignore]]\nrule = "x"\nreason = "r"\nexpires = "soon"\n', "is not a date"),
    ('fail-on = "never"\n', "fail-on"),
    ('[severity]\nx = "fatal"\n', "severity"),
    ('exempt-stability = ["gold"]\n', "exempt-stability"),
    ('colour = 1\n', "unknown key 'colour'"),
    ('this is not toml', "cannot read"),
])
def test_a_wrong_policy_is_a_usage_error(tmp_path: Path, policy: str, message: str) -> None:
    with pytest.raises(OptionError, match=message):
        _run(tmp_path, policy)


@pytest.mark.parametrize(("version", "code"), [("2.0.0", 0), ("1.5.0", 1), ("v2", 0)])
def test_major_bump(tmp_path: Path, version: str, code: int,
                    capsys: pytest.CaptureFixture[str]) -> None:
    assert _run(tmp_path, "major-bump = true\n", version=version)[0] == code
    assert "major version bump" in capsys.readouterr().err


def test_the_nearest_pyproject_is_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.contractgen.diff]\nfail-on = "info"\n[tool.contractgen.diff.severity]\n'
        '"api-path-removed-*" = "warning"\n', encoding="utf-8")
    (tmp_path / "sub").mkdir()
    monkeypatch.chdir(tmp_path / "sub")
    out = io.StringIO()
    assert run_diff(*_pair(tmp_path), fmt="json", out=out) == 1  # fail-on info
    assert run_diff(*_pair(tmp_path), fmt="json", out=io.StringIO(), fail_on="breaking") == 0
    levels = {c["id"]: c["level"] for c in json.loads(out.getvalue())["changes"]}
    assert levels["api-path-removed-without-deprecation"] == "warning"
    # --policy naming a pyproject.toml reads its [tool.contractgen.diff]
    assert run_diff(*_pair(tmp_path), out=io.StringIO(), fail_on="breaking",
                    policy=tmp_path / "pyproject.toml") == 0


def test_cli_policy(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from contractgen.cli import main

    old, new = _pair(tmp_path)
    good, bad = tmp_path / "good.toml", tmp_path / "bad.toml"
    good.write_text('[severity]\n"api-path-removed-*" = "info"\n', encoding="utf-8")
    bad.write_text('[[ignore]]\nrule = "x"\n', encoding="utf-8")
    assert main(["diff", str(old), str(new)]) == 1
    assert main(["diff", str(old), str(new), "--policy", str(good)]) == 0
    assert main(["diff", str(old), str(new), "--policy", str(good), "--fail-on", "info"]) == 1
    capsys.readouterr()
    assert main(["diff", str(old), str(new), "--policy", str(bad)]) == 2
    assert "every ignore says why" in capsys.readouterr().err
