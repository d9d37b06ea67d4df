"""A tool's network: its own namespace; with the network on, only non-local addresses.

Real bubblewrap, slirp4netns and Node; the "host services" are real listeners of this test
process: the loopback registry, a TCP server on the host's own non-loopback address, an
abstract unix socket. The host's address stands in for the internet (there is none here):
allowing it proves that outbound traffic passes.
"""

from __future__ import annotations

import ipaddress
import os
import shutil
import socket
import threading
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from pydantic import ValidationError
from tpmjs_executor import netlink
from tpmjs_executor.app import parse_args
from tpmjs_executor.config import Settings
from tpmjs_executor.executor import ExecutionRequest, ExecutionResult, Executor
from tpmjs_executor.network import NetworkStack, host_addresses, parse_networks
from tpmjs_support import ExecutorProcess, NpmRegistry, run, with_executor

pytestmark = pytest.mark.skipif(
    shutil.which("bwrap") is None or shutil.which("slirp4netns") is None,
    reason="bubblewrap or slirp4netns not installed",
)
HOSTILE = "@fixture/hostile"


class Listener:
    """A socket of the host that counts the connections it accepts."""

    def __init__(self, family: int, address: Any) -> None:
        self.sock = socket.socket(family, socket.SOCK_STREAM)
        self.sock.bind(address)
        self.sock.listen(16)
        self.accepted = 0
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.accepted += 1
            conn.close()

    def close(self) -> None:
        """Stop listening."""
        self.sock.shutdown(socket.SHUT_RDWR)
        self.sock.close()


def _host_ip() -> str | None:
    """A non-loopback IPv4 address of this host (the test's stand-in for a remote server)."""
    for net in host_addresses():
        if not net.network_address.is_loopback:
            return str(net.network_address)
    return None


@pytest.fixture(scope="module")
def remote() -> Iterator[Listener]:
    """A TCP server on the host's own non-loopback address."""
    address = _host_ip()
    if address is None:
        pytest.skip("no non-loopback IPv4 address on this host")
    listener = Listener(socket.AF_INET, (address, 0))
    yield listener
    listener.close()


@pytest.fixture(scope="module")
def abstract() -> Iterator[str]:
    """The name of a listening abstract unix socket of the host."""
    name = f"\0tpmjs-test-{uuid.uuid4().hex}"
    # Node pads an abstract name with NULs to the whole sun_path (108 bytes), which is part
    # of the name: bind the padded one.
    listener = Listener(socket.AF_UNIX, name.encode().ljust(108, b"\0"))
    yield name
    listener.close()


def _connect(settings: Settings, *targets: dict[str, Any]) -> dict[str, str]:
    request = ExecutionRequest(
        package_name=HOSTILE, name="connectTool", params={"targets": list(targets)}
    )

    async def body(ex: Executor) -> ExecutionResult:
        return await ex.execute(request)

    result = run(with_executor(settings, body))
    assert result.success, result
    return result.output  # type: ignore[no-any-return]


def _targets(registry: NpmRegistry, remote: Listener, abstract: str) -> list[dict[str, Any]]:
    registry_port = int(registry.url.rsplit(":", 1)[1].strip("/"))
    host, port = remote.sock.getsockname()
    return [
        {"host": "127.0.0.1", "port": registry_port},
        {"host": "0.0.0.0", "port": registry_port},  # "this host"
        {"host": "10.0.2.2", "port": registry_port},  # slirp4netns's gateway: the host
        {"host": host, "port": port},
        {"path": abstract},
        {"self": True},
    ]


def test_a_tool_reaches_no_service_of_the_host_by_default(
    settings: Settings, registry: NpmRegistry, remote: Listener, abstract: str
) -> None:
    targets = _targets(registry, remote, abstract)
    loopback, this_host, gateway, address = (f"{t['host']}:{t['port']}" for t in targets[:4])
    unix = abstract.replace("\0", "@")
    # Control: without namespaces every one of them answers.
    shared = _connect(settings.with_overrides(isolation="process"), *targets)
    assert shared[loopback] == shared[address] == shared[unix] == "connected", shared
    before = remote.accepted
    boxed = _connect(settings.with_overrides(isolation="bwrap"), *targets)
    assert boxed[loopback] == boxed[this_host] == "ECONNREFUSED"  # the sandbox's own loopback
    assert boxed[gateway] == "EACCES"  # prohibited, besides --disable-host-loopback
    assert boxed[address] == "EACCES"  # the host's own addresses are denied (prohibit route)
    assert boxed[unix] == "ECONNREFUSED"  # abstract sockets belong to the network namespace
    assert boxed["self"] == "connected"
    assert remote.accepted == before


