"""Fixtures of the generator tests; the helpers live in gen_support (a name of its own, since the
backends' test folders have conftest modules too)."""

import os
from collections.abc import Iterator

import pytest
from gen_support import contracts, features, generate

__all__ = ["contracts", "features", "generate"]

# Run by `make test`, the tests' own `make` calls in generated projects would be sub-makes
# ("make[1]: Entering directory ..." in their output, the parent's flags): run them as a user does.
for _name in ("MAKEFLAGS", "MAKELEVEL", "MFLAGS", "MAKEOVERRIDES"):
    os.environ.pop(_name, None)


@pytest.fixture(autouse=True, scope="session")
def _private_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Keep the formatting and validation cache of the run (and its CLI children) private to
    the run; its xdist workers share it (the cache is safe for concurrent use), so a block one
    worker formatted is not formatted again by the other."""
    saved = os.environ.get("XDG_CACHE_HOME")
    if os.environ.get("PYTEST_XDIST_WORKER"):
        folder = tmp_path_factory.getbasetemp().parent / "xdg-cache"
        folder.mkdir(exist_ok=True)
    else:
        folder = tmp_path_factory.mktemp("xdg-cache")
    os.environ["XDG_CACHE_HOME"] = str(folder)
    yield
    if saved is None:
        os.environ.pop("XDG_CACHE_HOME", None)
    else:
        os.environ["XDG_CACHE_HOME"] = saved
