"""The key layout as a choice (issue 27): the registry, `train --abstraction`, and the layout
carried by runs, strategy files, databases and players, a mismatch refused in one line."""

import json

import numpy as np
import pytest

from games.setback.abstraction import layouts
from cli.main import main
from cli_runner import run_cli
from db.errors import DatabaseError
from games.setback.db.synthetic import write_table
from setback_situations import worked

SEED = 2  # deals 1 and 2 of this seed have small abstract trees (fast tests)
WORKED_LEAD = 8  # P1 leads trick 2 of the worked deal: Tx 7S, T2 2S, TJ JS, S. KH, W. 3D


def cli(capsys, *argv):
    return run_cli(capsys, argv)


def baseline(capsys, run, iterations, *extra):
    return cli(capsys, "train", "baseline", "--run", str(run), "--iterations", str(iterations),
               "--seed", str(SEED), "--algorithm", "cfr", "--no-progress", *extra)


@pytest.fixture(scope="module")
def bidder_run(tmp_path_factory):
    """A 1-deal baseline run with the bidder layout."""
    run = tmp_path_factory.mktemp("bidder") / "run"
    assert main(["train", "baseline", "--run", str(run), "--iterations", "1", "--seed",
                 str(SEED), "--algorithm", "cfr", "--abstraction", "bidder",
                 "--no-progress"]) == 0
    return run


def test_the_registry_names_every_layout_and_reference_is_the_specs_code():
    from games.setback.abstraction import abstract_game, codec, decision, version

    assert layouts.names() == ("reference", "bidder", "contract")
    assert layouts.DEFAULT == "reference"
    reference = layouts.load("reference")
    # choosing reference runs the very kernels and codec that build the spec's keys
    assert reference.abstract_decision is decision.abstract_decision
    assert reference.decision is abstract_game.decision
    assert reference.key_text is codec.key_text and reference.text_key is codec.text_key
    assert (reference.LAYOUT.abstraction, reference.LAYOUT.version) == (
        version.ABSTRACTION_NAME, version.ABSTRACTION_VERSION)
    for name in layouts.names():
        module = layouts.load(name)
        assert module.LAYOUT is layouts.layout(name)
        for member in ("abstract_decision", "decision", "key_text", "text_key"):
            assert callable(getattr(module, member)), (name, member)
    assert len({e.abstraction for e in layouts.LAYOUTS.values()}) == len(layouts.LAYOUTS)


def test_recorded_layouts_and_unknown_ones():
    assert layouts.of_header({}).name == "reference"  # recorded before the choice existed
    assert layouts.of_header({"abstraction": "setback-reference",
                              "abstraction_version": 1}).name == "reference"
    assert layouts.of_header({"abstraction": "reference", "abstraction_version": 1}).name \
        == "reference"
    assert layouts.of_header({"abstraction": "setback-contract",
                              "abstraction_version": 1}).name == "contract"
    with pytest.raises(layouts.LayoutError, match=r"^abstraction version 3, but this program's "
                       r"keys are version 1 \(layout bidder\)$"):
        layouts.of_header({"abstraction": "setback-bidder", "abstraction_version": 3})
    with pytest.raises(layouts.LayoutError, match="unknown abstraction 'setback-x'"):
        layouts.of_header({"abstraction": "setback-x", "abstraction_version": 1})
    with pytest.raises(layouts.LayoutError, match="unknown abstraction layout 'x'"):
        layouts.layout("x")


@pytest.mark.parametrize("stage", ["baseline", "bootstrap"])
def test_help_lists_the_layouts_as_the_options_choices(stage, capsys):
    status, out, _ = cli(capsys, "train", stage, "--help")
    assert status == 0
    assert "--abstraction {reference,bidder,contract}" in out
    assert "bidder: playout keys add" in " ".join(out.split())


def test_a_run_records_its_layout_and_a_resume_must_agree(bidder_run, tmp_path, capsys):
    settings = json.loads((bidder_run / "run.json").read_text())["settings"]
    assert (settings["abstraction"], settings["abstraction_version"]) == ("setback-bidder", 1)
    status, _, err = baseline(capsys, bidder_run, 2, "--abstraction", "contract")
    assert status == 2 and len(err.strip().splitlines()) == 1
    assert "created with other settings: abstraction 'setback-bidder' (asked " \
        "'setback-contract')" in err
    reference = tmp_path / "reference"
    assert baseline(capsys, reference, 1)[0] == 0
    settings = json.loads((reference / "run.json").read_text())["settings"]
    assert settings["abstraction"] == "setback-reference"  # the default, as before
    status, _, err = baseline(capsys, reference, 2, "--abstraction", "bidder")
    assert status == 2 and "abstraction 'setback-reference' (asked 'setback-bidder')" in err


