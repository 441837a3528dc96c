"""`db:FINE,backoff=db:COARSE` (games/setback/play/backoff.py, issue 38): the fine database's move
wherever it holds the decision's key, the coarse database's move wherever it does not; the counts
say how often it backed off; a pair of layouts that does not refine, and a backoff= that is not a
plain database, are refused in one line."""

import numpy as np
import pytest

from games.setback.abstraction import layouts
from db.loader import load_strategies
from games.setback.db.player import DatabasePlayer
from games.setback.db.synthetic import write_table
from games.setback.play.backoff import BackoffPlayer
from play.player_spec import PlayerSpecError, make_player
from test_composite_players import positions


class EmptyStore:
    """A store of `layout`'s keys without any key (the database player's reading face)."""

    metadata = {"game": "setback"}
    has_bootstrap = False
    path = "empty"

    def __init__(self, layout: str):
        self.layout = layouts.layout(layout)

    def lookup(self, key):
        return None

    def close(self):
        pass


def database(tmp, name: str, layout: str, views, keep) -> str:
    """A database of `layout` holding a random vector for the key of each of `views` that
    `keep(index)` accepts."""
    rng = np.random.default_rng(len(name))
    asker = DatabasePlayer(EmptyStore(layout))
    table = {}
    for i, view in enumerate(views):
        trace = asker.explain(view)
        if trace["key"] is not None and keep(i):
            table[trace["key"]] = rng.dirichlet(np.ones(len(trace["actions"])))
    entry = layouts.layout(layout)
    path = str(tmp / f"{name}.strategy")
    write_table(path, "baseline", table, abstraction=entry.abstraction,
                abstraction_version=entry.version)
    db = str(tmp / f"{name}.db")
    load_strategies([path], db, progress=False)
    return db


@pytest.fixture(scope="module")
def stores(tmp_path_factory):
    """A bidder database holding every third decision's key, a reference database holding
    every decision's key, and a bidder database holding them all."""
    tmp = tmp_path_factory.mktemp("backoff")
    views = positions(n_deals=10, seed=3)
    return {"views": views,
            "fine": database(tmp, "fine", "bidder", views, lambda i: i % 3 == 0),
            "coarse": database(tmp, "coarse", "reference", views, lambda i: True),
            "full": database(tmp, "full", "bidder", views, lambda i: True)}


def test_the_fine_key_plays_where_present_and_the_coarse_key_elsewhere(stores):
    spec = f"db:{stores['fine']},backoff=db:{stores['coarse']}"
    player = make_player(spec)
    fine, coarse = DatabasePlayer(stores["fine"]), DatabasePlayer(stores["coarse"])
    backed = 0
    for view in stores["views"]:
        trace = fine.explain(view)
        expected = (coarse.choose(view) if trace["reason"] == "fallback"
                    else int(trace["move"]))
        backed += trace["reason"] == "fallback"
        assert player.choose(view) == expected
    assert backed > 20  # two decisions in three lack their fine key
    assert player.counts["backed_off"] == backed
    assert player.counts["backed_off_missing"] == 0  # the coarse store has every key
    assert player.counts["decisions"] == len(stores["views"])
    assert player.name == spec


def test_a_complete_fine_store_never_backs_off(stores):
    player = make_player(f"db:{stores['full']},backoff=db:{stores['coarse']}")
    full = DatabasePlayer(stores["full"])
    for view in stores["views"]:
        assert player.choose(view) == full.choose(view)
    assert player.counts["backed_off"] == 0


def test_backoff_composes_with_another_bidder(stores):
    player = make_player(f"db:{stores['fine']},backoff=db:{stores['coarse']},bid=heuristic")
    for view in stores["views"][:30]:
        assert view.legal_moves().tolist().count(player.choose(view)) == 1


@pytest.mark.parametrize("which,words", [
    ("reverse", "reference keys do not refine bidder keys"),  # reference keys cannot back off to bidder keys
    ("heuristic", "backoff= needs a coarser strategy database"),
    ("gaps", "is not one"),
    ("missing", "no such strategy database"),
])
def test_bad_backoff_specs_are_one_clear_line(stores, which, words):
    fine, coarse = stores["fine"], stores["coarse"]
    spec = {"reverse": f"db:{coarse},backoff=db:{fine}",
            "heuristic": f"db:{fine},backoff=heuristic",
            "gaps": f"db:{fine},backoff=db:{coarse},gaps=heuristic",
            "missing": f"db:{fine},backoff=db:/nonexistent/x.db"}[which]
    with pytest.raises(PlayerSpecError) as error:
        make_player(spec)
    assert words in str(error.value) and "\n" not in str(error.value)


def test_the_player_refuses_a_pair_directly_too(stores):
    with pytest.raises(layouts.LayoutError, match="do not refine"):
        BackoffPlayer(DatabasePlayer(stores["coarse"]), DatabasePlayer(stores["fine"]))


@pytest.fixture(scope="module")
def es_run(tmp_path_factory):
    """A few es-mccfr deals of the bidder layout, and its full export."""
    from games.setback.train.baseline import baseline_stage
    from train.export import export_run
    from train.run_directory import RunDirectory
    from train.runner import Trainer

    root = tmp_path_factory.mktemp("visits")
    run = str(root / "run")
    Trainer(RunDirectory(run), baseline_stage(4, 1, algorithm="es-mccfr", abstraction="bidder"),
            show_progress=False).run(40)
    full = str(root / "full.strategy")
    export_run(run, full)
    return run, full


def test_an_es_mccfr_keys_strategy_sums_count_its_visits_and_min_visits_keeps_the_frequent(
        es_run, tmp_path):
    from cfr import checkpoint
    from cfr.strategy_file import read_strategy
    from cfr.table import ACTIONS_MASK
    from train.export import export_run

    run, full = es_run
    table = checkpoint.load(f"{run}/checkpoint.ckpt").table
    key_text = layouts.load("bidder").key_text
    totals = {}
    for slot in np.flatnonzero(table.meta):
        n, o = int(table.meta[slot] & ACTIONS_MASK), int(table.offsets[slot])
        totals[key_text(int(table.keys[slot, 0]))] = float(table.strategy[o:o + n].sum())
    values = np.array(list(totals.values()))
    assert np.allclose(values, np.round(values), atol=1e-3)  # whole visits
    assert (values >= 3).sum() > 10 and (values < 3).sum() > 10
    out = str(tmp_path / "min3.strategy")
    header = export_run(run, out, min_visits=3)
    assert header["min_visits"] == 3
    _, kept = read_strategy(out)
    _, every = read_strategy(full)
    assert set(kept) == {k for k, v in totals.items() if round(v) >= 3}
    for key, probs in kept.items():
        assert np.array_equal(probs, every[key])


def test_min_visits_is_refused_where_the_sums_count_something_else(es_run, capsys, tmp_path):
    import json

    from cli_runner import run_cli

    run, _ = es_run
    with open(f"{run}/run.json") as handle:
        recorded = json.load(handle)
    recorded["settings"]["linear_weighting"] = True
    other = tmp_path / "linear"
    other.mkdir()
    (other / "run.json").write_text(json.dumps(recorded))
    import shutil
    shutil.copy(f"{run}/checkpoint.ckpt", other / "checkpoint.ckpt")
    status, _, err = run_cli(capsys, ["export", "--run", str(other), "--out",
                                      str(tmp_path / "x.strategy"), "--min-visits", "2"])
    assert status == 2
    assert "linear weighting adds t" in err and err.count("\n") == 1
    assert not (tmp_path / "x.strategy").exists()
