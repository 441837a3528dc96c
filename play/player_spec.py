"""Players named on the command line, for every game: `make_player(spec, seed, game)` builds the
player a spec names in a game's grammar (the `make_player` of its registry entry's
`tournament`: Setback's `games/setback/play/grammar.py`, with its composites; a trick-taking
game's `play.trick_game_grammar`, e.g. Euchre's `games/euchre/play/tournament.py`), and
`PlayerSpecError` is the one-line error of a bad spec, which every game's spec error derives
from, so the commands and the server catch one type whatever the game.

It names no game and imports none at load time: a game's grammar imports this module (for
`PlayerSpecError`), and this module reaches the grammar only through the registry, when a player
is built.
"""

from __future__ import annotations


class PlayerSpecError(ValueError):
    """A player name that cannot be turned into a player."""


def make_player(spec: str, seed: int = 0, game: str | None = None):
    """The player named by `spec` in `game`'s grammar (a registered name; None: the default
    game's); a bad spec raises the game's `PlayerSpecError` (one line)."""
    from play.tournament import tournament_game

    return tournament_game(game).make_player(spec, seed)
