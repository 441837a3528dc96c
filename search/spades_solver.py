"""A double-dummy solver for the card play of a Spades hand (the `oracle`'s, issue 49).

Given the engine state of a hand in its card play (every bid made), with all four hands known,
the solver gives every legal card of the seat to act its exact value: the hand's score for the
acting seat's team less the other team's (`scoring.team_score`: contracts, Nil, bags and their
penalty from the game score before the hand), with the rest played perfectly by both teams.

How (all numba, no allocation per node), as `search/euchre_solver.py` does it for Euchre:
- Fail-soft alpha-beta, iterative on a preallocated stack of state copies (numba's cache
  cannot hold a recursive function), over the engine's own `rules.apply_card`. Team 0 (the
  dealer's) maximizes its score less team 1's; the root turns that into the acting team's side.
- Bounds from the tricks already taken, at each trick's start: a team's score depends only on
  its two seats' trick counts (a Nil bidder's own count matters), so `prepare` tabulates each
  team's score for every pair of counts (from `scoring.team_score` itself), and with r tricks
  left the value lies between the best and worst split of them. A node whose range is one
  value is a leaf; a range outside the window cuts; a node's result is clamped to its range.
- Equivalent cards: of two cards of the hand to act in one suit with no live card of another
  seat (or of the current trick) between them, only the higher is searched (only tricks count,
  Nil included). The root values every legal card.
- Move order: a lead tries its strongest card first; a follow tries the cheapest card that
  takes the trick so far, then the others from the cheapest.
- A transposition table at each trick's start, keyed by the cards played, the leader and the
  four seats' trick counts (with the hands of the solve fixed, that is the whole position),
  holding a lower and an upper bound; entries carry the solve's generation, so a new solve
  never reads an old deal's entries and nothing is cleared.

A full solve from the first trick is far too slow for a player (187 s and 718 million nodes
for one hand, about 5 times more a trick: docs/games/spades.md, search and the oracle), so the oracle (`play/spades_oracle.py`) solves exactly once
`EXACT_TRICKS` or fewer remain and, before, plays the heuristic's rollout to that point after
each candidate card (`card_values(..., horizon)`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.bits import lowest_bit
from games.spades.cards import N_RANKS, power
from games.spades.rules import MAX_MOVES, apply_card, legal_cards
from games.spades.scoring import team_score
from games.spades.state import (BID, HAND, LEADER, N_IN_TRICK, N_TRICKS, PHASE, PHASE_PLAY,
                                PLAYED, SCORE, STATE_SIZE, TAKEN, TO_ACT, TRICK, WINNING)
from search.spades_policy import play_heuristic

INF = 1 << 20  # above any hand's score difference
MAX_DEPTH = 4 * N_TRICKS  # 52 cards at most below the root
EXACT_TRICKS = 7  # the oracle solves exactly from this many tricks left (docs: the timings)
TT_BITS = 18  # transposition table entries: 2 ** TT_BITS

# Columns of a frame (int64[MAX_DEPTH + 1, FRAME_SIZE]): one searched node of the stack.
F_COUNT, F_INDEX, F_ALPHA, F_BETA, F_BEST, F_LOW, F_HIGH, F_SLOT, F_ALPHA0, F_BETA0 = range(10)
FRAME_SIZE = 10

# The solver's context (int64[CTX_SIZE]).
CTX_NODES = 0  # nodes visited since the last reset
CTX_GEN = 1  # the solve's generation (transposition entries of another are ignored)
CTX_SCORES = 2  # CTX_SCORES + team * 196 + 14 * a + b: the team's score when its seats take a, b
CTX_SIZE = CTX_SCORES + 2 * 196

# A transposition entry (int64[2 ** TT_BITS, TT_WIDTH]).
T_PLAYED, T_META, T_LOWER, T_UPPER = range(4)
TT_WIDTH = 4


@njit(cache=True)
def prepare(state, ctx):
    """Fill `ctx` for the hand of `state`: each team's score for every pair of trick counts of
    its two seats (`scoring.team_score` with the hand's bids and game score)."""
    for team in range(2):
        for a in range(N_TRICKS + 1):
            for b in range(N_TRICKS + 1):
                ctx[CTX_SCORES + team * 196 + 14 * a + b] = team_score(
                    state[BID + team], state[BID + team + 2], a, b, state[SCORE + team])


@njit(cache=True, inline="always")
def _team_range(ctx, team, a, b, tricks):
    """(lowest, highest) score of `team` whose seats hold a and b tricks when it takes
    `tricks` more (split between them in any way)."""
    low, high = INF, -INF
    base = CTX_SCORES + team * 196
    for i in range(tricks + 1):
        s = ctx[base + 14 * (a + i) + b + tricks - i]
        low = min(low, s)
        high = max(high, s)
    return low, high


@njit(cache=True)
def value_bounds(state, ctx):
    """(lowest, highest) value from team 0's side the hand of `state` can still end with
    (a trick's start: the tricks left split every way between the seats)."""
    left = N_TRICKS - state[TAKEN] - state[TAKEN + 1] - state[TAKEN + 2] - state[TAKEN + 3]
    low, high = INF, -INF
    for mine in range(left + 1):
        low0, high0 = _team_range(ctx, 0, state[TAKEN], state[TAKEN + 2], mine)
        low1, high1 = _team_range(ctx, 1, state[TAKEN + 1], state[TAKEN + 3], left - mine)
        low = min(low, low0 - high1)
        high = max(high, high0 - low1)
    return low, high


@njit(cache=True)
def searched_cards(state, out):
    """Write the cards the search tries for the seat to act into `out[:MAX_MOVES]`, best first
    (module docstring: equivalent cards dropped, a move order; `out[MAX_MOVES:]` holds their
    sort keys); return their count."""
    legal = legal_cards(state)
    seat = state[TO_ACT]
    live = np.int64(0)  # the cards still able to come between two of mine
    for other in range(4):
        if other != seat:
            live |= state[HAND + other]
    for i in range(state[N_IN_TRICK]):
        live |= np.int64(1) << state[TRICK + i]
    leading = state[N_IN_TRICK] == 0
    led = -1
    top = 0
    if not leading:
        led = state[TRICK] // N_RANKS
        top = power(state[TRICK + state[WINNING]], led)
    n = 0
    rest = legal
    while rest != 0:
        card = lowest_bit(rest)
        rest &= rest - 1
        # the next card of the suit above this one: if it is mine (and not a live card of
        # another seat), it stands for this one (both win and lose the same tricks)
        suit_top = (card // N_RANKS + 1) * N_RANKS
        covered = False
        for above in range(card + 1, suit_top):
            if live >> above & 1:
                break
            if legal >> above & 1:
                covered = True
                break
        if covered:
            continue
        if leading:
            key = -power(card, card // N_RANKS)  # the strongest lead first
        else:
            p = power(card, led)
            key = p if p > top else 100 + p  # the cheapest winner, then the cheapest loser
        j = n  # insertion by key (ties: the lower card first, as the cards come ascending)
        while j > 0 and out[MAX_MOVES + j - 1] > key:
            out[MAX_MOVES + j] = out[MAX_MOVES + j - 1]
            out[j] = out[j - 1]
            j -= 1
        out[MAX_MOVES + j] = key
        out[j] = card
        n += 1
    return n


@njit(cache=True, inline="always")
def _meta(state, ctx):
    """The non-card part of a trick start's transposition key: leader, counts, generation."""
    return (state[LEADER] | state[TAKEN] << 2 | state[TAKEN + 1] << 6 | state[TAKEN + 2] << 10
            | state[TAKEN + 3] << 14 | ctx[CTX_GEN] << 18)


@njit(cache=True, inline="always")
def _slot(played, meta, mask):
    """The transposition slot of a key (a multiplicative hash)."""
    h = np.uint64(played) * np.uint64(0x9E3779B97F4A7C15) ^ np.uint64(meta) * \
        np.uint64(0xC2B2AE3D27D4EB4F)
    return np.int64((h >> np.uint64(20)) & np.uint64(mask))


@njit(cache=True)
def search_value(root, alpha, beta, stack, moves, frames, ctx, tt):
    """The fail-soft alpha-beta value of `root` (card play, `prepare`d `ctx`) from team 0's
    side within (alpha, beta): exact when it lies strictly inside the window."""
    for i in range(STATE_SIZE):
        stack[0, i] = root[i]
    frames[0, F_ALPHA] = alpha
    frames[0, F_BETA] = beta
    mask = tt.shape[0] - 1
    depth = 0
    entering = True
    value = np.int64(0)
    while True:
        if entering:
            state = stack[depth]
            ctx[CTX_NODES] += 1
            a = frames[depth, F_ALPHA]
            b = frames[depth, F_BETA]
            low, high = -INF, INF
            slot = -1
            if state[N_IN_TRICK] == 0:
                low, high = value_bounds(state, ctx)
                slot = _slot(state[PLAYED], _meta(state, ctx), mask)
                if tt[slot, T_PLAYED] == state[PLAYED] and tt[slot, T_META] == _meta(state, ctx):
                    low = max(low, tt[slot, T_LOWER])
                    high = min(high, tt[slot, T_UPPER])
            if low >= high or high <= a:
                value = high
            elif low >= b:
                value = low
            else:
                n = searched_cards(state, moves[depth])
                frames[depth, F_COUNT] = n
                frames[depth, F_INDEX] = 0
                frames[depth, F_BEST] = -INF if state[TO_ACT] % 2 == 0 else INF
                frames[depth, F_LOW] = low
                frames[depth, F_HIGH] = high
                frames[depth, F_SLOT] = slot
                # the node's own range narrows its window: nothing outside it can be reached
                a = max(a, low)
                b = min(b, high)
                frames[depth, F_ALPHA] = a
                frames[depth, F_BETA] = b
                frames[depth, F_ALPHA0] = a
                frames[depth, F_BETA0] = b
                _push(stack, moves, frames, depth)
                depth += 1
                continue
            entering = False
        # `value` is the finished node's at `depth`: hand it to its parent
        if depth == 0:
            return value
        depth -= 1
        if stack[depth, TO_ACT] % 2 == 0:
            frames[depth, F_BEST] = max(frames[depth, F_BEST], value)
            frames[depth, F_ALPHA] = max(frames[depth, F_ALPHA], value)
        else:
            frames[depth, F_BEST] = min(frames[depth, F_BEST], value)
            frames[depth, F_BETA] = min(frames[depth, F_BETA], value)
        frames[depth, F_INDEX] += 1
        if (frames[depth, F_ALPHA] >= frames[depth, F_BETA]
                or frames[depth, F_INDEX] == frames[depth, F_COUNT]):
            value = min(max(frames[depth, F_BEST], frames[depth, F_LOW]), frames[depth, F_HIGH])
            slot = frames[depth, F_SLOT]
            if slot >= 0:
                _store(tt, slot, stack[depth], ctx, value, frames[depth, F_ALPHA0],
                       frames[depth, F_BETA0], frames[depth, F_LOW], frames[depth, F_HIGH])
            continue  # this node is finished too
        _push(stack, moves, frames, depth)
        depth += 1
        entering = True


@njit(cache=True, inline="always")
def _store(tt, slot, state, ctx, value, alpha, beta, low, high):
    """Record a finished trick start's `value` searched in (alpha, beta) as bounds, on top of
    the range (low, high) it was known to lie in (replacing whatever held the slot)."""
    lower, upper = low, high
    if value <= alpha:
        upper = value  # failed low: at most this
    elif value >= beta:
        lower = value  # failed high: at least this
    else:
        lower = upper = value
    tt[slot, T_PLAYED] = state[PLAYED]
    tt[slot, T_META] = _meta(state, ctx)
    tt[slot, T_LOWER] = lower
    tt[slot, T_UPPER] = upper


@njit(cache=True, inline="always")
def _push(stack, moves, frames, depth):
    """Make stack[depth + 1] the child of stack[depth] by its current move, same window."""
    for i in range(STATE_SIZE):
        stack[depth + 1, i] = stack[depth, i]
    apply_card(stack[depth + 1], moves[depth, frames[depth, F_INDEX]])
    frames[depth + 1, F_ALPHA] = frames[depth, F_ALPHA]
    frames[depth + 1, F_BETA] = frames[depth, F_BETA]


@njit(cache=True)
def solve_moves(state, horizon, stack, moves, frames, ctx, tt, moves_out, values_out):
    """Every legal card of the seat to act in `state` (card play) ascending in `moves_out`, its
    value in `values_out`: the acting seat's team's hand score less the other team's, under
    perfect play by both with all hands known; with `horizon` > 0, the heuristic plays every
    seat after the card until at most `horizon` tricks remain (`play_heuristic`) and the rest
    is solved exactly. Returns the count."""
    prepare(state, ctx)
    # A new generation: the entries of another deal (or bids) must not be read; within the
    # solve every position is one of this deal's, whichever card or rollout led to it.
    ctx[CTX_GEN] += 1
    legal = legal_cards(state)
    sign = 1 if state[TO_ACT] % 2 == 0 else -1
    child = np.empty(STATE_SIZE, np.int64)
    n = 0
    for card in range(52):
        if (legal >> card) & 1 == 0:
            continue
        for i in range(STATE_SIZE):
            child[i] = state[i]
        apply_card(child, card)
        if horizon > 0:
            play_heuristic(child, horizon)
        # a full window: each card's value exact, not just the best one's
        moves_out[n] = card
        values_out[n] = sign * search_value(child, -INF, INF, stack, moves, frames, ctx, tt)
        n += 1
    return n


class SpadesSolver:
    """The solver with its buffers (state stack, move lists, frames, context, transposition
    table), reused across hands."""

    def __init__(self, tt_bits: int = TT_BITS):
        self.stack = np.zeros((MAX_DEPTH + 1, STATE_SIZE), dtype=np.int64)
        self.moves = np.zeros((MAX_DEPTH + 1, 2 * MAX_MOVES), dtype=np.int64)
        self.frames = np.zeros((MAX_DEPTH + 1, FRAME_SIZE), dtype=np.int64)
        self.ctx = np.zeros(CTX_SIZE, dtype=np.int64)
        self.ctx[CTX_GEN] = 1  # generation 0 is an empty slot's
        self.tt = np.zeros((1 << tt_bits, TT_WIDTH), dtype=np.int64)
        self._moves_out = np.zeros(MAX_MOVES, dtype=np.int64)
        self._values_out = np.zeros(MAX_MOVES, dtype=np.int64)

    @property
    def nodes(self) -> int:
        """Nodes visited since the last `reset_nodes`."""
        return int(self.ctx[CTX_NODES])

    def reset_nodes(self) -> None:
        """Restart the node count."""
        self.ctx[CTX_NODES] = 0

    def card_values(self, state: np.ndarray, horizon: int = 0) -> tuple[np.ndarray, np.ndarray]:
        """(legal cards ascending, their values from the acting seat's team's side) of
        `state`, a hand in its card play: exact with `horizon` 0; else the heuristic plays on
        after each card until `horizon` tricks remain (`solve_moves`). ValueError for any
        other phase."""
        if int(state[PHASE]) != PHASE_PLAY:
            raise ValueError("the Spades solver needs a hand in its card play (every bid made, "
                             "cards left to play)")
        true = np.ascontiguousarray(state, dtype=np.int64).copy()
        n = solve_moves(true, int(horizon), self.stack, self.moves, self.frames, self.ctx,
                        self.tt, self._moves_out, self._values_out)
        return self._moves_out[:n].copy(), self._values_out[:n].copy()
