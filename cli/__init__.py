"""The `setback-cfr` command line: one module per subcommand."""

import numba_cache  # noqa: F401  (first: numba's cache keyed on all sources)
