"""`setback-cfr db load|query|info` end to end, on real SQLite files."""

import json
import os
import subprocess
import sys

import pytest

from cli_runner import run_cli
from games.setback.db.synthetic import write_table

BASELINE = {"0AJx2": [0.1, 0.2, 0.6, 0.1], "...+0At4t..0TTTQ": [0.75, 0.25],
            "Hx.+0.......TxT2TJS.W": [0.1, 0.1, 0.1, 0.6, 0.1]}
BOOTSTRAP = {"x./0/-1/0/AJx2........": [0.0, 0.1, 0.2, 0.7]}


@pytest.fixture
def db(tmp_path, capsys):
    base, boot = str(tmp_path / "base.strategy"), str(tmp_path / "boot.strategy")
    write_table(base, "baseline", BASELINE, iterations=500)
    write_table(boot, "bootstrap", BOOTSTRAP, iterations=40)
    path = str(tmp_path / "s.db")
    status, out, err = run_cli(capsys, ["db", "load", base, boot, "--db", path, "--no-progress"])
    assert status == 0, err
    assert out.startswith("loaded 4 keys into")
    assert "auction 1, establish 0, playout 2, bootstrap 1" in out
    return path


def test_load_json_summary(tmp_path, capsys):
    base = str(tmp_path / "base.strategy")
    write_table(base, "baseline", BASELINE)
    status, out, _ = run_cli(capsys, ["db", "load", base, "--db", str(tmp_path / "x.db"),
                                      "--json", "--no-progress"])
    summary = json.loads(out)
    assert status == 0 and summary["n_keys"] == 3 and summary["stages"][0]["stage"] == "baseline"


def test_query_prints_actions_and_probabilities(db, capsys):
    status, out, _ = run_cli(capsys, ["db", "query", "--db", db, "0AJx2"])
    assert status == 0
    assert out.splitlines() == ["key 0AJx2  (auction, 4 actions)",
                                "  Pass   0.1000",
                                "  Two    0.2000",
                                "  Three  0.6000  best",
                                "  Four   0.1000"]
    status, out, _ = run_cli(capsys, ["db", "query", "--db", db, "--json",
                                      "Hx.+0.......TxT2TJS.W"])
    answer = json.loads(out)
    assert [a["action"] for a in answer["actions"]] == ["Tx", "T2", "TJ", "S.", "W."]
    assert answer["best"] == "S." and answer["kind"] == "playout"


def test_info_prints_metadata_and_counts(db, capsys):
    status, out, _ = run_cli(capsys, ["db", "info", "--db", db])
    assert status == 0
    assert "schema         setback-cfr/strategy-db version 1" in out
    assert "abstraction reference version 1" in out
    assert "keys           4: auction 1, establish 0, playout 2, bootstrap 1" in out
    assert "stage          baseline: 500 iterations" in out
    assert "stage          bootstrap: 40 iterations" in out
    status, out, _ = run_cli(capsys, ["db", "info", "--db", db, "--json"])
    info = json.loads(out)
    assert info["schema_version"] == 1 and [s["stage"] for s in info["stages"]] == [
        "baseline", "bootstrap"]


def test_bad_input_is_one_line_and_status_2(db, tmp_path, capsys):
    (tmp_path / "junk.db").write_text("junk")
    cases = [
        (["db", "query", "--db", db, "0AJ"], "key '0AJ' is not in"),
        (["db", "info", "--db", str(tmp_path / "none.db")], "no such strategy database"),
        (["db", "info", "--db", str(tmp_path / "junk.db")], "not a setback-cfr strategy"),
        (["db", "load", str(tmp_path / "none.strategy"), "--db", db], "no such strategy file"),
        (["db", "load", db, "--db", str(tmp_path / "y.db")], "not a setback-cfr strategy file"),
    ]
    for argv, message in cases:
        status, out, err = run_cli(capsys, argv)
        assert status == 2, argv
        assert err.count("\n") == 1 and message in err and err.startswith("setback-cfr: error:")
    assert not os.path.exists(tmp_path / "y.db")


def test_help_is_instant_and_lists_the_commands():
    out = subprocess.run([sys.executable, "-m", "cli.main", "db", "--help"], capture_output=True,
                         text=True, check=True).stdout
    for command in ("load", "query", "info"):
        assert command in out
    out = subprocess.run([sys.executable, "-m", "cli.main", "db", "load", "--help"],
                         capture_output=True, text=True, check=True).stdout
    assert "--db FILE" in out and "temporary file" in out
