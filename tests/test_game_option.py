"""`--game NAME` on the commands that read or play a game (issue 29): every such command has
it with every registered game as a choice (default setback), and a command that is Setback's
only refuses `--game euchre` in one line (exit status 2) before doing anything."""

import argparse

import pytest

from cli.main import build_parser
from cli_runner import run_cli
from games import registry

# Commands without --game, and why: none of them reads or plays a game chosen by the user.
WITHOUT = {
    ("solve",): "CFR on the poker games kuhn and leduc, named by its GAME argument",
    ("train", "status"): "reads any run, whose settings record the game",
    ("train", "bootstrap"): "Setback's score-aware auction, on top of a Setback baseline",
    ("train", "best-response"): "the game is read from the target (--against); Setback only",
    ("dd-table",): "plain 52-card deals (four hands, a trump or none): no game's rules",
    ("db", "load"): "the game is read from the strategy files",
    ("db", "query"): "the game is read from the database",
    ("db", "info"): "the game is read from the database",
}

# Commands that take games registered with fewer entry points than all (a rules-only game, or
# one with its rules and tournament players but no training yet: Spades).
NEEDS = {("replay",): ("replay",), ("tournament",): ("tournament",),
         ("rating",): ("tournament",),
         ("bid-tables",): ("tournament",),  # Setback's and Spades' (tests/test_spades_bid_tables)
         ("train", "distill"): ("distill",)}  # the games declaring the stage
# Commands whose --game choices are named games rather than the games providing entry points.
NAMED = {("exploit",): ("setback", "euchre")}  # a best response against Setback's or Euchre's


def leaves():
    """(command path, parser) of every subcommand that runs something."""
    out = []

    def walk(parser, path):
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    walk(sub, path + (name,))
                return
        out.append((path, parser))

    walk(build_parser(), ())
    return out


def test_every_command_that_reads_or_plays_a_game_has_the_game_option():
    for path, parser in leaves():
        options = [a for a in parser._actions if "--game" in a.option_strings]
        if path in WITHOUT:
            assert not options, f"{path} has --game now: take it out of WITHOUT"
            continue
        assert options, f"`setback-cfr {' '.join(path)}` has no --game"
        game = options[0]
        if game.choices is None:  # checked by the command itself: its help names the games
            assert all(name in game.help for name in registry.names()), path
        else:  # the games that provide what the command needs (replay: a replay)
            assert tuple(game.choices) == NAMED.get(path) or registry.names(
                NEEDS.get(path, registry.ENTRY_POINTS)), path
        assert game.default in (registry.DEFAULT_GAME, None), path
        assert game.help, path


@pytest.mark.parametrize("argv", [
    ["census", "--deals", "1"],
    ["solve-deal", "deal.json"],
    ["inference", "--policy", "heuristic"],
    ["learn", "generate", "--deals", "1", "--out", "x.npz"],
    ["learn", "train", "--data", "x.npz", "--out", "x.nn"],
    ["learn", "evaluate", "--model", "x.nn", "--data", "x.npz"],
    ["quickstart", "--out", "qs"],
], ids=lambda argv: argv[0] if argv[0] != "learn" else "-".join(argv[:2]))
def test_a_setback_only_command_refuses_euchre_in_one_line(argv, capsys, tmp_path,
                                                           monkeypatch):
    monkeypatch.chdir(tmp_path)
    status, out, err = run_cli(capsys, [*argv, "--game", "euchre"])
    assert status == 2 and out == "" and err.count("\n") == 1, err
    name = " ".join(argv[:2]) if argv[0] == "learn" else argv[0]
    assert f"{name} is setback's only, not for --game euchre" in err
    assert list(tmp_path.iterdir()) == []  # refused before anything was written
    # the help lists the choices
    parser = dict(leaves())[tuple(argv[:2]) if argv[0] == "learn" else (argv[0],)]
    assert "{" + ",".join(registry.names()) + "}" in parser.format_help().replace(" ", "")
