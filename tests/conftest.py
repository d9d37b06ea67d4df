"""Fixtures of the generator tests; the helpers live in gen_support (a name of its own, since the
backends' test folders have conftest modules too)."""

from gen_support import contracts, features, generate

__all__ = ["contracts", "features", "generate"]
