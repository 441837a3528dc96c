"""The exact belief (`games/setback/play/exact_belief.py`): with a deterministic player whose bids
reveal who holds one card, the fraction of layouts that reproduce the auction is the probability of
that holder, which is known in closed form; the truth always reproduces its own moves; the same seed
draws the same layouts; a sampling player is refused; `inference --exact` reports the ceilings
with intervals
(that one in `tests/test_search_inference.py`, beside its database fixture)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from games.setback import state as S
from games.setback.rules import BID_MOVE, PASS, apply_move
from games.setback.view import SeatView
from games.setback.play.exact_belief import ExactBelief, NotDeterministic, reproduces
from games.setback.play.tournament import deal_state
from games.setback.search.inference import cards_played_by

MARK = 51  # the card whose holder the bids reveal
DEALER = 0  # seats are relative to the dealer, who bids last


class MarkBidder:
    """Bids the lowest legal bid when it holds MARK, passes otherwise, except that the dealer
    (last to bid) bids when everybody passed; pitches and plays its lowest legal card. Its bids
    depend on who holds MARK and on nothing else of the hands."""

    name = "mark"
    sample = False

    def choose(self, view: SeatView) -> int:
        legal = view.legal_moves()
        state = view.state
        if int(state[S.PHASE]) != S.PHASE_AUCTION:
            return int(legal[0])
        bids = [int(m) for m in legal if m != BID_MOVE + PASS]
        holds = int(state[S.HAND + view.seat]) >> MARK & 1
        last_and_no_bid = int(state[S.N_BIDS]) == 3 and int(state[S.HIGH_BID]) == 0
        return bids[0] if bids and (holds or last_and_no_bid) else BID_MOVE + PASS


def after_pitch(deal: int):
    """(state, history) of deal `deal` played by MarkBidder to just after the pitch."""
    player = MarkBidder()
    state = deal_state(np.uint64(7), deal)
    history: list[int] = []
    while not (state[S.PHASE] == S.PHASE_PLAY and int(state[S.PLAYED]) != 0):
        move = player.choose(SeatView.of(state, 0, (0, 0), history))
        apply_move(state, move)
        history.append(move)
    return state, history


def holder_probability(state, observer: int) -> float:
    """P(the auction comes out the same) under uniform layouts of `observer`'s hidden cards, in
    closed form: the bids name MARK's holder if it is a non-dealer seat; otherwise they only say
    that no non-dealer seat other than the observer holds it."""
    owner = next((s for s in range(4) if int(state[S.HAND + s]) >> MARK & 1), None)
    if owner == observer:
        return 1.0
    played = int(state[S.PLAYED])
    if played >> MARK & 1:  # pitched: every layout agrees on who held it
        return 1.0
    own = int(state[S.HAND + observer])
    unseen = 52 - bin(own | played).count("1")  # other hands and the undealt cards
    share = {s: bin(int(state[S.HAND + s])).count("1") / unseen
             for s in range(4) if s != observer}
    if owner is not None and owner != DEALER:
        return share[owner]
    return 1.0 - sum(p for s, p in share.items() if s != DEALER)


def test_fraction_of_reproducing_layouts_matches_closed_form():
    checked = 0
    for deal in range(40):
        state, history = after_pitch(deal)
        observer = int(state[S.TO_ACT])
        want = holder_probability(state, observer)
        if not 0.05 < want < 0.95:  # certain cases test nothing about the sampling
            continue
        view = SeatView.of(state, 0, (0, 0), history).state
        belief = ExactBelief(MarkBidder(), seed=deal, min_hits=1500)
        hits, drawn, kept = belief.fraction(view, observer, history, cards_played_by(history),
                                            0, upto=4, keep=5)
        got = hits / drawn
        sigma = math.sqrt(want * (1 - want) / drawn)
        assert abs(got - want) < 5 * sigma, (deal, got, want)
        assert kept.shape == (5, 4)
        for row in kept:  # the layouts kept are ones that reproduce the bids
            assert reproduces(MarkBidder(), row, cards_played_by(history), history, observer,
                              0, 4)
        checked += 1
        if checked == 4:
            break
    assert checked == 4


def test_truth_reproduces_and_seed_fixes_the_draws():
    state, history = after_pitch(3)
    observer = int(state[S.TO_ACT])
    truth = np.array([state[S.HAND + s] for s in range(4)], dtype=np.int64)
    played = cards_played_by(history)
    assert reproduces(MarkBidder(), truth, played, history, observer, 0, len(history))
    view = SeatView.of(state, 0, (0, 0), history).state
    a = ExactBelief(MarkBidder(), seed=11, min_hits=30).fraction(view, observer, history,
                                                                 played, 0, len(history), 30)
    b = ExactBelief(MarkBidder(), seed=11, min_hits=30).fraction(view, observer, history,
                                                                 played, 0, len(history), 30)
    assert a[:2] == b[:2] and np.array_equal(a[2], b[2])
    assert ExactBelief(MarkBidder()).loglik(-40.0, 10, 1000) == pytest.approx(-40 - math.log(0.01))


def test_sampling_player_and_bad_limits_are_refused():
    sampler = MarkBidder()
    sampler.sample = True
    with pytest.raises(NotDeterministic, match="deterministic"):
        ExactBelief(sampler)
    with pytest.raises(ValueError, match="at least 1"):
        ExactBelief(MarkBidder(), min_hits=0)


def test_a_budget_too_small_is_counted():
    state, history = after_pitch(5)
    observer = int(state[S.TO_ACT])
    view = SeatView.of(state, 0, (0, 0), history).state
    belief = ExactBelief(MarkBidder(), seed=1, min_hits=10**6, max_samples=1000)
    hits, drawn, _ = belief.fraction(view, observer, history, cards_played_by(history), 0, 4)
    assert drawn == 1000 and hits <= drawn and belief.limited == 1