def test_export_db_and_players_carry_the_layout(bidder_run, tmp_path, capsys):
    from cfr.strategy_file import read_strategy
    from db.database import StrategyDatabase
    from games.setback.db.player import DatabasePlayer
    from games.setback.play.strategy_player import StrategyFilePlayer

    bidder = layouts.load("bidder")
    out = tmp_path / "b.strategy"
    assert cli(capsys, "export", "--run", str(bidder_run), "--out", str(out))[0] == 0
    header, table = read_strategy(str(out))
    assert (header["abstraction"], header["abstraction_version"]) == ("setback-bidder", 1)
    playout = [k for k in table if k[0] in "H."]
    assert playout and all(k[12] in "BD" and k[13] in "234" for k in playout)
    assert all(bidder.key_text(bidder.text_key(k)) == k for k in table)
    from games.setback.train.baseline_policy import load_policy

    from_file, from_run = load_policy(str(out)), load_policy(str(bidder_run))
    assert from_file.abstraction == from_run.abstraction == "bidder"
    np.testing.assert_array_equal(from_file.keys, from_run.keys)  # parsed with bidder's codec
    db = tmp_path / "b.db"
    assert cli(capsys, "db", "load", str(out), "--db", str(db), "--no-progress")[0] == 0
    with StrategyDatabase(str(db)) as opened:
        assert opened.layout.name == "bidder"
        assert opened.metadata["abstraction"] == "setback-bidder"
    assert DatabasePlayer(str(db)).layout.name == "bidder"
    with pytest.raises(DatabaseError, match=r"layout bidder \(setback-bidder v1\) where "
                       r"reference \(setback-reference v1\) is needed; keys of two layouts "
                       "never mix"):
        DatabasePlayer(str(db), abstraction="reference")
    # a bootstrap file of another layout merges neither in memory nor in a database
    boot = tmp_path / "boot.strategy"
    write_table(str(boot), "bootstrap", {"x./0/-1/0/AJx2........": [0.5, 0.5]})
    with pytest.raises(DatabaseError, match="keys of two layouts never mix"):
        StrategyFilePlayer([str(out), str(boot)])
    status, _, err = cli(capsys, "db", "load", str(out), str(boot), "--db",
                         str(tmp_path / "mixed.db"), "--no-progress")
    assert status == 2 and "abstraction 'reference' differs" in err
    assert "keys of two layouts never mix" in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("name, key", [
    ("reference", "Hx.+0.......TxT2TJS.W"),
    ("bidder", "Hx.+0.......B3TxT2TJS.W"),
    ("contract", "Hx.+0.......B31.TxT2TJS.W"),
])
def test_a_player_asks_the_keys_of_its_files_layout(name, key, tmp_path):
    from games.setback.cards import format_card
    from games.setback.view import SeatView
    from games.setback.play.strategy_player import StrategyFilePlayer

    entry = layouts.layout(name)
    path = tmp_path / f"{name}.strategy"
    # the worked deal's trick-2 lead, stored as "TJ" (the Jack of spades) for certain
    write_table(str(path), "baseline", {key: [0.0, 0.0, 1.0, 0.0, 0.0]},
                abstraction=entry.abstraction, abstraction_version=entry.version)
    player = StrategyFilePlayer(str(path))
    trace = player.explain(SeatView.of(worked(WORKED_LEAD), 0))
    assert trace["key"] == key and trace["reason"] == "found"
    assert format_card(trace["move"]) == "JS"


@pytest.mark.parametrize("name, key", [
    ("reference", "Hx.+0.......TxT2TJS.W"),
    ("bidder", "Hx.+0.......B3TxT2TJS.W"),
    ("contract", "Hx.+0.......B31.TxT2TJS.W"),
])
def test_the_policy_model_reads_the_keys_of_its_databases_layout(name, key, tmp_path, capsys):
    """pimc-pi's model of the other seats (games/setback/play/policy_model.py) asks the
    database's layout."""
    from db.database import StrategyDatabase
    from games.setback.cards import parse_card
    from games.setback.play.policy_model import PolicyModel

    entry = layouts.layout(name)
    path, db = tmp_path / f"{name}.strategy", tmp_path / f"{name}.db"
    write_table(str(path), "baseline", {key: [0.0, 0.0, 1.0, 0.0, 0.0]},
                abstraction=entry.abstraction, abstraction_version=entry.version)
    assert cli(capsys, "db", "load", str(path), "--db", str(db), "--no-progress")[0] == 0
    with StrategyDatabase(str(db)) as store:
        model = PolicyModel(store)
        state = worked(WORKED_LEAD)
        assert model(state, parse_card("JS")) == 1.0
        assert model(state, parse_card("7S")) == 0.0
        assert model.missing == 0


def test_the_bootstrap_playouts_of_any_layout(bidder_run, tmp_path, capsys):
    """`prepare_root_with` the reference's game decision builds `prepare_root`'s roots; a
    bootstrap run takes its baseline's layout and refuses another in one line."""
    from games.setback.abstraction import bootstrap_game as B
    from cfr.game import FUNCTION_TYPES, FunctionAddress
    from games.setback.train.baseline_policy import load_policy

    reference = tmp_path / "reference"
    assert baseline(capsys, reference, 1)[0] == 0
    policy = load_policy(str(reference))
    assert policy.abstraction == "reference" and policy.keys.size > 100
    decide = FunctionAddress(layouts.load("reference").decision, FUNCTION_TYPES[1])
    for word in range(5):
        a, b = np.zeros(B.BOOTSTRAP_STATE_SIZE, np.int64), np.zeros(B.BOOTSTRAP_STATE_SIZE,
                                                                    np.int64)
        ma, mb = np.zeros(1, np.int64), np.zeros(1, np.int64)
        B.prepare_root(np.uint64(word), policy.keys, policy.best, a, ma)
        B.prepare_root_with(decide, np.uint64(word), policy.keys, policy.best, b, mb)
        np.testing.assert_array_equal(a, b)
        assert ma[0] == mb[0]
    assert load_policy(str(bidder_run)).abstraction == "bidder"
    boot = tmp_path / "boot"
    status, _, err = cli(capsys, "train", "bootstrap", "--run", str(boot), "--baseline",
                         str(bidder_run), "--iterations", "2", "--no-progress")
    assert status == 0, err
    settings = json.loads((boot / "run.json").read_text())["settings"]
    assert settings["abstraction"] == "setback-bidder"
    status, _, err = cli(capsys, "train", "bootstrap", "--run", str(tmp_path / "b2"),
                         "--baseline", str(bidder_run), "--abstraction", "contract",
                         "--iterations", "2", "--no-progress")
    assert status == 2 and len(err.strip().splitlines()) == 1
    assert "was trained with the bidder layout" in err
