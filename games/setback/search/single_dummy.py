"""Single-dummy bid evaluation: what each bid is worth to a seat, judged on sampled layouts.

For a seat in the auction (or the bidder about to pitch), `SingleDummy`:
1. draws W layouts of the other hands, uniform over those consistent with what the seat sees
   (`games.setback.search.sampler`: its hand; in the auction nothing else is known of the cards),
   and, with a `Continuation`, keeps those in which it would have made the bids seen so far
   (rejection: the auction's evidence, as far as the continuation models the other seats);
2. for each legal bid b of the seat (Pass included), finishes the auction in each world: the
   later seats bid by a `Continuation` (the sds player passes the heuristic's bidding) or
   all pass when none is given; the deal's contract is then (holder, level) or all-pass;
3. solves each contract exactly (the one solver, `capture_solver.py`, the first lead included,
   so the lead picks the trump): the seat's own contracts for every trump it holds, another seat's contract for
   the trump its `Continuation` would pitch (the perfect-information best trump without one);
4. splits each solved value into the two teams' deal points (`split_value`: the solver's value
   is the holder's team's deal score minus the other's; with the points dealt (High and Low
   always, the Jack when dealt, Game unless tied) the split is unique), so every option has,
   per trump and world, both teams' deal scores.

From those (`Evaluation`): the expected deal score of each (bid, trump) as our team's deal
score minus the other's (the zero-sum measure the solver and the tournaments use), and,
score-aware, the expected probability of winning the game after the deal
(`search.win_probability`). The seat's trump for a bid is the one with the best expectation
(one trump for all worlds: it is chosen before the hidden cards are seen); the bid is the one
whose best trump is best (`choose_bid`, a pure function of the table; ties go to the lower bid,
Pass first).

Perfect information flatters the bidder (it never misguesses a finesse or a void), so the
measured bias can be corrected (`Evaluation` `correction`: per bid level, the probability that
one of the holder's solved points in a made contract goes to the defenders instead, whoever
holds it, except for the seat's own contract when its points are the same in every world (a
lock); measured by
`bench/sds_strength.py --calibrate`, see `games/setback/play/sds.py`).

The hot work is the solver's (numba, `contract_values`, without the GIL on one thread per CPU,
as `games.setback.search.world_search` does); the auction's continuation and the bookkeeping
are small numpy/Python.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Protocol

import numpy as np
from numba import njit

from games.bits import lowest_bit
from games.rng import new_rng
from games.setback import state as S
from games.setback.cards import JACK, make_card, suit_mask
from games.setback.rules import BID_MOVE, apply_bid
from search.cpus import usable_cpus
from games.setback.search.sampler import sample_worlds
from games.setback.state import STATE_SIZE
from games.setback.search.capture_solver import Solver, solver_root
from search.capture_values import CTX_GEN, mtd, play, search

NO_VALUE = -100  # a suit not evaluated (not held, or not asked for)
ALL_SUITS = 0xF

# Who holds the contract after an option, from the evaluating seat's side.
NONE, OURS, PARTNER, THEIRS = 0, 1, 2, 3


@njit(cache=True, nogil=True)
def contract_values(hands, jobs, first, step, stack, moves, frames, tt, ctx, decl, table, spec,
                    world, out):
    """Solve the contracts `jobs[first::step]`: a job is (world, bidder, bid, suits mask); the
    deal of `hands[world]` (hands by seat relative to the dealer) with `bidder` holding the bid
    at `bid` and about to lead. `out[job, suit]` gets the exact value (bidder's team's deal
    score minus the other's, perfect play) of the best first lead of that suit, for each suit
    of the mask the bidder holds (NO_VALUE for the others): the suit solved as trump by the one
    solver (`capture_solver.py`). A card is solved exactly only when a null-window
    test shows it beats the suit's best so far."""
    for j in range(first, jobs.shape[0], step):
        w = jobs[j, 0]
        bidder = jobs[j, 1]
        suits = jobs[j, 3]
        S.reset_deal(world, hands[w])
        for seat in range(4):
            world[S.BID + seat] = 0
        world[S.BID + bidder] = jobs[j, 2]
        world[S.N_BIDS] = 4
        world[S.HIGH_BID] = jobs[j, 2]
        world[S.HIGH_BIDDER] = bidder
        world[S.PHASE] = S.PHASE_PLAY
        world[S.TO_ACT] = bidder
        world[S.LEADER] = bidder
        sign = 1 if bidder % 2 == 0 else -1  # the solver's values are team 0's
        guess = 0
        for suit in range(4):
            out[j, suit] = NO_VALUE
            cards = world[S.HAND + bidder] & suit_mask(suit)
            if not (suits >> suit & 1) or cards == 0:
                continue
            solver_root(world, suit, stack, decl, table, spec)
            ctx[CTX_GEN] += 1  # a new trump: a new value table
            while cards:
                card = lowest_bit(cards)
                cards &= cards - 1
                play(stack[0], stack[1], card, spec)
                best = out[j, suit]
                if best != NO_VALUE:
                    b = sign * best  # does this lead beat the best, in team 0's terms?
                    if sign > 0:
                        g = search(stack, moves, frames, 1, b, b + 1, spec, table, tt, ctx)
                        if g <= b:
                            continue  # this lead does no better than the suit's best so far
                    else:
                        g = search(stack, moves, frames, 1, b - 1, b, spec, table, tt, ctx)
                        if g >= b:
                            continue
                    guess = sign * g
                value = sign * mtd(stack, moves, frames, 1, sign * guess, spec, table, tt, ctx)
                guess = value
                if value > best:
                    out[j, suit] = value


def split_value(value, bid, jack_dealt):
    """(holder's team's deal points, or -1 when set; the other team's deal points) of solved
    values (arrays broadcast). Made (value > -bid): the points dealt are 2 (High, Low) + the
    Jack if dealt + Game unless tied, so their total has the value's parity and the split
    is unique. Set: the value is -bid minus the defenders' points."""
    value = np.asarray(value, dtype=np.int64)
    bid = np.asarray(bid, dtype=np.int64)
    jack = np.asarray(jack_dealt, dtype=np.int64)
    total = 2 + jack + ((value - jack) % 2)
    made = value > -bid
    holder = np.where(made, (value + total) // 2, -1)
    other = np.where(made, (total - value) // 2, -bid - value)
    return holder, other


def deal_scores(holder_points, other_points, bid):
    """(holder's team's deal score, the other team's) from `split_value`'s points: a set
    contract (-1) scores minus the bid."""
    holder_points = np.asarray(holder_points)
    return np.where(holder_points >= 0, holder_points, -np.asarray(bid)), np.asarray(other_points)


class Continuation(Protocol):
    """How the other seats finish the auction and pick their trump in a sampled world (the full
    world state is passed: an implementation must look only at the acting seat's view)."""

    def bid(self, state: np.ndarray, dealer: int, score: tuple[int, int]) -> int:
        """The bid (0 Pass, 2, 3, 4) of the seat to act in the auction `state`."""
        ...

    def pitch_suit(self, state: np.ndarray, dealer: int, score: tuple[int, int]) -> int:
        """The trump suit the bidder to lead in `state` would pitch."""
        ...


@dataclass
class Evaluation:
    """The options of one decision and their outcomes in each sampled world.

    `bids[i]`: the option's bid (0 Pass); `kind[i, w]`: who holds the contract in world w
    (NONE, OURS = the evaluating seat, PARTNER, THEIRS); `level[i, w]`: the contract's bid;
    `holder_points[i, t, w]` / `other_points[i, t, w]`: the holder's team's deal points (-1
    when set) and the other team's, with trump t for the seat's own contracts (the same for
    every t otherwise); `trumps[t]`: the seat holds suit t; `score`: (us, them) before the
    deal; `we_deal_next`: our team deals the next deal.
    """

    bids: np.ndarray
    kind: np.ndarray
    level: np.ndarray
    holder_points: np.ndarray
    other_points: np.ndarray
    trumps: np.ndarray
    score: tuple[int, int]
    we_deal_next: bool

    def branches(self, correction: dict | None = None):
        """The outcome branches [(weight[i, t, w], our gain, their gain)]: the solved outcome,
        and with a correction, the same with one of the holder's points in a made contract
        moved to the defenders, weighted by the correction's probability for the bid level.
        Every contract is corrected, whoever holds it (perfect information flatters every
        bidder: correcting only ours would make passing look worse than it is), except the
        seat's own contract when its points are the same in every world (a lock)."""
        def gains(holder, other):
            """(our deal score, theirs) of holder/other points, by who holds the contract."""
            ours, theirs = deal_scores(holder, other, self.level[:, None, :])
            kind = self.kind[:, None, :]
            mine = (kind == OURS) | (kind == PARTNER)
            us = np.where(kind == NONE, 0, np.where(mine, ours, theirs))
            them = np.where(kind == NONE, 0, np.where(mine, theirs, ours))
            return us, them

        base = gains(self.holder_points, self.other_points)
        q = np.zeros(self.kind.shape)
        if correction:
            for level, p in correction.items():
                q[(self.kind != NONE) & (self.level == int(level))] = float(p)
        q = np.broadcast_to(q[:, None, :], self.holder_points.shape)
        q = np.where(self.holder_points > 0, q, 0.0)  # only a made contract can lose a point
        # a contract whose points are the same in every world does not depend on the layout:
        # there is nothing to misguess, so it is not corrected (a lock stays a lock)
        ours = (self.kind == OURS)[:, None, :]
        lowest = np.where(ours, self.holder_points, 99).min(axis=2)
        highest = np.where(ours, self.holder_points, -99).max(axis=2)
        q = np.where((lowest == highest)[:, :, None] & ours, 0.0, q)
        if not q.any():
            return [(np.ones(self.holder_points.shape), *base)]
        lost = self.holder_points - 1
        lost = np.where(lost >= self.level[:, None, :], lost, -1)
        shifted = gains(np.where(q > 0, lost, self.holder_points),
                        np.where(q > 0, self.other_points + 1, self.other_points))
        return [(1.0 - q, *base), (q, *shifted)]

    def _mean(self, f, correction) -> np.ndarray:
        total = 0.0
        for weight, us, them in self.branches(correction):
            total = total + weight * f(us, them)
        means = total.mean(axis=2)
        return np.where(self.trumps[None, :], means, -np.inf)

    def expected_scores(self, correction: dict | None = None) -> np.ndarray:
        """float64[options, 4]: the mean of our deal score minus theirs, per bid and trump
        (-inf for a trump the seat does not hold)."""
        return self._mean(lambda us, them: (us - them).astype(np.float64), correction)

    def win_probabilities(self, correction: dict | None = None,
                          table: np.ndarray | None = None) -> np.ndarray:
        """float64[options, 4]: the mean probability of winning the game after the deal, per
        bid and trump (-inf for a trump the seat does not hold)."""
        from search.win_probability import win_after

        us0, them0 = self.score
        return self._mean(lambda us, them: win_after(us0, them0, us, them, self.we_deal_next,
                                                     table), correction)

    def made_rates(self) -> np.ndarray:
        """float64[options, 4]: how often the seat holds the contract and makes it (solved,
        uncorrected; -inf for a trump the seat does not hold)."""
        rate = ((self.kind[:, None, :] == OURS) & (self.holder_points >= 0)).mean(axis=2)
        return np.where(self.trumps[None, :], rate, -np.inf)

    def point_distribution(self, option: int, trump: int) -> np.ndarray:
        """float64[6]: over the worlds where the seat holds the contract of `option` with
        `trump`, the share in which its team takes 0..4 deal points (index 0..4) and the
        share set (index 5, the points then being fewer than the bid); all zero where it
        never holds it."""
        held = self.holder_points[option, trump][self.kind[option] == OURS]
        counts = np.zeros(6)
        if held.size:
            counts[:5] = np.bincount(held[held >= 0], minlength=5)[:5]
            counts[5] = (held < 0).sum()
            counts /= held.size
        return counts

    def values(self, score_aware: bool = True, correction: dict | None = None) -> np.ndarray:
        """The table the bid is chosen from: win probabilities, or expected deal scores."""
        if score_aware:
            return self.win_probabilities(correction)
        return self.expected_scores(correction)


def choose_bid(values: np.ndarray, bids, tolerance: float = 1e-9) -> tuple[int, int]:
    """(bid, trump) from a value table `values[option, trump]` (-inf: trump not available):
    each option's best trump (lowest suit on ties), then the option of best value; ties within
    `tolerance` go to the lower bid (Pass first: the cheaper risk)."""
    values = np.asarray(values, dtype=np.float64)
    bids = [int(b) for b in bids]
    best_trump = [int(np.argmax(row)) for row in values]
    best_value = [float(row[t]) for row, t in zip(values, best_trump)]
    order = sorted(range(len(bids)), key=lambda i: bids[i])
    chosen = order[0]
    for i in order[1:]:
        if best_value[i] > best_value[chosen] + tolerance:
            chosen = i
    return bids[chosen], best_trump[chosen]


def _jack_dealt(hands: np.ndarray) -> np.ndarray:
    """bool[worlds, 4]: the Jack of each suit was dealt in each world."""
    dealt = np.bitwise_or.reduce(hands, axis=1)
    return np.stack([(dealt >> make_card(JACK, s)) & 1 for s in range(4)], axis=1).astype(bool)


class SingleDummy:
    """Sampled worlds and their solved contracts for one seat's auction and pitch decisions
    (module docstring), with reusable solvers (one per thread) and a seeded generator."""

    def __init__(self, seed: int = 0, tt_bits: int = 16, threads: int | None = None):
        threads = threads or usable_cpus()
        self.solvers = [Solver(tt_bits) for _ in range(max(1, threads))]
        self._worlds = np.zeros((len(self.solvers), STATE_SIZE), dtype=np.int64)
        self.rng = new_rng(seed)
        self._pool = None
        self.last_consistent = -1  # layouts of the last `consistent_hands` that agreed

    def seed(self, seed: int) -> None:
        """Restart the generator from `seed`."""
        self.rng = new_rng(seed)

    def sample(self, state: np.ndarray, seat: int, worlds: int) -> np.ndarray:
        """`worlds` uniform layouts (int64[worlds, 4], hands by seat) consistent with `seat`'s
        view `state`."""
        hands = np.zeros((worlds, 4), dtype=np.int64)
        if sample_worlds(state, seat, self.rng, True, hands) != worlds:
            raise ValueError("no layout of the hidden cards is consistent with this view")
        return hands

    def solve(self, hands: np.ndarray, jobs: np.ndarray) -> np.ndarray:
        """int64[jobs, 4]: `contract_values` of the jobs, split over the solvers' threads."""
        jobs = np.ascontiguousarray(jobs, dtype=np.int64).reshape(-1, 4)
        out = np.full((jobs.shape[0], 4), NO_VALUE, dtype=np.int64)
        step = min(len(self.solvers), max(1, jobs.shape[0]))

        def part(k: int) -> None:
            """Thread k solves jobs k, k + step, ..."""
            s = self.solvers[k]
            contract_values(hands, jobs, k, step, *s.buffers(), self._worlds[k], out)

        if step == 1:
            part(0)
        else:
            if self._pool is None:
                self._pool = ThreadPoolExecutor(len(self.solvers))
            list(self._pool.map(part, range(step)))
        return out

    def consistent_hands(self, view, worlds: int, continuation: Continuation,
                         max_draws: int = 8) -> np.ndarray:
        """`worlds` layouts in which the `continuation` would have made every other seat's
        bid seen so far (drawn uniformly, the others rejected; up to `max_draws` * `worlds` draws, the
        shortfall then filled with rejected layouts, the latest first). This is the
        auction's evidence, as far as the continuation describes the other seats."""
        state, seat = view.state, int(view.seat)
        made = int(state[S.N_BIDS])
        kept, rejected = [], []
        dealer, score = int(view.dealer), tuple(view.score)
        replay = np.zeros_like(state)
        for _ in range(max_draws):
            for hands in self.sample(state, seat, worlds):
                S.reset_deal(replay, hands)
                agrees = True
                for k in range(made):
                    bidder = (1 + k) % 4
                    bid = int(state[S.BID + bidder])
                    if bidder != seat and int(continuation.bid(replay, dealer, score)) != bid:
                        agrees = False
                        break
                    apply_bid(replay, bid)
                (kept if agrees else rejected).append(hands)
            if len(kept) >= worlds:
                break
        self.last_consistent = min(len(kept), worlds)
        chosen = kept[:worlds] + rejected[::-1][:worlds - len(kept[:worlds])]
        return np.array(chosen, dtype=np.int64).reshape(worlds, 4)

    def evaluate_auction(self, view, worlds: int,
                         continuation: Continuation | None = None,
                         hands: np.ndarray | None = None) -> Evaluation:
        """The options of the seat to bid in `view` (a `games.setback.view.SeatView` in the
        auction): every legal bid, on `worlds` sampled layouts (or the given `hands`)."""
        state, seat = view.state, int(view.seat)
        if int(state[S.PHASE]) != S.PHASE_AUCTION:
            raise ValueError("evaluate_auction needs a seat to bid")
        bids = np.array([int(m) - BID_MOVE for m in view.legal_moves()], dtype=np.int64)
        if hands is None and continuation is not None and int(state[S.N_BIDS]) > 0:
            hands = self.consistent_hands(view, worlds, continuation)
        elif hands is None:
            hands = self.sample(state, seat, worlds)
        n_worlds = hands.shape[0]
        kind = np.zeros((bids.size, n_worlds), np.int64)
        level = np.zeros((bids.size, n_worlds), np.int64)
        job_of = {}  # (world, holder, level, suits) -> job index
        job_index = np.full((bids.size, n_worlds), -1, np.int64)
        job_suit = np.full((bids.size, n_worlds), -1, np.int64)  # -1: the best suit
        hand = int(state[S.HAND + seat])
        own_suits = sum(1 << s for s in range(4) if hand & int(suit_mask(s)))
        dealer, score = int(view.dealer), tuple(view.score)
        world = state.copy()
        for w in range(n_worlds):
            for s in range(4):
                world[S.HAND + s] = hands[w, s]
                world[S.DEALT + s] = hands[w, s]
            for i, bid in enumerate(bids):
                st = world.copy()
                apply_bid(st, int(bid))
                while int(st[S.PHASE]) == S.PHASE_AUCTION:
                    later = 0 if continuation is None else int(continuation.bid(st, dealer, score))
                    apply_bid(st, later)
                if int(st[S.PHASE]) == S.PHASE_OVER:
                    continue  # all pass: NONE, 0-0
                holder, lvl = int(st[S.HIGH_BIDDER]), int(st[S.HIGH_BID])
                level[i, w] = lvl
                if holder == seat:
                    kind[i, w] = OURS
                    suits = own_suits
                else:
                    kind[i, w] = PARTNER if holder % 2 == seat % 2 else THEIRS
                    suits = ALL_SUITS
                    if continuation is not None:
                        suit = int(continuation.pitch_suit(st, dealer, score))
                        suits = 1 << suit
                        job_suit[i, w] = suit
                key = (w, holder, lvl, suits)
                if key not in job_of:
                    job_of[key] = len(job_of)
                job_index[i, w] = job_of[key]
        jobs = np.array(list(job_of), dtype=np.int64).reshape(-1, 4)
        solved = self.solve(hands, jobs) if jobs.size else np.zeros((0, 4), np.int64)
        return self._evaluation(bids, kind, level, job_index, job_suit, jobs, solved, hands,
                                own_suits, view)

    def evaluate_pitch(self, view, worlds: int, hands: np.ndarray | None = None,
                       continuation: Continuation | None = None) -> Evaluation:
        """The trumps of the bidder about to pitch in `view` (one option: its bid), on
        `worlds` layouts (or the given `hands`): uniform, or with a `continuation`, those in
        which it would have made the other seats' bids (`consistent_hands`)."""
        state, seat = view.state, int(view.seat)
        if int(state[S.TRUMP]) >= 0 or int(state[S.HIGH_BIDDER]) != seat:
            raise ValueError("evaluate_pitch needs the bidder about to lead the first card")
        if hands is None and continuation is not None:
            hands = self.consistent_hands(view, worlds, continuation)
        elif hands is None:
            hands = self.sample(state, seat, worlds)
        n_worlds = hands.shape[0]
        hand = int(state[S.HAND + seat])
        own_suits = sum(1 << s for s in range(4) if hand & int(suit_mask(s)))
        lvl = int(state[S.HIGH_BID])
        jobs = np.array([(w, seat, lvl, own_suits) for w in range(n_worlds)], np.int64)
        solved = self.solve(hands, jobs)
        bids = np.array([lvl], np.int64)
        kind = np.full((1, n_worlds), OURS, np.int64)
        level = np.full((1, n_worlds), lvl, np.int64)
        job_index = np.arange(n_worlds, dtype=np.int64)[None, :]
        job_suit = np.full((1, n_worlds), -1, np.int64)
        return self._evaluation(bids, kind, level, job_index, job_suit, jobs, solved, hands,
                                own_suits, view)

    @staticmethod
    def _evaluation(bids, kind, level, job_index, job_suit, jobs, solved, hands, own_suits,
                    view) -> Evaluation:
        """Split the solved values into both teams' points per option, trump and world."""
        n_options, n_worlds = kind.shape
        jack = _jack_dealt(hands)  # [w, suit]
        holder = np.zeros((n_options, 4, n_worlds), np.int64)
        other = np.zeros((n_options, 4, n_worlds), np.int64)
        trumps = np.array([bool(own_suits >> s & 1) for s in range(4)])
        for i in range(n_options):
            for w in range(n_worlds):
                if kind[i, w] == NONE:
                    continue
                row = solved[job_index[i, w]]
                if kind[i, w] == OURS:
                    for t in range(4):
                        if trumps[t]:
                            holder[i, t, w], other[i, t, w] = split_value(
                                row[t], level[i, w], jack[w, t])
                    continue
                t = job_suit[i, w]
                if t < 0:
                    t = int(np.argmax(row))  # no continuation: the holder's best trump
                h, o = split_value(row[t], level[i, w], jack[w, t])
                holder[i, :, w], other[i, :, w] = h, o
        us, them = view.score_us_them
        # the deal passes to the dealer's left, on the dealer's-left team (seat 1's)
        return Evaluation(bids, kind, level, holder, other, trumps, (int(us), int(them)),
                          int(view.seat) % 2 == 1)
