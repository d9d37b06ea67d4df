"""Where the built-in templates are (a module of its own: a replayed run hashes them without
importing the renderer)."""

from __future__ import annotations

from pathlib import Path


def templates_dir() -> Path:
    """Installed wheels carry the templates inside the package; a checkout keeps them beside."""
    package = Path(__file__).resolve().parent.parent  # contractgen/, or generator/ in a checkout
    for candidate in (package / "templates", package.parent / "templates"):
        if (candidate / "models.py.jinja").is_file():
            return candidate
    raise FileNotFoundError("contractgen templates not found")
