"""Property tests over 10,000 random deals: the numba core, the Python API and an independent
plain-Python oracle (tests/setback_oracle.py) agree move for move, and the invariants hold."""

import numpy as np
from hypothesis import given, settings, strategies as st

import setback_oracle as oracle
from games.rng import new_rng
from games.setback import state as S
from games.setback.api import Deal
from games.setback.cards import SEAT_CHARS, format_card
from games.setback.random_play import MAX_DEAL_MOVES, play_random_deal
from games.setback.rules import BID_MOVE

DEALS_PER_EXAMPLE = 50
EXAMPLES = 200  # 200 x 50 = 10,000 deals


def cards_of(mask):
    return [format_card(c) for c in range(52) if int(mask) >> c & 1]


def check_deal(state, moves, dealer):
    """Replay the kernel's deal through the API and the oracle; assert every invariant."""
    hands = {SEAT_CHARS[(dealer + rel) % 4]: cards_of(state[S.DEALT + rel]) for rel in range(4)}
    deal = Deal(SEAT_CHARS[dealer], hands)
    o_hands = [set(oracle.card(c) for c in cards_of(state[S.DEALT + rel])) for rel in range(4)]
    dealt = [set(h) for h in o_hands]
    bids, seat, trump, trick, leader = [], 1, None, [], None
    captured = [set(), set()]
    played = []
    score_when_exhausted = None
    for move in moves:
        legal = deal.legal_moves()
        assert legal, "legal moves are never empty while the deal runs"
        assert deal.to_act == SEAT_CHARS[(dealer + seat) % 4]
        if move >= BID_MOVE:
            o_legal = ["P" if b == 0 else str(b) for b in oracle.legal_bids(bids, seat)]
            assert legal == o_legal
            bid = move - BID_MOVE
            bids.append(bid)
            deal.play("P" if bid == 0 else str(bid))
            seat = (seat + 1) % 4
            if len(bids) == 4:
                high = max(bids)
                bidder = max(i for i, b in enumerate(bids) if b == high)  # last accepted
                seat = leader = (bidder + 1) % 4
            continue
        c = oracle.card(format_card(move))
        o_legal = oracle.legal_cards(o_hands[seat], trick, trump)
        assert sorted(oracle.card(x) for x in legal) == o_legal
        assert c in o_legal
        if trump is None:
            trump = c[1]
        deal.play(format_card(move))
        o_hands[seat].remove(c)
        trick.append(c)
        played.append(c)
        seat = (seat + 1) % 4
        if len(trick) == 4:
            winner = (leader + oracle.trick_winner(trick, trump)) % 4
            assert deal.tricks[-1].winner == SEAT_CHARS[(dealer + winner) % 4]
            captured[winner % 2].update(trick)
            trick, seat, leader = [], winner, winner
        if deal.is_exhausted and score_when_exhausted is None:
            score_when_exhausted = deal.deal_score()
    assert deal.is_over and deal.legal_moves() == []
    # The kernel's final state and the API's are the same state.
    assert np.array_equal(deal.state, state)
    score = deal.deal_score()
    if max(bids) == 0:
        assert score == {"EW": 0, "NS": 0} and played == []
        return
    # Every dealt card is played exactly once.
    assert len(played) == 24 and set(played) == set().union(*dealt)
    high = max(bids)
    bidder = max(i for i, b in enumerate(bids) if b == high)
    o_points, o_score = oracle.score_deal(dealt, captured, trump, high, (bidder + 1) % 4)
    team = lambda t: None if t is None else SEAT_CHARS[(dealer + t) % 4] in "WE" and "EW" or "NS"  # noqa: E731
    assert deal.points() == {k: team(v) for k, v in o_points.items()}
    # High goes to the holder of the top trump.
    top = max(c for h in dealt for c in h if c[1] == trump)
    holder = next(s for s in range(4) if top in dealt[s])
    assert deal.points()["high"] == team(holder % 2)
    # Each point is awarded at most once; scores stay in range.
    for name, owner in deal.points().items():
        assert owner in ("EW", "NS", None)
    assert all(-4 <= v <= 4 for v in score.values())
    assert sum(v for v in score.values() if v > 0) <= 4
    assert score == {team(t): o_score[t] for t in (0, 1)}
    # Once exhausted, the score no longer changes.
    assert score_when_exhausted == score


@settings(max_examples=EXAMPLES, deadline=None, derandomize=True)
@given(seed=st.integers(min_value=0, max_value=2**63 - 1), dealer=st.integers(0, 3))
def test_random_deals_core_api_and_oracle_agree(seed, dealer):
    rng = new_rng(seed)
    state = S.new_state()
    moves = np.empty(MAX_DEAL_MOVES, np.int64)
    for _ in range(DEALS_PER_EXAMPLE):
        n = play_random_deal(rng, state, moves)
        check_deal(state, [int(m) for m in moves[:n]], dealer)


@settings(max_examples=50, deadline=None, derandomize=True)
@given(seed=st.integers(min_value=0, max_value=2**63 - 1))
def test_recorded_exhaustion_equals_the_full_test_at_every_state(seed):
    from games.setback.rules import apply_move
    from games.setback.scoring import exhaustion_test, is_exhausted

    rng = new_rng(seed)
    state = S.new_state()
    moves = np.empty(MAX_DEAL_MOVES, np.int64)
    for _ in range(20):
        n = play_random_deal(rng, state, moves)
        replay = S.new_state()
        S.reset_deal(replay, state[S.DEALT:S.DEALT + 4].copy())
        for move in moves[:n]:
            assert is_exhausted(replay) == exhaustion_test(replay)
            apply_move(replay, move)
        assert is_exhausted(replay) and exhaustion_test(replay)
