"""Setback's card play as plain trick play: what the one solver of captured cards
(`search/capture_values.py`) is driven by, and its compiled wrappers for the oracle, PIMC,
single-dummy and `solve-deal`.

Setback's cards are the solver's own (`suit * 13 + rank`), a seat holding the suit led may
trump anyway (`rules.legal_cards`), and the value (`scoring.score_difference`: team 0's deal
score minus team 1's, setback included) depends on the cards each side captures. Three
counters carry it: the game points captured (Game); a 1 on the lowest trump in play while it
is not yet taken (Low); a 1 on the Jack of trump while it is dealt and not taken (Jack). High
is fixed by the deal. The value table over them is the rules' own scoring
(`scoring.points_score`). Before trump is set (the bidder's first lead) the lead sets it: each
suit the leader holds is solved as trump, its cards the leads searched.

The wrappers keep the values from the bidder's team's side (`Solver`), as the players read
them.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.bits import highest_bit, lowest_bit
from games.setback.cards import GAME_POINTS_BY_RANK, JACK, make_card, mask_game_points, suit_mask
from games.setback.scoring import dealt_cards, points_score, score_difference, team_taking
from games.setback.state import (DEALT, EXHAUSTED, HAND, HAND_SIZE, HIGH_BID, HIGH_BIDDER,
                                 LEADER, N_IN_TRICK, PHASE, PHASE_OVER, PHASE_PLAY, STATE_SIZE,
                                 TO_ACT, TRICK, TRICK_NUMBER, TRUMP, WON)
from games.setback.rules import apply_card, legal_cards
from search.capture_values import (CTX_NODES, DEFAULT_TT_BITS, MAX_CARDS, SPEC_SIZE,
                                   Buffers, card_values, counter_strides, position_value,
                                   prepare_spec, set_root)

N_COUNTERS = 3  # game points, Low, Jack
TABLE_SIZE = 1024  # (80 game points + 1) * 2 * 2 = 324 values at most
# Rows of a declaration's work array (int64[DECL_ROWS, 52]).
D_WEIGHTS = 0  # rows 0..2: each counter's weight per card
D_ORDER = 3  # the move-order weight per card: its game points
D_RANGES = 4  # row 4: the counters' ranges
D_STRIDES = 5  # row 5: their strides in the value table
D_HANDS = 6  # row 6: the hands (0..3), the trick's cards (4..7)
D_SCRATCH = 7  # row 7: a state after one card (`_settled_moves`)
DECL_ROWS = 8


@njit(cache=True, inline="always", _nrt=False)
def _card_points(card):
    return GAME_POINTS_BY_RANK[card % 13 + 2]


@njit(cache=True, _nrt=False)
def declare(state, trump, decl, table, spec):
    """The declaration of `state` (a deal in its playout) with `trump` as trump (the state's,
    or the suit of a first lead) into `spec` and `table` (module docstring); `decl` is work
    space, its hand rows holding the position after."""
    hands = decl[D_HANDS]
    live = np.int64(0)
    for seat in range(4):
        hands[seat] = state[HAND + seat]
        live |= state[HAND + seat]
    n_in = state[N_IN_TRICK]
    for i in range(n_in):
        hands[4 + i] = state[TRICK + i]
        live |= np.int64(1) << state[TRICK + i]
    weights = decl[D_WEIGHTS:D_WEIGHTS + N_COUNTERS]
    ranges = decl[D_RANGES]
    for card in range(52):
        weights[0, card] = _card_points(card)
        weights[1, card] = 0
        weights[2, card] = 0
        decl[D_ORDER, card] = _card_points(card)
    ranges[0] = mask_game_points(live)
    trumps = dealt_cards(state) & suit_mask(trump)
    low = lowest_bit(trumps)
    jack = make_card(JACK, trump)
    ranges[1] = live >> low & 1
    weights[1, low] = ranges[1]
    ranges[2] = live >> jack & 1
    weights[2, jack] = ranges[2]
    size = counter_strides(ranges, N_COUNTERS, decl[D_STRIDES])
    top = highest_bit(trumps)
    high = -1
    for seat in range(4):
        if state[DEALT + seat] >> top & 1:
            high = seat % 2
    # the open points' owners when side 0 takes (game, low, jack) more of the counters
    low_taken = team_taking(state, low)
    jack_taken = team_taking(state, jack) if trumps >> jack & 1 else -1
    won0 = mask_game_points(state[WON])
    won1 = mask_game_points(state[WON + 1])
    bid = state[HIGH_BID]
    bidder = state[HIGH_BIDDER]
    strides = decl[D_STRIDES]
    for g in range(ranges[0] + 1):
        g0 = won0 + g
        g1 = won1 + ranges[0] - g
        game = 0 if g0 > g1 else (1 if g1 > g0 else -1)
        for lo in range(ranges[1] + 1):
            low_owner = (1 - lo) if ranges[1] else low_taken
            for j in range(ranges[2] + 1):
                jack_owner = (1 - j) if ranges[2] else jack_taken
                score0, score1 = points_score(high, low_owner, jack_owner, game, bid, bidder)
                table[g * strides[0] + lo * strides[1] + j * strides[2]] = score0 - score1
    prepare_spec(weights, ranges, strides, N_COUNTERS, decl[D_ORDER], table, size, trump, 1,
                 spec)


@njit(cache=True, _nrt=False)
def solver_root(state, trump, stack, decl, table, spec):
    """Declare `state` (a deal in its playout) with `trump` as trump (`declare`) and put its
    position at the root of the stack, stack[0]."""
    declare(state, trump, decl, table, spec)
    set_root(decl[D_HANDS], state[LEADER], decl[D_HANDS, 4:], state[N_IN_TRICK], spec,
             stack[0])


@njit(cache=True, _nrt=False)
def _settled_moves(state, decl, moves_out, values_out):
    """`solve_moves` of a deal whose score the rules have settled (`EXHAUSTED`: the game loops
    score it as it stands): each card's value is the score once it is played. A sampled world
    inherits the flag from the true deal, whose settled score the world's cards may not show:
    the flag, not the world's cards, decides, as the rules do."""
    sign = 1 if state[HIGH_BIDDER] % 2 == 0 else -1
    legal = legal_cards(state)
    scratch = decl[D_SCRATCH]
    n = 0
    while legal:
        card = lowest_bit(legal)
        legal &= legal - 1
        for j in range(STATE_SIZE):
            scratch[j] = state[j]
        apply_card(scratch, card)
        moves_out[n] = card
        values_out[n] = sign * score_difference(scratch)
        n += 1
    return n


