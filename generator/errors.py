"""The errors contractgen raises for bad input, under one root; each carries its exit code.

Exception hierarchy (the CLI reads `exit_code` from the class; 1 fails, 2 is a usage error)::

    ContractgenError        exit 1
    ├── SpecError           exit 1  a spec, overlay or scenario cannot be used; carries its
    │   │                           Problems (defined in `problems`, with Problem)
    │   └── NoConfigError   exit 2  no `[tool.contractgen]` to work on (defined in `config`)
    ├── OwnershipError      exit 2  `--out` holds files contractgen did not write (ValueError too)
    ├── OptionError         exit 1  an argument the library cannot use (ValueError too)
    ├── ScaffoldError       exit 1  copier could not create the project (ValueError too)
    └── JSONPathError       exit 1  an overlay's JSONPath outside the supported subset
                                    (ValueError too; defined in `spec.jsonpath`)

An OSError (a file or folder that cannot be used as given) is not ours: the CLI reports it as a
usage error, exit 2; any other ValueError that escapes a command as a failure, exit 1
(`cli.exit_code_of`). OwnershipError, OptionError and ScaffoldError were ValueErrors before this
root existed and still are, so callers catching ValueError keep working.
"""

from __future__ import annotations

from typing import ClassVar

EXIT_FAIL, EXIT_USAGE = 1, 2


class ContractgenError(Exception):
    """The root of what contractgen raises for bad input; `exit_code` is the CLI's."""

    exit_code: ClassVar[int] = EXIT_FAIL


class OwnershipError(ContractgenError, ValueError):
    """`out` holds files contractgen did not write (or changed since): nothing was written."""

    exit_code: ClassVar[int] = EXIT_USAGE


class OptionError(ContractgenError, ValueError):
    """An argument the library cannot use (a package name, a format, a set of parts)."""


class ScaffoldError(ContractgenError, ValueError):
    """copier could not create the project (nothing is left behind)."""
