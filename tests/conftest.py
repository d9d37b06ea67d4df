"""Fixtures of the generator tests; the helpers live in gen_support (a name of its own, since the
backends' test folders have conftest modules too)."""

import os
from collections.abc import Iterator

import pytest
from gen_support import contracts, features, generate

__all__ = ["contracts", "features", "generate"]


@pytest.fixture(autouse=True, scope="session")
def _private_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Keep the formatting and validation cache of the run (and its CLI children) private."""
    saved = os.environ.get("XDG_CACHE_HOME")
    os.environ["XDG_CACHE_HOME"] = str(tmp_path_factory.mktemp("xdg-cache"))
    yield
    if saved is None:
        os.environ.pop("XDG_CACHE_HOME", None)
    else:
        os.environ["XDG_CACHE_HOME"] = saved
