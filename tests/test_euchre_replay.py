"""`setback-cfr replay --game euchre`: the worked hand, the stuck dealer, bad input, OpenSpiel's
view of the same moves, and the game registry behind `--game`."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from cli_runner import run_cli

# N deals and turns up JD; E passes, S orders the dealer up (diamonds), N discards 9H, S goes
# alone (so the dealer sits out with the upcard) and takes all five tricks with the left bower
# JH among them: 4 points for NS.
WORKED = {
    "dealer": "N", "upcard": "JD",
    "hands": {"E": ["AS", "KS", "QH", "9C", "TC"], "S": ["JH", "AD", "KD", "9D", "AH"],
              "W": ["9S", "TS", "QS", "KH", "TH"], "N": ["QD", "TD", "9H", "AC", "KC"]},
    "moves": ["P", "D", "9H", "alone", "AS", "9D", "9S", "JH", "TH", "QH", "AH", "KH", "9C",
              "AD", "TS", "TC", "KD", "QS", "KS"],
}


def replay(tmp_path, capsys, spec, *extra):
    """Run `replay --game euchre` on `spec`; return (status, parsed output or None, stderr)."""
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(spec))
    status, out, err = run_cli(capsys, ["replay", "--game", "euchre", str(path), *extra])
    return status, (json.loads(out) if status == 0 else None), err


def test_the_worked_hand(tmp_path, capsys):
    status, result, err = replay(tmp_path, capsys, WORKED)
    assert status == 0, err
    rows = [(d["seat"], d["phase"], d["legal"], d["move"]) for d in result["decisions"]]
    assert rows[:4] == [
        ("E", "order", ["P", "D"], "P"),  # the dealer's left speaks first
        ("S", "order", ["P", "D"], "D"),
        ("N", "discard", ["KC", "AC", "TD", "QD", "9H"], "9H"),  # never the upcard JD
        ("S", "alone", ["alone", "partner"], "alone"),  # the maker decides after the discard
    ]
    assert rows[4] == ("E", "lead", ["9C", "TC", "QH", "KS", "AS"], "AS")
    # S has no spade: anything, the left bower JH (a trump now) included
    assert rows[5] == ("S", "follow", ["9D", "KD", "AD", "JH", "AH"], "9D")
    # JH led is a trump lead: W holds hearts but no trump, so anything goes
    assert rows[8] == ("W", "follow", ["TH", "KH", "TS", "QS"], "TH")
    assert rows[11] == ("W", "follow", ["KH"], "KH")  # AH led: W must follow hearts
    assert result["tricks"][:2] == [
        {"leader": "E", "cards": ["AS", "9D", "9S"], "winner": "S"},  # three cards: N sits out
        {"leader": "S", "cards": ["JH", "TH", "QH"], "winner": "S"},
    ]
    assert len(result["tricks"]) == 5 and result["next"] is None
    assert result["contract"] == {"trump": "D", "maker": "S", "alone": True}
    assert result["tricks_won"] == {"NS": 5, "EW": 0}
    assert result["points"] == {"NS": 4, "EW": 0}


def test_a_prefix_shows_the_next_decision(tmp_path, capsys):
    moves = ["P", "D", "9H", "partner", "AS", "9D", "9S"]
    status, result, _ = replay(tmp_path, capsys, {**WORKED, "moves": moves})
    assert status == 0
    assert result["next"] == {"seat": "N", "phase": "follow",
                              "legal": ["KC", "AC", "TD", "JD", "QD"]}  # N holds the upcard
    assert "points" not in result and result["tricks"][0]["winner"] is None


def test_second_round_and_the_stuck_dealer(tmp_path, capsys):
    spec = {**WORKED, "moves": ["P"] * 7}
    status, result, _ = replay(tmp_path, capsys, spec)
    assert status == 0
    assert result["decisions"][4] == {"seat": "E", "phase": "name",
                                      "legal": ["P", "C", "H", "S"], "move": "P"}
    assert result["next"] == {"seat": "N", "phase": "name", "legal": ["C", "H", "S"]}
    # without stick the dealer, the dealer may pass and the hand ends unplayed, 0-0
    status, result, _ = replay(tmp_path, capsys, {**spec, "moves": ["P"] * 8,
                                                  "stick_the_dealer": False})
    assert status == 0 and result["next"] is None and result["tricks"] == []
    assert result["points"] == {"NS": 0, "EW": 0}
    assert result["contract"] == {"trump": None, "maker": None, "alone": None}


def test_a_euchre_scores_two_for_the_defenders(tmp_path, capsys):
    # N (the dealer) is stuck and names clubs holding AC KC only; EW take three tricks
    moves = ["P"] * 7 + ["C", "partner", "KS", "JH", "9S", "TD", "AS", "AH", "QS", "9H", "TC",
                         "AD", "TH", "KC", "QD", "9C", "9D", "TS", "QH", "KD", "KH", "AC"]
    status, result, err = replay(tmp_path, capsys, {**WORKED, "moves": moves})
    assert status == 0, err
    assert result["contract"] == {"trump": "C", "maker": "N", "alone": False}
    # JH is no trump with clubs named (JS is the left bower): E's KS takes the first trick
    assert result["tricks"][0] == {"leader": "E", "cards": ["KS", "JH", "9S", "TD"],
                                   "winner": "E"}
    assert result["tricks_won"] == {"NS": 2, "EW": 3}
    assert result["points"] == {"NS": 0, "EW": 2}


@pytest.mark.parametrize("change, message", [
    ({"moves": ["H"]}, "move 0 ('H'): illegal move H for E (order); legal: P D"),
    ({"moves": ["P", "D", "JD"]}, "move 2 ('JD'): illegal move JD for N (discard); legal: "
                                  "KC AC TD QD 9H"),
    ({"moves": ["P", "D", "9H", "yes"]}, "move 3 ('yes'): bad move 'yes' in the alone phase: "
                                         "expected alone or partner"),
    ({"moves": ["P"] * 8}, "move 7 ('P'): illegal move P for N (name); legal: C H S"),
    ({"moves": ["P", "D", "9H", "alone", "AS", "9D", "TH"]},
     "move 6 ('TH'): illegal move TH for W (follow); legal: 9S TS QS"),
    ({"moves": WORKED["moves"] + ["P"]}, "move 19 ('P'): the hand is already over"),
    ({"moves": [3]}, "move 0 (3): a move is a string"),
    ({"hands": {**WORKED["hands"], "E": ["AS", "KS", "QH", "9C", "2C"]}},
     "hand E: bad card '2C'"),
    ({"hands": {**WORKED["hands"], "E": ["AS", "KS", "QH", "9C", "JD"]}},
     "duplicate card JD (the upcard is in a hand)"),
    ({"hands": {**WORKED["hands"], "E": ["AS", "KS", "QH", "9C", "AD"]}},
     "duplicate card AD"),
    ({"hands": {**WORKED["hands"], "E": ["AS", "KS", "QH"]}},
     "hand E: a hand must hold 5 cards, got 3"),
    ({"upcard": "XX"}, "upcard: bad card 'XX'"),
    ({"dealer": "Q"}, "bad seat 'Q'"),
    ({"stick_the_dealer": "yes"}, "stick_the_dealer must be true or false"),
])
def test_bad_input_is_one_line_and_status_2(tmp_path, capsys, change, message):
    status, _, err = replay(tmp_path, capsys, {**WORKED, **change})
    assert status == 2
    assert err.count("\n") == 1 and message in err and "Traceback" not in err, err


def test_missing_fields_and_a_bad_game(tmp_path, capsys):
    spec = {k: v for k, v in WORKED.items() if k != "upcard"}
    status, _, err = replay(tmp_path, capsys, spec)
    assert status == 2 and "the replay input has no 'upcard'" in err
    status, _, err = replay(tmp_path, capsys, [1, 2])
    assert status == 2 and "JSON object" in err
    path = tmp_path / "hand.json"
    status, _, err = run_cli(capsys, ["replay", "--game", "bridge", str(path)])
    assert status == 2 and "invalid choice: 'bridge'" in err


def test_stdin_through_the_console_script():
    proc = subprocess.run([sys.executable, "-m", "cli.main", "replay", "--game", "euchre", "-"],
                          input=json.dumps(WORKED), capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["points"] == {"NS": 4, "EW": 0}


@pytest.mark.parametrize("moves", [WORKED["moves"], ["P"] * 7 + ["C", "partner", "KS", "JH"]])
def test_openspiel_sees_the_same_seats_and_legal_moves(moves):
    """The CLI's absolute seats and text moves, fed to pyspiel's euchre: the same seat acts
    and the same moves are legal at every decision, and the points agree."""
    pyspiel = pytest.importorskip("pyspiel")
    from games.euchre.cards import openspiel_card, parse_card
    from games.euchre.replay import replay as euchre_replay

    spec = {**WORKED, "moves": moves}
    result = euchre_replay(spec)
    state = pyspiel.load_game("euchre").new_initial_state()
    seats = "NESW"
    dealer = seats.index(spec["dealer"])
    state.apply_action(dealer)
    holder = {openspiel_card(parse_card(c)): seats.index(seat)
              for seat, cards in spec["hands"].items() for c in cards}
    by_seat = {p: sorted(c for c, h in holder.items() if h == p) for p in range(4)}
    for k in range(20):  # OpenSpiel deals card k to the dealer + k
        state.apply_action(by_seat[(dealer + k) % 4][k // 4])
    state.apply_action(openspiel_card(parse_card(spec["upcard"])))
    names = {"Pass": "P", "Clubs": "C", "Diamonds": "D", "Hearts": "H", "Spades": "S",
             "Alone": "alone", "Partner": "partner"}

    def text(action):
        name = state.action_to_string(action)
        return names.get(name, name[1] + name[0])  # OpenSpiel writes cards suit first

    for decision in result["decisions"]:
        assert seats[state.current_player()] == decision["seat"]
        assert sorted(text(a) for a in state.legal_actions()) == sorted(decision["legal"])
        move = [a for a in state.legal_actions() if text(a) == decision["move"]]
        state.apply_action(move[0])
    if "points" in result:
        returns = state.returns()
        assert returns[seats.index("N")] == result["points"]["NS"] - result["points"]["EW"]


JUNK = [None, True, 0, -1, 2**70, 1.5, "", "x" * 300, "P", "alone", "JD", "10H", [], ["JD"],
        {}, {"N": []}, [["JD"]], "\u00e9", "J\u0000D"]


def test_fuzzed_specs_are_replayed_or_refused_in_one_line():
    """Every field (and every move and card) replaced by junk: the replay either succeeds or
    raises the game's error, never anything else."""
    import random

    from games.euchre.errors import EuchreError
    from games.euchre.replay import replay as euchre_replay

    rng = random.Random(29)
    outcomes = {"ok": 0, "refused": 0}
    for _ in range(600):
        spec = json.loads(json.dumps(WORKED))
        for _ in range(rng.randint(1, 3)):
            where = rng.choice(["dealer", "upcard", "hands", "moves", "stick_the_dealer",
                                "a move", "a card", "a hand", "cut moves"])
            junk = rng.choice(JUNK)
            if where == "a move" and spec.get("moves") and isinstance(spec["moves"], list):
                spec["moves"][rng.randrange(len(spec["moves"]))] = junk
            elif where == "cut moves" and isinstance(spec.get("moves"), list):
                spec["moves"] = spec["moves"][:rng.randrange(len(spec["moves"]) + 1)]
            elif where in ("a card", "a hand") and isinstance(spec.get("hands"), dict) \
                    and spec["hands"]:
                seat = rng.choice(sorted(spec["hands"]))
                if where == "a hand" or not isinstance(spec["hands"][seat], list) \
                        or not spec["hands"][seat]:
                    spec["hands"][seat] = junk
                else:
                    spec["hands"][seat][rng.randrange(len(spec["hands"][seat]))] = junk
            else:
                spec[where.split()[-1]] = junk
        try:
            euchre_replay(spec)
            outcomes["ok"] += 1
        except EuchreError as exc:
            assert str(exc) and "\n" not in str(exc)
            outcomes["refused"] += 1
    assert outcomes["ok"] > 10 and outcomes["refused"] > 300, outcomes
