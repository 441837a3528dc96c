"""Players behind one interface (`games.setback.view.Player`) and tournaments between them; a
game's own players are in its place (`games/<game>/play/`: Setback's heuristic, oracle, PIMC).

- `player_spec.py`: a spec to a player of any game (`make_player(spec, seed, game)`, the
  game's grammar) and `PlayerSpecError`; `player_grammar.py`, `trick_game_grammar.py`: the
  grammar written once.
- `tournament.py`: complete games to 11, duplicate mode, confidence intervals.
- `summary_plot.py`: the tournament's PNG summary (needs the `plot` extra).
"""

import numba_cache  # noqa: F401  (first: numba's cache keyed on all sources)
