"""The version every generated header and `contractgen --version` print."""

__version__ = "0.1.0"
