"""Issue 37's small bugs in the training tools: the generic `export` of a best-response run
writes a file `db load` takes (its keys are baseline keys of the learner's layout), and `train
status` labels a best response's payoff as its learner's, not the non-dealer team's."""

import pytest

from cfr.strategy_file import read_strategy
from cli_runner import run_cli


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """(baseline run, best-response run against its export, root): a few deals each."""
    from games.setback.train.baseline import baseline_stage
    from train.export import export_run
    from train.run_directory import RunDirectory
    from train.runner import Trainer

    root = tmp_path_factory.mktemp("runs")
    base = str(root / "base")
    Trainer(RunDirectory(base), baseline_stage(3, 1, algorithm="es-mccfr"),
            show_progress=False).run(20)
    target = str(root / "base.msgpack")
    export_run(base, target)
    br = str(root / "br")
    from cli.main import main

    assert main(["train", "best-response", "--against", f"strategy:{target}", "--run", br,
                 "--iterations", "6", "--no-progress"]) == 0
    return base, br, root


def test_the_generic_export_of_a_best_response_loads(runs, capsys, tmp_path):
    _, br, _ = runs
    out, database = tmp_path / "br.msgpack", tmp_path / "br.db"
    status, stdout, err = run_cli(capsys, ["export", "--run", br, "--out", out])
    assert status == 0, err
    assert "baseline stage" in stdout
    header = read_strategy(str(out))[0]
    assert header["stage"] == "baseline"
    assert header["settings"]["best_response"] is True
    assert header["settings"]["strategy_played"] == "average"
    status, _, err = run_cli(capsys, ["db", "load", "--db", database, out, "--no-progress"])
    assert status == 0, err  # it refused the stage `best-response` before


def test_status_labels_the_payoff_by_stage(runs, capsys):
    base, br, _ = runs
    status, out, err = run_cli(capsys, ["train", "status", "--run", br])
    assert status == 0, err
    assert "(running mean, learner's team)" in out and "non-dealer" not in out
    status, out, err = run_cli(capsys, ["train", "status", "--run", base])
    assert status == 0, err
    assert "(running mean, non-dealer team)" in out
