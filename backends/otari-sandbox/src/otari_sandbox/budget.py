"""How many sessions the service can hold: the configured capacity, lowered at start to what
its descriptors and memory can carry, so that past it create answers 503 + Retry-After
rather than failing half-way (a 500, or a host out of memory)."""

from __future__ import annotations

import contextlib
import logging
import os
import resource

from .api._serving import DEFAULT_MAX_CONNECTIONS, raise_fd_limit
from .config import Settings

logger = logging.getLogger(__name__)

# What one session holds of the service's fds (measured: 8 idle, i.e. two pidfds, bwrap's
# stderr pipe, the control socket and four cgroup files; a call adds its two output pipes and
# a client connection) and what the service keeps for itself. 256 sessions and a pool of 4
# fit a limit of 4096 (issue 27).
FDS_PER_SESSION = 12
FDS_RESERVED = 256
# What an idle session costs at least (8.3 MiB PSS measured): the aggregate memory limit
# admits this many sessions per MiB.
IDLE_SESSION_MB = 16
# What an idle session holds of the service's cgroup's tasks (bwrap, its PID 1 and the agent,
# and one more for a call's shell), and what the service keeps for itself (its own threads count
# against pids.max too): a container's pids limit admits that many sessions.
PIDS_PER_SESSION = 4
PIDS_RESERVED = 64


def fds_needed(config: Settings) -> int:
    """Descriptors for every session and pooled sandbox, the service, and the front door's
    connections."""
    return FDS_RESERVED + FDS_PER_SESSION * (config.capacity + config.pool_size) + DEFAULT_MAX_CONNECTIONS


def ensure_fd_limit(needed: int) -> int:
    """Raise RLIMIT_NOFILE to ``needed``: the soft limit up to the hard one, and the hard one
    too where allowed (root); the soft limit in force afterwards."""
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < needed:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (needed, needed))
    return raise_fd_limit()


def _own_limits(controller: str, v1_file: str, v2_file: str) -> list[int]:
    """The numeric limits of this service's own cgroup for `controller` (v1's file under its
    hierarchy, v2's in the unified one); a file that is absent or says "max" gives none."""
    limits = []
    with contextlib.suppress(OSError, ValueError):
        for line in open("/proc/self/cgroup", encoding="ascii"):
            _, controllers, path = line.rstrip("\n").split(":", 2)
            for candidate in (
                f"/sys/fs/cgroup/{controller}{path}/{v1_file}" if controller in controllers.split(",") else "",
                f"/sys/fs/cgroup{path}/{v2_file}" if controllers == "" else "",
            ):
                with contextlib.suppress(OSError, ValueError):
                    limits.append(int(open(candidate, encoding="ascii").read()))
    return limits


def default_total_memory_mb() -> int:
    """3/4 of the memory this service may use: the machine's, or its cgroup's limit if lower."""
    total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    total = min([total, *_own_limits("memory", "memory.limit_in_bytes", "memory.max")])
    return int(total * 3 / 4) // (1024 * 1024)


def pids_limit() -> int | None:
    """The tasks this service's cgroup may hold (a container's pids limit), None if unlimited."""
    return min(_own_limits("pids", "pids.max", "pids.max"), default=None)


def sized_capacity(config: Settings, fd_limit: int, total_memory_mb: int, storage_mb: int = 0,
                   pids_max: int | None = None) -> int:
    """Sessions the service can hold: the configured capacity, or less if the fd budget, the
    aggregate memory limit, (``storage_mb``: tmpfs workspaces that no cgroup charges) the
    sum of every sandbox's tmpfs quotas, or (``pids_max``) its cgroup's tasks cannot carry
    that many."""
    by_fds = max(1, (fd_limit - FDS_RESERVED - FDS_PER_SESSION * config.pool_size) // FDS_PER_SESSION)
    by_pids = (max(1, (pids_max - PIDS_RESERVED) // PIDS_PER_SESSION - config.pool_size)
               if pids_max else config.capacity)
    by_memory = max(1, total_memory_mb // IDLE_SESSION_MB) if total_memory_mb else config.capacity
    per_box = config.workspace_mb + config.tmp_mb
    # The pool only fills the room sessions leave: sessions + pooled <= capacity.
    by_storage = max(1, storage_mb // per_box) if storage_mb and per_box else config.capacity
    return min(config.capacity, by_fds, by_memory, by_storage, by_pids)
