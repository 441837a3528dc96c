"""Players behind one interface (`games.setback.view.Player`) and tournaments between them; a
game's own players are in its place (`games/<game>/play/`: Setback's heuristic, oracle, PIMC).

- `player_spec.py`: `random` (every game's, `games.scaffold.match`) `| heuristic | db:PATH | strategy:PATH[,PATH...]` to a player.
- `tournament.py`: complete games to 11, duplicate mode, confidence intervals.
- `summary_plot.py`: the tournament's PNG summary (needs the `plot` extra).
"""

import numba_cache  # noqa: F401  (first: numba's cache keyed on all sources)
