"""Documents a contract refers to by URL (`$ref: https://example.com/common.yaml#/X`).

prance fetches them (`prance.util.url.fetch_url_text`: requests, with its cache of texts);
our loader parses them, with YAML 1.2 rules and positions as for local files, so a problem
inside one reads `URL:LINE:COL: error: /pointer: ...`. `resolve` bundles them like files.

- Only the references of the contract (and of the documents it refers to) are fetched, only
  over http and https; a relative reference inside a fetched document is relative to its URL
  (RFC 3986 section 5), so it never reads a local file.
- prance has no timeout: its fetch runs in a daemon thread that is given up after `timeout()`
  seconds (`CONTRACTGEN_FETCH_TIMEOUT`, default 30). Every failure is a located problem.
- Local files stay `loader`'s: prance's `fs.read_file` guesses each file's encoding with
  chardet (26 s over DigitalOcean's 2,907 files, against 0.4 s to read them as UTF-8) and
  gives text, not the bytes whose hash the run cache keeps.
- Each pass fetches anew with a cache of its own (not prance's process-wide default), so
  `watch` and `check` see a remote change (only a failure is remembered, for 10 s). The run
  cache never replays a run that fetched (a fetched document's `path` is `nowhere`).
"""

from __future__ import annotations

import hashlib
import os
import re
import threading
import time
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import quote, urldefrag, urljoin, urlparse, urlsplit

from ..problems import SpecError
from .loader import Document, parse_document

SCHEMES = ("http", "https")
_STATUS = re.compile(r'Cannot fetch URL "[^"]*": (\d{3}) ?(.*)$')


def is_remote(url: str) -> bool:
    """True for an http(s) URL."""
    return urlsplit(url).scheme.lower() in SCHEMES


def join(base: str, ref: str) -> str:
    """The URL `ref` (fragment dropped) names from a document at `base`."""
    return urldefrag(urljoin(base, ref))[0]


def stem(url: str) -> str:
    """The name of the file a URL names, without its suffix (`common` for `.../common.yaml`)."""
    return PurePosixPath(urlsplit(url).path).stem or urlsplit(url).hostname or "remote"


def nowhere(url: str) -> Path:
    """The `path` of a fetched document: under /dev/null (a file), so no file is ever there."""
    return Path("/dev/null/contractgen-remote") / quote(url, safe="")


def timeout() -> float:
    """Seconds to wait for a remote document (`CONTRACTGEN_FETCH_TIMEOUT`, default 30)."""
    try:
        return max(float(os.environ.get("CONTRACTGEN_FETCH_TIMEOUT", "30")), 0.1)
    except ValueError:
        return 30.0


# A command reads a contract whose reference fails up to three times (`generate`'s load, then
# `validate`'s two halves, `api.validate`): a URL that just failed is not fetched again for a
# few seconds, so a server that never answers costs the timeout once, not three times.
_FAILED: dict[str, tuple[float, SpecError]] = {}
_RETRY_AFTER = 10.0


def load_remote(url: str) -> Document:
    """The document at an http(s) URL, parsed as a file of that name; SpecError naming the URL
    when it cannot be fetched or read."""
    failed = _FAILED.get(url)
    if failed is not None and time.monotonic() < failed[0]:
        raise failed[1]
    try:
        text, content_type = _fetch(url)
    except SpecError as exc:
        _FAILED[url] = (time.monotonic() + _RETRY_AFTER, exc)
        raise
    _FAILED.pop(url, None)
    if content_type is not None and "charset=" not in content_type.lower():
        text = _as_utf8(text)
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
    return parse_document(text, digest, nowhere(url), url=url)


def _fetch(url: str) -> tuple[str, str | None]:
    """prance's fetch of `url`, given up after `timeout()` seconds."""
    found: dict[str, Any] = {}

    def run() -> None:
        try:
            from prance.util.url import fetch_url_text

            found["text"] = fetch_url_text(urlparse(url), {})  # no fragment: `join`
        except Exception as exc:  # reported below, in words, never as a traceback
            found["error"] = exc

    seconds = timeout()
    worker = threading.Thread(target=run, name=f"fetch {url}", daemon=True)
    worker.start()
    worker.join(seconds)
    if "text" in found:
        text, content_type = found["text"]
        return str(text), content_type
    error = found.get("error")
    if error is None:
        raise _failure(url, f"no answer within {seconds:g} s",
                       "check the server, or raise CONTRACTGEN_FETCH_TIMEOUT")
    raise _failure(url, *_describe(error))


def _describe(error: Exception) -> tuple[str, str | None]:
    status = _STATUS.search(str(error))
    if status is not None:
        code, reason = status.groups()
        hint = "check the URL" if code in ("404", "410") else "check the server's answer"
        return f"HTTP {code}{' ' + reason if reason else ''}", hint
    name = type(error).__name__
    if name == "ConnectionError":
        return "cannot connect", "check that the server runs and the host and port are right"
    if name in ("SSLError", "InvalidURL", "InvalidSchema", "MissingSchema", "TooManyRedirects"):
        return f"{name}: {_first_line(error)}", None
    return f"cannot fetch: {_first_line(error)}", None


def _first_line(error: Exception) -> str:
    return (str(error).strip().splitlines() or [type(error).__name__])[0][:200]


def _failure(url: str, message: str, hint: str | None) -> SpecError:
    return SpecError.at(f"GET {url}: {message}", url, hint=hint)


def _as_utf8(text: str) -> str:
    """`text` as UTF-8, when requests decoded it as ISO-8859-1 (its rule for a `text/*` answer
    without a charset): YAML and JSON are UTF-8 (YAML 1.2 section 5.2, RFC 8259 section 8.1)."""
    try:
        return text.encode("latin-1").decode("utf-8")
    except UnicodeError:
        return text