@njit(cache=True, _nrt=False)
def solve_moves(state, stack, moves, frames, tt, ctx, decl, table, spec, moves_out, values_out):
    """Every legal move of the seat to act and its exact value (bidder's team's view) into
    `moves_out` / `values_out` (ascending moves); returns their count. The first lead solves
    each suit the leader holds as trump."""
    if state[EXHAUSTED]:
        return _settled_moves(state, decl, moves_out, values_out)
    sign = 1 if state[HIGH_BIDDER] % 2 == 0 else -1
    if state[TRUMP] >= 0:
        solver_root(state, state[TRUMP], stack, decl, table, spec)
        n = card_values(stack, moves, frames, spec, table, tt, ctx, np.int64(-1), moves_out,
                        values_out)
    else:
        n = 0
        hand = state[HAND + state[TO_ACT]]
        for suit in range(4):
            if hand & suit_mask(suit):
                solver_root(state, suit, stack, decl, table, spec)
                n += card_values(stack, moves, frames, spec, table, tt, ctx, suit_mask(suit),
                                 moves_out[n:], values_out[n:])
    for i in range(n):
        values_out[i] *= sign
    return n


@njit(cache=True, _nrt=False)
def solve_value(state, stack, moves, frames, tt, ctx, decl, table, spec, moves_out, values_out):
    """The exact value (bidder's team's view) of `state`."""
    sign = 1 if state[HIGH_BIDDER] % 2 == 0 else -1
    if state[EXHAUSTED] or state[PHASE] == PHASE_OVER:
        return sign * score_difference(state)  # settled: scored as it stands
    if state[TRUMP] >= 0:
        solver_root(state, state[TRUMP], stack, decl, table, spec)
        return sign * position_value(stack, moves, frames, spec, table, tt, ctx)
    n = solve_moves(state, stack, moves, frames, tt, ctx, decl, table, spec, moves_out,
                    values_out)
    best = values_out[0]
    for i in range(1, n):  # the bidder leads first
        best = max(best, values_out[i])
    return best


