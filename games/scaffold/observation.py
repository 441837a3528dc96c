"""The pieces every game's observation vector for the toolkits is made of (a game's encoder is
in its `games/<game>/toolkit.py`; `envs.adapters` calls it): written in numba, since a
reinforcement-learning loop asks for an observation at every step. Seats are written relative
to the observer (0 = itself, 1 = its left, 2 = its partner, 3 = its right)."""

from __future__ import annotations

import numpy as np
from numba import njit

SCORE_CLIP = 4.0  # a game score is written / the target, clipped to +-4


@njit(cache=True, inline="always")
def put_bits(out, offset, mask, size):
    """out[offset + c] = bit c of `mask`, c < `size`."""
    for c in range(size):
        out[offset + c] = (mask >> c) & 1


@njit(cache=True, inline="always")
def put_score(out, offset, us, them, target):
    """The game score us and them / `target`, clipped to +-`SCORE_CLIP`."""
    out[offset] = min(max(us / target, -SCORE_CLIP), SCORE_CLIP)
    out[offset + 1] = min(max(them / target, -SCORE_CLIP), SCORE_CLIP)


@njit(cache=True, inline="always")
def put_voids(out, offset, shown_voids, seat):
    """The suits each seat has shown void in (4 bits a seat from the dealer in `shown_voids`),
    4 a seat from the observer `seat`."""
    for k in range(4):
        s = (seat + k) % 4
        for suit in range(4):
            out[offset + 4 * k + suit] = (shown_voids >> (4 * s + suit)) & 1


@njit(cache=True, inline="always")
def put_trick(out, offset, trick, n_in, leader, sitting_out, seat, n_cards):
    """The cards of this trick (`trick[:n_in]`, played from `leader`, skipping the seat
    `sitting_out` or none at -1) by the three other seats, `n_cards` a seat; returns their
    mask."""
    in_trick = np.int64(0)
    player = leader
    for i in range(n_in):
        card = trick[i]
        in_trick |= np.int64(1) << card
        if player != seat:
            out[offset + n_cards * ((player - seat) % 4 - 1) + card] = 1.0
        player = (player + 1) % 4
        if player == sitting_out:
            player = (player + 1) % 4
    return in_trick


@njit(cache=True, inline="always")
def put_cards(out, hand, dealt, played, trick, n_in, leader, sitting_out, seat, n_cards,
              at_played, at_trick):
    """Clear `out`, then the cards of an observation every game has: the seat's `hand` at 0,
    its `dealt` cards at `n_cards`, the cards `played` in completed tricks at `at_played`, this
    trick's by the three others at `at_trick` (`put_trick`)."""
    out[:] = 0.0
    in_trick = put_trick(out, at_trick, trick, n_in, leader, sitting_out, seat, n_cards)
    put_bits(out, 0, hand, n_cards)
    put_bits(out, n_cards, dealt, n_cards)
    put_bits(out, at_played, played & ~in_trick, n_cards)


@njit(cache=True, inline="always")
def put_state_cards(out, state, words, dealt, sitting_out, seat, n_cards, at_played, at_trick):
    """`put_cards` read off a game's state: `words` its trick words (`games.scaffold.trick`),
    `dealt` the offset of its dealt hands."""
    hand, played, trick, n_in_trick, _, leader, _, _ = words
    put_cards(out, state[hand + seat], state[dealt + seat], state[played],
              state[trick:trick + 4], state[n_in_trick], state[leader], sitting_out, seat,
              n_cards, at_played, at_trick)


@njit(cache=True, inline="always")
def put_play_turn(out, state, words, seat, at_leader, at_lead):
    """During the play: the trick's leader from the observer `seat` at `at_leader` (4 slots),
    and whether the seat to act leads (`at_lead`) or follows (`at_lead + 1`)."""
    _, _, _, n_in_trick, _, leader, _, _ = words
    out[at_leader + (state[leader] - seat) % 4] = 1.0
    out[at_lead + (0 if state[n_in_trick] == 0 else 1)] = 1.0
