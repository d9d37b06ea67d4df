"""Which files a call produced: (mtime, size) of every visible regular file, before and after."""

import os

Snapshot = dict[str, tuple[int, int]]
MAX_ENTRIES = 20_000
MAX_REPORTED = 1_000


def take(root: str, limit: int = MAX_ENTRIES) -> Snapshot | None:
    """Map workspace-relative paths to (mtime_ns, size); None when the tree is too big."""
    found: Snapshot = {}
    seen = 0
    stack = [("", root)]
    while stack:
        prefix, directory = stack.pop()
        try:
            entries = list(os.scandir(directory))
        except OSError:
            continue
        for entry in entries:
            seen += 1
            if seen > limit:
                return None
            name = entry.name
            # Dot-files and byte-code caches are tool state, not outputs.
            if name.startswith(".") or name == "__pycache__" or not _printable(name):
                continue
            rel = prefix + name
            try:
                if entry.is_dir(follow_symlinks=False):
                    stack.append((rel + "/", entry.path))
                elif entry.is_file(follow_symlinks=False):
                    stat = entry.stat(follow_symlinks=False)
                    found[rel] = (stat.st_mtime_ns, stat.st_size)
            except OSError:
                continue
    return found


def changed(before: Snapshot | None, after: Snapshot | None) -> list[str]:
    """Paths created or modified between two snapshots, sorted."""
    if before is None or after is None:
        return []
    paths = sorted(path for path, meta in after.items() if before.get(path) != meta)
    return paths[:MAX_REPORTED]


def _printable(name: str) -> bool:
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True
