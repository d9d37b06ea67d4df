"""`contractgen diff`: classify the changes between two OpenAPI documents.

Operations are matched by method and path, with path-parameter names ignored (`/a/{id}` is
`/a/{name}`). Each change carries an oasdiff-style rule id and is breaking or not for the
clients of the old document; the schema rules live in
`rules` and `schema`.

Documentation-only edits (description, summary, title, examples, externalDocs, tags) are not
reported: they change no payload and no generated signature, and reporting them would make
`--fail-on any` fail on a typo fix. Deprecation is reported, as a non-breaking change.
"""

from .report import diff_documents, format_json, format_text, run_diff
from .rules import Change

__all__ = ["Change", "diff_documents", "format_json", "format_text", "run_diff"]
