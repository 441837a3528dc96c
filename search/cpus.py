"""The CPUs this process may use: how many threads a search or a server pool starts."""

from __future__ import annotations

import os


def usable_cpus() -> int:
    """The CPUs this process may run on (all of the machine's where the OS cannot say)."""
    if hasattr(os, "sched_getaffinity"):  # Linux
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1
