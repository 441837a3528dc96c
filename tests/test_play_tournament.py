"""Tournaments: duplicate mode really swaps the hands, results do not depend on the workers,
the confidence intervals are right on known binomials, the CLI reports bad input in one line."""

import json

import numpy as np
import pytest

from cli.main import main
from games.setback import state as S
from games.setback.play import tournament as SB
from play import tournament as T
from games.setback.play.heuristic import HeuristicPlayer
from games.scaffold.match import RandomPlayer


class Recorder:
    """Wraps a player and records, at each auction decision, (dealer, absolute seat, dealt)."""

    def __init__(self, inner):
        self.inner, self.name, self.seen = inner, inner.name, []

    def seed(self, s):
        if hasattr(self.inner, "seed"):
            self.inner.seed(s)

    def choose(self, view):
        if view.state[S.PHASE] == S.PHASE_AUCTION:
            absolute = (view.dealer + view.seat) % 4
            self.seen.append((view.dealer, absolute, int(view.state[S.DEALT + view.seat])))
        return self.inner.choose(view)

    def deals(self):
        """The records grouped by deal: each team player bids twice per deal."""
        return [set(self.seen[i:i + 2]) for i in range(0, len(self.seen), 2)]


@pytest.mark.parametrize("inner", [HeuristicPlayer, lambda: RandomPlayer(3)])
def test_duplicate_swaps_the_hands(inner):
    for game in range(5):
        a1, b1 = Recorder(inner()), Recorder(inner())
        row1 = SB.play_game((a1, b1), seed=11, game=game, swapped=False)
        a2, b2 = Recorder(inner()), Recorder(inner())
        row2 = SB.play_game((a2, b2), seed=11, game=game, swapped=True)
        assert row1[SB.SWAPPED] == 0 and row2[SB.SWAPPED] == 1
        first, second = a1.deals(), a2.deals()
        n = min(len(first), len(second))
        assert n >= 1
        for k in range(n):
            # A sits East-West (seats W=0, E=2) first, North-South (1, 3) in the replay ...
            assert {seat % 2 for _, seat, _ in first[k]} == {0}
            assert {seat % 2 for _, seat, _ in second[k]} == {1}
            # ... and holds in the replay exactly what B held first, at the same seats and
            # with the same dealer; B likewise gets A's cards.
            assert second[k] == b1.deals()[k]
            assert b2.deals()[k] == first[k]


def test_heuristic_mirror_match_is_exactly_even():
    """A deterministic player against itself in duplicate: every pair splits 1-1."""
    rows = T.run_tournament((HeuristicPlayer(), HeuristicPlayer()), 30, seed=2,
                            duplicate=True, progress=False)
    winners = rows[:, SB.WINNER].reshape(-1, 2)
    assert (winners.sum(axis=1) == 1).all()
    rate, low, high = SB.win_rate_interval(rows, duplicate=True)
    assert rate == low == high == 0.5


def test_deterministic_and_independent_of_workers():
    players = (RandomPlayer(), HeuristicPlayer())
    one = T.run_tournament(players, 24, seed=5, duplicate=True, workers=1, chunk=5,
                           progress=False)
    two = T.run_tournament(players, 24, seed=5, duplicate=True, workers=2, chunk=5,
                           progress=False)
    again = T.run_tournament(players, 24, seed=5, duplicate=True, workers=1, chunk=7,
                             progress=False)
    assert np.array_equal(one, two) and np.array_equal(one, again)
    other = T.run_tournament(players, 24, seed=6, duplicate=True, progress=False)
    assert not np.array_equal(one, other)


def test_seeds_up_to_two_to_the_64_are_played():
    """A seed of 2**63 or more is a valid uint64 seed. The fuzzer found it overflowing: once
    `stream_seed` has been compiled for Python ints (int64), numba may convert a big Python int
    to that signature rather than compile a uint64 one, so callers pass numpy uint64."""
    from games.rng import stream_seed

    stream_seed(1, 2), stream_seed(np.uint64(1), np.uint64(2))  # both signatures compiled
    players = (RandomPlayer(), HeuristicPlayer())
    rows = {seed: T.run_tournament(players, 4, seed=seed, progress=False)
            for seed in (2**63, 2**64 - 1)}
    again = T.run_tournament(players, 4, seed=2**64 - 1, progress=False)
    assert np.array_equal(rows[2**64 - 1], again)
    assert not np.array_equal(rows[2**63], rows[2**64 - 1])


def test_abandoned_games_are_counted():
    rows = T.run_tournament((RandomPlayer(), RandomPlayer()), 10, seed=0, max_deals=2,
                            progress=False)
    summary = SB.summarize(rows, ("random", "random"), False, 0)
    assert summary.abandoned > 0
    assert summary.wins_a + summary.wins_b + summary.abandoned == 10
    assert (rows[:, SB.DEALS] <= 2).all()


@pytest.mark.parametrize("wins, n, low, high", [
    (5, 10, 0.2366, 0.7634),     # textbook values of the Wilson score interval
    (0, 10, 0.0, 0.2775),
    (10, 10, 0.7225, 1.0),
    (81, 263, 0.2553, 0.3662),   # Newcombe (1998), Stat. Med. 17:857, example (a)
])
def test_wilson_interval_known_values(wins, n, low, high):
    lo, hi = T.wilson_interval(wins, n)
    assert lo == pytest.approx(low, abs=1e-4) and hi == pytest.approx(high, abs=1e-4)


