"""The shared layers name no game (issue 55, item 4), kept from growing: the modules outside the
games' places (and the registry) that name a game in code, as `bench/game_names.py` counts them
(docstrings left out), are exactly those a game's plug-in list binds to it (each import of a
game names it; the reasons are the registry's) and those of `NAMING` below, each with why.
A module cleaned must leave `NAMING`; a module that starts naming a game fails here: a game's
words go in its place (`games/<game>/command_words.py`, read through `registry.words`), the
program's name is `registry.PROGRAM`."""

from __future__ import annotations

import pathlib
import sys

from games import registry

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from game_names import naming_modules  # noqa: E402  (bench/ is not a package)

# The modules outside every plug-in list that still name a game, with why. Only shrinks.
_FORMAT = ("spells the program's name setback-cfr in its file format's name and messages: "
           "to take registry.PROGRAM")
NAMING = {
    # the program's name in a file format: cfr/ imports no game, not even the registry
    "cfr/checkpoint.py": "the checkpoint format's magic 'setback-cfr/checkpoint' (cfr/ imports "
                         "no game, so not registry.PROGRAM either)",
    "cfr/strategy_file.py": "the strategy file format's magic 'setback-cfr/strategy' (cfr/ "
                            "imports no game, so not registry.PROGRAM either)",
    "db/schema.py": _FORMAT,
    "play/bid_table_file.py": _FORMAT,
    "search/model_file.py": _FORMAT,
    "search/policy_net.py": "the program's name in a message (`setback-cfr export`): to take "
                            "registry.PROGRAM",
    "envs/openspiel_games.py": "the program's name in the toolkit games' long names: to take "
                               "registry.PROGRAM",
    "play/search_options.py": "the program's name in a message: to take registry.PROGRAM",
    "play/results_store.py": "the results store's format name and its games before `game` was "
                             "recorded (Setback's, its DEFAULT_GAME)",
    # not a game: the suit
    "web/position.py": "the suit names (clubs .. spades): the suit, not the game",
    "games/scaffold/table_words.py": "the suit names (Clubs .. Spades): the suit, not the game",
    # history kept on disk
    "web/store.py": "the games file's formats 1 and 2 held Setback's games only: the column's "
                    "default and the upgrade write 'setback' (history, whatever the default "
                    "game becomes)",
}


def _dotted(rel: str) -> str:
    return rel[:-3].replace("/", ".").removesuffix(".__init__")


def test_the_modules_naming_a_game_are_the_plug_ins_and_the_listed_ones():
    found, _ = naming_modules(ROOT)
    unlisted = sorted(rel for rel in found
                      if not registry.plugin_of(_dotted(rel)) and rel not in NAMING)
    assert not unlisted, (f"these modules name a game: {unlisted} (a game's words go in its "
                          "place, the program's name is registry.PROGRAM)")
    clean = sorted(rel for rel in NAMING if rel not in found)
    assert not clean, f"these modules name no game any more: drop them from NAMING: {clean}"


def test_the_cleaned_commands_and_server_name_no_game():
    """The commands and web modules this rule was built for stay clean (a named list, so a
    regression names the module)."""
    found, _ = naming_modules(ROOT)
    for rel in ("cli/serve.py", "cli/tournament.py", "cli/rating.py", "cli/exploit.py",
                "cli/simulate.py", "cli/replay.py", "cli/decide.py", "cli/main.py",
                "cli/errors.py", "cli/quickstart.py", "cli/inference.py", "cli/export.py",
                "cli/db.py", "cli/arguments.py", "cli/census.py", "cli/solve_deal.py",
                "cli/dd_table.py", "web/app.py", "web/game_tables.py",
                "web/metrics.py", "web/openapi.py", "web/guard.py",
                # the players' shared layer, emptied of Setback's grammar and defaults
                "play/player_spec.py", "play/ismcts_player.py", "play/ladder.py",
                "play/trickster_host.py", "db/synthetic.py", "cli/train.py", "cli/learn.py"):
        assert (ROOT / rel).is_file(), rel
        assert rel not in found, (rel, found.get(rel))


def test_the_counter_sees_a_name_in_code_and_not_in_a_docstring(tmp_path):
    """The count reads names in code (strings, identifiers, imports) and skips docstrings."""
    import ast

    from game_names import names_in

    tree = ast.parse('"""Setback\'s docstring."""\nimport games.euchre\nx = "spades"\n'
                     'def f():\n    """Euchre."""\n    return setback_total\n')
    texts = list(names_in(tree))
    assert "games.euchre" in texts and "spades" in texts and "setback_total" in texts
    assert not any("docstring" in t or t == "Euchre." for t in texts)
