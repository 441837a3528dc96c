"""`setback-cfr serve`: play Setback (or, with `--game euchre`, Euchre) in the browser against
trained bots.

`table.py` runs one game to 11 (a person at South, bots at the other seats); `bots.py` turns
a player spec into decisions with their explanation; `position.py` rebuilds one seat's view
from a position with the other hands hidden (`POST /api/decide`, `setback-cfr decide`);
`store.py` keeps every game in SQLite as its owner, deals and moves; `guard.py` is what every
request passes (the owner cookie, the body limit, the security headers) and the per-owner
limit on new games; `app.py` is the FastAPI application, described by `openapi.py`;
`static/` holds the page (and the /docs page).

Other games: `game_tables.py` names each game's table, bots, page and rules error (dotted
names, imported on first use), so `app.py` imports no game; Euchre's are `euchre_table.py`
(a game to 10 with `table.py`'s interface), `euchre_bots.py` and `static/euchre.*`.
`table_errors.py` holds the refusals every table raises.
"""

import numba_cache  # noqa: F401  (first: numba's cache keyed on all sources)
