"""The loopback npm registry the other tests install from."""

from __future__ import annotations

import hashlib
import io
import json
import tarfile
from pathlib import Path

import httpx
from tpmjs_support import NpmRegistry, build_tarball

FIXTURES = Path(__file__).parent / "fixtures" / "packages"


def test_tarballs_are_deterministic_and_npm_shaped() -> None:
    folder = FIXTURES / "tpmjs-hello-0.0.2"
    first, second = build_tarball(folder), build_tarball(folder)
    assert first == second
    with tarfile.open(fileobj=io.BytesIO(first), mode="r:gz") as tar:
        names = tar.getnames()
        assert names == sorted(names)
        assert all(n.startswith("package/") for n in names)
        member = tar.extractfile("package/package.json")
        assert member is not None
        assert json.load(member)["name"] == "@tpmjs/hello"


def test_packuments_tarballs_and_404(registry: NpmRegistry) -> None:
    for path in ("@tpmjs%2fhello", "@tpmjs%2Fhello", "@tpmjs/hello"):
        doc = httpx.get(registry.url + path).json()
        assert doc["name"] == "@tpmjs/hello"
        assert doc["dist-tags"]["latest"] == "0.0.2"
    dist = doc["versions"]["0.0.2"]["dist"]
    tarball = httpx.get(dist["tarball"]).content
    assert hashlib.sha1(tarball).hexdigest() == dist["shasum"]
    assert dist["integrity"].startswith("sha512-")
    assert httpx.get(registry.url + "@fixture%2fnope").status_code == 404
    assert httpx.get(registry.url + "@tpmjs/hello/-/hello-9.9.9.tgz").status_code == 404


def test_latest_skips_prereleases_and_tags_can_be_set(registry: NpmRegistry) -> None:
    doc = httpx.get(registry.url + "@fixture%2fmulti").json()
    assert doc["dist-tags"] == {"latest": "2.0.0", "next": "2.1.0-beta.1"}
    assert sorted(doc["versions"]) == ["1.0.0", "1.1.0", "2.0.0", "2.1.0-beta.1"]
    # A package with only a prerelease still gets a latest tag.
    assert httpx.get(registry.url + "ai").json()["dist-tags"]["latest"] == "6.0.0-beta.124"
