"""What a shared layer reaches of a game through the registry, not by its name: a player of
any game by spec (`play.player_spec.make_player(spec, seed, game)`, the game's grammar), each
game's part of a shared command (`registry.commands`), and each game's Trickster bot
(`TricksterBot`, declared in its place)."""

from __future__ import annotations

import pytest

from games import registry
from play.player_spec import PlayerSpecError, make_player
from play.tournament import tournament_game


@pytest.mark.parametrize("game", registry.names(("tournament",)))
def test_a_spec_builds_the_named_games_player(game):
    entry = registry.get(game)
    if entry.provides("heuristic"):
        assert isinstance(make_player("heuristic", 0, game), entry.load("heuristic"))
    with pytest.raises(PlayerSpecError) as caught:
        make_player("no-such-player", 0, game)
    assert isinstance(caught.value, tournament_game(game).spec_error)
    assert "\n" not in str(caught.value) and "no-such-player" in str(caught.value)


def test_without_a_game_the_spec_is_the_default_games():
    default = registry.get(registry.DEFAULT_GAME)
    assert isinstance(make_player("heuristic"), default.load("heuristic"))


@pytest.mark.parametrize("command", ["train", "learn"])
def test_the_commands_parts_are_the_games_that_name_one(command):
    parts = registry.commands(command)
    named = [name for name, entry in registry.GAMES.items() if command in entry.commands]
    assert list(parts) == named and named  # Setback adds to both today
    for name, module in parts.items():
        assert module.__name__ == registry.get(name).commands[command]
        assert callable(getattr(module, f"register_{command}"))


def test_each_trickster_bot_is_its_games_declaration():
    from games.setback.play import trickster as pitch
    from games.spades.play import trickster as spades
    from play.trickster_host import TricksterBot

    bots = [pitch.BOT, spades.BOT]
    assert all(isinstance(bot, TricksterBot) for bot in bots)
    assert len({bot.name for bot in bots}) == len(bots)  # one built host each
    for bot in bots:
        assert "Bots/BaseBot.cs" in bot.files and bot.bot_class.startswith("Trickster.Bots.")
        assert all(f.startswith("Bots/") and f.endswith(".cs") for f in bot.files)
