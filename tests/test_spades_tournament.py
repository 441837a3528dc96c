"""Spades in the one tournament loop and on the rating ladder, at tiny sizes: `tournament --game
spades` (games to 500 and --hands, duplicate), its rows against the match they come from, the
figures whatever --workers, bad specs refused in one line (exit 2), `rating --game spades`
storing exactly the tournament's rows, and OpenSpiel's ISMCTS bot on pyspiel's spades: its world
draws consistent with the view, pyspiel's state of a drawn world agreeing with our legal moves,
its play legal and seeded."""

from __future__ import annotations

import json

import numpy as np
import pytest
from cli_runner import run_cli

from games.spades import state as S
from games.spades.match import play_game
from play.ladder import run_ladder
from play.results_store import ResultsStore, StoreError
from games.spades.play.tournament import TOURNAMENT, SpadesSpecError, make_spades_player, play_unit
from play.tournament import (HANDS, UNIT_POINTS_A, UNIT_POINTS_B, WON, reseed,
                             run_tournament, seat_players, unit_seed)


def test_a_games_row_is_its_game_to_500_from_a_side():
    heuristic, random = make_spades_player("heuristic"), make_spades_player("random")
    for swapped in (False, True):
        row = play_unit((heuristic, random), 5, 1, swapped, False)
        game_seed = unit_seed(5, 1)
        reseed((heuristic, random), game_seed)  # as play_unit reseeds them
        record = play_game(seat_players(heuristic, random, not swapped), game_seed)
        team_a, team_b = ("NS", "EW") if swapped else ("EW", "NS")
        assert row[WON] == (record.winner == team_a) and row[HANDS] == len(record.hands)
        # the points are the game scores gained hand by hand: they add up to the final score
        assert (row[UNIT_POINTS_A], row[UNIT_POINTS_B]) == (record.score[team_a],
                                                             record.score[team_b])
        assert max(record.score.values()) >= 500 or min(record.score.values()) <= -350


def test_the_cli_plays_duplicate_games_and_hands_whatever_the_workers(capsys):
    base = ["tournament", "--game", "spades", "--ew", "heuristic", "--ns", "random",
            "--duplicate", "--seed", "3", "--json", "--no-progress"]
    status, out, err = run_cli(capsys, base + ["--games", "3"])
    games = json.loads(out)
    assert status == 0, err
    assert games["unit"] == "games" and games["units_played"] == 6 and games["hands"] >= 6
    assert games["win_rate"] > 0.5 and games["difference_per_hand"] > 0
    status, out, err = run_cli(capsys, base + ["--games", "3", "--workers", "2"])
    again = json.loads(out)
    for name in ("win_rate", "hands", "points_a_per_hand", "points_b_per_hand"):
        assert again[name] == games[name]
    status, out, err = run_cli(capsys, base + ["--games", "6", "--hands"])
    hands = json.loads(out)
    assert status == 0 and hands["unit"] == "hands" and hands["hands"] == 12
    assert hands["difference_per_hand"] > 0  # the heuristic is ahead of random a hand
    rows = run_tournament((make_spades_player("heuristic"), make_spades_player("random")), 6,
                          seed=3, duplicate=True, progress=False, game="spades", hands=True)
    diff = rows[:, UNIT_POINTS_A] - rows[:, UNIT_POINTS_B]
    assert hands["difference_per_hand"] == pytest.approx(diff.mean())
    status, out, err = run_cli(capsys, ["tournament", "--game", "spades", "--ew", "heuristic",
                                        "--ns", "random", "--games", "2", "--no-progress"])
    assert status == 0 and out.startswith("Spades games to 500: A = heuristic")
    assert "points a hand" in out


