"""Playing Euchre like Setback: the heuristic's documented rules on hand-made hands, the
export -> database -> player chain of a tiny run (the game recorded and refused on mismatch),
and `tournament --game euchre` (deterministic, whatever the workers)."""

from __future__ import annotations

import json

import numpy as np
import pytest
from cli_runner import run_cli

from games.euchre.api import Hand
from games.euchre.rules import ALONE_MOVE, PARTNER_MOVE, PASS_MOVE, TRUMP_MOVE
from games.euchre.view import SeatView
from games.euchre.play.heuristic import EuchreHeuristicPlayer
from games.euchre.play.tournament import make_euchre_player
from play.tournament import run_tournament

HANDS = {"W": ["JH", "JD", "AH", "9H", "AC"], "N": ["9C", "TC", "QC", "KC", "9S"],
         "E": ["TS", "QS", "KS", "AS", "TD"], "S": ["QD", "KD", "AD", "9D", "TH"]}


def cli(capsys, *argv):
    return run_cli(capsys, argv)


def view(hand: Hand) -> SeatView:
    return SeatView.of(hand.state, "WNES".index("S"))


def test_the_heuristic_follows_its_rules():
    player = EuchreHeuristicPlayer()
    hand = Hand("S", HANDS, "QH")
    # West: JH JD AH 9H (four trumps, both bowers): order up
    assert player.choose(view(hand)) == TRUMP_MOVE + 2
    hand.play("P")
    # North: no heart at all: pass
    assert player.choose(view(hand)) == PASS_MOVE
    hand.play("P")
    hand.play("P")  # East
    # South (dealer) with QH picked up: TH QH, two trumps and no bower: pass
    assert player.choose(view(hand)) == PASS_MOVE
    hand.play("P")
    # round 2, West: hearts are out (the upcard's suit); diamonds has JD only: pass
    assert player.choose(view(hand)) == PASS_MOVE
    hand.play("P")
    # North: clubs (9C TC QC KC, four trumps): name clubs
    assert player.choose(view(hand)) == TRUMP_MOVE + 0
    hand.play("C")
    # alone? no bowers: with the partner
    assert player.choose(view(hand)) == PARTNER_MOVE
    hand.play("partner")
    # West leads (a defender): its side ace, AH (AC is trump now)
    assert player.choose(view(hand)) == 2 * 6 + 5


def test_the_heuristic_goes_alone_and_pulls_trumps_and_wins_cheaply():
    player = EuchreHeuristicPlayer()
    hand = Hand("S", HANDS, "QH")
    hand.play("H")  # West orders hearts; the dealer discards
    hand.play("9D")
    # JH JD AH 9H AC: both bowers and the ace, a fourth trump: alone
    assert player.choose(view(hand)) == ALONE_MOVE
    hand.play("alone")
    # the maker leads its best trump while trumps are out: the right bower
    assert player.choose(view(hand)) == 2 * 6 + 2
    hand.play("9H")  # (a weaker lead) East, West's partner, sits out: North follows
    assert hand.to_act == "N"
    # North has no heart and cannot win: the lowest side card, 9C (before 9S by index)
    assert player.choose(view(hand)) == 0 * 6 + 0
    hand.play("9C")
    # South holds TH QH: the lowest card that beats 9H is TH
    assert player.choose(view(hand)) == 2 * 6 + 1


@pytest.fixture(scope="module")
def small_db(tmp_path_factory):
    """A Euchre run of 256 hands, exported and loaded."""
    from cli.main import main

    root = tmp_path_factory.mktemp("euchre-db")
    run, out, db = root / "run", root / "s.msgpack", root / "s.db"
    assert main(["train", "baseline", "--game", "euchre", "--run", str(run), "--iterations",
                 "256", "--batch", "64", "--no-progress"]) == 0
    assert main(["export", "--run", str(run), "--out", str(out), "--game", "euchre"]) == 0
    assert main(["db", "load", str(out), "--db", str(db), "--no-progress"]) == 0
    return run, out, db


