"""`setback-cfr replay` and `setback-cfr simulate` end to end."""

import json
import subprocess
import sys

import pytest

from cli_runner import run_cli
from fuzz_cases import WORKED  # the spec's worked deal as replay input


def replay(tmp_path, capsys, spec):
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(spec))
    return run_cli(capsys, ["replay", str(path)])


def test_replay_reproduces_the_worked_deal(tmp_path, capsys):
    status, out, err = replay(tmp_path, capsys, WORKED)
    assert status == 0, err
    result = json.loads(out)
    decisions = result["decisions"]
    assert [d["seat"] for d in decisions[:4]] == ["W", "N", "E", "S"]
    assert {k: decisions[0][k] for k in ("seat", "phase", "legal", "move")} == {
        "seat": "W", "phase": "bid", "legal": ["P", "2", "3", "4"], "move": "3"}
    assert decisions[4]["phase"] == "lead" and decisions[4]["move"] == "AS"
    assert decisions[5]["legal"] == ["4S"]  # P2's 4S is forced
    assert decisions[6]["legal"] == ["TS", "QS"]  # P3 chooses TS
    assert decisions[7]["legal"] == ["6S"]  # P0's 6S is forced
    assert decisions[9]["legal"] == ["TH", "QH"]
    assert decisions[10]["legal"] == ["6H", "AH", "QS"]
    assert decisions[11]["legal"] == ["4H", "9H"]
    assert result["tricks"] == [
        {"leader": "W", "cards": ["AS", "4S", "TS", "6S"], "winner": "W"},  # P1 wins trick 1
        {"leader": "W", "cards": ["KH", "QH", "AH", "4H"], "winner": "E"},
    ]
    assert {k: result["next"][k] for k in ("seat", "phase", "legal")} == {
        "seat": "E", "phase": "lead", "legal": ["2C", "JD", "6H", "QS"]}
    assert "points" not in result and "deal_score" not in result


def test_replay_of_a_finished_deal_scores_it(tmp_path, capsys):
    spec = dict(WORKED, moves=["P", "P", "P", "P"])
    status, out, _ = replay(tmp_path, capsys, spec)
    result = json.loads(out)
    assert result["next"] is None
    assert result["points"] == {"high": None, "low": None, "jack": None, "game": None}
    assert result["deal_score"] == {"EW": 0, "NS": 0}


@pytest.mark.parametrize("change, message", [
    ({"moves": ["3", "P", "P", "P", "AS", "8C"]},
     "move 5 ('8C'): illegal move 8C for N (follow); legal: 4S"),
    ({"moves": ["3", "2"]}, "move 1 ('2'): illegal move 2 for N (bid); legal: P 4"),
    ({"moves": ["X"]}, "move 0 ('X'): bad bid 'X'"),
    ({"hands": {**WORKED["hands"], "E": ["AH", "TS", "6H", "2C", "JD", "1S"]}},
     "hand E: bad card '1S'"),
    ({"hands": {**WORKED["hands"], "E": ["AH", "TS", "6H", "2C", "JD", "AS"]}},
     "duplicate card AS"),
    ({"hands": {**WORKED["hands"], "E": ["AH", "TS", "6H"]}},
     "hand E: a hand must hold 6 cards, got 3"),
    ({"dealer": "X"}, "bad seat 'X'"),
    ({"moves": ["P"] * 5}, "move 4 ('P'): the deal is already over"),
])
def test_replay_bad_input_is_one_line_and_status_2(tmp_path, capsys, change, message):
    status, out, err = replay(tmp_path, capsys, {**WORKED, **change})
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and message in err, err


def test_replay_bad_files(tmp_path, capsys):
    status, _, err = run_cli(capsys, ["replay", str(tmp_path / "missing.json")])
    assert status == 2 and "cannot read" in err
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    status, _, err = run_cli(capsys, ["replay", str(bad)])
    assert status == 2 and "not valid JSON" in err
    bad.write_text("[1, 2]")
    status, _, err = run_cli(capsys, ["replay", str(bad)])
    assert status == 2 and "JSON object" in err


