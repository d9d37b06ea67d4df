"""Where the running contractgen came from, so a project can install exactly it and copier can
update it: its distribution metadata (PEP 610 `direct_url.json`), else its release on an index.

- installed from an index (no `direct_url.json`): `contractgen==X.Y.Z`, the repository named by
  the `Source` project URL and its release tag `vX.Y.Z`;
- from a VCS URL: that URL at the commit it was installed from;
- from a local folder (a checkout, editable or not): that path to install from; the repository
  is the checkout's `origin` when that is a URL another machine can clone, else the public
  repository (never a path of this machine: projects record it, issue 38), and the revision its
  HEAD commit as `git describe` spells it (the release tag itself on a release);
- from an archive (a wheel or sdist file or URL): that archive, and the index's repository and tag.

Also a Jinja extension that hands these to the project template (`_jinja_extensions`): copier
imports it before asking anything, so a copier that cannot import contractgen stops before it
writes a file and names the module it lacks.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from functools import cache
from importlib import metadata
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

from jinja2.ext import Extension

from ..version import __version__

DISTRIBUTION = "contractgen"
DEFAULT_REPOSITORY = "https://github.com/contractgen/contractgen"


@dataclass(frozen=True)
class Provenance:
    """The running contractgen: a pip requirement for it, and the repository and revision of it."""

    version: str
    requirement: str
    repository: str
    revision: str
    # The commit as `git describe` spells it (what copier records as `_commit`); the revision
    # itself when there is no local work tree to describe.
    describe: str

    @property
    def tag(self) -> str:
        return f"v{self.version}"


@cache
def provenance() -> Provenance:
    """Where the imported contractgen came from (its distribution's metadata, else its files)."""
    try:
        dist: metadata.Distribution | None = metadata.distribution(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        dist = None
    if dist is not None and not _same_files(dist):
        dist = None  # the metadata found belongs to another copy than the one imported
    if dist is None:
        checkout = _checkout_of_this_package()
        if checkout is not None:
            return _from_folder(checkout, __version__)
        return _from_index(__version__, DEFAULT_REPOSITORY)
    version = dist.version
    text = dist.read_text("direct_url.json")
    repository = _source_url(dist) or DEFAULT_REPOSITORY
    if not text:
        return _from_index(version, repository)
    direct: dict[str, Any] = json.loads(text)
    url = str(direct.get("url", ""))
    if "vcs_info" in direct:
        vcs = direct["vcs_info"]
        commit = str(vcs.get("commit_id") or vcs.get("requested_revision") or "")
        requirement = f"{DISTRIBUTION} @ {vcs.get('vcs', 'git')}+{url}@{commit}"
        if direct.get("subdirectory"):
            requirement += f"#subdirectory={direct['subdirectory']}"
        return Provenance(version, requirement, url, commit, commit)
    if "dir_info" in direct and url.startswith("file:"):
        return _from_folder(Path(unquote(urlparse(url).path)), version)
    # An archive: install that very file; its source is the release on the repository.
    return Provenance(version, f"{DISTRIBUTION} @ {url}", repository, f"v{version}",
                      f"v{version}")


def _from_index(version: str, repository: str) -> Provenance:
    return Provenance(version, f"{DISTRIBUTION}=={version}", repository, f"v{version}",
                      f"v{version}")


def _from_folder(folder: Path, version: str) -> Provenance:
    requirement = f"{DISTRIBUTION} @ {folder.resolve().as_uri()}"
    head = _git(folder, "rev-parse", "HEAD")
    top = _git(folder, "rev-parse", "--show-toplevel")
    if head is None or top is None or Path(top).resolve() != folder.resolve():
        return Provenance(version, requirement, DEFAULT_REPOSITORY, f"v{version}", f"v{version}")
    # Release tags only (vX.Y.Z): what copier compares versions by.
    describe = _git(folder, "describe", "--tags", "--match", "v[0-9]*", "--always", "HEAD") or head
    return Provenance(version, requirement, public_repository(folder), head, describe)


def public_repository(folder: Path) -> str:
    """Where another machine clones the checkout `folder` from: its `origin` when that is a
    network URL (`https://...`, `ssh://...`, `git@host:...`), else the public repository; a
    path of this machine (a clone of a local folder) is never the answer."""
    origin = _git(folder, "remote", "get-url", "origin") or ""
    if re.match(r"^(https?|ssh|git)://|^[\w.-]+@[\w.-]+:", origin):
        return origin
    return DEFAULT_REPOSITORY


def _git(folder: Path, *args: str) -> str | None:
    try:
        done = subprocess.run(["git", "-C", str(folder), *args], capture_output=True, text=True,
                              check=False, timeout=30)
    except OSError:
        return None
    return done.stdout.strip() if done.returncode == 0 and done.stdout.strip() else None


def _source_url(dist: metadata.Distribution) -> str | None:
    for entry in dist.metadata.get_all("Project-URL") or []:
        label, _, url = str(entry).partition(",")
        if label.strip().lower() in ("source", "repository", "source code"):
            return url.strip()
    return None


def _package_dir() -> Path:
    return Path(__file__).resolve().parent.parent


def _same_files(dist: metadata.Distribution) -> bool:
    """Whether `dist` describes the contractgen being run (not another copy on the path)."""
    text = dist.read_text("direct_url.json")
    if text:
        direct = json.loads(text)
        url = str(direct.get("url", ""))
        if direct.get("dir_info", {}).get("editable") and url.startswith("file:"):
            checkout = Path(unquote(urlparse(url).path)).resolve()
            return _package_dir().is_relative_to(checkout)
    init = dist.locate_file("contractgen/__init__.py")
    return Path(str(init)).resolve().parent == _package_dir()


def _checkout_of_this_package() -> Path | None:
    """The source tree holding the imported package, when it runs from one (`generator/`)."""
    root = _package_dir().parent
    pyproject = root / "pyproject.toml"
    try:
        text = pyproject.read_text(encoding="utf-8")
    except OSError:
        return None
    return root if f'name = "{DISTRIBUTION}"' in text else None


def vendored_name() -> str:
    """Where a project keeps its wheel of the running contractgen (`vendor/<wheel>`), when that
    came from this machine's files (a checkout or a local wheel); "" when its requirement works
    anywhere. The project template's default answer: `copier copy` from a checkout then vendors
    the wheel too (the task builds it), as `contractgen new` does."""
    source = _local_source()
    if source is None:
        return ""
    if source.is_file() and source.suffix == ".whl":
        return f"vendor/{source.name}"
    return f"vendor/{DISTRIBUTION}-{provenance().version}-py3-none-any.whl"


def vendor_wheel(dest: Path) -> str | None:
    """A wheel of the running contractgen in `dest`/vendor/, when it came from this machine's
    files (a checkout or a local wheel): the project then installs it in its setup and CI, where
    that path does not exist. Its path relative to `dest`; None when the requirement works
    anywhere (an index release, a git URL). Raises OSError when the wheel cannot be built."""
    source = _local_source()
    if source is None:
        return None
    vendor = dest / "vendor"
    vendor.mkdir(parents=True, exist_ok=True)
    if source.is_file() and source.suffix == ".whl":
        shutil.copyfile(source, vendor / source.name)
        return f"vendor/{source.name}"
    return f"vendor/{_build_wheel(source, vendor).name}"


def _local_source() -> Path | None:
    """The checkout or wheel on this machine the running contractgen was installed from; None
    when its requirement works anywhere (an index release, a git URL)."""
    found = provenance().requirement.partition(" @ ")[2]
    return Path(unquote(urlparse(found).path)) if found.startswith("file:") else None


def _build_wheel(checkout: Path, vendor: Path) -> Path:
    """`pip wheel` of a copy of the checkout's package sources (no build/ left in it), with this
    environment's setuptools: no build isolation, no index."""
    with tempfile.TemporaryDirectory() as scratch:
        copy = Path(scratch) / "src"
        copy.mkdir()
        for name in ("pyproject.toml", "README.md", "LICENSE"):
            if (checkout / name).is_file():
                shutil.copy2(checkout / name, copy / name)
        ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
        for folder in ("generator", "templates"):
            shutil.copytree(checkout / folder, copy / folder, ignore=ignore)
        done = subprocess.run(
            [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
             "--no-index", "-q", "-w", str(vendor), str(copy)],
            capture_output=True, text=True, check=False, timeout=600)
    wheels = sorted(vendor.glob(f"{DISTRIBUTION}-*.whl"))
    if done.returncode != 0 or not wheels:
        raise OSError(f"could not build a wheel of contractgen from {checkout} for vendor/: "
                      f"{(done.stderr or done.stdout).strip()[-500:]}")
    return wheels[-1]


class ProvenanceExtension(Extension):
    """Globals for the project template: `contractgen_requirement()`, `contractgen_hook()`."""

    def __init__(self, environment: Any) -> None:
        super().__init__(environment)
        environment.globals["contractgen_requirement"] = lambda: provenance().requirement
        environment.globals["contractgen_hook"] = _hook
        environment.globals["contractgen_vendored"] = vendored_name


def _hook() -> tuple[str, str]:
    """The pre-commit hook's repository and revision: the running contractgen's."""
    found = provenance()
    return found.repository, found.revision