@pytest.mark.parametrize("argv, message", [
    (["--ew", "bogus"], "unknown Spades player 'bogus'"),
    (["--ew", "db:x.db"], "no such strategy database"),
    (["--ew", "ismcts:10"], "write ismcts[:SIMS],pyspiel"),
    (["--ew", "ismcts:0,pyspiel"], "SIMS must be a whole number"),
    (["--ew", "search:random"], "the base must be heuristic or db:PATH"),
    (["--ew", "search[worlds=0]:heuristic"], "worlds= must be > 0"),
    (["--ew", "oracle,bid=oracle"], "the oracle's bidder cannot be an oracle"),
    (["--games", "0"], "--games must be"),
])
def test_bad_input_is_one_line_and_exit_2(capsys, argv, message):
    args = {"--ew": "heuristic", "--ns": "random", "--games": "1"}
    for k in range(0, len(argv), 2):
        args[argv[k]] = argv[k + 1]
    status, out, err = run_cli(capsys, ["tournament", "--game", "spades", "--no-progress"]
                               + [x for kv in args.items() for x in kv])
    assert status == 2 and message in err and err.strip().count("\n") == 0 and not out
    with pytest.raises(SpadesSpecError):
        make_spades_player("oracle:")


def test_hands_is_refused_for_a_game_without_them(capsys):
    status, _, err = run_cli(capsys, ["tournament", "--ew", "random", "--ns", "random",
                                      "--games", "1", "--hands", "--no-progress"])
    assert status == 2 and "--hands is for the games with a single-hand mode" in err


def test_rating_spades_stores_the_tournament_rows(tmp_path, capsys):
    store = ResultsStore(str(tmp_path / "s.db"), "spades")
    result = run_ladder(["heuristic", "random"], store, 3, seed=4, progress=False,
                        replicates=20)
    assert result.game == "spades" and result.played_pairs == 3
    names = [e.spec for e in result.entrants]
    assert result.ratings.anchor == names.index("heuristic")  # the default anchor, 1500
    assert result.ratings.rating[names.index("random")] < 1500
    # heuristic sorts first: it is player A (East-West first) of the match
    expected = run_tournament((make_spades_player("heuristic", 4),
                               make_spades_player("random", 4)), 3, seed=4, duplicate=True,
                              progress=False, game="spades")
    match = store.match_id(result.entrants[0].id, result.entrants[1].id, 4, 0, create=False)
    blobs = store.conn.execute("SELECT rows FROM pairs WHERE match = ? ORDER BY game",
                               (match,)).fetchall()
    stored = np.concatenate([np.frombuffer(b[0], "<i8").reshape(2, -1) for b in blobs])
    assert np.array_equal(stored, expected)
    assert np.array_equal(store.scores(match, 3), TOURNAMENT.pair_scores(
        expected.reshape(3, 2, -1)))
    store.close()
    with pytest.raises(StoreError, match="a results store of spades players, not euchre"):
        ResultsStore(str(tmp_path / "s.db"), "euchre")
    path = str(tmp_path / "cli.db")
    status, out, err = run_cli(capsys, ["rating", "random", "--game", "spades", "--games", "2",
                                        "--store", path, "--no-progress", "--bootstrap", "20",
                                        "--json"])
    assert status == 0, err
    report = json.loads(out)
    assert report["game"] == "spades" and report["played_pairs"] == 2
    assert {p["spec"] for p in report["players"]} == {"random", "heuristic"}
    status, _, err = run_cli(capsys, ["rating", "random", "bogus", "--game", "spades",
                                      "--games", "1", "--store", path, "--no-progress"])
    assert status == 2 and "unknown Spades player 'bogus'" in err


def _dealt_of(native):
    """Each seat's 13 cards as dealt (by seat relative to the dealer) in a pyspiel `spades`
    state: card k of its chance nodes went to its player k mod 4, our seat p + 1."""
    deal = native.history()[:52]
    return [{deal[k] for k in range(52) if (k % 4 + 1) % 4 == seat} for seat in range(4)]


def _random_views(seeds, cards):
    """(view, history) of random Spades hands after their bids and `cards(seed)` cards."""
    from games.spades.api import Hand
    from games.spades.view import SeatView

    for seed in seeds:
        hand = Hand.random(seed, "WNES"[seed % 4], {"NS": 37 * seed, "EW": -15 * seed})
        player = make_spades_player("random", seed)
        history: list[int] = []
        for _ in range(4 + cards(seed)):
            view = SeatView.of(hand.state, hand.dealer, (0, 0), history)
            move = player.choose(view)
            hand.play(hand.format_move(move))
            history.append(move)
        yield SeatView.of(hand.state, hand.dealer, (0, 0), history), history


