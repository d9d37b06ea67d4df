"""deploy/nginx/render.py as a user runs it: either backend alone, loopback by default, and
nothing written when an instance name is wrong. nginx itself checks each rendered file (-t)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from deploy_support import missing_nginx, nginx_binary, render


def _nginx_accepts(prefix: Path) -> subprocess.CompletedProcess[str]:
    binary = nginx_binary()
    assert binary is not None
    return subprocess.run(
        [binary, "-t", "-p", f"{prefix}/", "-c", str(prefix / "nginx.conf"), "-e", str(prefix / "err.log")],
        capture_output=True, text=True, timeout=30, check=False,
    )


@pytest.mark.parametrize(("argv", "files", "included"), [
    (["--otari", "otari-0=127.0.0.1:9001"], {"nginx.conf", "otari.conf"}, ["otari.conf"]),
    (["--tpmjs", "127.0.0.1:9002"], {"nginx.conf", "tpmjs.conf", "tpmjs.js"}, ["tpmjs.conf"]),
    (["--otari", "otari-0=127.0.0.1:9001", "--tpmjs", "127.0.0.1:9002"],
     {"nginx.conf", "otari.conf", "tpmjs.conf", "tpmjs.js"}, ["otari.conf", "tpmjs.conf"]),
], ids=["otari-alone", "tpmjs-alone", "both"])
def test_either_backend_renders_alone(tmp_path: Path, argv: list[str], files: set[str],
                                      included: list[str]) -> None:
    out = tmp_path / "proxy"
    assert render.main([str(out), *argv]) == 0
    assert {p.name for p in out.iterdir() if p.is_file()} == files
    includes = [line.split()[1].rstrip(";") for line in (out / "nginx.conf").read_text().splitlines()
                if line.strip().startswith("include ")]
    assert includes == included
    if (why := missing_nginx()) is not None:
        pytest.skip(why)
    checked = _nginx_accepts(out)
    assert checked.returncode == 0, checked.stderr


def test_the_proxy_listens_on_loopback_unless_told(tmp_path: Path) -> None:
    assert render.main([str(tmp_path / "a"), "--otari", "otari-0=127.0.0.1:9001",
                        "--tpmjs", "127.0.0.1:9002"]) == 0
    listens = {line.strip() for p in (tmp_path / "a").glob("*.conf") for line in p.read_text().splitlines()
               if line.strip().startswith("listen ")}
    assert listens == {"listen 127.0.0.1:8080;", "listen 127.0.0.1:8090;"}
    assert render.main([str(tmp_path / "b"), "--otari", "otari-0=127.0.0.1:9001",
                        "--otari-listen", "0.0.0.0:8080"]) == 0
    assert "listen 0.0.0.0:8080;" in (tmp_path / "b" / "otari.conf").read_text()


def test_a_bad_instance_name_writes_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "proxy"
    assert render.main([str(out), "--otari", "otari-0=127.0.0.1:9001", "Bad_Name=127.0.0.1:9003",
                        "--tpmjs", "127.0.0.1:9002"]) == 2
    assert "'Bad_Name' is not a DNS label" in capsys.readouterr().err
    assert not out.exists()


def test_no_instances_at_all_is_a_usage_error(tmp_path: Path) -> None:
    with pytest.raises(SystemExit) as exited:
        render.main([str(tmp_path / "proxy")])
    assert exited.value.code == 2
    assert not (tmp_path / "proxy").exists()
