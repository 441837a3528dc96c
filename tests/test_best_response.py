"""Best responses trained against a frozen target (issue 37): the exact best-response value on
Kuhn, the frozen side never logged, resume bit for bit, export as a playable database, and
targets refused in one line."""

from __future__ import annotations

import numpy as np
import pytest

from cfr.best_response import average_policy, best_response
from cfr.episode_pass import EpisodeLog, EpisodeMap
from cfr.exploitability import policy_value
from cfr.external_sampling import EsScratch, SamplingOptions, run_sampled_episode
from cfr.frozen_policy import FrozenPolicy, frozen_action
from cfr.increment_log import ENTRIES
from cfr.strategy_file import read_strategy, write_strategy
from cfr.table import InfoSetTable
from cfr.tree import build_tree
from cli_runner import run_cli
from games.kuhn import GAME as KUHN
from train.run_directory import RunDirectory
from train.runner import Stage, Trainer


def uniform_policy(game, tree, player: int) -> FrozenPolicy:
    """`player`'s uniform random policy over every info set of the tree, as arrays."""
    sizes = {}
    for h in np.flatnonzero(tree.infoset >= 0):
        if tree.player[h] == player:
            i = tree.infoset[h]
            sizes[int(tree.infoset_key[i, 0])] = int(tree.infoset_actions[i])
    keys = np.array(sorted(sizes), dtype=np.uint64)
    counts = np.array([sizes[int(k)] for k in keys], dtype=np.int64)
    offsets = np.concatenate([[0], np.cumsum(counts)])
    probs = np.concatenate([np.full(c, 1.0 / c) for c in counts])
    return FrozenPolicy(keys, offsets, probs, game.decision)


def train_against_uniform(game, learner: int, run_path: str, deals: int):
    """A best response of `learner` trained by the runner's best-response path against the
    other player's uniform policy: (tree, the exact best-response value of
    cfr/best_response.py, the frozen policy, the trainer, the run's summary)."""
    tree = build_tree(game)
    frozen = 1 - learner
    policy = uniform_policy(game, tree, frozen)
    exact, _ = best_response(tree, average_policy(tree, InfoSetTable(1)), learner)
    settings = {"seed": 5, "batch": 50, "dtype": "float64", "algorithm": "es-mccfr",
                **SamplingOptions(sum_visits=True).settings()}
    stage = Stage("best-response", game, settings, frozen=policy,
                  frozen_player=lambda t: frozen)
    trainer = Trainer(RunDirectory(run_path), stage, show_progress=False)
    summary = trainer.run(deals)
    return tree, exact, policy, trainer, summary


@pytest.mark.parametrize("learner", [0, 1])
def test_kuhn_best_response_to_uniform_reaches_the_exact_value(tmp_path, learner):
    """Trained through the runner's best-response path, the learner's average strategy is
    worth (against the uniform policy) the exact best-response value of cfr/best_response.py
    within sampling noise, and its table holds the learner's keys only."""
    tree, exact, policy, trainer, summary = train_against_uniform(
        KUHN, learner, str(tmp_path / "run"), 20_000)
    table = trainer.progress.table
    learned = policy_value(tree, average_policy(tree, table))
    value = learned if learner == 0 else -learned
    assert exact == pytest.approx(0.5 if learner == 0 else 0.4166666, abs=1e-6)
    assert exact - 0.005 <= value <= exact + 1e-9
    assert summary["payoff"] == pytest.approx(exact, abs=0.05)  # the learner's running value
    stored = {int(k) for k in table.keys[np.flatnonzero(table.meta), 0]}
    assert stored and not stored & {int(k) for k in policy.keys}


def test_frozen_action_reads_the_arrays_and_falls_back():
    """Found: the stored probabilities sampled by u; missing or of another size: the default."""
    policy = FrozenPolicy([3, 9], [0, 2, 5], [0.25, 0.75, 0.0, 0.0, 1.0], KUHN.decision)
    state = np.zeros(4, dtype=np.int64)
    actions = np.zeros(4, dtype=np.int64)
    default = policy.addresses[1]
    args = (default, policy.keys, policy.offsets, policy.probs, state, actions)
    assert frozen_action(*args, 2, np.uint64(3), 0.2) == 0
    assert frozen_action(*args, 2, np.uint64(3), 0.3) == 1
    assert frozen_action(*args, 3, np.uint64(9), 0.0) == 2
    assert frozen_action(*args, 2, np.uint64(4), 0.9) == 0  # missing: first action
    assert frozen_action(*args, 2, np.uint64(9), 0.9) == 0  # 3 stored, 2 asked: missing
    with pytest.raises(ValueError):
        FrozenPolicy([9, 3], [0, 2, 5], [0.5] * 5, KUHN.decision)


