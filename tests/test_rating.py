"""The rating ladder: the Bradley-Terry fit and its bootstrap (play/rating.py), the results
store (play/results_store.py), the schedule and the playing of missing pairs
(play/ladder.py), and `setback-cfr rating` end to end on tiny counts."""

import json
import sqlite3

import numpy as np
import pytest

from cli_runner import run_cli
from games.setback.play.heuristic import HeuristicPlayer
from play.ladder import play_pairs, run_ladder
from games.scaffold.match import RandomPlayer
from play.rating import Match, RatingError, cycles, expected_score, fit, win_matrix
from play.results_store import (ResultsStore, StoreError, file_fingerprint, fingerprint,
                                referenced_files)
from play.tournament import run_tournament

TRUE = np.array([1500.0, 1700.0, 1350.0, 1950.0, 1600.0])


def synthetic(true, pairs, seed, skip=()):
    """Duplicate-pair scores of every pair of players drawn from the Elo model (two games a
    pair, each won with the model's probability)."""
    rng = np.random.default_rng(seed)
    matches = []
    for a in range(len(true)):
        for b in range(a + 1, len(true)):
            if (a, b) in skip:
                continue
            p = expected_score(true[a], true[b])
            matches.append(Match(a, b, (rng.random((pairs, 2)) < p).mean(axis=1)))
    return matches


def names(n):
    return [f"p{k}" for k in range(n)]


def test_the_fit_recovers_known_strengths_within_its_intervals():
    inside = total = 0
    for seed in range(12):
        r = fit(names(5), synthetic(TRUE, 300, seed), 0, 1500.0, replicates=200, seed=seed)
        assert np.all(np.abs(r.rating - TRUE) < 90)
        free = np.arange(1, 5)
        inside += int(np.sum((r.low[free] <= TRUE[free]) & (TRUE[free] <= r.high[free])))
        total += free.size
        assert np.all(r.low <= r.rating + 1e-9) and np.all(r.rating <= r.high + 1e-9)
    assert inside / total >= 0.85  # 95 % intervals: about 46 of 48 expected
    # More pairs, narrower intervals.
    small = fit(names(5), synthetic(TRUE, 100, 1), 0, 1500.0, replicates=200, seed=1)
    large = fit(names(5), synthetic(TRUE, 900, 1), 0, 1500.0, replicates=200, seed=1)
    assert np.all((large.high - large.low)[1:] < (small.high - small.low)[1:])


def test_the_fit_is_deterministic_for_a_seed_and_needs_connected_players():
    matches = synthetic(TRUE[:3], 50, 3)
    a, b = (fit(names(3), matches, 0, 1500.0, replicates=100, seed=9) for _ in range(2))
    assert np.array_equal(a.low, b.low) and np.array_equal(a.high, b.high)
    apart = [Match(0, 1, np.ones(5)), Match(2, 3, np.zeros(5))]
    with pytest.raises(RatingError, match="not all connected"):
        fit(names(4), apart, 0, 1500.0)


def test_the_anchor_shifts_ratings_and_nothing_else():
    matches = synthetic(TRUE, 200, 4)
    base = fit(names(5), matches, 0, 1500.0, replicates=300, seed=2)
    moved = fit(names(5), matches, 0, 1000.0, replicates=300, seed=2)
    assert np.allclose(moved.rating, base.rating - 500)
    assert np.allclose(moved.low, base.low - 500) and np.allclose(moved.high, base.high - 500)
    other = fit(names(5), matches, 3, 0.0, replicates=0)
    assert np.allclose(np.subtract.outer(other.rating, other.rating),
                       np.subtract.outer(base.rating, base.rating))
    assert base.low[0] == base.high[0] == 1500.0  # the anchor is fixed, not estimated


def test_a_whitewash_keeps_a_finite_rating_and_half_points_count_half():
    r = fit(names(2), [Match(0, 1, np.zeros(200))], 0, 1500.0, replicates=50)
    assert 1500 + 900 < r.rating[1] < 1500 + 1200  # the virtual draw: 200.5 of 201
    even = fit(names(2), [Match(0, 1, np.full(40, 0.5))], 0, 1500.0, replicates=50)
    assert abs(even.rating[1] - 1500) < 1e-6  # all halves: equal strength
    quarter = fit(names(2), [Match(0, 1, np.full(99, 0.75))], 0, 1500.0, replicates=0)
    expected = 1500 - 400 * np.log10((99 * 0.75 + 0.5) / (99 * 0.25 + 0.5))
    assert abs(quarter.rating[1] - expected) < 1e-6