def test_ismcts_worlds_are_consistent_with_the_view_and_pyspiel_agrees():
    from play.ismcts_player import ISMCTSPlayer
    from games.spades.play.ismcts import NATIVE
    from games.spades.search.worlds import replay_public

    player = ISMCTSPlayer(1, seed=0, game="spades", native=NATIVE)
    checked = voids = 0
    for view, history in _random_views(range(6), lambda seed: 4 * (3 + seed)):  # 3..8 tricks
        played_by, lead_voids = replay_public(history)
        shown = int(view.state[S.SHOWN_VOIDS]) | lead_voids
        voids += bin(shown).count("1")
        for _ in range(5):
            native = player.world(view)  # replays every move: all legal there
            dealt = _dealt_of(native)
            assert sorted(c for h in dealt for c in h) == list(range(52))
            assert all(len(h) == 13 for h in dealt)
            for seat in range(4):
                still = dealt[seat] - {c for c in range(52) if played_by[seat] >> c & 1}
                if seat == view.seat:  # its own cards are its own
                    held = int(view.state[S.HAND + seat])
                    assert still == {c for c in range(52) if held >> c & 1}
                assert not any(shown >> (4 * seat + c // 13) & 1 for c in still)
            assert sorted(native.legal_actions()) == sorted(int(m) for m in view.legal_moves())
            checked += 1
    assert checked == 30 and voids > 0  # some seat had shown a void


def spade_lead_positions(seeds=range(40)):
    """(view, leader, played_by) of random hands at the first decision of another seat after a
    seat (`leader`, relative to the dealer) led a spade once a spade had been played
    (`played_by`: the cards each seat played, by the view's history)."""
    from games.spades.api import Hand
    from games.spades.cards import N_RANKS, SPADES
    from games.spades.view import SeatView
    from games.spades.search.worlds import replay_public

    for seed in seeds:
        hand = Hand.random(seed, "WNES"[seed % 4], {"NS": 0, "EW": 0})
        player = make_spades_player("random", seed)
        history: list[int] = []
        broken, leader = False, None
        while int(hand.state[S.PHASE]) != S.PHASE_OVER:
            view = SeatView.of(hand.state, hand.dealer, (0, 0), history)
            if leader is not None and view.seat != leader:
                yield view, leader, replay_public(history)[0]
                break
            move = player.choose(view)
            if int(hand.state[S.PHASE]) == S.PHASE_PLAY:
                spade = move // N_RANKS == SPADES
                if spade and broken and int(hand.state[S.N_IN_TRICK]) == 0:
                    leader = view.seat
                broken = broken or spade
            hand.play(hand.format_move(move))
            history.append(move)


def test_ismcts_worlds_never_give_a_spade_leader_a_side_suit_card():
    """The fix of issue 55's drifted copy: a seat that leads a spade holds spades only (a leader
    must lead a club, diamond or heart while it holds one, and this game never breaks spades:
    `rules.legal_cards`), at any point of the hand. The old ISMCTS draw recorded that only
    before a spade had been played, and gave such a leader side-suit cards in 208 of these 780
    draws (39 positions)."""
    from games.spades.cards import N_RANKS, SPADES
    from play.ismcts_player import ISMCTSPlayer
    from games.spades.play.ismcts import NATIVE

    player = ISMCTSPlayer(1, seed=0, game="spades", native=NATIVE)
    positions = 0
    for view, leader, played_by in spade_lead_positions():
        positions += 1
        for _ in range(20):
            still = _dealt_of(player.world(view))[leader] - {
                c for c in range(52) if played_by[leader] >> c & 1}
            assert all(c // N_RANKS == SPADES for c in still)
    assert positions >= 5


def test_ismcts_plays_legal_seeded_spades():
    players = (make_spades_player("ismcts:3,pyspiel", 1), make_spades_player("random", 1))
    rows = run_tournament(players, 1, seed=2, duplicate=True, progress=False, game="spades",
                          hands=True)  # an illegal move would raise
    again = run_tournament((make_spades_player("ismcts:3,pyspiel", 1),
                            make_spades_player("random", 1)), 1, seed=2, duplicate=True,
                           progress=False, game="spades", hands=True)
    assert rows.shape == (2, 4) and np.array_equal(rows, again)
    assert players[0].name == "ismcts:3,pyspiel"
