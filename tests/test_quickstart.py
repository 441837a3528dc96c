"""The quickstart runs end to end on a tiny budget (well under a minute) and writes what it
says it wrote; it refuses a directory that is not its own."""

import json
import os
import time

import pytest

from cli.main import main


def test_quickstart_end_to_end(tmp_path, capsys):
    out = tmp_path / "qs"
    start = time.monotonic()
    status = main(["quickstart", "--minutes", "0.1", "--games", "4", "--out", str(out),
                   "--no-progress"])
    seconds = time.monotonic() - start
    text = capsys.readouterr().out
    assert status == 0
    assert seconds < 60
    summary = json.loads((out / "quickstart.json").read_text())
    for name, path in summary["paths"].items():
        assert os.path.exists(path), name
        assert path in text  # every path written is printed
    # the pictures come out of the box (matplotlib is a dependency)
    assert {"png_training", "png_vs_random", "png_vs_heuristic",
            "png_search_vs_heuristic", "png_belief_vs_heuristic"} <= set(summary["paths"])
    assert summary["baseline"]["iteration"] >= 1
    from cli.quickstart import BOOTSTRAP_SHARE

    if BOOTSTRAP_SHARE > 0:
        assert summary["bootstrap"]["iteration"] >= 1
    else:  # left out by measurement: nothing of it is written or loaded
        assert summary["bootstrap"] is None and "bootstrap_run" not in summary["paths"]
        assert "bootstrap: left out" in text
    assert summary["workers"] >= 1
    assert summary["database_keys"] == sum(summary["exported_keys"]) > 0
    for name, label in (("random", "db player vs random"),
                        ("heuristic", "db player vs heuristic"),
                        ("search_vs_heuristic", "search player vs heuristic"),
                        ("belief_vs_heuristic", "search, belief=policy vs heuristic")):
        r = summary["tournaments"][name]
        assert r["games"] == 8 and r["duplicate"]
        assert 0 <= r["ci_low"] <= r["win_rate"] <= r["ci_high"] <= 1
        assert label in text
    # the search player played the database player's pairs: the same seed, the same deals
    search, db = summary["tournaments"]["search_vs_heuristic"], summary["tournaments"]["heuristic"]
    assert search["seed"] == db["seed"] and search["games"] == db["games"]
    assert search["player_a"].startswith("search:db:")
    belief = summary["tournaments"]["belief_vs_heuristic"]
    assert belief["seed"] == db["seed"] and belief["games"] == db["games"]
    assert belief["player_a"].startswith("search[belief=policy]:db:")


def test_quickstart_refuses_a_foreign_directory(tmp_path, capsys):
    (tmp_path / "mine.txt").write_text("keep me")
    with pytest.raises(SystemExit) as exit_info:
        main(["quickstart", "--minutes", "0.1", "--out", str(tmp_path), "--no-progress"])
    assert exit_info.value.code == 2
    assert "not a quickstart directory" in capsys.readouterr().err
    assert (tmp_path / "mine.txt").read_text() == "keep me"
