"""The scaffold of a four-seat trick-taking game's plug-in: what every such game shares,
written once, so that a new game fills in its own rules rather than copying another game's.

- `table`: the table (seat and team letters, dealer rotation, dealer-relative teams, card and
  seat text) in numba and Python;
- `view`: `TableView`, the acting seat's view (a game names its state fields and what else a
  seat may not see);
- `face`: `TableFace`, the readable Python face of a hand played move by move, and `Trick`;
- `replay`: the JSON replay driver behind `setback-cfr replay --game NAME`.

The abstraction side has its own half (`abstraction/dealing.py`: the card-by-card deal of the
CFR interface), the trainer's `train/game_plugin.py` and the toolkits' `envs/adapters.py`.
See docs/games/adding-a-game.md.
"""
