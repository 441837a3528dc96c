"""An exact double-dummy solver for the card play of a Euchre hand (the `oracle`'s, issue 37).

Given the engine state of a hand in its card play (trump named, the discard done, the alone
decision made, so possibly a lone maker whose partner sits out), with all four hands known,
the solver gives every legal card of the seat to act its exact value: the hand's final points
for the acting seat's team minus the other team's (`scoring.hand_score`), with the rest played
perfectly by both teams. A Euchre hand is five tricks, so the whole tree is small (of the order
of 50,000 leaves from the first lead); the search is exact, not approximate.

How (all numba, no allocation per node):
- Fail-soft alpha-beta, iterative on a preallocated stack of state copies (numba's cache
  cannot hold a recursive function, as `search.solver` found), over the engine's own
  `rules.apply_card`: the rules are never restated. Team 0 (the dealer's) maximizes
  `score_difference`, team 1 minimizes; the root turns that into the acting team's side.
- Bounds from the tricks already taken: the makers' points depend only on their trick count,
  so with t taken and r tricks left the value lies between the points of t and of t + r
  tricks. A node whose range is one value (the makers euchred, or their point made and the
  march gone) is a leaf, and a range outside the window cuts. The points of each trick count
  come from `scoring.makers_score` itself, once a solve (`CTX_POINTS`): the scoring rule is
  not restated either.
- Equivalent cards: of two cards of the hand to act in one (effective) suit with no live card
  of another seat (or of the current trick) between them, only the higher is searched. Only
  tricks count in Euchre, so such cards are interchangeable. The root searches every card.
- Move order: a lead tries its strongest card first; a follow tries the cheapest card that
  takes the trick so far, then the others from the cheapest.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.bits import lowest_bit
from games.euchre.cards import effective_suit, effective_suit_mask, power
from games.euchre.rules import MAX_MOVES, apply_card, legal_cards
from games.euchre.scoring import makers_score
from games.euchre.state import (
    HAND,
    MAKER,
    N_IN_TRICK,
    N_TRICKS,
    OUT,
    PHASE,
    PHASE_PLAY,
    STATE_SIZE,
    TO_ACT,
    TRICK,
    TRICK_NUMBER,
    TRICKS_WON,
    TRUMP,
    WINNING,
)

INF = 100  # above any hand's score difference (they lie in -4..4)
MAX_DEPTH = 4 * N_TRICKS  # twenty cards at most below the root

# Columns of a frame (int64[MAX_DEPTH + 1, FRAME_SIZE]): one searched node of the stack.
F_COUNT = 0  # its searched moves
F_INDEX = 1  # the move being searched
F_ALPHA = 2
F_BETA = 3
F_BEST = 4
FRAME_SIZE = 5

# The solver's context (int64[CTX_SIZE]).
CTX_NODES = 0  # nodes visited since the last reset
CTX_MAKERS = 1  # the makers' team (relative to the dealer)
CTX_POINTS = 2  # CTX_POINTS + t: the makers' points (`makers_score`) for t tricks, t = 0..5
CTX_SIZE = CTX_POINTS + N_TRICKS + 1


@njit(cache=True)
def prepare(state, scratch, ctx):
    """Fill `ctx` for the hand of `state`: the makers' team and their points for every trick
    count, read from `scoring.makers_score` on `scratch` (a state-sized buffer)."""
    makers = state[MAKER] % 2
    ctx[CTX_MAKERS] = makers
    for i in range(STATE_SIZE):
        scratch[i] = state[i]
    for tricks in range(N_TRICKS + 1):
        scratch[TRICKS_WON + makers] = tricks
        ctx[CTX_POINTS + tricks] = makers_score(scratch)


@njit(cache=True, inline="always")
def value_bounds(state, ctx):
    """(lowest, highest) value from team 0's side the hand of `state` can still end with."""
    taken = state[TRICKS_WON + ctx[CTX_MAKERS]]
    left = N_TRICKS - state[TRICK_NUMBER]
    worst = ctx[CTX_POINTS + taken]
    best = ctx[CTX_POINTS + taken + left]
    if ctx[CTX_MAKERS] == 0:
        return worst, best
    return -best, -worst