def test_the_matrix_shows_a_cycle():
    ring = [Match(0, 1, np.full(20, 0.75)), Match(1, 2, np.full(20, 0.75)),
            Match(0, 2, np.full(20, 0.25))]
    matrix = win_matrix(3, ring)
    assert matrix[1][0]["rate"] == 0.25 and matrix[0][1]["pairs"] == 20
    assert cycles(matrix) == [(0, 1, 2)]
    r = fit(names(3), ring, 0, 1500.0, replicates=0)
    assert np.allclose(r.rating, 1500.0)  # one number per player hides the ring


# --- the store ---------------------------------------------------------------------------
def test_files_named_in_a_spec_are_fingerprinted(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for name in ("a.db", "b.msgpack", "c.msgpack", "heuristic"):
        (tmp_path / name).write_bytes(b"x" * 10)
    assert referenced_files("db:a.db,bid=heuristic") == ["a.db"]
    assert referenced_files("strategy:b.msgpack,c.msgpack,bid=pimc-pi:5:db:a.db") == [
        "b.msgpack", "c.msgpack", "a.db"]
    assert fingerprint("heuristic") == "" and fingerprint("random") == ""
    before = fingerprint("db:a.db")
    (tmp_path / "a.db").write_bytes(b"y" * 10)  # rebuilt: the same name, another player
    assert fingerprint("db:a.db") != before
    big = tmp_path / "big.bin"
    big.write_bytes(bytes(3 << 20))
    head = file_fingerprint(str(big))
    with open(big, "r+b") as f:
        f.seek((3 << 20) - 5)
        f.write(b"tail!")
    assert file_fingerprint(str(big)) != head


def test_a_newer_corrupt_or_foreign_store_is_refused_in_one_line(tmp_path, capsys):
    path = str(tmp_path / "r.db")
    ResultsStore(path).close()
    conn = sqlite3.connect(path)
    conn.execute("UPDATE meta SET value = '99' WHERE name = 'version'")
    conn.commit()
    conn.close()
    with pytest.raises(StoreError, match="version 99 is newer"):
        ResultsStore(path)
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"not sqlite at all" * 100)
    other = str(tmp_path / "other.db")
    conn = sqlite3.connect(other)
    conn.execute("CREATE TABLE t (x)")
    conn.commit()
    conn.close()
    for bad, words in ((path, "newer"), (str(junk), "not a setback-cfr results store"),
                       (other, "not a setback-cfr results store")):
        status, out, err = run_cli(capsys, ["rating", "random", "heuristic", "--games", "1",
                                            "--store", bad, "--no-progress"])
        assert status == 2 and out == "" and err.count("\n") == 1 and words in err


def test_stored_pairs_are_the_tournament_rows_and_are_never_replayed(tmp_path):
    store = ResultsStore(str(tmp_path / "r.db"))
    first = run_ladder(["random", "heuristic"], store, 3, seed=5, progress=False,
                       replicates=20)
    assert first.played_pairs == 3 and store.counts() == {"players": 2, "matches": 1,
                                                          "pairs": 3}
    rows = [np.frombuffer(r[0], "<i8").reshape(2, -1) for r in
            store.conn.execute("SELECT rows FROM pairs ORDER BY game")]
    expected = run_tournament((HeuristicPlayer(), RandomPlayer()), 3, seed=5, duplicate=True,
                              progress=False)
    assert np.array_equal(np.concatenate(rows), expected)  # "heuristic" < "random": A
    again = run_ladder(["heuristic", "random"], store, 3, seed=5, progress=False,
                       replicates=20)
    assert again.played_pairs == 0 and store.counts()["pairs"] == 3
    assert np.allclose(again.ratings.rating[::-1], first.ratings.rating)
    more = run_ladder(["random", "heuristic"], store, 5, seed=5, progress=False,
                      replicates=20)
    assert more.played_pairs == 2 and store.counts()["pairs"] == 5  # only the new pairs
    # A new player plays only its own matches; the rated pair is not replayed.
    added = run_ladder(["random", "heuristic", "heuristic,bid=random"], store, 5, seed=5,
                       progress=False, replicates=20)
    assert added.played_pairs == 10 and store.counts() == {"players": 3, "matches": 3,
                                                           "pairs": 15}
    # Another seed is another match.
    other = run_ladder(["random", "heuristic"], store, 2, seed=6, progress=False,
                       replicates=20)
    assert other.played_pairs == 2
    store.close()


