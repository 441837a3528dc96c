"""The shared double-dummy solver (`search/double_dummy.py`): equal to a plain brute-force
minimax on small endings (1 to 4 tricks, every trump and no trump, any leader), equal to
OpenSpiel's bridge (Haglund's DDS) on a stored set of 52-card deals (tests/data/dd_tables.json,
written by `bench/dd_vs_dds.py --fixture`) and on a fresh one, and `setback-cfr dd-table`."""

from __future__ import annotations

import functools
import io
import json
import pathlib
import random
import sys

import numpy as np
import pytest

from cli_runner import run_cli
from search.double_dummy import NO_TRUMP, DoubleDummySolver, _later_tricks, check_hands

FIXTURE = pathlib.Path(__file__).parent / "data" / "dd_tables.json"
# The fixture's deals checked here: those of its 40 the solver settles in about a second or
# less on a busy 2-core machine (the others take up to a minute: `python
# bench/dd_vs_dds.py` compares hundreds of deals)
STORED = (5, 6, 16, 17, 18, 20, 27, 31, 34, 37, 38)
QUICK = 34  # the fixture's fastest deal, for the command's tests


@functools.lru_cache(maxsize=None)
def _brute(hands: tuple, trump: int, leader: int, trick: tuple) -> int:
    """Tricks seats 0 and 2 take from here: every legal card tried, no pruning. `trick`
    holds the (seat, card) pairs of the trick under way."""
    seat = (leader + len(trick)) % 4
    if hands[seat] == 0:
        return 0
    cards = [c for c in range(52) if hands[seat] >> c & 1]
    if trick:
        follow = [c for c in cards if c // 13 == trick[0][1] // 13]
        cards = follow or cards
    values = []
    for card in cards:
        rest = list(hands)
        rest[seat] &= ~(1 << card)
        played = trick + ((seat, card),)
        if len(played) < 4:
            values.append(_brute(tuple(rest), trump, leader, played))
            continue
        winner, best = played[0]
        for other, c in played[1:]:
            if (c // 13 == best // 13 and c > best) or (c // 13 == trump != best // 13):
                winner, best = other, c
        values.append((winner % 2 == 0) + _brute(tuple(rest), trump, winner, ()))
    return max(values) if seat % 2 == 0 else min(values)


def _ending(seed: int) -> tuple[list[int], int, int]:
    """(hands, trump, leader) of a random ending of 1 to 4 tricks: cards from the whole deck
    or, every other seed, from one to three suits (so more cards meet in a suit)."""
    rng = random.Random(seed)
    size = 1 + seed % 4
    suits = list(range(4)) if seed % 2 == 0 else rng.sample(range(4), rng.randint(
        1 if size <= 3 else 2, 3))
    deck = [s * 13 + r for s in suits for r in range(13)]
    rng.shuffle(deck)
    hands = [sum(1 << c for c in deck[i * size:(i + 1) * size]) for i in range(4)]
    return hands, rng.randint(0, NO_TRUMP), rng.randint(0, 3)


@pytest.fixture(scope="module")
def solver():
    return DoubleDummySolver(tt_bits=10)  # a small table: collisions and replacements happen


@pytest.mark.parametrize("seed", range(120))
def test_solver_equals_brute_force_on_small_endings(solver, seed):
    hands, trump, leader = _ending(seed)
    assert solver.tricks(hands, trump, leader) == _brute(tuple(hands), trump, leader, ())


def test_later_tricks_bounds_hold_on_small_endings():
    """Every time DDS's "later tricks" rules say the side on lead cannot take so many tricks,
    the brute force agrees (and the rules do fire, with and without trumps)."""
    fired = {True: 0, False: 0}
    for seed in range(400):
        hands, trump, leader = _ending(seed)
        left = bin(hands[0]).count("1")
        side0 = _brute(tuple(hands), trump, leader, ())
        leaders = side0 if leader % 2 == 0 else left - side0
        masks = np.array(hands, dtype=np.int64)
        for wanted in range(1, left + 1):
            if _later_tricks(masks, leader, trump, left, wanted) >= 0:
                assert leaders < wanted, (seed, wanted)
                fired[trump == NO_TRUMP] += 1
    assert fired[True] > 0 and fired[False] > 0, fired


def test_table_entries_are_the_leaders_solves(solver):
    """The table's entry of declarer d is side 0's count when d's left-hand opponent leads,
    turned to d's side."""
    hands, _, _ = _ending(4)
    table = solver.table(hands)
    size = bin(hands[0]).count("1")
    for trump in range(NO_TRUMP + 1):
        for declarer in range(4):
            side0 = _brute(tuple(hands), trump, (declarer + 1) % 4, ())
            assert table[trump, declarer] == (side0 if declarer % 2 == 0 else size - side0)


def _masks(deal: dict) -> list[int]:
    ranks, suits = "23456789TJQKA", "CDHS"
    return [sum(1 << (suits.index(c[1]) * 13 + ranks.index(c[0])) for c in deal["hands"][s])
            for s in "NESW"]


def _stored_table(deal: dict) -> np.ndarray:
    return np.array([[deal["table"][strain][s] for s in "NESW"]
                     for strain in ("C", "D", "H", "S", "NT")])


@pytest.fixture(scope="module")
def deals():
    return json.loads(FIXTURE.read_text())["deals"]


@pytest.fixture(scope="module")
def big_solver():
    return DoubleDummySolver()  # one table for every stored deal, as dd-table keeps it


@pytest.mark.parametrize("index", STORED)
def test_table_equals_dds_on_stored_deals(big_solver, deals, index):
    assert (big_solver.table(_masks(deals[index])) == _stored_table(deals[index])).all()


def test_table_equals_dds_on_a_fresh_deal(big_solver):
    """OpenSpiel itself (when installed), on a deal of seed 2 of the benchmark's dealing."""
    pytest.importorskip("pyspiel")
    sys.path.insert(0, str(pathlib.Path(__file__).parent.parent / "bench"))
    from dd_vs_dds import bridge_game, dds_table, deal_state, hands_of, random_order

    game = bridge_game()
    order = random_order(random.Random(2))
    state, _, _ = deal_state(game, order)
    assert (big_solver.table(hands_of(order)) == dds_table(game, state)).all()


@pytest.mark.parametrize("hands, message", [
    ([1, 2, 4], "four hands"),
    ([1, 1, 2, 4], "same card"),
    ([1, 2, 4, 8 | 16], "1 to 13 cards"),
    ([0, 0, 0, 0], "1 to 13 cards"),
    ([1, 2, 4, 1 << 52], "outside"),
])
def test_bad_hands_are_refused(hands, message):
    with pytest.raises(ValueError, match=message):
        check_hands(hands)


def _run(capsys, monkeypatch, text, *argv):
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    return run_cli(capsys, ["dd-table", *argv] if argv else ["dd-table", "-"])


def _line(deal: dict) -> str:
    return json.dumps({"hands": deal["hands"]})


def test_cli_prints_the_table_of_each_line(capsys, monkeypatch, deals):
    # the cards again in lower case, tens as 10: the same deal
    other = {seat: [c.lower().replace("t", "10") for c in cards]
             for seat, cards in deals[QUICK]["hands"].items()}
    text = _line(deals[QUICK]) + "\n\n" + json.dumps({"hands": other}) + "\n"
    status, out, err = _run(capsys, monkeypatch, text)
    assert (status, err) == (0, "")
    assert [json.loads(line) for line in out.splitlines()] == [deals[QUICK]["table"]] * 2
    assert list(json.loads(out.splitlines()[0])) == ["NT", "S", "H", "D", "C"]


def test_cli_reads_a_file(capsys, tmp_path, deals):
    path = tmp_path / "deals.jsonl"
    path.write_text(_line(deals[QUICK]) + "\n")
    status, out, err = run_cli(capsys, ["dd-table", path, "--tt-bits", "16"])
    assert (status, err, json.loads(out)) == (0, "", deals[QUICK]["table"])


def _bad(hands_edit):
    hands = json.loads(FIXTURE.read_text())["deals"][QUICK]["hands"]
    hands = {seat: list(cards) for seat, cards in hands.items()}
    hands_edit(hands)
    return json.dumps({"hands": hands})


@pytest.mark.parametrize("line, message", [
    ("{not json", "line 1: not valid JSON"),
    ("[1, 2]", 'line 1: expected {"hands"'),
    ('{"deal": 1}', 'line 1: expected {"hands"'),
    (_bad(lambda h: h["N"].__setitem__(0, "1S")), "line 1: bad card '1S'"),
    (_bad(lambda h: h["N"].__setitem__(0, 7)), "line 1: bad card 7"),
    (_bad(lambda h: h["N"].__setitem__(0, h["E"][0])), "line 1: card"),
    (_bad(lambda h: h["N"].__setitem__(1, h["N"][0])), "line 1: card"),
    (_bad(lambda h: h["W"].pop()), "line 1: W holds 12 cards"),
    (_bad(lambda h: h.__setitem__("W", "AS")), "line 1: W holds no list of cards"),
    (_bad(lambda h: h.pop("S")), 'line 1: expected {"hands"'),
])
def test_cli_refuses_a_bad_line_with_status_2(capsys, monkeypatch, line, message):
    status, out, err = _run(capsys, monkeypatch, line + "\n")
    assert (status, out) == (2, "")
    assert err.startswith(f"setback-cfr: error: {message}") and err.count("\n") == 1


def test_cli_answers_the_lines_before_a_bad_one(capsys, monkeypatch, deals):
    status, out, err = _run(capsys, monkeypatch, _line(deals[QUICK]) + "\n{\n")
    assert status == 2 and json.loads(out) == deals[QUICK]["table"]
    assert err.startswith("setback-cfr: error: line 2: not valid JSON")


def test_cli_missing_file_is_status_2(capsys, tmp_path):
    status, _, err = run_cli(capsys, ["dd-table", tmp_path / "none.jsonl"])
    assert status == 2 and "cannot read" in err


def test_cli_help_explains_every_option(capsys):
    status, out, _ = run_cli(capsys, ["dd-table", "--help"])
    assert status == 0
    for words in ("FILE", "--tt-bits", "left-hand opponent", "exit status 2",
                  "docs/search/double-dummy.md"):
        assert words in out


def test_cli_file_not_utf8_is_status_2(capsys, tmp_path):
    path = tmp_path / "deals.jsonl"
    path.write_bytes(b"\xff\xfe\n")
    status, out, err = run_cli(capsys, ["dd-table", path])
    assert (status, out) == (2, "") and "not UTF-8" in err
