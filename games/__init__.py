"""Game definitions: rules only, nothing about CFR."""

import numba_cache  # noqa: F401  (first: numba's cache keyed on all sources)
