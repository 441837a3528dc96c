"""Every registered game's player grammar (its `TournamentGame.make_player`; Euchre's and
Spades' are the one `play.player_grammar.Grammar`): the players every game has are built from
their names, and a bad spec is one line of the game's own spec error."""

from __future__ import annotations

import pytest

from games import registry
from play.tournament import tournament_game

GAMES = registry.names(("tournament",))


@pytest.mark.parametrize("name", GAMES)
def test_every_game_builds_its_plain_players(name):
    game = tournament_game(name)
    for spec in ("random", "heuristic", "Random"):
        player = game.make_player(spec, 3)
        assert hasattr(player, "choose")
        assert player.name.lower() == spec.lower()


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("spec", ["nobody", "random:x", "heuristic,fast", "db", "db:",
                                  "search"])
def test_a_bad_spec_is_one_line_of_the_games_error(name, spec):
    game = tournament_game(name)
    with pytest.raises(game.spec_error) as info:
        game.make_player(spec, 0)
    assert str(info.value) and "\n" not in str(info.value)
