"""The server's and the client's rendered text, reused when what they are rendered from did not
change: a regeneration after an edit to one schema renders models.py again, not the 10-20k
lines of server.py and client.py that only name its class.

What the two templates read of the contract (`Api`) is everything but the definitions (the
models), the paths the header names and the bundled document: the operations, security schemes, servers,
title, version, description, parts and hooks; and of the definitions, the client reads the
facts `client_source.definition_facts` gives. The key of a module is the hash of those (pickled:
the IR is frozen dataclasses, tuples and strings), the module's name and the code that renders
(`cache.code_fingerprint`: contractgen's sources, templates and the libraries' versions). The
text is stored without its header (the spec's hash), which is put back on reuse. Runs with
template overrides render as always (an override may read anything). `tests/emit/test_memo.py`
holds the templates to this: rendering either module reads nothing else of the contract.
"""

from __future__ import annotations

import hashlib
import pickle
from collections.abc import Callable
from typing import Any

from ..cache import TextCache, code_fingerprint
from ..model.ir import Api
from ..version import __version__

# The attributes of `Api` the server and client templates (and their contexts) may read.
READ = ("title", "version", "description", "operations", "security_schemes", "servers",
        "parts", "hooks", "base_path")
# Of those, what the key holds (base_path is computed from the servers); the `header` they
# render is taken off the text instead.
KEYED = ("title", "version", "description", "operations", "security_schemes", "servers",
         "parts", "hooks")


class RenderMemo:
    """Rendered modules of one contract, by a key of what they are rendered from."""

    def __init__(self, api: Api, header: str) -> None:
        self.header = header
        self.cache = TextCache(f"rendered-{__version__}")
        try:
            shared = pickle.dumps([getattr(api, name) for name in KEYED], protocol=5)
        except (pickle.PicklingError, TypeError, AttributeError, RecursionError):
            self.enabled = False  # never a wrong reuse: render as always
            return
        self.enabled = self.cache.enabled
        self.base = hashlib.sha256(code_fingerprint().encode() + b"\0" + shared).hexdigest()

    def _address(self, name: str, extra: Any) -> str | None:
        try:
            data = pickle.dumps(extra, protocol=5)
        except (pickle.PicklingError, TypeError, AttributeError, RecursionError):
            return None
        return self.cache.key(f"{self.base}\0{name}\0{hashlib.sha256(data).hexdigest()}")

    def text(self, name: str, extra: Any, render: Callable[[], str]) -> str:
        """`render()`'s text for module `name`, or the text it gave before for the same inputs
        (`extra`: what the module reads of the definitions)."""
        address = self._address(name, extra) if self.enabled else None
        if address is None:
            return render()
        stored = self.cache.get(address)
        if stored is not None:
            return self.header + stored
        text = render()
        body = text[len(self.header):]
        # Only a header written once, at the top, can be put back on another contract's text.
        if text.startswith(self.header) and self.header not in body:
            self.cache.put_many({address: body})
        return text