def test_export_and_database_record_the_game(small_db, capsys):
    run, out, db = small_db
    status, text, _ = cli(capsys, "db", "info", "--db", db, "--json")
    info = json.loads(text)
    assert status == 0 and info["game"] == "euchre" and info["abstraction"] == "euchre-basic"
    assert set(info["kind_counts"]) == {"order", "name", "alone", "play"}
    assert info["n_keys"] == sum(info["kind_counts"].values()) > 1000
    # a key of the database, with its action names
    from db.database import StrategyDatabase

    with StrategyDatabase(str(db)) as database:
        key = database._cursor.execute("SELECT key FROM strategy WHERE key LIKE 'O%' "
                                       "LIMIT 1").fetchone()[0]
    status, text, _ = cli(capsys, "db", "query", "--db", db, key, "--json")
    answer = json.loads(text)
    assert status == 0 and answer["kind"] == "order"
    assert [a["action"] for a in answer["actions"]] == ["P", "order"]
    # the run's game is checked: a Setback export of it is refused
    status, _, err = cli(capsys, "export", "--run", run, "--out", out.parent / "x", "--game",
                         "setback")
    assert status == 2 and "is a euchre run, not setback" in err


def test_the_database_player_plays_legal_moves_and_mostly_from_its_keys(small_db):
    _, _, db = small_db
    player = make_euchre_player(f"db:{db}")
    rows = run_tournament((player, make_euchre_player("heuristic")), 4, seed=1,
                          duplicate=True, progress=False, game="euchre")
    report = player.report()
    assert rows.shape == (8, 4) and report["decisions"] > 100
    assert report["found"] > 0 and report["found"] + report["fallback"] == report["lookups"]
    # a Setback player refuses the Euchre database in one line
    from db.errors import DatabaseError
    from games.setback.db.player import DatabasePlayer

    with pytest.raises(DatabaseError, match="not 'setback'"):
        DatabasePlayer(str(db))


def test_the_tournament_is_deterministic_whatever_the_workers(capsys):
    args = ("tournament", "--game", "euchre", "--ew", "heuristic", "--ns", "random", "--games",
            "20", "--duplicate", "--seed", "4", "--json", "--no-progress")
    status, one, _ = cli(capsys, *args)
    status2, two, _ = cli(capsys, *args, "--workers", "2")
    assert status == status2 == 0
    a, b = json.loads(one), json.loads(two)
    for name in ("win_rate", "hands", "points_a_per_hand", "points_b_per_hand"):
        assert a[name] == b[name]
    assert a["units_played"] == 40 and a["win_rate"] > 0.9  # the heuristic beats random
    status, text, _ = cli(capsys, "tournament", "--game", "euchre", "--ew", "heuristic",
                          "--ns", "heuristic", "--games", "30", "--duplicate", "--hands",
                          "--json", "--no-progress")
    same = json.loads(text)
    # the same player on both sides of duplicate hands: exactly even
    assert status == 0 and same["difference_per_hand"] == 0.0 and same["hands"] == 60
    status, _, err = cli(capsys, "tournament", "--game", "euchre", "--ew", "bogus", "--ns",
                         "random", "--games", "1", "--no-progress")
    assert status == 2 and "unknown Euchre player 'bogus'" in err


def test_random_players_are_seeded():
    a = make_euchre_player("random", 3)
    rows1 = run_tournament((a, make_euchre_player("random", 3)), 3, seed=9,
                           progress=False, game="euchre")
    rows2 = run_tournament((a, make_euchre_player("random", 3)), 3, seed=9,
                           progress=False, game="euchre")
    assert np.array_equal(rows1, rows2)


def test_a_stopped_tournament_keeps_the_units_finished():
    asked = []

    def stop():
        asked.append(1)
        return len(asked) > 3

    rows = run_tournament((make_euchre_player("heuristic"), make_euchre_player("random")),
                          10, seed=5, duplicate=True, progress=False, stop=stop, game="euchre")
    whole = run_tournament((make_euchre_player("heuristic"),
                            make_euchre_player("random")), 3, seed=5, duplicate=True,
                           progress=False, game="euchre")
    assert np.array_equal(rows, whole)  # the first three pairs, as a run of three plays them