@njit(cache=True, inline="always")
def _rank(card, trump):
    """The card's strength inside its own effective suit (a trick led in that suit)."""
    return power(card, trump, effective_suit(card, trump))


@njit(cache=True)
def searched_cards(state, out):
    """Write the cards the search tries for the seat to act into `out[:MAX_MOVES]`, best first
    (module docstring: equivalent cards dropped, a move order; `out[MAX_MOVES:]` holds their
    sort keys); return their count."""
    legal = legal_cards(state)
    trump = state[TRUMP]
    seat = state[TO_ACT]
    live = np.int64(0)  # the cards still able to come between two of mine
    for other in range(4):
        if other != seat and other != state[OUT]:
            live |= state[HAND + other]
    for i in range(state[N_IN_TRICK]):
        live |= np.int64(1) << state[TRICK + i]
    leading = state[N_IN_TRICK] == 0
    led = -1
    top = 0
    if not leading:
        led = effective_suit(state[TRICK], trump)
        top = power(state[TRICK + state[WINNING]], trump, led)
    n = 0
    rest = legal
    while rest != 0:
        card = lowest_bit(rest)
        rest &= rest - 1
        rank = _rank(card, trump)
        same = effective_suit_mask(effective_suit(card, trump), trump)
        # the lowest live card above this one, and the lowest of mine above it: if mine comes
        # first, it stands for this card (both win and lose the same tricks)
        above_live = INF
        foreign = live & same
        while foreign != 0:
            r = _rank(lowest_bit(foreign), trump)
            foreign &= foreign - 1
            if rank < r < above_live:
                above_live = r
        covered = False
        higher = legal & same
        while higher != 0:
            r = _rank(lowest_bit(higher), trump)
            higher &= higher - 1
            if rank < r < above_live:
                covered = True
                break
        if covered:
            continue
        if leading:
            key = -rank  # the strongest lead first
        else:
            p = power(card, trump, led)
            key = p if p > top else INF + p  # the cheapest winner, then the cheapest loser
        # insertion by key (ties: the lower card first, as the cards come ascending)
        j = n
        while j > 0 and out[MAX_MOVES + j - 1] > key:
            out[MAX_MOVES + j] = out[MAX_MOVES + j - 1]
            out[j] = out[j - 1]
            j -= 1
        out[MAX_MOVES + j] = key
        out[j] = card
        n += 1
    return n


@njit(cache=True)
def search_value(root, alpha, beta, stack, moves, frames, ctx):
    """The fail-soft alpha-beta value of `root` (card play, `prepare`d `ctx`) from team 0's
    side within (alpha, beta): exact when it lies strictly inside the window."""
    for i in range(STATE_SIZE):
        stack[0, i] = root[i]
    frames[0, F_ALPHA] = alpha
    frames[0, F_BETA] = beta
    depth = 0
    entering = True
    value = np.int64(0)
    while True:
        if entering:
            state = stack[depth]
            ctx[CTX_NODES] += 1
            low, high = value_bounds(state, ctx)
            a = frames[depth, F_ALPHA]
            b = frames[depth, F_BETA]
            if low == high or high <= a:
                value = high
            elif low >= b:
                value = low
            else:
                n = searched_cards(state, moves[depth])
                frames[depth, F_COUNT] = n
                frames[depth, F_INDEX] = 0
                frames[depth, F_BEST] = -INF if state[TO_ACT] % 2 == 0 else INF
                # the node's own range narrows its window: nothing outside it can be reached
                if low > a:
                    frames[depth, F_ALPHA] = low
                if high < b:
                    frames[depth, F_BETA] = high
                _push(stack, moves, frames, depth)
                depth += 1
                continue
            entering = False
        # `value` is the finished node's at `depth`: hand it to its parent
        if depth == 0:
            return value
        depth -= 1
        maximizing = stack[depth, TO_ACT] % 2 == 0
        if maximizing:
            if value > frames[depth, F_BEST]:
                frames[depth, F_BEST] = value
            if value > frames[depth, F_ALPHA]:
                frames[depth, F_ALPHA] = value
        else:
            if value < frames[depth, F_BEST]:
                frames[depth, F_BEST] = value
            if value < frames[depth, F_BETA]:
                frames[depth, F_BETA] = value
        frames[depth, F_INDEX] += 1
        if (frames[depth, F_ALPHA] >= frames[depth, F_BETA]
                or frames[depth, F_INDEX] == frames[depth, F_COUNT]):
            value = frames[depth, F_BEST]
            continue  # this node is finished too
        _push(stack, moves, frames, depth)
        depth += 1
        entering = True


