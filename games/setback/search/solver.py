"""An exact perfect-information solver for the play of a Setback deal.

Given the engine state of a deal in its playout (all four hands known, the auction done), the
solver finds the minimax value of the deal for the bidder's team under the baseline payoff
(`scoring.score_difference`: its deal score minus the other team's, setback included) with the
rest played perfectly, and the value of each legal move. The bidder's team maximizes, the other
team minimizes.

How (all numba, no allocation per node; compiled with `_nrt=False`, since nothing here
allocates and numba's reference counting of the row views the search takes (`stack[depth]`,
`tt[slot]`) was 60 % of its time; the node functions and the engine's `apply_card` inlined):
- Fail-soft alpha-beta (iterative: numba's cache cannot hold a recursive function) over
  `rules.apply_card` on a preallocated stack of state copies: the
  rules are the engine's, never restated.
- A search stops where the engine says the score can no longer change (`is_exhausted`), which
  cuts most of the tree once Low, Jack and Game are settled.
- Bounds from the points already settled (`value_bounds`: every open point to one team, or
  all to the other) cut a node whose whole range lies outside the window.
- A transposition table at trick boundaries, keyed on the four remaining hands, trump, the
  leader, and the point state that still matters (who took Low, who took the Jack, the captured
  game-point difference); an entry keeps a lower and an upper bound and the best move found.
  Entries carry a generation number, so a new deal invalidates the table without clearing it.
- Each root move's exact value by MTD(f): null-window searches converging on it (the values
  are a few integers), the table's bounds carrying over between them.
- Move ordering: the table's move first; leads: trumps, then high and counting cards; follows:
  cards that win the trick (cheapest first), then the others (cheapest first).
- Equivalent cards: of two cards of one hand in one suit with no live card of another seat (or
  of the current trick) between them, only the higher is searched, when neither carries a point:
  no game points (2..9) and not the lowest trump in play (Low). High goes to the team dealt the
  top trump whatever is played, so it never makes cards differ. Before trump is set (the
  bidder's first lead) every card is searched, since the lead chooses the trump and so Low.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.bits import highest_bit, lowest_bit
from games.setback.cards import JACK, card_rank, card_suit, game_points_of, make_card
from games.setback.cards import mask_game_points, suit_mask
from games.setback.rules import apply_card, beats, legal_cards
from games.setback.scoring import dealt_cards, dealt_trumps, score_difference, team_taking
from games.setback.state import (
    DEALT,
    EXHAUSTED,
    HAND,
    HIGH_BID,
    HIGH_BIDDER,
    LEADER,
    N_IN_TRICK,
    PHASE,
    PHASE_PLAY,
    PHASE_OVER,
    STATE_SIZE,
    TO_ACT,
    TRICK,
    TRUMP,
    WINNING,
    WON,
)

# the engine's own apply_card, compiled inline into the search (the rules are not restated)
_apply_card = njit(inline="always")(apply_card.py_func)  # inlined: nothing to cache

INF = 100  # above any deal score difference (they lie in -8..4)
MAX_DEPTH = 26  # 24 cards, plus room for the root
MAX_CARDS = 13  # never more legal cards than this per seat (six, in fact)
DEFAULT_TT_BITS = 17

# Columns of the transposition table (int64[2**bits, TT_COLUMNS]).
TT_KEY = 0  # 0..4: the four hands and the packed extra word
TT_GEN = 5
TT_LO = 6
TT_HI = 7
TT_MOVE = 8
TT_COLUMNS = 9

# The solver's context array (int64[CTX_SIZE]).
CTX_NODES = 0  # nodes visited since the last reset
CTX_GEN = 1  # generation of the current deal in the table
CTX_TEAM = 2  # the bidder's team (relative to the dealer), the maximizing side
CTX_SIGN = 3  # +1 when the bidder's team is team 0, else -1
CTX_SIZE = 4


@njit(cache=True, inline="always", _nrt=False)
def _extra_word(state):
    """Trump, leader and the point state that still matters, packed into one int64."""
    trump = state[TRUMP]
    trumps = dealt_trumps(state)
    low_owner = team_taking(state, lowest_bit(trumps)) + 1
    jack_owner = team_taking(state, make_card(JACK, trump)) + 1
    game_diff = mask_game_points(state[WON]) - mask_game_points(state[WON + 1]) + 128
    return trump | (state[LEADER] << 2) | (low_owner << 4) | (jack_owner << 6) | (game_diff << 8)


@njit(cache=True, inline="always", _nrt=False)
def _slot(h0, h1, h2, h3, extra, mask):
    """Table index of a key (a multiplicative mix of its words)."""
    h = h0 * np.int64(0x9E3779B97F4A7C1)
    h = (h ^ h1) * np.int64(0x5851F42D4C957F2D)
    h = (h ^ h2) * np.int64(0x14057B7EF767814F)
    h = (h ^ h3) * np.int64(0x2545F4914F6CDD1D)
    h = (h ^ extra) * np.int64(0x9E3779B97F4A7C1)
    h ^= h >> np.int64(31)
    return h & mask


@njit(cache=True, inline="always", _nrt=False)
def searched_cards(state):
    """The legal cards of the seat to act less the equivalent ones (module docstring): of each
    run of equivalent cards only the highest is kept."""
    legal = legal_cards(state)
    trump = state[TRUMP]
    if trump < 0:
        return legal
    mine = state[HAND + state[TO_ACT]]
    keep = legal
    live = state[HAND] | state[HAND + 1] | state[HAND + 2] | state[HAND + 3]
    for i in range(state[N_IN_TRICK]):
        live |= np.int64(1) << state[TRICK + i]
    live &= ~mine
    low = lowest_bit(dealt_trumps(state))
    for suit in range(4):
        cards = legal & suit_mask(suit)
        previous = -1  # the last card of this suit (searched or dropped), descending
        while cards:
            card = highest_bit(cards)
            cards &= ~(np.int64(1) << card)
            plain = game_points_of(card) == 0 and card != low
            if previous >= 0 and plain:
                between = ((np.int64(1) << previous) - 1) & ~((np.int64(2) << card) - 1)
                if (live & between) == 0:
                    keep &= ~(np.int64(1) << card)
                    previous = card
                    continue
            previous = card if plain else -1
    return keep


@njit(cache=True, inline="always", _nrt=False)
def ordered_moves(state, tt_move, out):
    """The moves to search for the seat to act into `out[:MAX_CARDS]`, best first (the rest of
    `out` is scratch for their scores); returns their count.

    Equivalent cards are dropped (`searched_cards`); the table's move, when kept, is tried
    first; a lead tries trumps, then high and counting cards first; a follow tries trick
    winners cheapest first, then the rest cheapest first.
    """
    trump = state[TRUMP]
    n_in = state[N_IN_TRICK]
    keep = searched_cards(state)
    n = 0
    scores = out[MAX_CARDS:]  # the second half of the row: no allocation per node
    while keep:
        card = lowest_bit(keep)
        keep &= keep - 1
        rank = card_rank(card)
        if n_in == 0:
            score = 2 * rank + (40 if card_suit(card) == trump else 0) + 3 * game_points_of(card)
        elif beats(card, state[TRICK + state[WINNING]], trump):
            score = 200 - rank - (20 if card_suit(card) == trump else 0)
        else:
            score = 100 - rank - game_points_of(card)
        if card == tt_move:
            score = 1000
        # insertion by descending score: the lists are at most six long
        j = n
        while j > 0 and scores[j - 1] < score:
            scores[j] = scores[j - 1]
            out[j] = out[j - 1]
            j -= 1
        scores[j] = score
        out[j] = card
        n += 1
    return n


@njit(cache=True, inline="always", _nrt=False)
def _award(owner, p0, p1, open_points):
    """(p0, p1, open_points) with one point more: to team `owner` (0 or 1, `team_taking`'s),
    or open while no team has taken it."""
    if owner == 0:
        return p0 + 1, p1, open_points
    if owner == 1:
        return p0, p1 + 1, open_points
    return p0, p1, open_points + 1


@njit(cache=True, inline="always", _nrt=False)
def value_bounds(state, team):
    """(lower, upper) bounds of the final value for bidder's team `team`, from the points
    already settled: the open points (Low not yet taken, a dealt Jack not yet taken, Game not yet
    decided) all going to one team or all to the other. Needs trump set."""
    trumps = dealt_trumps(state)
    top = highest_bit(trumps)
    p0 = 0
    p1 = 0
    for seat in range(4):
        if state[DEALT + seat] >> top & 1:
            if seat % 2 == 0:
                p0 += 1
            else:
                p1 += 1
    p0, p1, open_points = _award(team_taking(state, lowest_bit(trumps)), p0, p1, 0)
    jack = make_card(JACK, state[TRUMP])
    if trumps >> jack & 1:
        p0, p1, open_points = _award(team_taking(state, jack), p0, p1, open_points)
    g0 = mask_game_points(state[WON])
    g1 = mask_game_points(state[WON + 1])
    left = mask_game_points(dealt_cards(state)) - g0 - g1
    if left == 0 or left < abs(g0 - g1):
        if g0 > g1:
            p0 += 1
        elif g1 > g0:
            p1 += 1
    else:
        open_points += 1
    mine = p0 if team == 0 else p1
    theirs = p1 if team == 0 else p0
    bid = state[HIGH_BID]
    best = mine + open_points
    upper = (best if best >= bid else -bid) - theirs
    lower = (mine if mine >= bid else -bid) - theirs - open_points
    return lower, upper


# Fields of a search frame (int64[MAX_DEPTH + 1, FRAME_SIZE], one row per depth): the search is
# iterative, since numba's cache cannot hold a recursive function.
F_ALPHA = 0
F_BETA = 1
F_ALPHA0 = 2  # the window after the table's bounds narrowed it, to classify the result
F_BETA0 = 3
F_BEST = 4
F_BEST_MOVE = 5
F_N = 6  # moves to search
F_I = 7  # next move to search
F_SLOT = 8  # table slot, -1 when the node is not stored (inside a trick)
F_EXTRA = 9  # the key's extra word
F_MAXIMIZE = 10
F_LOWER = 11  # the node's value bounds (`value_bounds`)
F_UPPER = 12
FRAME_SIZE = 13


@njit(cache=True, inline="always", _nrt=False)
def _same_key(entry, state, extra, gen):
    return (entry[TT_GEN] == gen and entry[0] == state[HAND] and entry[1] == state[HAND + 1]
            and entry[2] == state[HAND + 2] and entry[3] == state[HAND + 3]
            and entry[4] == extra)


@njit(cache=True, inline="always", _nrt=False)
def _open(stack, moves, frames, depth, tt, ctx, fresh):
    """Enter the node at `depth` (its window already in its frame; `fresh`: the search's root,
    whose parent frame is not set). Returns (True, value) when
    it is decided at once (the deal settled, or the table's bounds cut it), else sets its frame
    up for its children and returns (False, 0)."""
    state = stack[depth]
    frame = frames[depth]
    ctx[CTX_NODES] += 1
    if state[PHASE] == PHASE_OVER or state[EXHAUSTED] != 0 or (
            state[HAND] | state[HAND + 1] | state[HAND + 2] | state[HAND + 3]) == 0:
        return True, ctx[CTX_SIGN] * score_difference(state)  # (empty hands: a short deal)
    alpha = frame[F_ALPHA]
    beta = frame[F_BETA]
    if state[TRUMP] >= 0:
        # the bounds change only when a trick completes: inside a trick, the parent's hold
        # (unless the parent is the first lead, which had none)
        if state[N_IN_TRICK] == 0 or fresh or stack[depth - 1, TRUMP] < 0:
            lower, upper = value_bounds(state, ctx[CTX_TEAM])
        else:
            lower = frames[depth - 1, F_LOWER]
            upper = frames[depth - 1, F_UPPER]
        frame[F_LOWER] = lower
        frame[F_UPPER] = upper
        if lower >= beta or lower == upper:
            return True, lower
        if upper <= alpha:
            return True, upper
    slot = -1
    tt_move = -1
    extra = np.int64(0)
    if state[N_IN_TRICK] == 0 and state[TRUMP] >= 0:
        extra = _extra_word(state)
        slot = _slot(state[HAND], state[HAND + 1], state[HAND + 2], state[HAND + 3], extra,
                     tt.shape[0] - 1)
        entry = tt[slot]
        if _same_key(entry, state, extra, ctx[CTX_GEN]):
            lo = entry[TT_LO]
            hi = entry[TT_HI]
            if lo >= beta or lo == hi:
                return True, lo
            if hi <= alpha:
                return True, hi
            if lo > alpha:
                alpha = lo
            if hi < beta:
                beta = hi
            tt_move = entry[TT_MOVE]
    maximize = state[TO_ACT] % 2 == ctx[CTX_TEAM]
    n = ordered_moves(state, tt_move, moves[depth])
    frame[F_ALPHA] = alpha
    frame[F_BETA] = beta
    frame[F_ALPHA0] = alpha
    frame[F_BETA0] = beta
    frame[F_BEST] = -INF if maximize else INF
    frame[F_BEST_MOVE] = moves[depth, 0]
    frame[F_N] = n
    frame[F_I] = 0
    frame[F_SLOT] = slot
    frame[F_EXTRA] = extra
    frame[F_MAXIMIZE] = maximize
    return False, 0


@njit(cache=True, inline="always", _nrt=False)
def _absorb(frame, value, move):
    """A child of the frame's node returned `value`."""
    if frame[F_MAXIMIZE]:
        if value > frame[F_BEST]:
            frame[F_BEST] = value
            frame[F_BEST_MOVE] = move
            if value > frame[F_ALPHA]:
                frame[F_ALPHA] = value
    elif value < frame[F_BEST]:
        frame[F_BEST] = value
        frame[F_BEST_MOVE] = move
        if value < frame[F_BETA]:
            frame[F_BETA] = value


@njit(cache=True, inline="always", _nrt=False)
def _close(stack, frames, depth, tt, ctx):
    """Leave the node at `depth`: store its bound in the table; return its value."""
    frame = frames[depth]
    best = frame[F_BEST]
    slot = frame[F_SLOT]
    if slot >= 0:
        state = stack[depth]
        entry = tt[slot]
        if not _same_key(entry, state, frame[F_EXTRA], ctx[CTX_GEN]):
            for k in range(4):
                entry[k] = state[HAND + k]
            entry[4] = frame[F_EXTRA]
            entry[TT_GEN] = ctx[CTX_GEN]
            entry[TT_LO] = -INF
            entry[TT_HI] = INF
        if best <= frame[F_ALPHA0]:
            entry[TT_HI] = min(entry[TT_HI], best)  # failed low: an upper bound
        elif best >= frame[F_BETA0]:
            entry[TT_LO] = max(entry[TT_LO], best)  # failed high: a lower bound
        else:
            entry[TT_LO] = best
            entry[TT_HI] = best
        entry[TT_MOVE] = frame[F_BEST_MOVE]
    return best


@njit(cache=True, _nrt=False)
def _search(stack, moves, frames, root, alpha, beta, tt, ctx):
    """Fail-soft alpha-beta value (bidder's team's view) of `stack[root]` within (alpha, beta)."""
    frames[root, F_ALPHA] = alpha
    frames[root, F_BETA] = beta
    done, value = _open(stack, moves, frames, root, tt, ctx, True)
    if done:
        return value
    depth = root
    while True:
        frame = frames[depth]
        i = frame[F_I]
        if i < frame[F_N] and frame[F_ALPHA] < frame[F_BETA]:
            move = moves[depth, i]
            frame[F_I] = i + 1
            child = stack[depth + 1]
            for j in range(STATE_SIZE):
                child[j] = stack[depth, j]
            _apply_card(child, move)
            frames[depth + 1, F_ALPHA] = frame[F_ALPHA]
            frames[depth + 1, F_BETA] = frame[F_BETA]
            done, value = _open(stack, moves, frames, depth + 1, tt, ctx, False)
            if done:
                _absorb(frame, value, move)
            else:
                depth += 1
            continue
        value = _close(stack, frames, depth, tt, ctx)
        if depth == root:
            return value
        depth -= 1
        _absorb(frames[depth], value, moves[depth, frames[depth, F_I] - 1])


@njit(cache=True, _nrt=False)
def _mtd(stack, moves, frames, root, guess, tt, ctx):
    """The exact value of `stack[root]` by null-window searches converging on it (MTD(f)): the
    values are a few integers, and each null-window test cuts far more than a full window,
    the table's bounds carrying over from one test to the next."""
    g = guess
    lower = -INF
    upper = INF
    while lower < upper:
        beta = g + 1 if g == lower else g
        g = _search(stack, moves, frames, root, beta - 1, beta, tt, ctx)
        if g < beta:
            upper = g
        else:
            lower = g
    return g


@njit(cache=True, _nrt=False)
def _begin(state, stack, tt, ctx):
    """Put `state` at the root of the stack and open a new table generation for its deal."""
    for j in range(STATE_SIZE):
        stack[0, j] = state[j]
    ctx[CTX_GEN] += 1
    ctx[CTX_TEAM] = state[HIGH_BIDDER] % 2
    ctx[CTX_SIGN] = 1 if ctx[CTX_TEAM] == 0 else -1


@njit(cache=True, _nrt=False)
def solve_moves(state, stack, moves, frames, tt, ctx, moves_out, values_out):
    """Every legal move of the seat to act and its exact value (bidder's team's view) into
    `moves_out` / `values_out` (ascending moves); returns their count. A card equivalent to
    the next higher legal card takes that card's value without a search."""
    _begin(state, stack, tt, ctx)
    legal = legal_cards(stack[0])
    keep = searched_cards(stack[0])
    n = 0
    while legal:
        moves_out[n] = lowest_bit(legal)
        legal &= legal - 1
        n += 1
    for i in range(n - 1, -1, -1):  # descending, so an equivalent card's value is known
        move = moves_out[i]
        if not (keep >> move & 1):
            values_out[i] = values_out[i + 1]
            continue
        for j in range(STATE_SIZE):
            stack[1, j] = stack[0, j]
        apply_card(stack[1], move)
        guess = values_out[i + 1] if i + 1 < n else 0
        values_out[i] = _mtd(stack, moves, frames, 1, guess, tt, ctx)
    return n


@njit(cache=True, _nrt=False)
def solve_value(state, stack, moves, frames, tt, ctx):
    """The exact value (bidder's team's view) of `state`."""
    _begin(state, stack, tt, ctx)
    return _mtd(stack, moves, frames, 0, 0, tt, ctx)


def new_table(bits: int = DEFAULT_TT_BITS) -> np.ndarray:
    """An empty transposition table of 2**bits entries."""
    table = np.zeros((1 << bits, TT_COLUMNS), dtype=np.int64)
    table[:, TT_GEN] = -1
    return table


class Solver:
    """The solver with its buffers: the state stack, move lists, table and context.

    One instance is reused across deals (the table is invalidated by generation, not cleared).
    """

    def __init__(self, tt_bits: int = DEFAULT_TT_BITS):
        self.stack = np.zeros((MAX_DEPTH + 1, STATE_SIZE), dtype=np.int64)
        self.moves = np.zeros((MAX_DEPTH + 1, 2 * MAX_CARDS), dtype=np.int64)
        self.frames = np.zeros((MAX_DEPTH + 1, FRAME_SIZE), dtype=np.int64)
        self.table = new_table(tt_bits)
        self.ctx = np.zeros(CTX_SIZE, dtype=np.int64)
        self._moves_out = np.zeros(MAX_CARDS, dtype=np.int64)
        self._values_out = np.zeros(MAX_CARDS, dtype=np.int64)

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
            raise ValueError("the solver needs a deal in its playout (auction complete, "
                             "cards left to play)")

    def move_values(self, state: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(legal moves ascending, their exact values from the bidder's team's view)."""
        self.check(state)
        n = solve_moves(state, self.stack, self.moves, self.frames, self.table, self.ctx,
                        self._moves_out, self._values_out)
        return self._moves_out[:n].copy(), self._values_out[:n].copy()

    def value(self, state: np.ndarray) -> int:
        """The exact value of `state` from the bidder's team's view."""
        if int(state[PHASE]) == PHASE_OVER or int(state[EXHAUSTED]):
            sign = 1 if int(state[HIGH_BIDDER]) % 2 == 0 else -1
            return sign * int(score_difference(state))
        self.check(state)
        return int(solve_value(state, self.stack, self.moves, self.frames, self.table,
                               self.ctx))
