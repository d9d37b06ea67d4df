"""One version, stated everywhere (docs/releasing.md): pyproject.toml, generator/version.py,
the release tag the README, the docs and the hook file show (`rev:`, `@v`, `--vcs-ref`), the
repository URL projects record, and the git tags (when the clone has them). tools/release.py
moves them together."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from contractgen import __version__
from contractgen.project.provenance import DEFAULT_REPOSITORY

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
import release  # noqa: E402  (tools/release.py)

sys.path.remove(str(ROOT / "tools"))


def _stated_tags(root: Path) -> list[tuple[str, str]]:
    return [(f"{path.relative_to(root)}", match[2]) for path in release.tag_files(root)
            if path.is_file() for match in re.finditer(release.TAG_FORMS, path.read_text("utf-8"))]


def test_the_package_and_its_metadata_state_one_version() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]
    assert project["version"] == __version__ == release.current_version(ROOT)
    assert project["urls"]["Source"] == DEFAULT_REPOSITORY


def test_the_docs_show_the_current_release_tag() -> None:
    stated = _stated_tags(ROOT)
    assert ("README.md", __version__) in stated  # the pre-commit example's `rev:`
    assert [(where, v) for where, v in stated if v != __version__] == []
    assert DEFAULT_REPOSITORY in (ROOT / ".pre-commit-hooks.yaml").read_text("utf-8")


def _git(*args: str) -> str:
    done = subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True, text=True,
                          check=False, timeout=60)
    return done.stdout.strip() if done.returncode == 0 else ""


def test_the_tags_agree_with_the_version() -> None:
    """A tag vX.Y.Z is on a commit whose pyproject says X.Y.Z; the newest tag this commit
    descends from is not after the version it states (copier's template version is that tag,
    plus `.postN` commits)."""
    if shutil.which("git") is None or not _git("rev-parse", "--git-dir"):
        pytest.skip("not a git checkout: no tags to compare")
    tags = _git("tag", "--list", "v[0-9]*").split()
    if not tags:
        pytest.skip("a clone without release tags (CI fetches main only)")
    for tag in tags:
        text = _git("show", f"{tag}:pyproject.toml")
        assert f'version = "{tag[1:]}"' in text, f"{tag} is on a commit of another version"
    newest = _git("describe", "--tags", "--abbrev=0", "--match", "v[0-9]*", "HEAD")
    if newest:
        assert release._key(newest[1:]) <= release._key(__version__)


def test_release_bumps_every_statement_together(tmp_path: Path) -> None:
    for name in ("pyproject.toml", "generator/version.py", "README.md", ".pre-commit-hooks.yaml"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / name, tmp_path / name)
    shutil.copytree(ROOT / "docs", tmp_path / "docs")
    changed = release.bump(tmp_path, "9.8.7")
    assert {p.name for p in changed} >= {"pyproject.toml", "version.py", "README.md",
                                         ".pre-commit-hooks.yaml"}
    assert release.current_version(tmp_path) == "9.8.7"
    assert '__version__ = "9.8.7"' in (tmp_path / "generator/version.py").read_text("utf-8")
    assert {v for _, v in _stated_tags(tmp_path)} == {"9.8.7"}
    with pytest.raises(SystemExit, match=r"not X\.Y\.Z"):
        release._key("1.0")


@pytest.mark.slow
def test_copier_reads_the_release_tag_as_the_version(tmp_path: Path) -> None:
    """What copier prints as the template version (its `Template.version`, from git tags)
    is contractgen's own version once the release commit is tagged as release.py tags it."""
    from copier._template import Template

    clone = tmp_path / "contractgen"
    subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True, timeout=120)
    tagged = subprocess.run(["git", "-C", str(clone), "rev-parse", "-q", "--verify",
                             f"refs/tags/v{__version__}"], capture_output=True, check=False)
    if tagged.returncode:  # a clone of an untagged checkout: tag it as release.py does
        subprocess.run(["git", "-C", str(clone), "-c", "user.name=t", "-c", "user.email=t@localhost",
                        "tag", "-a", f"v{__version__}", "-m", "release"], check=True, timeout=60)
    template = Template(url=str(clone), ref=f"v{__version__}")
    try:
        assert str(template.version) == __version__
    finally:
        template._cleanup()
