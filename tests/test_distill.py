"""The policy network and `train distill` (issue 53): the network fitted to an exact best response
on Kuhn plays it; the stage gives the same networks for 1 and 2 workers and after a resume,
including after SIGKILL; its files are bounded and exported; network files of another game,
layout or version, or damaged ones, are refused in one line; the numba forward pass is the
numpy one; search on a network is the same for any number of threads."""

from __future__ import annotations

import glob
import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

from cfr.best_response import average_policy, best_response
from cfr.table import InfoSetTable
from cfr.tree import build_tree
from cli_runner import run_cli
from games.kuhn import GAME as KUHN
from games.setback.search.net import FEATURE_LAYOUT, INPUTS, OUTPUTS
from search.policy_net import (NetFileError, PolicyNet, load_net, net_bytes, net_forward)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def kuhn_rows():
    """Kuhn's info sets as network rows: (one-hot rows, legal masks, the responder's exact best
    action per row, the rows' players) for the best response of each player to the other's
    uniform policy (cfr/best_response.py)."""
    tree = build_tree(KUHN)
    uniform = average_policy(tree, InfoSetTable(1))  # an empty table: uniform everywhere
    n = tree.num_infosets
    x = np.eye(n, dtype=np.float32)
    legal = np.zeros((n, 2), np.bool_)
    best_action = np.full(n, -1)
    for player in (0, 1):
        _, best = best_response(tree, uniform, player)
        for i in np.flatnonzero(best >= 0):
            best_action[i] = best[i]
    for i in range(n):
        legal[i, :int(tree.infoset_actions[i])] = True
    return x, legal, best_action


def test_the_network_fitted_to_kuhns_best_response_plays_it():
    """Fitted to the exact best response's moves (one-hot targets) at every Kuhn info set, the
    network's most probable legal action is the best response's everywhere, in numpy and in
    the numba forward pass."""
    x, legal, best = kuhn_rows()
    target = np.zeros((x.shape[0], 2), np.float32)
    target[np.arange(x.shape[0]), best] = 1.0
    value = np.full(x.shape[0], np.nan, np.float32)
    net = PolicyNet.create(x.shape[1], (16, 16), 2, 0, "kuhn", "one-hot")
    net.fit(x, legal, target, value, epochs=300, batch=4, learning_rate=0.01, seed=1)
    probs, _, _ = net.forward(x, legal)
    assert (probs.argmax(1) == best).all()
    h1, h2, z, out = np.zeros(16), np.zeros(16), np.zeros(3), np.zeros(2)
    for i in range(x.shape[0]):
        net_forward(x[i].astype(np.float64), legal[i], *net.parameters(), h1, h2, z, out)
        assert np.allclose(out, probs[i], atol=1e-5)
        assert int(np.argmax(out)) == best[i]


def test_training_is_bit_for_bit_reproducible_and_illegal_moves_get_nothing():
    """The same data, sizes and seeds give the same weights bit for bit; an illegal slot's
    probability is exactly zero."""
    rng = np.random.default_rng(0)
    x = (rng.random((200, 30)) < 0.2).astype(np.float32)
    legal = rng.random((200, 6)) < 0.6
    legal[:, 0] = True
    target = legal / legal.sum(1, keepdims=True)
    value = rng.standard_normal(200).astype(np.float32)
    nets = []
    for _ in range(2):
        net = PolicyNet.create(30, (8, 8), 6, 4, "test", "t")
        net.fit(x, legal, target.astype(np.float32), value, 3, 32, 1e-3, 9)
        nets.append(net)
    for a, b in zip(*(n.parameters() for n in nets)):
        assert np.array_equal(a, b)
    probs, _, _ = nets[0].forward(x, legal)
    assert (probs[~legal] == 0).all() and np.allclose(probs.sum(1), 1.0, atol=1e-5)