# --- Setback ---------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def target_file(tmp_path_factory):
    """A small Setback target: a 40-deal es-mccfr baseline, exported."""
    from games.setback.train.baseline import baseline_stage
    from train.export import export_run

    root = tmp_path_factory.mktemp("target")
    run = str(root / "base")
    Trainer(RunDirectory(run), baseline_stage(7, 1, algorithm="es-mccfr"),
            show_progress=False).run(40)
    out = str(root / "base.msgpack")
    export_run(run, out)
    return out


@pytest.mark.parametrize("abstraction", [None, "bidder"])
def test_setback_frozen_team_is_never_logged(target_file, abstraction):
    """In a best-response episode every log entry is the learner's, whoever traverses, and
    the target's arrays are left as they were (also with a finer learner layout)."""
    from games.setback.train.best_response import best_response_stage, load_target

    target = load_target(f"strategy:{target_file}")
    before = [a.copy() for a in (target.arrays.keys, target.arrays.offsets, target.arrays.probs)]
    stage = best_response_stage(target, 3, 1, abstraction=abstraction)
    game = stage.game
    table = InfoSetTable(1, dtype=np.float32)
    scratch = EsScratch(game)
    options = SamplingOptions(sum_visits=True)
    for t in range(1, 9):
        frozen = stage.frozen_player(t)
        log, episode_map = EpisodeLog(1), EpisodeMap(1)
        run_sampled_episode(game, table, log, scratch, game.initial_state(), 1000 + t,
                            (t - 1) % 2, 1.0, options, episode_map, stage.frozen, frozen)
        players = log.meta[:int(log.counts[ENTRIES])] >> 7
        assert players.size and set(players.tolist()) == {1 - frozen}
    for old, new in zip(before, (target.arrays.keys, target.arrays.offsets,
                                 target.arrays.probs)):
        assert np.array_equal(old, new)


def test_the_current_strategy_is_regret_matching():
    """`as_current`: the exported or evaluated weights are the positive regrets (uniform
    where none is positive, as regret matching)."""
    from games.setback.train.best_response import as_current
    from train.export import average_strategy

    table = InfoSetTable(1, dtype=np.float32)
    table.regrets[:3] = [2.0, -1.0, 6.0]
    as_current(table)
    probs = average_strategy(table.strategy[:3], np.array([3], np.uint8), 0.0)
    assert probs.tolist() == [0.25, 0.0, 0.75]
    assert average_strategy(np.maximum(np.array([-1.0, -2.0], np.float32), 0),
                            np.array([2], np.uint8), 0.0).tolist() == [0.5, 0.5]


def _table_arrays(run_path):
    from cfr import checkpoint

    ckpt = checkpoint.load(RunDirectory(run_path).checkpoint_path)
    t = ckpt.table
    order = np.argsort(t.keys[:, 0])
    full = t.meta[order] != 0
    return ckpt.iteration, t.keys[order][full], t.regrets.copy(), t.strategy.copy()


def test_best_response_run_resumes_bit_for_bit_and_exports_a_player(tmp_path, capsys,
                                                                     target_file):
    """60 deals in one go, or 24 then 60 resumed: the same table, bit for bit; the export
    loads with `db load` and plays as db:."""
    one, two = tmp_path / "one", tmp_path / "two"
    common = ["train", "best-response", "--against", f"strategy:{target_file}", "--batch",
              "4", "--seed", "9", "--no-progress"]
    status, out, err = run_cli(capsys, common + ["--run", one, "--iterations", 60])
    assert status == 0, err
    assert run_cli(capsys, common + ["--run", two, "--iterations", 24])[0] == 0
    exported = tmp_path / "br.msgpack"
    status, out, err = run_cli(capsys, common + ["--run", two, "--iterations", 60,
                                                 "--export", exported])
    assert status == 0, err
    assert "keys of the best response" in out
    a, b = _table_arrays(str(one)), _table_arrays(str(two))
    assert a[0] == b[0] == 60
    for x, y in zip(a[1:], b[1:]):
        assert np.array_equal(x, y)
    database = tmp_path / "br.db"
    status, out, err = run_cli(capsys, ["db", "load", "--db", database, exported,
                                        "--no-progress"])
    assert status == 0, err
    from play.player_spec import make_player
    from games.setback.play.tournament import play_game

    player = make_player(f"db:{database}")
    row = play_game((player, make_player(f"strategy:{target_file}")), 4, 0)
    assert row[1] >= 1  # deals played
    player.close()