def test_an_allowed_range_is_reachable_and_nothing_more(
    settings: Settings, registry: NpmRegistry, remote: Listener, abstract: str
) -> None:
    host, port = remote.sock.getsockname()
    targets = _targets(registry, remote, abstract)
    allowed = settings.with_overrides(isolation="bwrap", network_allow=f"{host}/32")
    before = remote.accepted
    out = _connect(allowed, *targets)
    assert out[f"{host}:{port}"] == "connected"  # through slirp4netns: outbound works
    assert remote.accepted == before + 1
    assert all(out[k] != "connected" for k in out if k not in ("self", f"{host}:{port}")), out
    # With the network off, nothing but the sandbox's own loopback, allowed or not.
    offline = _connect(allowed.with_overrides(network=False), *targets)
    assert offline[f"{host}:{port}"] == "ENETUNREACH"
    assert offline["self"] == "connected"
    assert all(offline[k] != "connected" for k in offline if k != "self"), offline
    assert remote.accepted == before + 1


def test_a_tool_cannot_change_its_network(settings: Settings) -> None:
    ip = shutil.which("ip")
    assert ip is not None
    commands = {
        "route": [ip, "route", "del", "prohibit", "10.0.0.0/8"],
        "flush": [ip, "route", "flush", "table", "main"],
        "link": [ip, "link", "set", "tap0", "down"],
        "address": [ip, "address", "add", "192.168.77.1/24", "dev", "lo"],
    }
    request = ExecutionRequest(
        package_name=HOSTILE, name="syscallTool", params={"commands": commands}
    )

    async def body(ex: Executor) -> ExecutionResult:
        return await ex.execute(request)

    result = run(with_executor(settings.with_overrides(isolation="bwrap"), body))
    assert result.success, result
    for name, outcome in result.output.items():
        assert outcome["status"] not in (0, None), (name, outcome)
        assert "Operation not permitted" in outcome["stderr"], (name, outcome)


@pytest.mark.slow
def test_netlink_and_ip_configure_the_same_network(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As root the executor configures a run's namespace over rtnetlink itself; otherwise
    through nsenter and `ip -batch`. Both give the tool the same routes and address."""
    if not netlink.can_join():
        pytest.skip("the in-process path needs root")
    request = ExecutionRequest(
        package_name=HOSTILE,
        name="readTool",
        params={"paths": ["/proc/net/route", "/proc/net/fib_trie"]},
    )

    async def body(ex: Executor) -> ExecutionResult:
        return await ex.execute(request)

    bwrap = settings.with_overrides(isolation="bwrap")
    seen = []
    for in_process in (True, False):
        monkeypatch.setattr(netlink, "can_join", lambda answer=in_process: answer)
        result = run(with_executor(bwrap, body))
        assert result.success, result
        seen.append(result.output)
    assert seen[0] == seen[1]
    routes = seen[0]["/proc/net/route"]
    assert "tap0\t00000000\t0202000A" in routes  # default via 10.0.2.2
    assert "0000000A" in routes and "0000007F" in routes  # 10/8 and 127/8 (prohibit)
    assert "10.0.2.100" in seen[0]["/proc/net/fib_trie"]


def test_slirp4netns_ends_with_its_run(settings: Settings) -> None:
    pooled = settings.with_overrides(isolation="bwrap", pool_size=2)

    async def body(ex: Executor) -> list[int]:
        result = await ex.execute(ExecutionRequest(package_name=HOSTILE, name="connectTool",
                                                   params={"targets": [{"self": True}]}))
        assert result.success, result
        return _slirps()

    # Other executors of this test process (module fixtures) may hold pooled stacks of their own.
    before = set(_slirps())
    during = set(run(with_executor(pooled, body))) - before
    assert during  # the pooled runs' stacks at least
    assert not during & set(_slirps())


def _slirps() -> list[int]:
    """slirp4netns processes that are children of this process."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            name, _, rest = stat.partition(") ")
            state, parent = rest.split()[:2]
            if name.endswith("(slirp4netns") and int(parent) == os.getpid() and state != "Z":
                found.append(int(entry.name))
    return found


