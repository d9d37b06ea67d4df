"""Session ids that name the instance holding them, so a proxy routes without a lookup.

An instance named ``otari-0`` (``SANDBOX_INSTANCE``) issues ``sbx_otari-0_<24 hex>``; an
unnamed one ``sbx_<24 hex>``. Names are DNS labels (what a StatefulSet's pods are called), so
they hold no ``_`` and the id splits without ambiguity; deploy/nginx routes on the prefix.
"""

from __future__ import annotations

import re
import secrets

_NAME = re.compile(r"[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?")


def check_instance_name(name: str | None) -> str | None:
    """``name`` when it is a DNS label (ValueError otherwise); None stays None."""
    if name is None or _NAME.fullmatch(name):
        return name
    raise ValueError(
        f"SANDBOX_INSTANCE={name!r} is not a DNS label (lowercase letters, digits and '-', "
        "at most 63, starting and ending with a letter or digit)"
    )


def new_session_id(instance: str | None) -> str:
    """A fresh session id, naming ``instance`` when there is one."""
    prefix = f"sbx_{instance}_" if instance else "sbx_"
    return prefix + secrets.token_hex(12)