def test_the_schedule_plays_new_against_rated_unless_round_robin(tmp_path):
    store = ResultsStore(str(tmp_path / "r.db"))
    run_ladder(["random", "heuristic"], store, 2, progress=False, replicates=10)
    run_ladder(["random", "random,bid=heuristic"], store, 2, anchor="random", progress=False,
               replicates=10)
    assert store.counts()["matches"] == 2
    # heuristic and random,bid=heuristic are both rated: the default rates them through
    # random; --round-robin plays their match too.
    plain = run_ladder(["random", "heuristic", "random,bid=heuristic"], store, 2,
                       progress=False, replicates=10)
    assert plain.played_pairs == 0 and len(plain.matches) == 2
    full = run_ladder(["random", "heuristic", "random,bid=heuristic"], store, 2,
                      round_robin=True, progress=False, replicates=10)
    assert full.played_pairs == 2 and len(full.matches) == 3
    store.close()


class InterruptedHeuristic(HeuristicPlayer):
    """The heuristic, counting its decisions, that is interrupted (Ctrl-C) at the n-th."""

    def __init__(self, stop_at):
        super().__init__()
        self.decisions, self.stop_at = 0, stop_at

    def choose(self, view):
        self.decisions += 1
        if self.decisions == self.stop_at:
            raise KeyboardInterrupt
        return super().choose(view)


def test_ctrl_c_keeps_the_completed_chunks_and_a_rerun_finishes_the_same(tmp_path):
    store = ResultsStore(str(tmp_path / "r.db"))
    ids = [store.player_id("heuristic", ""), store.player_id("random", "")]
    match = store.match_id(ids[0], ids[1], 1, 200)
    counter = InterruptedHeuristic(10**9)
    play_pairs((counter, RandomPlayer()), 1, [0], lambda g, r: None)
    per_pair = counter.decisions
    player = InterruptedHeuristic(int(per_pair * 2.5))  # in the third pair
    with pytest.raises(KeyboardInterrupt):
        play_pairs((player, RandomPlayer()), 1, list(range(4)),
                   lambda g, r: store.add_pairs(match, g, r), chunk=1)
    assert store.stored_games(match, 4) == {0, 1}
    ladder = run_ladder(["heuristic", "random"], store, 4, seed=1, progress=False,
                        replicates=10)
    assert ladder.played_pairs == 2
    fresh = ResultsStore(str(tmp_path / "fresh.db"))
    run_ladder(["heuristic", "random"], fresh, 4, seed=1, progress=False, replicates=10,
               workers=2, chunk=1)
    assert np.array_equal(store.scores(match, 4), fresh.scores(1, 4))
    store.close()
    fresh.close()


# --- the command line --------------------------------------------------------------------
def test_the_cli_end_to_end(tmp_path, capsys):
    store, png = str(tmp_path / "r.db"), str(tmp_path / "r.png")
    status, out, err = run_cli(capsys, ["rating", "random", "--games", "2", "--store", store,
                                        "--png", png, "--no-progress", "--bootstrap", "50"])
    assert status == 0, err
    assert "anchor heuristic is added" in err
    assert "heuristic" in out and "anchor" in out and "Pair score of the row" in out
    assert "2 pairs played now" in out
    with open(png, "rb") as f:
        assert f.read(8) == b"\x89PNG\r\n\x1a\n"
    status, out, err = run_cli(capsys, ["rating", "random", "heuristic", "--games", "2",
                                        "--store", store, "--json", "--anchor",
                                        "random=1000"])
    assert status == 0, err
    data = json.loads(out)
    assert data["played_pairs"] == 0 and data["anchor"] == {"spec": "random",
                                                            "rating": 1000.0}
    by_spec = {p["spec"]: p for p in data["players"]}
    assert by_spec["random"]["rating"] == 1000.0 and by_spec["heuristic"]["rating"] > 1000
    assert by_spec["heuristic"]["games"] == 4


@pytest.mark.parametrize("argv,words", [
    (["nobody", "heuristic"], "unknown player 'nobody'"),
    (["random", "heuristic,bid=nobody"], "in bid= of"),
    (["random", "db:/no/such.db"], "/no/such.db: no such strategy database"),
    (["random", "random"], "listed twice"),
    (["heuristic"], "at least two players"),
    (["random", "--anchor", "heuristic"], "expected PLAYER=RATING"),
    (["random", "--anchor", "heuristic=strong"], "'strong' is not a number"),
    (["random", "--anchor", "heuristic=nan"], "finite number"),
    (["random", "--anchor", "=1500"], "expected PLAYER=RATING"),
    (["random", "--games", "0"], "--games must be a positive number"),
    (["random", "--png", "x.jpg"], "PNG file"),
])
def test_bad_input_is_one_clear_line(tmp_path, capsys, argv, words):
    status, out, err = run_cli(capsys, ["rating", *argv, "--store", str(tmp_path / "r.db"),
                                        "--no-progress"])
    assert status == 2 and out == ""
    lines = [line for line in err.splitlines() if not line.startswith("setback-cfr: note")]
    assert len(lines) == 1 and words in lines[0], err
