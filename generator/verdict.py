"""The validate stage's verdict, reached beside the next stages: validation runs in a forked
child while the caller builds the IR and renders, and is awaited before formatting.

Measured (bench/layers.py, interleaved, 2026-12-04): the child takes a cold run of Twilio 2010
from 0.99 s to 0.73 s (wall time less black's, medians of 3); a one-field edit, whose
validation is quicker, gains ~0.02 s. It pays where a spare core is (docs/architecture.md): in
a warm `watch` it takes ~90 ms of CPU off the caller and adds ~90 ms in all (Twilio 2010: 321 +
147 ms against 412 inline; `bench/watch_stages.py`), so it loses on a saturated machine.
"""

from __future__ import annotations

import marshal
import os
import threading
from typing import Any, BinaryIO

from .problems import Problem
from .spec.loader import Document
from .spec.verdicts import problem_rows, problems_of

# False: always validate in the caller's process (what `bench/layers.py` compares against).
FORK = True


class Verdict:
    """The validation's problems (calling it waits for them), and the contract's `openapi.json`
    text: from a forked child when one was started (`start_validation`), else the problems
    given and the text computed when asked."""

    def __init__(self, document: Document, receiver: BinaryIO | None = None,
                 child: int | None = None, problems: list[Problem] | None = None) -> None:
        self.document, self.receiver, self.child, self.problems = (
            document, receiver, child, problems)
        self._text: str | None = None
        self._text_received = False  # the child's first message is read

    def _receive(self) -> Any:
        """The child's next message (`marshal`); None once it ended (the caller does its part)."""
        assert self.receiver is not None
        try:
            return marshal.load(self.receiver)
        except EOFError:
            self.receiver.close()
            self.receiver = None
            return None

    def _take_text(self) -> None:
        """Read the child's first message (the text, None when it could not), once."""
        if not self._text_received and self.receiver is not None:
            self._text = self._receive()
        self._text_received = True

    def spec_json(self) -> str:
        """The bundled document as `openapi.json` serves it (`dumps_indented`)."""
        self._take_text()
        if self._text is None:
            from .model.jsontext import dumps_indented

            self._text = dumps_indented(self.document.data) + "\n"
        return self._text

    def __call__(self) -> list[Problem]:
        if self.problems is None:
            self._take_text()
            rows = self._receive() if self.receiver is not None else None
            if rows is None:
                from .spec.validate import validate_document

                self.problems = validate_document(self.document)
            else:
                self.problems = problems_of(rows)
            if self.receiver is not None:
                self.receiver.close()
            if self.child is not None:
                os.waitpid(self.child, 0)
        return self.problems


def start_validation(document: Document) -> Verdict:
    """Validate while the caller renders: in a forked child when that is safe, else inline.

    Importing and running openapi-spec-validator is a third of a generator run; on a machine with
    a spare core it overlaps with building the model and rendering (cheap, and stopped by the
    errors it may raise) but never with formatting, which waits for its verdict. The child first
    writes the contract's `openapi.json` text (~40 ms of pure Python on a large contract, off
    the caller's critical path), which the model takes (`build_api(spec_json=...)`). A bare
    fork and pipe, values in `marshal`: importing multiprocessing took ~13 ms of every run.
    """
    if (not FORK or (os.cpu_count() or 1) < 2 or threading.active_count() > 1
            or not hasattr(os, "fork")):
        from .spec.validate import validate_document

        return Verdict(document, problems=validate_document(document))
    reading, writing = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            os.close(reading)
            with os.fdopen(writing, "wb") as sender:
                _validate_into(document, sender)
        finally:
            os._exit(0)
    os.close(writing)
    return Verdict(document, os.fdopen(reading, "rb"), pid)


def _validate_into(document: Document, sender: BinaryIO) -> None:
    from .model.jsontext import dumps_indented
    from .spec.validate import validate_document

    try:
        text: str | None = dumps_indented(document.data) + "\n"
    except Exception:  # the caller's own call raises it, as it always did
        text = None
    # Sent aside: the pipe holds 64 KiB, and the caller reads the text only when its model is
    # built; meanwhile this process validates.
    sending = threading.Thread(target=marshal.dump, args=(text, sender))
    sending.start()
    problems = validate_document(document)
    sending.join()
    marshal.dump(problem_rows(problems), sender)
