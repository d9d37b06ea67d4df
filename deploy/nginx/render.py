"""Writes the proxy's nginx configuration for both backends (deploy/README.md).

    python deploy/nginx/render.py OUT_DIR [--otari otari-0=10.0.0.5:8080 ...] \
        [--tpmjs 10.0.0.9:8080 ...] [--otari-listen ADDR] [--tpmjs-listen ADDR] [--js-module PATH]
    python deploy/nginx/render.py          # rewrites deploy/kubernetes/*/...configmap.yaml

writes OUT_DIR/nginx.conf (the main file) and, for each backend named, otari.conf (one upstream
per instance, routing on the instance named in the session id) and tpmjs.conf + tpmjs.js
(consistent hash on the package a call names). Either backend may be rendered alone. The proxy
listens on loopback unless told otherwise (`--otari-listen 0.0.0.0:8080`). The Kubernetes
ConfigMaps hold this output (tests keep them current).
Standard library only: it runs wherever the proxy is deployed from.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEBIAN_JS_MODULE = "/usr/lib/nginx/modules/ngx_http_js_module.so"
_NAME = re.compile(r"[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?")
HEADER = "# Written by deploy/nginx/render.py: edit the renderer, not this file.\n"
# Where the proxy listens unless told: loopback, so a first try exposes nothing.
LISTEN_OTARI = "127.0.0.1:8080"
LISTEN_TPMJS = "127.0.0.1:8090"

_MAIN = """{header}worker_processes {workers};
pid {pid};
load_module {js_module};

events {{
    worker_connections 4096;
}}

http {{
    access_log off;
    default_type application/json;
    # Temporary files under {temp} (relative: the prefix, -p): nothing else is written.
    client_body_temp_path {temp}/client_body;
    proxy_temp_path {temp}/proxy;
    fastcgi_temp_path {temp}/fastcgi;
    uwsgi_temp_path {temp}/uwsgi;
    scgi_temp_path {temp}/scgi;
{resolver}
    # Keep-alive to the instances; the client's Host and Authorization pass through unchanged
    # (auth is end to end: the proxy holds no token).
    proxy_http_version 1.1;
    proxy_set_header Connection "";
    proxy_set_header Host $http_host;
    proxy_connect_timeout 2s;

{includes}}}
"""

_OTARI_SERVER = """
# The instance a session id names: sbx_<instance>_<hex> (otari_sandbox/instance.py).
map $uri $otari_instance {{
    default "";
    ~^/sessions/sbx_(?<name>[a-z0-9-]+)_[0-9a-f]+(/.*)?$ $name;
}}

map $otari_instance $otari_target {{
    default "";
{targets}
}}

server {{
    listen {listen};
    # Uploads stream through; the instance enforces its own caps.
    client_max_body_size 0;
    proxy_request_buffering off;
    proxy_buffering off;
    # Above the contract's longest call (120 s) and the kill grace.
    proxy_read_timeout 180s;
    proxy_send_timeout 180s;

    # A new session: the least busy instance; one refusing (draining or full: 503) or down
    # passes it on, as it created nothing.
    location = /sessions {{
        proxy_pass http://otari_any;
        # Buffered (a small JSON body): an unbuffered body cannot be passed on once sent.
        proxy_request_buffering on;
        proxy_next_upstream error http_503 non_idempotent;
        proxy_next_upstream_tries 3;
        error_page 502 504 = @otari_none;
    }}

    # A session: the instance its id names, never another one.
    location /sessions/ {{
        if ($otari_target = "") {{
            return 404 '{{"detail":"session not found: no such instance"}}\\n';
        }}
        proxy_pass http://$otari_target;
        proxy_next_upstream off;
        error_page 502 504 = @otari_down;
    }}

    location @otari_down {{
        # The client's body may be unread (it streams): nginx closes the connection after this
        # answer, so it must say so, or a client reuses it and loses its next request.
        keepalive_timeout 0;
        add_header Retry-After 5 always;
        return 503 '{{"detail":"the instance holding this session is unavailable"}}\\n';
    }}

    location @otari_none {{
        add_header Retry-After 5 always;
        return 503 '{{"detail":"no instance can take a session now"}}\\n';
    }}

    location / {{
        proxy_pass http://otari_any;
    }}
}}
"""

# An upstream's idle connections close below the instances' own idle timeout (5 s,
# FrontDoorLimits.keep_alive_timeout), so nginx never reuses one an instance is closing (a
# wrong 503 for a healthy instance's session; a 502 for a POST it may not retry).
_IDLE = "    keepalive_timeout 4s;\n"

_TPMJS_SERVER = """
js_import tpmjs from tpmjs.js;
# packageName@version from the JSON body (read before the upstream is chosen).
js_set $tpmjs_package tpmjs.packageKey;