def _net_file(tmp_path, **changes):
    net = PolicyNet.create(INPUTS, (8, 8), OUTPUTS, 0, "setback", FEATURE_LAYOUT)
    data = net_bytes(net)
    path = tmp_path / "x.net"
    for old, new in changes.items():
        data = data.replace(old.encode(), new.encode(), 1)
    path.write_bytes(data)
    return str(path)


def test_soft_targets_share_the_mass_between_moves_search_values_alike():
    from games.setback.train.distill import DISTILL
    from train.distill import rows_to_arrays, soft_targets

    nan = float("nan")
    data = rows_to_arrays([
        (np.zeros(32, np.int64), 0, (), (0, 0), np.array([3, 5, 7]), [1.0, 1.0, -2.0],
         np.array([1.0, 0.0, 0.0]), 0),
        (np.zeros(32, np.int64), 1, (), (0, 0), np.array([3, 5]), [nan, nan],
         np.array([0.25, 0.75]), 1)], DISTILL)
    soft = soft_targets(data, 0.5)
    first = soft["targets"][0, :3]
    assert first[0] == pytest.approx(first[1]) and first.sum() == pytest.approx(1.0)
    assert first[2] == pytest.approx(np.exp(-6.0) / (2 + np.exp(-6.0)))
    # the table's imitation records have no values: their targets stay as recorded
    assert soft["targets"][1, :2].tolist() == [0.25, 0.75]
    assert data["targets"][0, :3].tolist() == [1.0, 0.0, 0.0]  # the input is left alone


class _ScriptedSearcher:
    """A searcher whose successive decisions return the given values of moves 3, 5, 7."""

    name = "scripted"

    def __init__(self, values):
        self.values = list(values)
        self.calls = 0

    def decide(self, view):
        values = self.values[self.calls]
        self.calls += 1
        moves = [{"move": m, "value": v} for m, v in zip((3, 5, 7), values)]
        best = max(moves, key=lambda m: m["value"])["move"]
        return {"move": best, "reason": "search", "moves": moves}


class _View:
    state = np.zeros(32, np.int64)
    seat, history, score_us_them = 0, (), (0, 0)

    def legal_moves(self):
        return np.array([3, 5, 7])


def test_refine_searches_again_only_where_the_two_best_moves_are_close():
    from train.distill import RecordingPlayer, parse_refine

    assert parse_refine("") is None and parse_refine("0.25:2") == (0.25, 2)
    for bad in ("0.25", "0:2", "0.25:0", "x:2", "0.25:y"):
        with pytest.raises(ValueError, match="MARGIN:EXTRA"):
            parse_refine(bad)
    # moves 3 and 5 within 0.25: two more searches, averaged; 5 wins on the average
    close = _ScriptedSearcher([(1.0, 0.9, -1.0), (0.0, 1.0, -1.0), (0.5, 0.8, -1.0)])
    player = RecordingPlayer(close, refine=(0.25, 2))
    assert player.choose(_View()) == 5 and close.calls == 3
    values = player.rows[0][5]
    assert values == pytest.approx([0.5, 0.9, -1.0])
    assert player.rows[0][7] == 1  # the chosen move's index among the legal moves
    # a clear first search is not searched again
    clear = _ScriptedSearcher([(2.0, 0.5, -1.0)])
    player = RecordingPlayer(clear, refine=(0.25, 2))
    assert player.choose(_View()) == 3 and clear.calls == 1


