"""`setback-cfr serve`: play a registered game (Setback, the default, Euchre or Spades) in the
browser against trained bots.

`table_base.py` is the one web table every game is played at (a person at South, bots at the
other seats, one game to the game's target: seed, owner, deals, score, version, the bots'
turns, restore from the stored moves, the view), driven by the game's declaration, its
`games/<game>/table_view.py` (the hand's face, how a deal opens and scores, the view's fields
of its own, and how it shows); `bots.py` turns a player spec into decisions with their
explanation; `position.py` rebuilds one seat's view from a position with the other hands
hidden (`POST /api/decide`, `setback-cfr decide`); `store.py` keeps every game in SQLite as its
owner, deals and moves; `guard.py` is what every request passes (the owner cookie, the body
limit, the security headers) and the per-owner limit on new games; `app.py` is the FastAPI
application, described by `openapi.py`; `static/` holds the one page every game shares
(`table.html`, built by `page.py` from the game's declaration), its one script (`table.js`)
and one style sheet (`style.css`), and the /docs page.

`game_tables.py` names each game's declaration, bots and rules error (dotted names, imported
on first use), so `app.py` imports no game. `table_errors.py` holds the refusals every table
raises.
"""

import numba_cache  # noqa: F401  (first: numba's cache keyed on all sources)
