"""contractgen: OpenAPI contracts to pydantic models, FastAPI server stubs and httpx clients.

The CLI is a thin layer over these functions.
"""

from __future__ import annotations

__version__ = "0.1.0"

# Import the submodules named like the functions first: importing a submodule later (which
# `render()` and `validate()` do) would rebind `contractgen.render` to the module.
from . import render as _render_module  # noqa: F401
from . import validate as _validate_module  # noqa: F401
from .api import check, generate, load, render, validate
from .problems import Level, Problem, SpecError

__all__ = [
    "Level",
    "Problem",
    "SpecError",
    "__version__",
    "check",
    "generate",
    "load",
    "render",
    "validate",
]
