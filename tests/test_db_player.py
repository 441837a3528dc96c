"""`DatabasePlayer` on the worked deal of abstraction.md: keys built through the abstraction,
the stored best action mapped back to a card, forced moves without lookups, the reference's
fallback for missing keys (counted), bootstrap keys first, seeded sampling."""

import numpy as np
import pytest

from db.errors import DatabaseError
from db.loader import load_strategies
from games.setback.db.player import DatabasePlayer
from games.setback.db.synthetic import write_table
from games.setback.api import Deal, format_move, parse_move
from games.setback.view import SeatView

# Dealer P0 = South, so P1 = West, P2 = North, P3 = East.
HANDS = {"S": "9H 4H KC 8D 6S 3C", "W": "AS JS 7S 2S KH 3D",
         "N": "QH TH 5D 9C 4S 8C", "E": "AH TS 6H 2C JD QS"}
# The worked deal's moves, and the spec's keys with vectors whose best is the move played.
WORKED = ["3", "P", "P", "P", "AS", "4S", "TS", "6S", "KH", "QH", "AH", "4H"]
SPEC_KEYS = {
    "0AJx2": [0.1, 0.2, 0.6, 0.1],  # P1 bids Three
    "...+0At4t..0TTTQ": [0.7, 0.3],  # P3: TT -> TS
    "Hx.+0.......TxT2TJS.W": [0.1, 0.1, 0.1, 0.6, 0.1],  # P1 leads S. -> KH
    "H4.-0Kx....0l2lT": [0.8, 0.2],  # P2: l2 -> QH
    "H4.+0KxQx..0TQw4l0": [0.2, 0.7, 0.1],  # P3: w4 -> AH
}
BOOTSTRAP_P1 = "x./0/-1/0/AJx2........"  # P1's bootstrap key at 0-0


def make_db(tmp_path, baseline, bootstrap=None, name="s.db"):
    files = [str(tmp_path / "base.strategy")]
    write_table(files[0], "baseline", baseline)
    if bootstrap is not None:
        files.append(str(tmp_path / "boot.strategy"))
        write_table(files[1], "bootstrap", bootstrap)
    path = str(tmp_path / name)
    load_strategies(files, path, progress=False)
    return path


def play(player, moves=len(WORKED), score=(0, 0)):
    """Let `player` choose every move of the worked deal's first `moves` decisions."""
    deal = Deal("S", {seat: cards.split() for seat, cards in HANDS.items()})
    chosen = []
    for _ in range(moves):
        move = player.choose(SeatView.of(deal.state, deal.dealer, score))
        chosen.append(format_move(move))
        deal.play(chosen[-1])
    return chosen, deal


def test_the_worked_deal_is_played_from_the_database(tmp_path):
    player = DatabasePlayer(make_db(tmp_path, SPEC_KEYS))
    chosen, _ = play(player)
    assert chosen == WORKED
    assert player.report() == {"decisions": 12, "forced": 7, "lookups": 5, "found": 5,
                               "fallback": 0, "missing": 0, "missing_by_kind": {}}


def test_missing_keys_fall_back_to_the_reference_rule_and_are_counted(tmp_path):
    player = DatabasePlayer(make_db(tmp_path, {"E2Q": [1.0, 0.0]}))
    chosen, _ = play(player)
    # Three is legal for P1; then the first abstract action: TT -> TS, Tx -> 7S (highest
    # trump without game points), then P2 follows spades with 4S, P3 and P0 follow.
    assert chosen[:8] == WORKED[:8]
    assert chosen[8] == "7S"
    report = player.report()
    assert report["missing"] == report["fallback"] == report["lookups"] > 0
    assert report["found"] == 0
    assert report["missing_by_kind"]["auction"] == 1
    assert report["missing_by_kind"]["playout"] == report["missing"] - 1


def test_missing_bid_falls_back_to_pass_when_three_is_not_legal(tmp_path):
    # P1 bids Three; P2 holds the Jack of its top suit, so Pass and Four are its actions
    hands = {"S": "9H 4H KC 8D 6S 3C", "W": "AS QH 7S 2S KH 3D",
             "N": "JS QS 5D 9C 4S 8C", "E": "AH TS 6H 2C JD TH"}
    player = DatabasePlayer(make_db(tmp_path, {"E2Q": [1.0, 0.0]}))
    deal = Deal("S", {seat: cards.split() for seat, cards in hands.items()})
    deal.play("3")
    move = player.choose(SeatView.of(deal.state, deal.dealer))
    assert move == parse_move("P", "bid")
    assert player.report()["missing_by_kind"] == {"auction": 1}