class Solver:
    """The exact solver of a Setback deal in its playout, with its buffers (the shared
    search's, and the declaration's work space), reused across deals."""

    def __init__(self, tt_bits: int = DEFAULT_TT_BITS):
        b = Buffers(tt_bits)
        self.stack, self.moves, self.frames, self.table, self.ctx = (
            b.stack, b.moves, b.frames, b.table, b.ctx)
        self.decl = np.zeros((DECL_ROWS, 52), dtype=np.int64)
        self.values_table = np.zeros(TABLE_SIZE, dtype=np.int64)
        self.spec = np.zeros(SPEC_SIZE, dtype=np.int64)
        self._moves_out = np.zeros(MAX_CARDS, dtype=np.int64)
        self._values_out = np.zeros(MAX_CARDS, dtype=np.int64)

    def buffers(self):
        """The arguments of `solve_moves` after the state, before its outputs."""
        return (self.stack, self.moves, self.frames, self.table, self.ctx, self.decl,
                self.values_table, self.spec)

    @property
    def nodes(self) -> int:
        """Nodes visited since the last `reset_nodes`."""
        return int(self.ctx[CTX_NODES])

    def reset_nodes(self) -> None:
        """Restart the node count."""
        self.ctx[CTX_NODES] = 0

    @staticmethod
    def check(state: np.ndarray) -> None:
        """Raise ValueError unless `state` is a deal in its playout (the auction complete)."""
        if int(state[PHASE]) != PHASE_PLAY or int(state[HIGH_BID]) <= 0:
            raise ValueError(NOT_IN_CARD_PLAY)

    def move_values(self, state: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(legal moves ascending, their exact values from the bidder's team's view)."""
        self.check(state)
        n = solve_moves(state, *self.buffers(), self._moves_out, self._values_out)
        return self._moves_out[:n].copy(), self._values_out[:n].copy()

    def side_values(self, state: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(legal moves ascending, their exact values from the acting seat's team's side)."""
        moves, values = self.move_values(state)
        return moves, values * (1 if int(state[TO_ACT]) % 2 == int(state[HIGH_BIDDER]) % 2
                                else -1)

    def team_value(self, state: np.ndarray) -> int:
        """The exact value of `state` from team 0's side."""
        return self.value(state) * (1 if int(state[HIGH_BIDDER]) % 2 == 0 else -1)

    def value(self, state: np.ndarray) -> int:
        """The exact value of `state` from the bidder's team's view."""
        if int(state[PHASE]) == PHASE_OVER or int(state[EXHAUSTED]):
            sign = 1 if int(state[HIGH_BIDDER]) % 2 == 0 else -1
            return sign * int(score_difference(state))
        self.check(state)
        return int(solve_value(state, *self.buffers(), self._moves_out, self._values_out))


def capture_solver(tt_bits: int = DEFAULT_TT_BITS) -> Solver:
    """The solver the one oracle and `search.trick_values` use for Setback (its value counts
    the cards captured)."""
    return Solver(tt_bits)


# The one oracle's pieces (`play/trick_oracle.py`); it also reads the state fields imported above:
# PHASE, PHASE_PLAY, TRICK_NUMBER, TO_ACT
N_TRICKS = HAND_SIZE
ORACLE_TT_BITS = 16
NOT_IN_CARD_PLAY = ("the solver needs a deal in its playout (auction complete, cards left to "
                    "play)")
