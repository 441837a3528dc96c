"""`DatabasePlayer.explain`: the same move as `choose`, with the key, whether it was found,
each abstract action's probability and card, and the lookups in the order asked."""

import numpy as np

from games.setback.db.player import DatabasePlayer
from games.setback.api import Deal, format_move
from games.setback.view import SeatView
from test_db_player import BOOTSTRAP_P1, HANDS, SPEC_KEYS, WORKED, make_db


def test_explain_names_the_key_the_probabilities_and_the_card_of_each_action(tmp_path):
    player = DatabasePlayer(make_db(tmp_path, SPEC_KEYS))
    deal = Deal("S", {seat: cards.split() for seat, cards in HANDS.items()})
    found = 0
    for move in WORKED:
        x = player.explain(SeatView.of(deal.state, deal.dealer))
        assert format_move(x["move"]) == move
        if x["reason"] == "found":
            found += 1
            probs = SPEC_KEYS[x["key"]]
            assert np.allclose([a["prob"] for a in x["actions"]], probs)
            assert x["chosen"] == int(np.argmax(probs))
            assert x["actions"][x["chosen"]]["move"] == x["move"]
            assert x["lookups"] == [{"kind": x["kind"], "key": x["key"], "found": True}]
        deal.play(move)
    assert found == len(SPEC_KEYS)
    first = DatabasePlayer(make_db(tmp_path, SPEC_KEYS, name="t.db"))
    x = first.explain(SeatView.of(Deal("S", {s: c.split() for s, c in HANDS.items()}).state,
                                  3))
    assert x["key"] == "0AJx2" and [a["action"] for a in x["actions"]] == ["P", "2", "3", "4"]


def test_explain_reports_a_bootstrap_miss_then_the_baseline_key(tmp_path):
    player = DatabasePlayer(make_db(tmp_path, SPEC_KEYS, {"x./0/-1/0/zzzz": [1, 0, 0, 0]}))
    deal = Deal("S", {seat: cards.split() for seat, cards in HANDS.items()})
    x = player.explain(SeatView.of(deal.state, deal.dealer, (0, 0)))
    assert x["lookups"] == [{"kind": "bootstrap", "key": BOOTSTRAP_P1, "found": False},
                            {"kind": "auction", "key": "0AJx2", "found": True}]
    assert x["reason"] == "found" and format_move(x["move"]) == "3"


def test_explain_and_choose_agree_on_random_deals_including_fallbacks(tmp_path):
    a = DatabasePlayer(make_db(tmp_path, SPEC_KEYS, {BOOTSTRAP_P1: [0, 0, 1, 0]}))
    b = DatabasePlayer(make_db(tmp_path, SPEC_KEYS, {BOOTSTRAP_P1: [0, 0, 1, 0]}, name="b.db"))
    for seed in range(30):
        deal = Deal.random(seed, dealer="WNES"[seed % 4])
        while not deal.is_over:
            view = SeatView.of(deal.state, deal.dealer, (seed % 9, 2))
            x = a.explain(view)
            assert x["move"] == b.choose(view)
            if x["reason"] == "fallback":
                assert x["found"] is False and all(a_["prob"] is None for a_ in x["actions"])
            deal.play(format_move(x["move"]))
    assert a.report() == b.report()