def test_a_bad_refine_setting_is_refused_in_one_line(tmp_path, capsys, base_run):
    code, out, err = run_cli(capsys, ["train", "distill", "--run", str(tmp_path / "d"), "--from",
                              base_run, "--refine", "0.25"])
    assert code == 2 and "refine must be MARGIN:EXTRA" in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("edit, message", [
    ({'"game": "setback"': '"game": "euchre"'}, "a policy network of euchre, not setback"),
    ({'"layout": "setback-v3"': '"layout": "setback-v9"'}, "feature layout 'setback-v9'"),
    ({'"version": 1': '"version": 7'}, "format version 7; this program reads version 1"),
    ({"POLICY-NET": "POLICY-NOT"}, "not a setback-cfr policy network file"),
])
def test_a_network_of_another_game_layout_or_version_is_refused_in_one_line(tmp_path, capsys,
                                                                             edit, message):
    path = _net_file(tmp_path, **edit)
    with pytest.raises(NetFileError, match=message) as caught:
        load_net(path, "setback", FEATURE_LAYOUT, INPUTS, OUTPUTS)
    assert "\n" not in str(caught.value)
    code, out, err = run_cli(capsys, ["tournament", "--games", "1", "--ew", f"net:{path}",
                                      "--ns", "heuristic"])
    assert code == 2 and message.split(";")[0] in err and len(err.strip().splitlines()) == 1


def test_a_damaged_network_is_refused(tmp_path):
    path = _net_file(tmp_path)
    data = bytearray(open(path, "rb").read())
    data[-40] ^= 0xFF
    open(path, "wb").write(bytes(data))
    with pytest.raises(NetFileError, match="damaged policy network"):
        load_net(path, "setback", FEATURE_LAYOUT, INPUTS, OUTPUTS)
    with pytest.raises(NetFileError, match="no such policy network file"):
        load_net(str(tmp_path / "missing.net"), "setback", FEATURE_LAYOUT, INPUTS, OUTPUTS)


# --- the stage ------------------------------------------------------------------------------
TINY = ["--games", "4", "--chunk", "1", "--imitate", "6", "--searcher", "search[worlds=3]",
        "--hidden", "12x12", "--epochs", "2", "--gate-pairs", "6", "--no-progress"]


@pytest.fixture(scope="module")
def base_run(tmp_path_factory):
    """A tiny trained Setback baseline run to distill."""
    from cli.main import main

    path = str(tmp_path_factory.mktemp("base") / "base")
    assert main(["train", "baseline", "--run", path, "--iterations", "200",
                 "--no-progress"]) == 0
    return path


def weights(path: str) -> list:
    net = load_net(path, "setback", FEATURE_LAYOUT, INPUTS, OUTPUTS)
    return net.parameters()


def same_networks(a: str, b: str, rounds: int) -> None:
    for k in range(rounds):
        name = f"nets/round-{k:05d}.net"
        for x, y in zip(weights(os.path.join(a, name)), weights(os.path.join(b, name))):
            assert np.array_equal(x, y), name


def distill(capsys, run, base, *extra):
    code, out, err = run_cli(capsys, ["train", "distill", "--run", run, "--from", base, *TINY,
                                      *extra])
    assert code == 0, err
    return out