def test_bootstrap_keys_are_asked_first_when_loaded(tmp_path):
    path = make_db(tmp_path, SPEC_KEYS, {BOOTSTRAP_P1: [0.0, 0.1, 0.2, 0.7]})
    player = DatabasePlayer(path)
    assert player.use_bootstrap
    deal = Deal("S", {seat: cards.split() for seat, cards in HANDS.items()})
    assert format_move(player.choose(SeatView.of(deal.state, deal.dealer, (0, 0)))) == "4"
    assert player.report()["found"] == 1 and player.report()["lookups"] == 1
    # another score: the bootstrap key is absent, the baseline auction key answers (Three)
    assert format_move(player.choose(SeatView.of(deal.state, deal.dealer, (9, 8)))) == "3"
    assert player.report()["missing_by_kind"] == {"bootstrap": 1}
    assert player.report()["fallback"] == 0
    # bootstrap keys off: the baseline key
    baseline_only = DatabasePlayer(path, use_bootstrap=False)
    assert format_move(baseline_only.choose(SeatView.of(deal.state, deal.dealer))) == "3"


def test_bootstrap_key_uses_the_score_seen_from_the_bidder(tmp_path):
    # P1 is West (team EW, index 0 of the score): us 9, them 8 -> S = "3."
    key = "3./0/-1/0/AJx2........"
    player = DatabasePlayer(make_db(tmp_path, SPEC_KEYS, {key: [1.0, 0.0, 0.0, 0.0]}))
    deal = Deal("S", {seat: cards.split() for seat, cards in HANDS.items()})
    assert format_move(player.choose(SeatView.of(deal.state, deal.dealer, (9, 8)))) == "P"
    assert player.report()["found"] == 1


def test_sampling_is_seeded_and_follows_the_probabilities(tmp_path):
    path = make_db(tmp_path, {"0AJx2": [0.1, 0.2, 0.3, 0.4]})
    deal = Deal("S", {seat: cards.split() for seat, cards in HANDS.items()})
    view = SeatView.of(deal.state, deal.dealer)

    def draws(seed, n=4000):
        player = DatabasePlayer(path, sample=True, seed=seed)
        return [player.choose(view) for _ in range(n)]

    a, b = draws(7), draws(7)
    assert a == b and a != draws(8)
    counts = np.bincount(np.array(a) - parse_move("P", "bid"), minlength=5)[[0, 2, 3, 4]]
    np.testing.assert_allclose(counts / counts.sum(), [0.1, 0.2, 0.3, 0.4], atol=0.03)


def test_a_vector_of_the_wrong_length_is_a_database_error(tmp_path):
    player = DatabasePlayer(make_db(tmp_path, {"0AJx2": [0.5, 0.5]}))
    deal = Deal("S", {seat: cards.split() for seat, cards in HANDS.items()})
    with pytest.raises(DatabaseError, match="2 actions in the database but 4"):
        player.choose(SeatView.of(deal.state, deal.dealer))


def test_every_move_of_random_deals_is_legal(tmp_path):
    player = DatabasePlayer(make_db(tmp_path, SPEC_KEYS))
    for seed in range(20):
        deal = Deal.random(seed)
        while not deal.is_over:
            move = format_move(player.choose(SeatView.of(deal.state, deal.dealer, (3, 5))))
            assert move in deal.legal_moves()
            deal.play(move)
    report = player.report()
    assert report["decisions"] == report["forced"] + report["found"] + report["fallback"]


def test_the_player_asks_for_the_keys_describe_decision_names(tmp_path):
    from games.setback.abstraction.describe import describe_decision

    player = DatabasePlayer(make_db(tmp_path, SPEC_KEYS, {BOOTSTRAP_P1: [0, 0, 1, 0]}))
    asked = []
    lookup = player.db.lookup
    player.db.lookup = lambda key: asked.append(key) or lookup(key)
    for seed in range(20):
        deal = Deal.random(seed, dealer="NESW"[seed % 4])
        score = (seed % 14 - 3, (seed * 5) % 14 - 3)
        while not deal.is_over:
            view = SeatView.of(deal.state, deal.dealer, score)
            described = describe_decision(view.state, {"EW": score[0], "NS": score[1]},
                                          deal.dealer)
            expected = []
            if view.legal_moves().size > 1:
                if described.get("bootstrap_key"):
                    expected.append(described["bootstrap_key"])
                if described["key"] and not (expected and lookup(expected[0])):
                    expected.append(described["key"])  # asked unless the bootstrap key hit
            del asked[:]
            move = format_move(player.choose(view))
            assert asked == expected
            if described["key"] is None and view.legal_moves().size > 1 and not asked:
                assert move == described["actions"][0]["move"]
            deal.play(move)
