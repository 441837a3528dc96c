"""`setback-cfr serve`: play Setback in the browser against trained bots.

`table.py` runs one game to 11 (a person at South, bots at the other seats); `bots.py` turns
a player spec into decisions with their explanation; `store.py` keeps every game in SQLite as
its deals and moves; `app.py` is the FastAPI application; `static/` holds the page.
"""

import numba_cache  # noqa: F401  (first: numba's cache keyed on all sources)