def test_replay_reads_stdin_through_the_console_script():
    proc = subprocess.run([sys.executable, "-m", "cli.main", "replay", "-"],
                          input=json.dumps(WORKED), capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["tricks"][1]["winner"] == "E"
    proc = subprocess.run([sys.executable, "-m", "cli.main", "replay", "-"],
                          input='{"dealer": "S"}', capture_output=True, text=True)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert proc.stderr.strip().count("\n") == 0


def test_simulate_is_deterministic_for_a_seed(capsys):
    reports = []
    for _ in range(2):
        status, out, _ = run_cli(capsys, ["simulate", "--games", "300", "--seed", "5",
                                          "--json", "--no-progress"])
        assert status == 0
        report = json.loads(out)
        for timing in ("seconds", "games_per_second", "deals_per_second"):
            report.pop(timing)
        reports.append(report)
    assert reports[0] == reports[1]
    assert reports[0]["games"] == 300
    assert 0 < reports[0]["all_pass_share"] < 0.05
    assert reports[0]["point_scored_share"]["high"] == 1.0  # every bid deal has a trump
    status, out, _ = run_cli(capsys, ["simulate", "--games", "300", "--seed", "6",
                                      "--json", "--no-progress"])
    assert json.loads(out)["deals"] != reports[0]["deals"]  # another seed, other games


def test_simulate_rejects_bad_arguments(capsys):
    status, _, err = run_cli(capsys, ["simulate", "--games", "0"])
    assert status == 2 and "--games must be a positive number" in err


def test_replay_carries_the_abstraction_keys_of_the_worked_deal(tmp_path, capsys):
    status, out, err = replay(tmp_path, capsys, {**WORKED, "score": {"EW": 9, "NS": 8}})
    assert status == 0, err
    result = json.loads(out)
    rows = [(d["key"], [(a["action"], a["move"]) for a in d["actions"]])
            for d in result["decisions"]]
    assert rows[0] == ("0AJx2", [("P", "P"), ("2", "2"), ("3", "3"), ("4", "4")])
    assert rows[4] == (None, [("E0", "AS")])  # one top suit: the first lead is forced
    assert rows[5][0] is None  # P2's 4S is forced
    assert rows[6] == ("...+0At4t..0TTTQ", [("TT", "TS"), ("TQ", "QS")])
    assert rows[7][0] is None
    assert rows[8] == ("Hx.+0.......TxT2TJS.W", [("Tx", "7S"), ("T2", "2S"), ("TJ", "JS"),
                                                  ("S.", "KH"), ("W.", "3D")])
    assert rows[9] == ("H4.-0Kx....0l2lT", [("l2", "QH"), ("lT", "TH")])
    assert rows[10] == ("H4.+0KxQx..0TQw4l0", [("TQ", "QS"), ("w4", "AH"), ("l0", "6H")])
    assert rows[11] == (None, [("l0", "4H")])  # both hearts are l0: forced
    # W (EW, 9) against NS (8): need_them 3, need_us 2 -> "3."
    assert result["decisions"][0]["bootstrap_key"] == "3./0/-1/0/AJx2........"
    assert "bootstrap_key" not in result["decisions"][4]
    assert result["next"]["key"] == "H4.+0.......TQS.W"


def test_replay_without_a_score_has_no_bootstrap_keys(tmp_path, capsys):
    _, out, _ = replay(tmp_path, capsys, WORKED)
    assert all("bootstrap_key" not in d for d in json.loads(out)["decisions"])


def test_replay_rejects_a_bad_score(tmp_path, capsys):
    status, _, err = replay(tmp_path, capsys, {**WORKED, "score": {"EW": "nine", "NS": 1}})
    assert status == 2 and '"score" must look like' in err


@pytest.mark.parametrize("layout, key", [("bidder", "Hx.+0.......B3TxT2TJS.W"),
                                         ("contract", "Hx.+0.......B31.TxT2TJS.W")])
def test_replay_shows_the_keys_of_the_layout_asked(tmp_path, capsys, layout, key):
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(WORKED))
    status, out, err = run_cli(capsys, ["replay", str(path), "--abstraction", layout])
    assert status == 0, err
    decision = json.loads(out)["decisions"][8]
    assert decision["key"] == key  # the reference's "Hx.+0.......TxT2TJS.W", refined
    assert [a["action"] for a in decision["actions"]] == ["Tx", "T2", "TJ", "S.", "W."]


def test_replay_refuses_a_setback_layout_for_another_game(tmp_path, capsys):
    path = tmp_path / "deal.json"
    path.write_text(json.dumps({"dealer": "N", "hands": {}, "upcard": "JD", "moves": []}))
    status, _, err = run_cli(capsys, ["replay", str(path), "--game", "euchre",
                                      "--abstraction", "bidder"])
    assert status == 2 and "--abstraction names a Setback key layout" in err
    assert len(err.strip().splitlines()) == 1
