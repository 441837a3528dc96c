"""Training stages (baseline, bootstrap): progress, logs, resume."""

import numba_cache  # noqa: F401  (first: numba's cache keyed on all sources)
