"""The service's budget from its container's limits: a pids limit (podman --pids-limit,
Kubernetes' pod pids limit) lowers the sessions it admits, as its fd limit and memory do."""

from __future__ import annotations

from pathlib import Path

import pytest
from otari_sandbox import budget
from otari_sandbox.budget import PIDS_PER_SESSION, PIDS_RESERVED, pids_limit, sized_capacity
from otari_sandbox.config import Settings


def test_a_pids_limit_lowers_the_capacity() -> None:
    settings = Settings(capacity=256, pool_size=4)
    assert sized_capacity(settings, 1 << 20, 0) == 256
    assert sized_capacity(settings, 1 << 20, 0, pids_max=500) == (500 - PIDS_RESERVED) // PIDS_PER_SESSION - 4
    assert sized_capacity(settings, 1 << 20, 0, pids_max=10) == 1


@pytest.mark.parametrize(("cgroup", "files", "expected"), [
    ("8:pids:/pod7\n7:memory:/pod7\n", {"pids/pod7/pids.max": "500\n"}, 500),  # v1
    ("0::/pod7\n", {"pod7/pids.max": "1000\n"}, 1000),  # v2
    ("0::/pod7\n", {"pod7/pids.max": "max\n"}, None),  # no limit
    ("8:pids:/\n", {}, None),  # the host's root: no file
])
def test_the_pids_limit_is_read_from_the_services_own_cgroup(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cgroup: str, files: dict[str, str],
    expected: int | None,
) -> None:
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    (tmp_path / "self-cgroup").write_text(cgroup)
    real_open = open

    def fake_open(path: str, *args: object, **kwargs: object) -> object:
        if path == "/proc/self/cgroup":
            return real_open(tmp_path / "self-cgroup", *args, **kwargs)  # type: ignore[call-overload]
        if path.startswith("/sys/fs/cgroup/"):
            return real_open(tmp_path / path.removeprefix("/sys/fs/cgroup/"), *args, **kwargs)  # type: ignore[call-overload]
        return real_open(path, *args, **kwargs)  # type: ignore[call-overload]

    monkeypatch.setattr(budget, "open", fake_open, raising=False)
    assert pids_limit() == expected
