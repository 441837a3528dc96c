"""Info-set abstractions that shrink a game for CFR (Setback key layouts)."""

import numba_cache  # noqa: F401  (first: numba's cache keyed on all sources)