upstream tpmjs {{
    hash $tpmjs_package consistent;
{zone}{servers}
    keepalive 16;
{idle}}}

server {{
    listen {listen};
    # The body stays in memory, where njs reads it (the contract's bodies are small).
    client_max_body_size 1m;
    client_body_buffer_size 1m;
    client_body_in_single_buffer on;
    # A call runs up to its own timeout (the executor's cap is 120 s).
    proxy_read_timeout 180s;
    # A down instance's share moves on; a call already sent is not run twice.
    proxy_next_upstream error;
    proxy_next_upstream_tries 3;

    location / {{
        proxy_pass http://tpmjs;
    }}
}}
"""


def _server(address: str, resolve: bool, extra: str = "") -> str:
    return f"    server {address}{' resolve' if resolve else ''}{extra};"


def check_names(instances: dict[str, str]) -> None:
    """Every instance name is a DNS label (it is part of the session ids): ValueError if not."""
    for name in instances:
        if not _NAME.fullmatch(name):
            raise ValueError(f"instance name {name!r} is not a DNS label")


def otari_conf(instances: dict[str, str], listen: str, *, resolve: bool = False) -> str:
    """otari.conf: ``instances`` maps each instance's name to its host:port."""
    check_names(instances)
    zone = "    zone otari_any 64k;\n" if resolve else ""
    any_servers = "\n".join(
        _server(address, resolve, " max_fails=1 fail_timeout=5s") for address in instances.values()
    )
    parts = [HEADER, f"upstream otari_any {{\n    least_conn;\n{zone}{any_servers}\n    keepalive 16;\n"
                     f"{_IDLE}}}\n"]
    for name, address in sorted(instances.items()):
        zone = f"    zone otari__{name} 16k;\n" if resolve else ""
        parts.append(f"upstream otari__{name} {{\n{zone}{_server(address, resolve)}\n    keepalive 8;\n"
                     f"{_IDLE}}}\n")
    targets = "\n".join(f"    {name} otari__{name};" for name in sorted(instances))
    parts.append(_OTARI_SERVER.format(targets=targets, listen=listen))
    return "\n".join(parts)


def tpmjs_conf(servers: list[str], listen: str, *, resolve: bool = False) -> str:
    """tpmjs.conf: one upstream over ``servers`` (host:port each; a name resolving to all pods)."""
    zone = "    zone tpmjs 64k;\n" if resolve else ""
    lines = "\n".join(_server(address, resolve) for address in servers)
    return HEADER + _TPMJS_SERVER.format(zone=zone, servers=lines, listen=listen, idle=_IDLE)


def main_conf(*, js_module: str = DEBIAN_JS_MODULE, resolver: str | None = None,
              pid: str = "nginx.pid", workers: str = "1", temp: str = "tmp",
              backends: tuple[str, ...] = ("otari", "tpmjs")) -> str:
    """nginx.conf: the http block including the .conf of each of ``backends``."""
    line = f"    resolver {resolver} valid=5s;\n    resolver_timeout 2s;\n" if resolver else ""
    includes = "".join(f"    include {name}.conf;\n" for name in backends)
    return _MAIN.format(header=HEADER, js_module=js_module, resolver=line, pid=pid,
                        workers=workers, temp=temp, includes=includes)


# -- Kubernetes: the same files as ConfigMaps (deploy/kubernetes/) ----------------------------
K8S_DIR = HERE.parent / "kubernetes"
OTARI_REPLICAS = 3
K8S_DOMAIN = "default.svc.cluster.local"


def _configmap(name: str, files: dict[str, str]) -> str:
    lines = [HEADER.rstrip("\n"), "apiVersion: v1", "kind: ConfigMap", "metadata:",
             f"  name: {name}", "data:"]
    for key, text in files.items():
        lines.append(f"  {key}: |")
        lines.extend(f"    {line}" if line else "" for line in text.splitlines())
    return "\n".join(lines) + "\n"


