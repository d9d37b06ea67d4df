"""Skip a whole run whose inputs did not change: `generate` or `check` of an unchanged contract.

A run's output is a pure function of its inputs: the contract's files (the spec, its overlay, the
files its references bundle in), its `Options` and the code that generates (contractgen's
sources and templates, the versions of black, Jinja and the libraries that read and judge the
contract). After a successful run the cache (contractgen/cache.py) records, under the run's
`fingerprint` (the inputs read, the code, the options): the sha256 of every bundled file,
of every file of the package it produced, and the warnings it reported. A later run with the
same key, whose other inputs and package on disk still hash the same, answers with the package
as it is and the same warnings, without loading, validating, building, rendering or formatting.
Anything else (a changed byte anywhere, a hand-edited file, an entry written without validation
when this run validates, `CONTRACTGEN_NO_CACHE=1`) runs in full.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from ..cache import TextCache, code_fingerprint
from ..problems import Problem
from ..spec.verdicts import problem_rows, problems_of
from ..version import __version__
from .package import display_path

if TYPE_CHECKING:
    from ..options import Options
    from ..spec.inputs import Inputs


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def fingerprint(inputs: Inputs, options: Options) -> str:
    """The one key of a run: the inputs' contents, the code that generates (`code_fingerprint`)
    and every option; the files the spec's references bundle in are checked at replay instead
    (they are known only once the spec is read).

    Paths count as given (problems name them so), as resolved (what was read) and as the output
    shows them; not the working folder, nor `options.root` itself: `check` of a target replays a
    `generate` of its spec from the target's folder."""
    paths = (inputs.spec, options.overlay, options.templates)
    key = {
        "code": code_fingerprint(),
        "sha256": [inputs.spec_sha256, inputs.overlay_sha256, inputs.templates_sha256],
        "paths": [[str(path), str(path.resolve()), display_path(path, options.root)]
                  if path is not None else None for path in paths],
        "parts": options.parts, "lenient": options.lenient, "notes": options.extension_notes,
        "settings": options.settings.key() if options.settings is not None else None,
    }
    return _sha256(json.dumps(key, sort_keys=True).encode())


class Run:
    """One run's record in the cache, under its `fingerprint`."""

    def __init__(self, inputs: Inputs, options: Options) -> None:
        self.cache = TextCache(f"runs-{__version__}")
        self.address = self.cache.key(fingerprint(inputs, options))
        self.bundled: list[str] = []  # after a replay: the other files the run read

    def replay(self, previous: Mapping[str, str], validated: bool
               ) -> tuple[dict[str, str], list[Problem]] | None:
        """The package and warnings of the same run before, when `previous` is still exactly
        that package and every other input still reads the same; else None."""
        stored = self.cache.get(self.address)
        if stored is None:
            return None
        try:
            entry = json.loads(stored)
            if validated and not entry["validated"]:
                return None
            for path, digest in entry["inputs"].items():
                if _sha256(Path(path).read_bytes()) != digest:
                    return None
            files: dict[str, str] = {}
            for name, digest in entry["files"].items():
                text = previous.get(name)
                if text is None or _sha256(text.encode("utf-8")) != digest:
                    return None
                files[name] = text
            warnings = problems_of(entry["warnings"])
        except (OSError, ValueError, TypeError, KeyError):
            return None
        self.bundled = list(entry["inputs"])
        return files, warnings

    def record(self, bundled: Mapping[str, str], files: Mapping[str, str],
               warnings: list[Problem], validated: bool) -> None:
        """Remember this run's package and warnings, and the other files it read (path ->
        sha256): a replay checks they still read the same."""
        entry = {
            "validated": validated,
            "inputs": dict(sorted(bundled.items())),
            "files": {name: _sha256(text.encode("utf-8")) for name, text in sorted(files.items())},
            "warnings": problem_rows(warnings),
        }
        self.cache.put_many({self.address: json.dumps(entry)})
