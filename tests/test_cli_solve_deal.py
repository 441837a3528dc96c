"""`setback-cfr solve-deal`: the values of every legal move, as JSON and as a table, agree with
the brute force; incomplete auctions and finished deals are one-line errors."""

import json

from cli_runner import run_cli
from search_reference import BruteForce, position_of

from games.setback.api import Deal

HANDS = {"W": ["AS", "KS", "2H", "3D", "4C", "5C"], "N": ["QS", "JS", "2S", "9H", "TD", "6C"],
         "E": ["TS", "3S", "AH", "KH", "QD", "7C"], "S": ["4S", "5H", "6H", "AD", "KD", "8C"]}
MOVES = ["3", "P", "P", "P", "AS", "2S", "3S", "4S", "4C", "6C", "7C", "8C", "5H", "2H"]


def write(tmp_path, moves):
    path = tmp_path / "deal.json"
    path.write_text(json.dumps({"dealer": "S", "hands": HANDS, "moves": moves}))
    return path


def test_solve_deal_json_matches_brute_force(tmp_path, capsys):
    status, out, err = run_cli(capsys, ["solve-deal", write(tmp_path, MOVES), "--json"])
    assert status == 0, err
    result = json.loads(out)
    deal = Deal("S", HANDS)
    for move in MOVES:
        deal.play(move)
    assert result["to_move"] == deal.to_act == "N"
    assert result["bidder_team"] == "EW"
    expected = BruteForce().move_values(position_of(deal.state))
    from games.setback.cards import format_card
    assert result["values"] == {format_card(c): v for c, v in expected.items()}
    status, out, _ = run_cli(capsys, ["solve-deal", write(tmp_path, MOVES)])
    assert status == 0 and "N to move" in out
    assert len([line for line in out.splitlines() if line.startswith("  ")]) == len(expected)


def test_solve_deal_errors(tmp_path, capsys):
    status, _, err = run_cli(capsys, ["solve-deal", write(tmp_path, ["3", "P"])])
    assert status == 2 and "auction is not complete" in err
    status, _, err = run_cli(capsys, ["solve-deal", write(tmp_path, ["P", "P", "P", "P"])])
    assert status == 2 and "deal is over" in err
    status, _, err = run_cli(capsys, ["solve-deal", write(tmp_path, ["3", "P", "P", "P", "2C"])])
    assert status == 2 and "illegal move" in err