@njit(cache=True, inline="always")
def _push(stack, moves, frames, depth):
    """Make stack[depth + 1] the child of stack[depth] by its current move, same window."""
    for i in range(STATE_SIZE):
        stack[depth + 1, i] = stack[depth, i]
    apply_card(stack[depth + 1], moves[depth, frames[depth, F_INDEX]])
    frames[depth + 1, F_ALPHA] = frames[depth, F_ALPHA]
    frames[depth + 1, F_BETA] = frames[depth, F_BETA]


@njit(cache=True)
def solve_moves(state, stack, moves, frames, ctx, moves_out, values_out):
    """Every legal card of the seat to act in `state` (card play) ascending in `moves_out`,
    its exact value in `values_out`: the acting seat's team's final points minus the other
    team's, under perfect play by both with all hands known. Returns the count."""
    prepare(state, stack[0], ctx)
    legal = legal_cards(state)
    sign = 1 if state[TO_ACT] % 2 == 0 else -1
    child = np.empty(STATE_SIZE, np.int64)
    n = 0
    for card in range(24):
        if (legal >> card) & 1 == 0:
            continue
        for i in range(STATE_SIZE):
            child[i] = state[i]
        apply_card(child, card)
        # a full window: each card's value exact, not just the best one's
        moves_out[n] = card
        values_out[n] = sign * search_value(child, -INF, INF, stack, moves, frames, ctx)
        n += 1
    return n


class EuchreSolver:
    """The solver with its buffers (state stack, move lists, frames, context), reused across
    hands: nothing is kept from one solve to the next but the node count."""

    def __init__(self):
        self.stack = np.zeros((MAX_DEPTH + 1, STATE_SIZE), dtype=np.int64)
        self.moves = np.zeros((MAX_DEPTH + 1, 2 * MAX_MOVES), dtype=np.int64)
        self.frames = np.zeros((MAX_DEPTH + 1, FRAME_SIZE), dtype=np.int64)
        self.ctx = np.zeros(CTX_SIZE, dtype=np.int64)
        self._moves_out = np.zeros(MAX_MOVES, dtype=np.int64)
        self._values_out = np.zeros(MAX_MOVES, dtype=np.int64)

    @property
    def nodes(self) -> int:
        """Nodes visited since the last `reset_nodes`."""
        return int(self.ctx[CTX_NODES])

    def reset_nodes(self) -> None:
        """Restart the node count."""
        self.ctx[CTX_NODES] = 0

    def card_values(self, state: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(legal cards ascending, their exact values from the acting seat's team's side) of
        `state`, a hand in its card play; ValueError for any other phase."""
        if int(state[PHASE]) != PHASE_PLAY:
            raise ValueError("the Euchre solver needs a hand in its card play (trump named, "
                             "cards left to play)")
        true = np.ascontiguousarray(state, dtype=np.int64).copy()
        n = solve_moves(true, self.stack, self.moves, self.frames, self.ctx,
                        self._moves_out, self._values_out)
        return self._moves_out[:n].copy(), self._values_out[:n].copy()
