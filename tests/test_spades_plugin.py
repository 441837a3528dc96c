"""Spades in the plug-in registry: it provides the rules engine, its replay, its error type
and its key codec (games/spades/abstraction), so the commands that train and export offer it; a
game-independent loop plays it; and `games/spades` keeps the layer and docstring rules of the
other games' rules packages."""

from __future__ import annotations

import ast
import pathlib

import pytest
import test_euchre_registry
from test_package_boundaries import imported_names, undocumented

from games import registry

ROOT = pathlib.Path(__file__).resolve().parent.parent
# the rules: the top level of Spades' place (its layer subpackages obey their layers' rules,
# test_package_boundaries.py)
FILES = sorted((ROOT / "games" / "spades").glob("*.py"))
ABOVE_THE_RULES = ("cfr", "abstraction", "train", "db", "cli", "play", "search", "web", "envs")


def test_spades_is_registered_with_every_entry_point():
    entry = registry.get("spades")
    assert [p for p in registry.ENTRY_POINTS if not entry.provides(p)] == []
    assert entry.load("replay").__module__ == "games.spades.replay"
    assert entry.load("key_codec").game == "spades"  # its abstraction (games/spades/abstraction)
    assert "spades" in registry.names()  # a choice of train, export ...
    assert registry.names(("replay",)) == ("setback", "euchre", "spades")


def test_a_game_independent_loop_plays_spades():
    test_euchre_registry.test_a_game_independent_loop_plays_every_game("spades")


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(ROOT)) for p in FILES])
def test_imports_stay_below_the_rules_and_inside_the_game(path):
    for name in imported_names(ast.parse(path.read_text())):
        assert name.split(".")[0] not in ABOVE_THE_RULES, f"{path.name} imports {name}"
        if name.startswith("games."):
            assert name.split(".")[1] in ("spades", "bits", "rng", "scaffold"), \
                f"{path.name} imports {name}"


def test_every_module_and_public_function_is_documented():
    assert not undocumented(FILES)


@pytest.mark.parametrize("game", ["euchre", "spades"])
def test_a_plugin_codec_checks_a_header_against_its_abstraction_version(game):
    from abstraction.key_codec import KeyTextError

    codec = registry.get(game).load("key_codec")
    version = registry.declaration(game, "abstraction.version")
    mine = {"abstraction": version.ABSTRACTION_NAME,
            "abstraction_version": version.ABSTRACTION_VERSION}
    assert codec.check_header(mine) == (version.ABSTRACTION_NAME, version.ABSTRACTION_VERSION)
    for other in ({**mine, "abstraction_version": version.ABSTRACTION_VERSION + 1},
                  {**mine, "abstraction": "other"}, {}):
        with pytest.raises(KeyTextError, match=f"this program's {game.title()} keys are"):
            codec.check_header(other)