def test_resume_against_another_target_is_refused(tmp_path, capsys, target_file):
    """A run records its target: another one is refused in one line."""
    run = tmp_path / "run"
    common = ["train", "best-response", "--run", run, "--iterations", 2, "--no-progress"]
    assert run_cli(capsys, common + ["--against", f"strategy:{target_file}"])[0] == 0
    other = tmp_path / "other.msgpack"
    other.write_bytes(open(target_file, "rb").read())
    status, out, err = run_cli(capsys, common + ["--against", f"strategy:{other}"])
    assert status == 2
    assert "trained against" in err and len(err.strip().splitlines()) == 1


def _strategy(path, game="setback", abstraction="setback-reference", version=1):
    from cfr.strategy_file import StrategyChunk

    header = {"game": game, "abstraction": abstraction, "abstraction_version": version,
              "stage": "baseline", "iterations": 1, "seed": 0, "threshold": 0.0,
              "settings": {}}
    write_strategy(str(path), header, [StrategyChunk(["0AJx2"], np.array([2], np.uint8),
                                                     np.array([0.5, 0.5], np.float32))])
    return path


@pytest.mark.parametrize("case", ["missing", "euchre", "layout", "version", "not-a-spec"])
def test_bad_targets_are_refused_in_one_line(tmp_path, capsys, case):
    """A missing target, another game's strategy, or an unknown layout (or version): exit
    status 2 and one line, before any training."""
    against = {
        "missing": f"db:{tmp_path / 'nope.db'}",
        "euchre": f"strategy:{_strategy(tmp_path / 'e.msgpack', game='euchre')}",
        "layout": f"strategy:{_strategy(tmp_path / 'l.msgpack', abstraction='setback-x')}",
        "version": f"strategy:{_strategy(tmp_path / 'v.msgpack', version=99)}",
        "not-a-spec": "heuristic",
    }[case]
    status, out, err = run_cli(capsys, ["train", "best-response", "--against", against,
                                        "--run", tmp_path / "run", "--iterations", 1])
    assert status == 2
    assert len(err.strip().splitlines()) == 1, err
    assert not (tmp_path / "run" / "checkpoint.ckpt").exists()


def test_the_export_is_filled_from_the_target_only_where_the_learner_has_no_key(
        tmp_path, capsys, target_file):
    """--fill-from-target (the default for the target's layout): the learner's keys with its
    own probabilities, and every other key of the target with the target's move; --strategy
    average exports other probabilities than the default current strategy."""
    from games.setback.db.strategy_store import StrategyStore

    run = tmp_path / "run"
    common = ["train", "best-response", "--against", f"strategy:{target_file}", "--run", run,
              "--iterations", 30, "--no-progress"]
    assert run_cli(capsys, common + ["--export", tmp_path / "f.msgpack"])[0] == 0
    assert run_cli(capsys, common + ["--export", tmp_path / "p.msgpack",
                                     "--no-fill-from-target"])[0] == 0
    filled = StrategyStore([str(tmp_path / "f.msgpack")]).table
    plain = StrategyStore([str(tmp_path / "p.msgpack")]).table
    target = StrategyStore([target_file]).table
    assert set(filled) == set(plain) | set(target)
    for key in list(plain)[:200]:
        assert np.array_equal(filled[key][0], plain[key][0])
    for key in list(set(target) - set(plain))[:200]:
        assert int(np.argmax(filled[key][0])) == int(np.argmax(target[key][0]))
    assert run_cli(capsys, common + ["--export", tmp_path / "a.msgpack", "--strategy",
                                     "average"])[0] == 0
    header, _ = read_strategy(str(tmp_path / "a.msgpack"))
    assert header["settings"]["strategy_played"] == "average"
    average = StrategyStore([str(tmp_path / "a.msgpack")]).table
    assert any(not np.array_equal(average[k][0], filled[k][0]) for k in plain)
    status, out, err = run_cli(capsys, common + ["--abstraction", "bidder",
                                                 "--fill-from-target"])
    assert status == 2 and len(err.strip().splitlines()) == 1
