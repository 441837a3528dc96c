import gc
import os
import sys

# Test helpers (such as the independent rules oracle) live beside the tests.
sys.path.insert(0, os.path.dirname(__file__))

MAX_WORKERS = 8  # each worker compiles its own numba functions; more buys little, costs memory


def pytest_xdist_auto_num_workers(config):
    """`-n auto`: one test process per core this process may run on (its CPU affinity, which a
    container's core limit sets), at most MAX_WORKERS. xdist's own count asks psutil for the
    host's physical cores, which may be many more than a container may use, or fewer than two
    on a two-vCPU machine."""
    return max(1, min(len(os.sched_getaffinity(0)), MAX_WORKERS))


def pytest_sessionfinish(session):
    """Collect once and freeze what survives as the session ends. At exit pytest collects five
    times more to catch errors raised by finalizers; on a test process's heap after hundreds of
    tests that took over the 5 s execnet gives an xdist worker to end, after which it sends the
    worker SIGINT (printed as an unraisable KeyboardInterrupt). This runs before the worker
    reports its end, the garbage is still collected (its finalizers' errors still reported),
    and the later collections skip the frozen survivors."""
    gc.collect()
    gc.freeze()
