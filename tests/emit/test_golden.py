"""Golden records: the reference backends' committed `api` packages, generated from their
contracts by the targets in their pyproject.toml, lint clean.

That they equal what the contracts generate now is `contractgen check --strict` (`make test`,
`make check`); that they type-check is the backends' mypy (`make lint`). Regenerate with
`make regen` after changing the generator or templates, and review the diff.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from gen_support import OTARI_OVERLAY, OTARI_SPEC, ROOT, TPMJS_OVERLAY, TPMJS_SPEC

SOURCES = {
    "otari_sandbox": ROOT / "backends" / "otari-sandbox" / "src",
    "tpmjs_executor": ROOT / "backends" / "tpmjs-executor" / "src",
}
CASES = {
    "otari_sandbox": (OTARI_SPEC, OTARI_OVERLAY),
    "tpmjs_executor": (TPMJS_SPEC, TPMJS_OVERLAY),
}


def golden(name: str) -> Path:
    """The committed package a contract's rendering must equal."""
    return SOURCES[name] / name / "api"


@pytest.mark.parametrize("config", ["defaults", "isolated", "project"])
def test_golden_output_passes_ruff(config: str) -> None:
    ruff = [sys.executable, "-m", "ruff", "check", "--no-cache"]
    if config == "defaults":  # what a user's own ruff, unconfigured, says of the package
        ruff += ["--isolated"]
    elif config == "isolated":
        # black owns line length; long description strings cannot be wrapped
        ruff += ["--isolated", "--select", "E,F,I,UP,B,RUF", "--ignore", "E501"]
    else:
        ruff += ["--config", str(ROOT / "pyproject.toml")]
    paths = sorted(str(p) for name in CASES for p in golden(name).glob("*.py"))
    proc = subprocess.run([*ruff, *paths], cwd=ROOT, capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr


@pytest.mark.parametrize("name", ["_server_runtime.py", "_serving.py", "_server_media.py",
                                  "_server_requests.py",
                                  "_client_streams.py", "_client_runtime.py", "_client_retry.py",
                                  "_client_pages.py", "_enums.py", "_json_types.py",
                                  "_webhook_signing.py"])
def test_static_runtime_is_already_black_formatted(name: str) -> None:
    # It is copied verbatim into every package, so black must have nothing left to change.
    from contractgen.emit.formatting import format_source
    from contractgen.emit.render import CLIENT_VERBATIM, HOOKS_VERBATIM, MODELS_VERBATIM, VERBATIM

    assert name in VERBATIM | CLIENT_VERBATIM | MODELS_VERBATIM | HOOKS_VERBATIM
    source = (ROOT / "templates" / name).read_text(encoding="utf-8")
    assert format_source(source) == source
