#!/usr/bin/env bash
# Builds the three images of deploy/: otari-sandbox, tpmjs-executor and the proxy (`make images`).
#   BASE=docker.io/library/debian:bookworm-slim (default): the registry's Debian image.
#   BASE=local: a Debian bookworm rootfs made here with mmdebstrap and imported with podman,
#     for machines that reach Debian's package mirror but no image registry.
#   TAG=0.1.0: the images' tag (the manifests of deploy/kubernetes name it).
# Each build step sees the host's CA bundle (a host behind a TLS-inspecting proxy needs it for pip
# and npm). Prints each image's size at the end.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
BASE=${BASE:-docker.io/library/debian:bookworm-slim}
TAG=${TAG:-0.1.0}
export CONTAINERS_CONF=${CONTAINERS_CONF:-$here/containers.conf}
LOCAL_BASE=localhost/contractgen-base:bookworm
command -v podman >/dev/null || { echo "images: needs podman (apt-get install podman runc)" >&2; exit 2; }

if [ "$BASE" = local ]; then
  if ! podman image exists "$LOCAL_BASE"; then
    command -v mmdebstrap >/dev/null || { echo "images: BASE=local needs mmdebstrap (apt-get install mmdebstrap)" >&2; exit 2; }
    echo "images: making a Debian bookworm rootfs with mmdebstrap (minbase, no docs)"
    rootfs=$(mktemp -d)/rootfs.tar
    mmdebstrap --quiet --variant=minbase \
      --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-exclude=/usr/share/man/*' \
      --dpkgopt='path-exclude=/usr/share/locale/*' --dpkgopt='path-exclude=/usr/share/info/*' \
      --aptopt='APT::Install-Recommends "false"' bookworm "$rootfs"
    podman import -q "$rootfs" "$LOCAL_BASE" >/dev/null
    rm -rf "$(dirname "$rootfs")"
  fi
  BASE=$LOCAL_BASE
fi

ca=()
if [ -r /etc/ssl/certs/ca-certificates.crt ]; then
  ca=(-v /etc/ssl/certs/ca-certificates.crt:/run/host-ca.crt:ro)
fi

build() {  # NAME CONTAINERFILE CONTEXT
  local started=$SECONDS
  echo "images: building $1:$TAG from $BASE"
  podman build -q --format docker --layers --build-arg "BASE=$BASE" "${ca[@]}" -f "$2" -t "localhost/$1:$TAG" "$3" >/dev/null
  echo "images: $1:$TAG built in $((SECONDS - started)) s"
}

context() {  # BACKEND: the backend's package and the pinned constraints, nothing else
  local dir
  dir=$(mktemp -d)
  cp -r "$root/backends/$1/pyproject.toml" "$root/backends/$1/README.md" "$root/backends/$1/src" "$dir/"
  cp "$here/constraints.txt" "$here/fetch_npm_package.py" "$dir/"
  find "$dir" -name __pycache__ -prune -exec rm -rf {} +
  echo "$dir"
}

otari=$(context otari-sandbox)
tpmjs=$(context tpmjs-executor)
trap 'rm -rf "$otari" "$tpmjs"' EXIT
build otari-sandbox "$here/otari.Containerfile" "$otari"
build tpmjs-executor "$here/tpmjs.Containerfile" "$tpmjs"
build contractgen-proxy "$here/proxy.Containerfile" "$here"
podman images --format '{{.Repository}}:{{.Tag}} {{.Size}}' \
  | grep -E "^localhost/(otari-sandbox|tpmjs-executor|contractgen-proxy):$TAG " | sed 's/^/images: /'
