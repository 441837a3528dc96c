"""The bootstrap stage: payoffs as the spec says, and the same machinery as the baseline."""

import numpy as np
import pytest

from games.setback.abstraction import bootstrap_game as B
from cfr import checkpoint
from cfr.strategy_file import read_strategy
from cli.main import main
from games.setback import state as S


def run_cli(*argv):
    try:
        return main(list(argv))
    except SystemExit as exc:
        return exc.code


@pytest.fixture(scope="module")
def baseline(tmp_path_factory):
    """A one-deal baseline run and its export: the policy the bootstrap plays out with."""
    root = tmp_path_factory.mktemp("bootstrap")
    run = root / "baseline"
    assert run_cli("train", "baseline", "--run", str(run), "--iterations", "1", "--seed", "2",
                   "--algorithm", "cfr", "--no-progress") == 0
    strategy = root / "baseline.strategy"
    assert run_cli("export", "--run", str(run), "--out", str(strategy)) == 0
    return run, strategy


def bootstrap(run, baseline_source, iterations, *extra):
    return run_cli("train", "bootstrap", "--run", str(run), "--baseline", str(baseline_source),
                   "--iterations", str(iterations), "--seed", "3", "--no-progress", *extra)


def outcome_state(score0, score1, bidder, bid, deal0, deal1):
    state = np.zeros(B.BOOTSTRAP_STATE_SIZE, np.int64)
    state[S.PHASE] = S.PHASE_PLAY
    state[S.HIGH_BID], state[S.HIGH_BIDDER] = bid, bidder
    state[B.SCORE], state[B.SCORE + 1] = score0, score1
    at = B.OUTCOME + 2 * (3 * bidder + bid - 2)
    state[at], state[at + 1] = deal0, deal1
    return state


@pytest.mark.parametrize("scores, deal, payoff", [
    ((9, 3), (2, 0), 5.5),      # 11 - 3: team 0 wins the game
    ((3, 9), (-2, 2), -5.5),    # team 1 reaches 11
    ((5, 5), (3, 1), 2.0),      # 8 - 6: nobody wins, the deal-score difference
    ((10, 10), (1, 1), 0.0),    # 11 - 11: a tie plays on; the deal-score difference
    ((10, 9), (2, 3), -1.0),    # 12 - 12: a tie again
    ((10, 8), (-3, 4), -5.5),   # set back: 7 - 12, team 1 wins
])
def test_bootstrap_payoff(scores, deal, payoff):
    assert B.utility(outcome_state(*scores, 1, 2, *deal)) == payoff


def test_the_deal_score_is_added_once():
    # 5 + 3 = 8: no win (adding the deal score twice, as the reference does, would give 11).
    assert B.utility(outcome_state(5, 0, 2, 3, 3, 0)) == 3.0


def test_all_pass_scores_nothing():
    state = outcome_state(9, 9, 0, 2, 4, 0)
    state[S.HIGH_BID] = 0
    assert B.utility(state) == 0.0


def test_bootstrap_end_to_end_resume_and_workers(baseline, tmp_path):
    run_dir, strategy = baseline
    full, part, two = tmp_path / "full", tmp_path / "part", tmp_path / "two"
    assert bootstrap(full, run_dir, 400, "--batch", "4") == 0
    assert bootstrap(part, run_dir, 200, "--batch", "4") == 0
    assert bootstrap(part, run_dir, 400, "--batch", "4") == 0
    assert bootstrap(two, run_dir, 400, "--batch", "4", "--workers", "2") == 0
    a, b, c = (checkpoint.load(str(p / "checkpoint.ckpt")) for p in (full, part, two))
    assert a.iteration == 400 and a.table.same_contents(b.table) and a.table.same_contents(c.table)
    assert a.extra["payoff_sum"] == b.extra["payoff_sum"] == c.extra["payoff_sum"]
    out = tmp_path / "boot.strategy"
    assert run_cli("export", "--run", str(full), "--out", str(out)) == 0
    header, table = read_strategy(str(out))
    assert header["stage"] == "bootstrap" and len(table) == a.table.count > 50
    assert all(key.count("/") == 4 for key in table)  # bootstrap keys: S/B/I/N/H


def test_bootstrap_from_a_strategy_file_and_conflicts(baseline, tmp_path, capsys):
    run_dir, strategy = baseline
    assert bootstrap(tmp_path / "s", strategy, 50) == 0
    capsys.readouterr()
    assert bootstrap(tmp_path / "s", run_dir, 60) == 2  # another baseline: refused
    assert "created with other settings: baseline" in capsys.readouterr().err
    assert bootstrap(tmp_path / "t", tmp_path / "missing", 10) == 2
    assert "no such run directory or strategy file" in capsys.readouterr().err
