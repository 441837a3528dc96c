"""`setback-cfr serve`: play Setback (or, with `--game euchre`, Euchre) in the browser against
trained bots.

`table.py` runs one game to 11 (a person at South, bots at the other seats) on
`table_base.py`, the bookkeeping every game's table shares (seed, owner, deals, score,
version, the bots' turns, restore from the stored moves); `bots.py` turns a player spec into
decisions with their explanation; `position.py` rebuilds one seat's view from a position with
the other hands hidden (`POST /api/decide`, `setback-cfr decide`); `store.py` keeps every game
in SQLite as its owner, deals and moves; `guard.py` is what every request passes (the owner
cookie, the body limit, the security headers) and the per-owner limit on new games; `app.py`
is the FastAPI application, described by `openapi.py`; `static/` holds the page (and the
/docs page): `page.py` builds it from `static/table.html`, the page every game shares, and the
game's parts (`static/index.html` for Setback), and `static/table-common.js` is the script
every game's page shares (`static/app.js` is Setback's own).

Other games: `game_tables.py` names each game's table, bots, page and rules error (dotted
names, imported on first use), so `app.py` imports no game; Euchre's are `euchre_table.py`
(a game to 10 on `table_base.py`), `euchre_bots.py` and `static/euchre.*`.
`table_errors.py` holds the refusals every table raises.
"""

import numba_cache  # noqa: F401  (first: numba's cache keyed on all sources)