def test_the_same_networks_for_one_and_two_workers_and_after_a_resume(tmp_path, capsys,
                                                                       base_run, monkeypatch):
    """Two rounds on one worker, on two, and one round then a second (a resume) give the same
    networks bit for bit; the imitation data and the data outside the window are deleted,
    every round's network is kept; export writes the newest that passed its gate; status and
    its plot show the rounds."""
    one, two, resumed = (str(tmp_path / n) for n in ("one", "two", "resumed"))
    distill(capsys, one, base_run, "--rounds", "2", "--window", "1")
    distill(capsys, two, base_run, "--rounds", "2", "--window", "1", "--workers", "2")
    distill(capsys, resumed, base_run, "--rounds", "1", "--window", "1")
    assert len(glob.glob(os.path.join(resumed, "nets", "round-*.net"))) == 1
    out = distill(capsys, resumed, base_run, "--rounds", "2")
    assert "2 rounds" in out
    same_networks(one, two, 2)
    same_networks(one, resumed, 2)
    assert sorted(os.listdir(os.path.join(one, "data"))) == ["round-00001"]
    assert sorted(os.listdir(os.path.join(one, "nets"))) == [
        "imitation.net", "round-00000.net", "round-00001.net"]
    monkeypatch.chdir(tmp_path)  # a bare --out name is written here
    code, out, err = run_cli(capsys, ["export", "--run", one, "--out", "n.net"])
    meta1 = load_net(os.path.join(one, "nets", "round-00001.net"), "setback", FEATURE_LAYOUT,
                     INPUTS, OUTPUTS).meta
    best = 1 if meta1["gate"]["promoted"] else 0 if meta1["teacher"] == "round-00000" else 1
    assert code == 0 and f"round {best}" in out, err  # the newest that passed its gate
    for x, y in zip(weights(str(tmp_path / "n.net")),
                    weights(os.path.join(one, "nets", f"round-{best:05d}.net"))):
        assert np.array_equal(x, y)
    code, out, err = run_cli(capsys, ["train", "status", "--run", one, "--plot",
                              str(tmp_path / "s.png")])
    assert code == 0 and "rounds      2" in out and os.path.getsize(tmp_path / "s.png") > 1000
    # the gate: a round's search rolls out with the newest network that beat its teacher
    metas = [load_net(os.path.join(one, f"nets/round-{k:05d}.net"), "setback", FEATURE_LAYOUT,
                      INPUTS, OUTPUTS).meta for k in range(2)]
    assert metas[0]["teacher"] == "base"
    assert metas[0]["gate"]["pairs"] == 6 and 0 <= metas[0]["gate"]["win_rate"] <= 1
    assert metas[1]["teacher"] == ("round-00000" if metas[0]["gate"]["promoted"] else "base")
    code, out, err = run_cli(capsys, ["train", "distill", "--run", one, "--games", "9"])
    assert code == 2 and "a resumed run keeps its settings" in err


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM])
def test_killed_in_the_middle_of_a_round_then_resume_gives_the_same_networks(tmp_path, capsys,
                                                                             base_run, sig):
    """SIGKILL, or SIGTERM (`kill PID`) to a run started in the background with Ctrl-C
    ignored (`nohup ... &`), once the round's first chunk is saved; then the same command: the
    networks are those of an uninterrupted run. SIGTERM stops it as Ctrl-C does (status 130)."""
    straight, killed = str(tmp_path / "straight"), str(tmp_path / "killed")
    distill(capsys, straight, base_run, "--rounds", "2")
    command = [sys.executable, "-m", "cli.main", "train", "distill", "--run", killed, "--from",
               base_run, *TINY, "--rounds", "2"]
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, text=True,
                               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN))
    deadline = time.time() + 300
    chunk = os.path.join(killed, "data", "round-00001", "chunk-00000.npz")
    while not os.path.exists(chunk) and process.poll() is None and time.time() < deadline:
        time.sleep(0.05)
    process.send_signal(sig)
    out, _ = process.communicate(timeout=120)
    if sig == signal.SIGTERM:
        assert process.returncode == 130 and "stopped (Ctrl-C or SIGTERM)" in out
    assert not os.path.exists(os.path.join(killed, "nets", "round-00001.net"))
    distill(capsys, killed, base_run, "--rounds", "2")
    same_networks(straight, killed, 2)


def test_sigint_stops_the_stage_even_where_the_shell_ignored_it():
    """A run started in the background (`nohup ... &`) inherits SIGINT ignored; the stage's
    loop still turns SIGINT and SIGTERM into its Ctrl-C stop, and leaves the signals as it
    found them."""
    from train.distill import _signals_interrupt

    before = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        for sig in (signal.SIGINT, signal.SIGTERM):
            with pytest.raises(KeyboardInterrupt):
                with _signals_interrupt():
                    os.kill(os.getpid(), sig)
                    time.sleep(1)  # the handler runs at the next bytecode; never reached
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
        assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL
    finally:
        signal.signal(signal.SIGINT, before)