@pytest.mark.slow
def test_the_executor_and_registry_are_unreachable_over_http(
    registry: NpmRegistry, store_dir: Path, tmp_path: Path, abstract: str
) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("EXECUTOR_", "npm_config"))}
    args = ["--registry", registry.url, "--store-dir", str(store_dir), "--isolation", "bwrap",
            "--pool-size", "1"]  # fmt: skip
    server = ExecutorProcess(args, env, tmp_path / "log")
    try:
        own_port = int(server.url.rsplit(":", 1)[1])
        registry_port = int(registry.url.rsplit(":", 1)[1].strip("/"))
        targets = [{"host": "127.0.0.1", "port": p} for p in (own_port, registry_port)]
        for _ in range(2):  # a fresh process, then the pooled one
            answer = httpx.post(
                server.url + "/execute-tool",
                json={"packageName": HOSTILE, "name": "connectTool",
                      "params": {"targets": [*targets, {"path": abstract}]}},
                timeout=30,
            )  # fmt: skip
            assert answer.status_code == 200 and answer.json()["success"], answer.text
            assert "connected" not in answer.json()["output"].values(), answer.json()
    finally:
        server.stop()


def test_the_deny_list_and_its_knobs(monkeypatch: pytest.MonkeyPatch) -> None:
    stack = NetworkStack(parse_networks("10.1.0.0/16"), parse_networks("203.0.113.0/24"))
    denied = stack.denied()
    net = ipaddress.IPv4Network

    def blocked(address: str) -> bool:
        return any(ipaddress.IPv4Address(address) in n for n in denied)

    local = ["127.0.0.1", "10.9.9.9", "172.16.0.1", "192.168.1.1", "169.254.169.254"]
    special = ["100.64.0.1", "0.0.0.0", "224.0.0.1", "255.255.255.255", "203.0.113.7"]
    for address in (*local, *special):
        assert blocked(address), address
    for address in ("10.1.2.3", "10.0.2.3", "8.8.8.8", "1.1.1.1"):
        assert not blocked(address), address
    for address in host_addresses():
        assert blocked(str(address.network_address)), address
    # Slirp's gateway is the host: denied even when its whole range is allowed.
    for each in (stack, NetworkStack(parse_networks("10.0.0.0/8,192.0.2.0/24"))):
        denied = each.denied()
        assert blocked("10.0.2.2") and not blocked("10.0.2.3")
        assert all(n.prefixlen > 24 for n in denied if n.subnet_of(net("10.0.2.0/24")))
        script = each.script().decode()
        assert script.index("default via 10.0.2.2") < script.index("prohibit 10.0.2.2/32")
    with pytest.raises(ValidationError, match="not an IPv4 network"):
        Settings(network_allow="10.0.0.1/8")
    monkeypatch.setenv("EXECUTOR_NETWORK_ALLOW", "192.0.2.0/24, 198.51.100.0/24")
    assert Settings().network_allow == "192.0.2.0/24,198.51.100.0/24"
    _, flags = parse_args(["--network-allow", "192.0.2.7/32", "--network-allow", "10.9.0.0/16",
                           "--network-deny", "203.0.113.0/24"])  # fmt: skip
    assert flags.network_allow == "192.0.2.7/32,10.9.0.0/16"
    assert flags.network_deny == "203.0.113.0/24"


def test_the_network_on_without_slirp4netns_refuses_to_start(
    settings: Settings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for tool in ("node", "bwrap", "nsenter", "ip"):
        found = shutil.which(tool)
        assert found is not None
        (tmp_path / tool).symlink_to(found)
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(ValueError, match=r"needs slirp4netns .*or pass --no-network"):
        Executor(settings.with_overrides(isolation="bwrap"))
    offline = Executor(settings.with_overrides(isolation="bwrap", network=False))  # fine
    offline.sandbox.limits.remove()
