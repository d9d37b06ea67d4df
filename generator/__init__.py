"""contractgen: OpenAPI contracts to pydantic models, FastAPI server stubs and httpx clients.

The CLI is a thin layer over these functions.
"""

from __future__ import annotations

from .api import check, generate, load, render, validate
from .config import NoConfigError
from .errors import ContractgenError, OptionError, OwnershipError, ScaffoldError
from .options import Options
from .problems import Level, Problem, SpecError
from .version import __version__

__all__ = [
    "ContractgenError", "Level", "NoConfigError", "OptionError", "Options", "OwnershipError",
    "Problem", "ScaffoldError", "SpecError", "__version__", "check", "generate", "load", "render",
    "validate",
]