def kubernetes_configmaps(replicas: int = OTARI_REPLICAS, domain: str = K8S_DOMAIN) -> dict[Path, str]:
    """The proxy's ConfigMaps: one otari upstream per StatefulSet pod, tpmjs over its pods.

    Pods come and go with new addresses: upstream servers are re-resolved (``resolve``, nginx
    1.27.3 or later, which the proxy's image has) through the cluster's DNS.
    """
    pods = {f"otari-{i}": f"otari-{i}.otari.{domain}:8080" for i in range(replicas)}
    main = main_conf(js_module="/etc/nginx/modules/ngx_http_js_module.so",
                     resolver=f"kube-dns.kube-system.{domain.split('.', 1)[1]}",
                     pid="/tmp/nginx/nginx.pid", workers="auto", temp="/tmp/nginx")
    return {
        K8S_DIR / "proxy/configmap.yaml": _configmap("proxy-main", {"nginx.conf": main}),
        K8S_DIR / "otari/proxy-configmap.yaml": _configmap(
            "otari-proxy", {"otari.conf": otari_conf(pods, "8080", resolve=True)}),
        K8S_DIR / "tpmjs/proxy-configmap.yaml": _configmap("tpmjs-proxy", {
            "tpmjs.conf": tpmjs_conf([f"tpmjs-pods.{domain}:8080"], "8090", resolve=True),
            "tpmjs.js": (HERE / "tpmjs.js").read_text(),
        }),
    }


def write(out: Path, otari: dict[str, str], tpmjs: list[str], *, otari_listen: str = LISTEN_OTARI,
          tpmjs_listen: str = LISTEN_TPMJS, **main: str) -> None:
    """A proxy's files into ``out``: nginx.conf, and the files of each backend given instances.

    Everything is rendered, and so checked, before the first file is written.
    """
    if not otari and not tpmjs:
        raise ValueError("no instances: name --otari instances, --tpmjs instances, or both")
    files = {"otari.conf": otari_conf(otari, otari_listen)} if otari else {}
    if tpmjs:
        files |= {"tpmjs.conf": tpmjs_conf(tpmjs, tpmjs_listen),
                  "tpmjs.js": (HERE / "tpmjs.js").read_text()}
    backends = tuple(name for name in ("otari", "tpmjs") if f"{name}.conf" in files)
    files = {"nginx.conf": main_conf(backends=backends, **main)} | files
    out.mkdir(parents=True, exist_ok=True)
    (out / "tmp").mkdir(exist_ok=True)
    for name, text in files.items():
        (out / name).write_text(text)


def _pair(text: str) -> tuple[str, str]:
    name, sep, address = text.partition("=")
    if not sep:
        raise argparse.ArgumentTypeError(f"{text!r}: expected NAME=HOST:PORT")
    return name, address


def main(argv: list[str] | None = None) -> int:
    """The command line (see the module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, nargs="?", help="omitted: rewrite deploy/kubernetes' ConfigMaps")
    parser.add_argument("--otari", type=_pair, nargs="+", metavar="NAME=HOST:PORT")
    parser.add_argument("--tpmjs", nargs="+", metavar="HOST:PORT")
    parser.add_argument("--otari-listen", default=LISTEN_OTARI,
                        help=f"nginx's listen for otari (default {LISTEN_OTARI}: loopback only)")
    parser.add_argument("--tpmjs-listen", default=LISTEN_TPMJS,
                        help=f"nginx's listen for tpmjs (default {LISTEN_TPMJS}: loopback only)")
    parser.add_argument("--js-module", default=DEBIAN_JS_MODULE)
    args = parser.parse_args(argv)
    if args.out is None:
        for path, text in kubernetes_configmaps().items():
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
        return 0
    if not args.otari and not args.tpmjs:
        parser.error("OUT needs --otari instances, --tpmjs instances, or both")
    try:
        write(args.out, dict(args.otari or ()), args.tpmjs or [], otari_listen=args.otari_listen,
              tpmjs_listen=args.tpmjs_listen, js_module=args.js_module)
    except ValueError as exc:
        print(f"render: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
