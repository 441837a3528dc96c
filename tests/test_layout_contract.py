"""The `contract` layout (`games/setback/abstraction/layout_contract.py`), read like the spec: the
`bidder` key, plus at positions 14-15 the points the bidder's team holds for certain (the Jack
and the Two of trump taken, the Ace of trump played by one of its seats) and `!` once the
defenders' certain points have set the bid. The checks every layout passes are the ones of
`test_layout_bidder.py`."""

import numpy as np
import pytest

from games.setback.abstraction import layouts
from games.setback import state as S
from games.setback.cards import parse_card
from setback_abstraction_reference import cards, rank, suit
from setback_situations import deal, worked
from test_layout_bidder import (
    check_bulk_parse_equals_key_by_key,
    check_equal_keys_carry_equal_actions,
    check_kernel_equals_plain_python,
    check_keys_see_only_what_the_seat_knows,
    check_mismatch_refused_in_one_line,
    check_resume_is_bit_identical,
    check_worked_deal,
    kernel_key,
    side_fields,
)

NAME = "contract"
LAYOUT = layouts.load(NAME)

# the worked deal: P1 (team 1) bids Three and leads the Ace of trump, so from then on its team
# holds High for certain (`1`); nobody has set it (`.`)
WORKED = [
    (0, "0AJx2", ["P", "2", "3", "4"]),
    (6, "...+0At4t..0B31.TTTQ", ["TS", "QS"]),
    (8, "Hx.+0.......B31.TxT2TJS.W", ["7S", "2S", "JS", "KH", "3D"]),
    (9, "H4.-0Kx....0D31.l2lT", ["QH", "TH"]),
    (10, "H4.+0KxQx..0B31.TQw4l0", ["QS", "AH", "6H"]),
    (11, None, ["4H"]),
]


def certain(state, team: int) -> int:
    """The team's certain points, read off the state by the module docstring's table."""
    trump = int(state[S.TRUMP])
    points = 0
    for card in cards(int(state[S.WON + team])):
        points += suit(card) == trump and rank(card) in (11, 2)  # the Jack, the Two (Low)
    for seat in range(4):
        for card in cards(int(state[S.DEALT + seat]) & int(state[S.PLAYED])):
            points += suit(card) == trump and rank(card) == 14 and seat % 2 == team  # High
    return points


def contract_fields(state) -> str:
    """Positions 12-15 read off the state."""
    bidder = int(state[S.HIGH_BIDDER]) % 2
    beaten = certain(state, 1 - bidder) > 4 - int(state[S.HIGH_BID])
    return side_fields(state) + str(certain(state, bidder)) + ("!" if beaten else ".")


def test_worked_deal_keys_and_cards():
    check_worked_deal(LAYOUT, WORKED)


def test_the_jack_taken_by_the_defenders_sets_a_four():
    # P1 bids Four and wins trick 1 with the Ace of trump: High is its team's for certain
    hands = ("9H 4H KC 8D 6S 3C", "AS 7S 2S KH 3D 5C", "QH TH 5D 9C 4S 8C",
             "AH TS 6H 2C JD QS")
    state = deal(hands, "4 P P P AS 4S TS 6S".split()).state
    assert kernel_key(LAYOUT, state)[0][12:16] == "B41."
    # had the dealer (a defender) been dealt the Jack of trump and its team taken it, the
    # bidder could make at most three of its four: set, `!`
    crafted = state.copy()
    jack = 1 << parse_card("JS")
    crafted[S.DEALT + 0] |= jack
    crafted[S.WON + 0] |= jack
    crafted[S.PLAYED] |= jack
    assert contract_fields(crafted) == "B41!"
    assert kernel_key(LAYOUT, crafted)[0][12:16] == "B41!"


def test_certain_points_are_public_cards_only():
    # the Ace of trump still in a hand gives nobody High for certain; once played it does
    state = worked(4)  # the auction is over, P1 to lead: trump not set yet, no playout key
    assert int(state[S.TRUMP]) < 0
    state = worked(5)  # AS led: High is P1's team's for certain, seen by P2
    assert certain(state, 1) == 1 and certain(state, 0) == 0


def test_kernel_equals_a_plain_python_reading_on_random_deals():
    check_kernel_equals_plain_python(LAYOUT, contract_fields)


def test_keys_depend_only_on_what_the_acting_seat_knows():
    check_keys_see_only_what_the_seat_knows(LAYOUT)


def test_equal_keys_always_carry_the_same_actions():
    check_equal_keys_carry_equal_actions(LAYOUT)


def test_every_field_value_occurs_on_random_deals():
    from test_layout_bidder import random_decisions

    seen = set()
    for state in random_decisions(300, 17):
        text = kernel_key(LAYOUT, state)[0]
        if text is not None and text[0] in "H.":
            seen.add(text[12:16])
    assert {f[2] for f in seen} == set("0123") and {f[3] for f in seen} == set(".!")
    assert {f[:2] for f in seen} == {s + b for s in "BD" for b in "234"}


@pytest.mark.parametrize("text", [
    "Hx.+0.......B3TxT2TJS.W",  # a bidder key: no certain points
    "Hx.+0.......B34.TxT2TJS.W",  # never more than 3 certain points
    "Hx.+0.......B31?TxT2TJS.W",
])
def test_the_codec_refuses_strings_that_are_not_its_keys(text):
    from games.setback.abstraction.codec import KeyFormatError

    with pytest.raises(KeyFormatError):
        LAYOUT.text_key(text)


def test_a_mismatched_layout_is_refused_in_one_line(tmp_path):
    check_mismatch_refused_in_one_line(NAME, "Hx.+0.......B31.TxT2", tmp_path)


def test_resume_is_bit_identical(tmp_path):
    check_resume_is_bit_identical(NAME, tmp_path)


def test_contract_keys_refine_bidder_keys():
    bidder = layouts.load("bidder")
    from test_layout_bidder import random_decisions

    for state in random_decisions(40, 23):
        mine, theirs = kernel_key(LAYOUT, state)[0], kernel_key(bidder, state)[0]
        if mine is None or mine[0] not in "H.":
            assert mine == theirs
        else:
            assert mine[:14] + mine[16:] == theirs
    assert np.uint64(LAYOUT.text_key("Hx.+0.......B31.TxT2")) >> np.uint64(62) == 2


def test_the_bulk_codec_reads_every_key_as_the_exact_one_does():
    check_bulk_parse_equals_key_by_key(LAYOUT)
