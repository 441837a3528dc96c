"""The scaffold of a four-seat trick-taking game's plug-in: what every such game shares,
written once, so that a new game fills in its own rules rather than copying another game's.

- `table`: the table (seat and team letters, dealer rotation, dealer-relative teams, card and
  seat text) in numba and Python;
- `view`: `TableView`, the acting seat's view (a game names its state fields and what else a
  seat may not see);
- `face`: `TableFace`, the readable Python face of a hand played move by move, and `Trick`;
- `match`: a game's record, a hand played out through the seats' views (`play_out`), a game of
  hands to a winning score (`play_game`) and the random player;
- `replay`: the JSON replay driver behind `setback-cfr replay --game NAME`;
- `random_play`: a hand played out by random legal moves, a game's score by absolute team;
- `trick`: a card into the trick and a completed trick cleared, in every game's rules;
- `cards_held`: how many cards a seat holds when every seat plays to every trick (public), and
  the sampler's constraints where only voids tell where a hidden card is;
- `suits`: the four suits of a 52-card deck as card masks (what a void is shown in).

The CFR side has its halves below and above: `games/interface.py` (the six functions by name,
chance a card per node), `abstraction/dealing.py` (the abstract game's deal and signatures),
`train/game_plugin.py` (the trainer's `Game` in one call); the toolkits' is `envs/adapters.py`
(`GameAdapter`) and `envs/aec.py` (`env_constructors`). See docs/games/adding-a-game.md.
"""
