"""A plain brute-force minimax over the play of a Setback deal, for tests and the solver bench.

No pruning, no table, no shared search code: it walks every legal line to the last card with the
independent rules statement of `setback_oracle.py` (cards as (rank, suit) tuples) and scores the
end with the oracle's `score_deal`. Values are the bidder's team's deal score minus the other's.
"""

from __future__ import annotations

from setback_oracle import legal_cards, score_deal, trick_winner

from games.setback import state as S


def _card(index):
    return index % 13 + 2, index // 13


def _cards(mask):
    mask = int(mask)
    return [_card(c) for c in range(52) if mask >> c & 1]


def position_of(state):
    """The oracle's picture of an engine state in its playout, as a dict."""
    leader = int(state[S.LEADER])
    n_in = int(state[S.N_IN_TRICK])
    trump = int(state[S.TRUMP])
    return {
        "hands": [sorted(_cards(state[S.HAND + s])) for s in range(4)],
        "dealt": [_cards(state[S.DEALT + s]) for s in range(4)],
        "captured": [_cards(state[S.WON + t]) for t in range(2)],
        "trick": [(_card(int(state[S.TRICK + i])), (leader + i) % 4) for i in range(n_in)],
        "trump": None if trump < 0 else trump,
        "bid": int(state[S.HIGH_BID]),
        "bidder": int(state[S.HIGH_BIDDER]),
        "to_act": int(state[S.TO_ACT]),
    }


class BruteForce:
    """Counts the nodes it visits (`nodes`) across calls."""

    def __init__(self):
        self.nodes = 0

    def move_values(self, position):
        """{card index: exact value} for every legal move of the seat to act."""
        out = {}
        hand = position["hands"][position["to_act"]]
        trick = [c for c, _ in position["trick"]]
        for card in legal_cards(hand, trick, position["trump"]):
            out[(card[1]) * 13 + card[0] - 2] = self._after(position, card)
        return out

    def _after(self, p, card):
        seat = p["to_act"]
        hands = [list(h) for h in p["hands"]]
        hands[seat].remove(card)
        trump = card[1] if p["trump"] is None else p["trump"]
        trick = p["trick"] + [(card, seat)]
        captured = [list(c) for c in p["captured"]]
        to_act = (seat + 1) % 4
        if len(trick) == 4:
            winner = trick[trick_winner([c for c, _ in trick], trump)][1]
            captured[winner % 2] += [c for c, _ in trick]
            trick = []
            to_act = winner
        child = dict(p, hands=hands, trump=trump, trick=trick, captured=captured,
                     to_act=to_act)
        return self.value(child)

    def value(self, p):
        """The exact minimax value of position `p`."""
        self.nodes += 1
        if not any(p["hands"]) and not p["trick"]:
            _, score = score_deal(p["dealt"], p["captured"], p["trump"], p["bid"], p["bidder"])
            team = p["bidder"] % 2
            return score[team] - score[1 - team]
        values = self.move_values(p).values()
        return max(values) if p["to_act"] % 2 == p["bidder"] % 2 else min(values)


def random_position(seed: int, cards: int, in_trick: int = 0, fresh: bool = False):
    """An engine state in its playout with `cards` cards left in the hand of the trick's leader
    and `in_trick` cards already in the current trick, reached by random play from a random deal
    and auction (one random bidder, a random bid). `fresh`: deal only `cards` cards a seat and
    start at the bidder's first lead (trump not yet set), so that lead is searched too."""
    import random

    import numpy as np

    from games.setback.rules import BID_MOVE, MAX_MOVES, apply_move, legal_moves

    rng = random.Random(seed)
    deck = rng.sample(range(52), 24)
    size = cards if fresh else 6
    hands = np.zeros(4, dtype=np.int64)
    for seat in range(4):
        for c in deck[seat * size:(seat + 1) * size]:
            hands[seat] |= np.int64(1) << c
    state = S.new_state()
    S.reset_deal(state, hands)
    if fresh:
        state[S.TRICK_NUMBER] = 6 - cards  # the deal ends when the short hands are empty
    bidder, bid = rng.randrange(4), rng.choice((2, 3, 4))
    for seat in (1, 2, 3, 0):
        apply_move(state, BID_MOVE + (bid if seat == bidder else 0))
    if fresh:
        return state
    buffer = np.empty(MAX_MOVES, dtype=np.int64)
    for _ in range(4 * (6 - cards) + in_trick):
        n = legal_moves(state, buffer)
        apply_move(state, int(buffer[rng.randrange(n)]))
    return state
