"""`contractgen diff`: classify the changes between two OpenAPI documents.

Operations are matched by method and path, with path-parameter names ignored (`/a/{id}` is
`/a/{name}`). Each change carries an oasdiff-style rule id and a level for the clients of the
old document: `breaking`, `warning` (clients keep working, but code reading or sending the
thing loses it, e.g. an optional response property removed) or `info`. A change of a shared
schema is reported once, with every place that uses it. The schema rules live in `rules` and
`schema`.

Documentation-only edits (description, summary, title, examples, externalDocs, tags) are not
reported: they change no payload and no generated signature, and reporting them would make
`--fail-on info` fail on a typo fix. Deprecation, sunset dates and stability levels are read as
oasdiff reads them (`lifecycle`).
"""

from .report import (
    diff_documents,
    format_json,
    format_markdown,
    format_text,
    run_changelog,
    run_diff,
)
from .rules import Change

__all__ = ["Change", "diff_documents", "format_json", "format_markdown", "format_text",
           "run_changelog", "run_diff"]