def test_wilson_interval_covers_a_known_binomial():
    rng = np.random.default_rng(0)
    p, n, reps = 0.3, 400, 4000
    wins = rng.binomial(n, p, size=reps)
    covered = sum(lo <= p <= hi for lo, hi in (T.wilson_interval(w, n) for w in wins))
    assert 0.93 <= covered / reps <= 0.97


def test_duplicate_interval_is_by_pair():
    rng = np.random.default_rng(1)
    p, pairs, reps = 0.7, 300, 2000
    covered = 0
    for _ in range(reps):
        # Anti-correlated pairs, as card luck makes them: the mean pair score is p.
        first = rng.random(pairs) < p
        second = np.where(rng.random(pairs) < 0.5, first, rng.random(pairs) < p)
        scores = (first.astype(float) + second) / 2
        _, lo, hi = T.pair_interval(scores)
        covered += lo <= p <= hi
    assert 0.93 <= covered / reps <= 0.97
    # Rows: A wins both games of pair 0, one of pair 1, none of pair 2 -> mean 1/2.
    rows = np.zeros((6, len(SB.COLUMNS)), dtype=np.int64)
    rows[:, SB.WINNER] = [SB.A_WON, SB.A_WON, SB.A_WON, SB.B_WON, SB.B_WON, SB.B_WON]
    rate, lo, hi = SB.win_rate_interval(rows, duplicate=True)
    assert rate == 0.5
    half = T.Z95 * np.std([1.0, 0.5, 0.0], ddof=1) / np.sqrt(3)
    assert lo == pytest.approx(max(0.0, 0.5 - half)) and hi == pytest.approx(min(1.0, 0.5 + half))


def test_cli_tournament_json_and_png(tmp_path, capsys):
    png = tmp_path / "t.png"
    status = main(["tournament", "--ew", "heuristic", "--ns", "random", "--games", "6",
                   "--seed", "1", "--duplicate", "--json", "--no-progress", "--png", str(png)])
    out = json.loads(capsys.readouterr().out)
    assert status == 0 and out["games"] == 12 and out["duplicate"]
    assert 0 <= out["ci_low"] <= out["win_rate"] <= out["ci_high"] <= 1
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        assert out["png"] is None
    else:
        assert out["png"] == str(png) and png.stat().st_size > 0


def test_cli_tournament_writes_no_picture_unless_asked(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    status = main(["tournament", "--ew", "heuristic", "--ns", "random", "--games", "2",
                   "--seed", "1", "--json", "--no-progress"])
    assert status == 0 and json.loads(capsys.readouterr().out)["png"] is None
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("argv, message", [
    (["--ew", "nobody", "--ns", "random"], "unknown player 'nobody'"),
    (["--ew", "db:/no/such.db", "--ns", "random"], "no such strategy database"),
    (["--ew", "random", "--ns", "random", "--games", "0"], "--games must be"),
])
def test_cli_tournament_bad_input(argv, message, capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["tournament", *argv, "--no-progress", "--png", "none"])
    err = capsys.readouterr().err
    assert exit_info.value.code == 2
    assert message in err and len(err.strip().splitlines()) == 1


def test_png_degrades_without_matplotlib(tmp_path, monkeypatch, capsys):
    import sys

    from cli.tournament import write_png

    monkeypatch.setitem(sys.modules, "matplotlib", None)  # `import matplotlib` now fails
    rows = T.run_tournament((HeuristicPlayer(), RandomPlayer()), 2, progress=False)
    summary = SB.summarize(rows, ("heuristic", "random"), False, 0)
    assert write_png(summary, str(tmp_path / "x.png")) is None
    assert "pip install matplotlib" in capsys.readouterr().err
    assert not (tmp_path / "x.png").exists()


class CtrlC(HeuristicPlayer):
    """A heuristic player whose user presses Ctrl-C at its `after`-th decision."""

    def __init__(self, after):
        super().__init__()
        self.left = after

    def choose(self, view):
        self.left -= 1
        if self.left == 0:
            raise KeyboardInterrupt
        return super().choose(view)


def test_ctrl_c_keeps_the_completed_chunks():
    full = T.run_tournament((HeuristicPlayer(), HeuristicPlayer()), 12, seed=4, duplicate=True,
                            chunk=4, progress=False)
    interrupted = []
    rows = T.run_tournament((HeuristicPlayer(), CtrlC(after=700)), 12, seed=4,
                            duplicate=True, chunk=4, progress=False, interrupted=interrupted)
    assert interrupted == [True]
    assert 0 < rows.shape[0] < full.shape[0] and rows.shape[0] % 8 == 0  # whole chunks
    assert np.array_equal(rows, full[:rows.shape[0]])
    with pytest.raises(KeyboardInterrupt):  # without the list, Ctrl-C propagates
        T.run_tournament((HeuristicPlayer(), CtrlC(after=10)), 2, progress=False)
