"""`python -m contractgen`: the same as the `contractgen` command."""

from .cli import entry

entry()