def test_exploit_plays_local_best_response_against_a_network(tmp_path, capsys):
    """`exploit --against net:FILE`: search on the network, its belief the network's
    probabilities (a pool of 4 x worlds by default), in duplicate games against it."""
    import json

    from cli.main import main

    path = _net_file(tmp_path)
    status = main(["exploit", "--against", f"net:{path},sample", "--pairs", "1", "--worlds",
                   "3", "--seed", "3", "--json", "--no-progress"])
    out = json.loads(capsys.readouterr().out)
    assert status == 0 and out["games"] == 2
    assert out["lbr"] == ("search[worlds=3,pool=4,threads=1,belief=policy,temper=1,"
                          f"evidence=opponents]:net:{path}")
    with pytest.raises(SystemExit) as refused:
        main(["exploit", "--against", "heuristic"])
    assert refused.value.code == 2 and "(Setback or Euchre) a policy network" in \
        capsys.readouterr().err


@pytest.mark.parametrize("belief", ["uniform", "policy"])
def test_search_on_a_network_is_the_same_on_one_and_two_threads(tmp_path, belief):
    """search:net: rolls out with the network (and, belief=policy, weighs the worlds by its
    probability of the others' moves): the same decisions for any number of threads."""
    from play.player_spec import make_player
    from games.setback.play.tournament import play_game

    path = _net_file(tmp_path)
    rows = []
    for threads in (1, 2):
        player = make_player(f"search[worlds=6,threads={threads},belief={belief}]:net:{path}")
        rows.append(play_game((player, make_player("heuristic")), 3, 0))
        player.close()
    assert np.array_equal(rows[0], rows[1])


def test_a_distill_run_needs_a_setback_baseline(tmp_path, capsys, base_run):
    code, out, err = run_cli(capsys, ["train", "distill", "--run", str(tmp_path / "d")])
    assert code == 2 and "needs --from BASE_RUN" in err
    code, out, err = run_cli(capsys, ["train", "distill", "--run", str(tmp_path / "d"), "--from",
                              base_run, "--searcher", "search[think=5]"])
    assert code == 2 and "think= would make the data depend on timing" in err


def test_the_browser_table_serves_a_network_and_its_why_panel(tmp_path):
    """`serve --bots net:FILE`: the bots play a whole game through the web API (the Setback
    table hands them the deal's moves, which the network reads), and a bot's explanation
    gives the network's probability of each legal move, named by the move."""
    from web_helpers import client, new_game, play_to_the_end, seeded_person

    path = _net_file(tmp_path)
    c = client(tmp_path / "games.db", bots=f"net:{path}")
    game = new_game(c, 5)["game"]
    view, events = play_to_the_end(c, game, seeded_person(5))
    assert view["status"] == "over"
    explained = [e["explain"] for e in events if e.get("explain")
                 and e["explain"].get("reason") == "network"]
    assert explained
    for x in explained[:20]:
        assert abs(sum(a["prob"] for a in x["actions"]) - 1.0) < 1e-6
        assert all(a["action"] == a["move"] for a in x["actions"])


def test_a_damaged_or_foreign_chunk_is_refused_in_one_line(tmp_path):
    """A chunk of games that cannot be read, or of another format version, stops the fit with
    one line naming the file."""
    from games.setback.train.distill import DISTILL
    from train.distill import _load_chunks, _npz_bytes, rows_to_arrays
    from train.errors import RunError

    good = tmp_path / "chunk-00000.npz"
    good.write_bytes(_npz_bytes({**rows_to_arrays([], DISTILL), "chunk_format": np.int64(1)}))
    assert _load_chunks([str(tmp_path)], DISTILL)["states"].shape == (0, 32)
    good.write_bytes(_npz_bytes({**rows_to_arrays([], DISTILL), "chunk_format": np.int64(9)}))
    with pytest.raises(RunError, match="chunk format 9; this program reads version 1"):
        _load_chunks([str(tmp_path)], DISTILL)
    good.write_bytes(b"PK not a chunk")
    with pytest.raises(RunError, match="damaged chunk of games") as caught:
        _load_chunks([str(tmp_path)], DISTILL)
    assert "\n" not in str(caught.value)
