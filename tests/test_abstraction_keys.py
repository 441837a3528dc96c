"""abstraction.md: baseline auction keys (Four filter), bootstrap keys, establish keys, the
playout key and the worked deal, through the numba kernels and the codec (`describe_decision`)."""

from __future__ import annotations

import pytest

from games.setback.abstraction.bootstrap_key import score_text
from games.setback.abstraction.describe import describe_decision
from setback_situations import WORKED_MOVES, deal, worked


def actions(desc):
    return [(a["action"], a["move"]) for a in desc["actions"]]


# ---- the worked deal, row by row -------------------------------------------------------------

def test_worked_p1_bids_first():
    d = describe_decision(worked(0))
    assert d["key"] == "0AJx2"
    assert actions(d) == [("P", "P"), ("2", "2"), ("3", "3"), ("4", "4")]


def test_worked_first_lead_forced_ace_of_spades():
    d = describe_decision(worked(4))
    assert d["key"] is None and actions(d) == [("E0", "AS")]


def test_worked_p2_four_of_spades_forced():
    d = describe_decision(worked(5))
    assert d["key"] is None and [a["move"] for a in d["actions"]] == ["4S"]


def test_worked_p3_trick1_after_as_4s():
    d = describe_decision(worked(6))
    assert d["key"] == "...+0At4t..0TTTQ"
    assert actions(d) == [("TT", "TS"), ("TQ", "QS")]


def test_worked_p0_six_of_spades_forced():
    d = describe_decision(worked(7))
    assert d["key"] is None and [a["move"] for a in d["actions"]] == ["6S"]


def test_worked_p1_leads_trick2():
    d = describe_decision(worked(8))
    assert d["key"] == "Hx.+0.......TxT2TJS.W"
    assert actions(d) == [("Tx", "7S"), ("T2", "2S"), ("TJ", "JS"), ("S.", "KH"), ("W.", "3D")]


def test_worked_p2_after_kh():
    d = describe_decision(worked(9))
    assert d["key"] == "H4.-0Kx....0l2lT"
    assert actions(d) == [("l2", "QH"), ("lT", "TH")]


def test_worked_p3_after_kh_qh():
    d = describe_decision(worked(10))
    assert d["key"] == "H4.+0KxQx..0TQw4l0"
    assert actions(d) == [("TQ", "QS"), ("w4", "AH"), ("l0", "6H")]


def test_worked_p0_after_kh_qh_ah_forced_low():
    d = describe_decision(worked(11))
    assert d["key"] is None and actions(d) == [("l0", "4H")]


def test_trimming_eats_the_last_actions_dot():
    key = describe_decision(worked(8))["key"]
    assert key.endswith("S.W") and len(key) == 21


# ---- baseline auction ------------------------------------------------------------------------

def test_four_dropped_without_the_jack_of_a_top_suit():
    # P1 holds AS KS 7S 2S KH 3D: no Jack of spades -> Pass, Two, Three
    d = describe_decision(deal(("9H 4H KC 8D 6S 3C", "AS KS 7S 2S KH 3D", "QH TH 5D 9C 4S 8C",
                                "AH TS 6H 2C JD QS")).state)
    assert d["key"] == "0AKx2" and [a["action"] for a in d["actions"]] == ["P", "2", "3"]


def test_jack_of_the_second_top_suit_allows_four():
    hands = ("9H 4H KC 8D 6S 3C", "AS JS KH QH 2C 3D", "TH 5H 5D 9C 4S 8C", "AH TS 6H 2D JD QS")
    d = describe_decision(deal(hands).state)
    # spades 13+10 = 23, hearts 12+11 = 23, spade list A J > K Q: spades top, hearts second
    assert d["key"] == "0AJ....KQ" and [a["action"] for a in d["actions"]] == ["P", "2", "3", "4"]


def test_facing_four_non_dealer_has_no_key():
    d = describe_decision(deal(moves=["4"]).state)
    assert d["key"] is None and actions(d) == [("P", "P")]


def test_dealer_facing_four_with_the_jack_of_the_second_top_suit_is_D():
    # P0: clubs K 3 (12 + 2) top, hearts J 4 (10 + 3) kept second: the heart Jack allows Four
    hands = ("JH 4H KC 8D 6S 3C", "AS JS 7S 2S KH 3D", "QH TH 5D 9C 4S 8C", "AH TS 6H 2C JD QS")
    d = describe_decision(deal(hands, ["4", "P", "P"]).state)
    assert d["key"] == "DK3....J4" and [a["action"] for a in d["actions"]] == ["P", "4"]


def test_dealer_facing_four_without_a_top_jack_is_forced_pass():
    d = describe_decision(deal(moves=["4", "P", "P"]).state)
    assert d["key"] is None and actions(d) == [("P", "P")]


def test_high_bid_character():
    assert describe_decision(deal(moves=["P", "2"]).state)["key"].startswith("2")
    assert describe_decision(deal(moves=["P", "P"]).state)["key"].startswith("0")


# ---- bootstrap -------------------------------------------------------------------------------

@pytest.mark.parametrize("us, them, text", [(9, 8, "3."), (5, 9, "2!"), (0, 0, "x.")])
def test_bootstrap_score_examples(us, them, text):
    assert score_text(us, them) == text


def test_bootstrap_score_past_eleven_and_negative():
    assert score_text(12, 10) == "3."  # T = 13: need_them 3, need_us 1
    assert score_text(-3, 10) == "1!"  # T = 11: need_them 1, need_us 14


def test_bootstrap_key_format_and_score_from_the_bidders_team():
    # dealer West: P1 is North (NS), P2 is East (EW)
    d = describe_decision(worked(0), {"EW": 0, "NS": 0}, dealer=0)
    assert d["bootstrap_key"] == "x./0/-1/0/AJx2........"
    d = describe_decision(worked(0), {"EW": 9, "NS": 5}, dealer=0)
    assert d["bootstrap_key"] == "2!/0/-1/0/AJx2........"


def test_bootstrap_keeps_four_without_the_jack():
    d = deal(("9H 4H KC 8D 6S 3C", "AS KS 7S 2S KH 3D", "QH TH 5D 9C 4S 8C",
              "AH TS 6H 2C JD QS"), ["P", "3"])
    desc = describe_decision(d.state, {"EW": 1, "NS": 2}, dealer=0)
    # P3 (South, NS: us 2, them 1) holds Q T of spades and no Jack facing Three: the baseline
    # has only Pass (no key), the bootstrap keeps Pass and Four
    assert desc["key"] is None and desc["bootstrap_key"] == "x./3/2/2/QT.........."
    assert [a["action"] for a in desc["actions"]] == ["P"]


def test_no_bootstrap_key_outside_the_auction_or_without_score():
    assert "bootstrap_key" not in describe_decision(worked(0))
    assert "bootstrap_key" not in describe_decision(worked(6), {"EW": 0, "NS": 0})


# ---- establish -------------------------------------------------------------------------------

def test_establish_key_with_two_top_suits():
    hands = ("9H 4H KC 8D 6S 3C", "AS JS KH QH 2C 3D", "TH 5H 5D 9C 4S 8C", "AH TS 6H 2D JD QS")
    d = describe_decision(deal(hands, ["2", "P", "P", "P"]).state)
    assert d["key"] == "E2AJ....KQ"
    assert actions(d) == [("E0", "AS"), ("E1", "KH")]


def test_describe_lists_every_decision_of_the_worked_deal():
    d = deal()
    for move in WORKED_MOVES:
        desc = describe_decision(d.state)
        assert move in [a["move"] for a in desc["actions"]]
        d.play(move)
