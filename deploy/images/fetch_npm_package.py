"""Fetches one package version from the npm registry, checks it against the integrity pinned in
the Containerfile, and unpacks its `package/` folder into DEST (a build step of the images).

    python3 fetch_npm_package.py NAME VERSION INTEGRITY DEST

Standard library only: the build stage has no node yet. NPM_CONFIG_REGISTRY picks the registry.
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import os
import sys
import tarfile
import urllib.request
from pathlib import Path


def main(name: str, version: str, integrity: str, dest: str) -> None:
    registry = os.environ.get("NPM_CONFIG_REGISTRY", "https://registry.npmjs.org/").rstrip("/")
    with urllib.request.urlopen(f"{registry}/{name}/{version}", timeout=60) as answer:
        dist = json.load(answer)["dist"]
    expected = integrity
    with urllib.request.urlopen(dist["tarball"], timeout=300) as answer:
        data = answer.read()
    algorithm, _, digest = expected.partition("-")
    if base64.b64encode(hashlib.new(algorithm, data).digest()).decode() != digest:
        sys.exit(f"fetch: {name}@{version}: the tarball does not match {expected}")
    out = Path(dest)
    with tarfile.open(fileobj=io.BytesIO(data)) as archive:
        for member in archive.getmembers():
            if not member.name.startswith("package/") or not (member.isfile() or member.isdir()):
                continue
            member.name = member.name.removeprefix("package/")
            if member.name.startswith("/") or ".." in Path(member.name).parts:
                sys.exit(f"fetch: {name}@{version}: {member.name!r} would land outside {out}")
            member.mode &= 0o755  # no setuid, setgid or group/other write bits
            archive.extract(member, out)  # Debian 12's Python 3.11.2 has no extraction filters
    print(f"fetch: {name}@{version} into {out}")


if __name__ == "__main__":
    args = sys.argv[1:]
    if len(args) != 4 or not args[2]:
        sys.exit(__doc__)
    main(*args)
