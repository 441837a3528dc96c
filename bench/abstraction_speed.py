"""Benchmark: Setback abstraction keys with their action lists, through the numba kernels and
through the string codec, side by side; and the kernels over whole abstract game trees.

    python bench/abstraction_speed.py                       # all three, default sizes
    python bench/abstraction_speed.py --walk-deals 1000 --seed 1   # tree walk + info-set count

1. kernel: `decision.abstract_decision` (actions in canonical order + key) over states sampled
   along random abstract playouts (a fixed, cache-resident set), in ns per call and keys/s.
2. codec: `codec.key_text` then `codec.text_key` on the keys of those states, keys/s.
3. tree walk: the full abstract tree of the census's deals (deal t of seed S is the one the
   solver draws for iteration t: 24 chance words `mix_word(word(S, t), k)`), through the game
   functions of `abstract_game.py` called directly (no CFR values, no table), counting
   decisions, ns per node and the distinct keys by kind. With the same seed it must find
   the same info sets as `setback-cfr census` (tests/test_census.py checks it on a few deals);
   it exists to measure the kernels on real trees and to count info sets quickly.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from numba import njit

from games.setback.abstraction import abstract_game as G
from games.setback.abstraction.codec import key_text, text_key
from games.setback.abstraction.decision import abstract_decision
from games.setback.abstraction.key_layout import KIND_NAMES, KIND_SHIFT
from cfr.rng import mix_word, word
from games.rng import below
from games.setback import state as S


# ---- 1. kernel over sampled states ----------------------------------------------------------

@njit(cache=True)
def sample_states(n, seed, out):
    """`n` decision states along random abstract playouts of random deals."""
    rng = np.empty(1, np.uint64)
    rng[0] = seed
    moves = np.zeros(8, np.int64)
    st = np.zeros(S.STATE_SIZE, np.int64)
    k = 0
    while k < n:
        S.random_deal(rng, st)
        while G.current_player(st) >= 0 and k < n:
            for i in range(S.STATE_SIZE):
                out[k, i] = st[i]
            k += 1
            m, situation, tokens, key = abstract_decision(st, moves)
            G.apply(out[k - 1], moves[below(rng, m)], st)
    return k


@njit(cache=True)
def kernel_loop(states, reps, keys_out):
    """Call the decision kernel on every state `reps` times; returns the number of keys."""
    moves = np.zeros(8, np.int64)
    n_keys = 0
    for r in range(reps):
        for i in range(states.shape[0]):
            n, situation, tokens, key = abstract_decision(states[i], moves)
            if n >= 2:
                n_keys += 1
                keys_out[i] = key
    return n_keys


# ---- 3. tree walk ---------------------------------------------------------------------------

@njit(cache=True)
def _set_insert(table, key):
    """Insert a non-zero key into an open-addressing uint64 set; returns 1 if it was new."""
    mask = np.uint64(table.shape[0] - 1)
    h = key * np.uint64(0x9E3779B97F4A7C15)
    slot = np.int64((h ^ (h >> np.uint64(29))) & mask)
    while True:
        k = table[slot]
        if k == key:
            return 0
        if k == 0:
            table[slot] = key
            return 1
        slot = np.int64((np.uint64(slot) + np.uint64(1)) & mask)


@njit(cache=True)
def walk_deal(seed, t, states, actions, counts, index, key_set, limit):
    """Walk the whole abstract tree of deal t of `seed`; count nodes and new keys.

    counts: [nodes, decisions with a key, new keys by kind 0..3, terminals]. Stops early
    (returns False) when the key set passes `limit` entries, for the caller to grow it.
    """
    base = word(np.uint64(seed), np.uint64(t))
    root = states[0]
    for i in range(S.STATE_SIZE):
        root[i] = 0
    root[S.PHASE] = G.PHASE_DEAL
    k = 0
    while G.current_player(states[0]) == G.CHANCE:
        G.chance_sample(states[0], mix_word(base, k), states[1])
        for i in range(S.STATE_SIZE):
            states[0, i] = states[1, i]
        k += 1
    key = np.zeros(1, np.uint64)
    d = 0
    index[0] = -1
    entering = True
    while d >= 0:
        if entering:
            counts[0] += 1
            if G.current_player(states[d]) == G.TERMINAL:
                counts[7] += 1
                d -= 1
                entering = False
                continue
            n = G.decision(states[d], actions[d], key)
            if n >= 2:
                counts[1] += 1
                kind = np.int64(key[0] >> np.uint64(KIND_SHIFT))
                new = _set_insert(key_set, key[0])
                counts[2 + kind] += new
                counts[6] += new
                if counts[6] > limit:
                    return False
            index[d] = 0
            actions[d, 7] = n
            G.apply(states[d], actions[d, 0], states[d + 1])
            d += 1
            continue
        i = index[d] + 1
        if i < actions[d, 7]:
            index[d] = i
            G.apply(states[d], actions[d, i], states[d + 1])
            d += 1
            entering = True
        else:
            d -= 1
    return True


class KeyCensus:
    """Distinct keys over deals 1..N of a seed, walked by `walk_deal`."""

    def __init__(self, seed: int):
        self.seed = seed
        self.key_set = np.zeros(1 << 20, dtype=np.uint64)
        self.counts = np.zeros(8, dtype=np.int64)
        self.states = np.zeros((G.MAX_DEPTH + 2, S.STATE_SIZE), dtype=np.int64)
        self.actions = np.zeros((G.MAX_DEPTH + 2, 8), dtype=np.int64)
        self.index = np.zeros(G.MAX_DEPTH + 2, dtype=np.int64)

    def walk(self, t: int) -> None:
        """Walk deal t (growing the key set and rewalking when it fills)."""
        while True:
            saved = self.counts.copy()
            if walk_deal(self.seed, t, self.states, self.actions, self.counts, self.index,
                         self.key_set, self.key_set.shape[0] // 2):
                return
            self.counts = saved
            old = self.key_set[self.key_set != 0]
            self.key_set = np.zeros(2 * self.key_set.shape[0], dtype=np.uint64)
            for key in (old,):
                _reinsert(self.key_set, key)
            # keys of the interrupted deal already inserted stay: recount from the set
            self.counts[2:7] = 0
            kinds = np.bincount((old >> np.uint64(KIND_SHIFT)).astype(np.int64), minlength=4)
            self.counts[2:6] = kinds
            self.counts[6] = len(old)

    def by_kind(self) -> dict[str, int]:
        """Distinct keys of each kind so far."""
        return {KIND_NAMES[i]: int(self.counts[2 + i]) for i in range(3)}


@njit(cache=True)
def _reinsert(table, keys):
    for k in keys:
        _set_insert(table, k)


def walk_census(deals: int, seed: int, report_every: int = 0):
    """Walk deals 1..`deals` of `seed`; return (KeyCensus, seconds)."""
    c = KeyCensus(seed)
    start = time.perf_counter()
    for t in range(1, deals + 1):
        c.walk(t)
        if report_every and t % report_every == 0:
            dt = time.perf_counter() - start
            print(f"  {t:>7,} deals  {dt:8.1f} s  {t / dt:6.2f} deals/s  "
                  f"info sets {int(c.counts[6]):,} {c.by_kind()}", flush=True)
    return c, time.perf_counter() - start


def main() -> None:
    """Run the benchmarks and print their figures."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--states", type=int, default=20_000, help="sampled decision states")
    ap.add_argument("--reps", type=int, default=50, help="kernel passes over the states")
    ap.add_argument("--walk-deals", type=int, default=20, help="deals for the tree walk")
    ap.add_argument("--seed", type=int, default=1, help="seed of the tree walk's deals")
    ap.add_argument("--report-every", type=int, default=0, help="tree walk progress lines")
    args = ap.parse_args()

    states = np.zeros((args.states, S.STATE_SIZE), dtype=np.int64)
    sample_states(args.states, 12345, states)
    keys = np.zeros(args.states, dtype=np.uint64)
    kernel_loop(states[:10], 1, keys)  # compile / load
    t0 = time.perf_counter()
    n_keys = kernel_loop(states, args.reps, keys)
    dt = time.perf_counter() - t0
    calls = args.states * args.reps
    print(f"kernel  abstract_decision: {calls / dt / 1e6:7.2f} M decisions/s "
          f"({dt / calls * 1e9:6.1f} ns per decision, {n_keys / args.reps / args.states:.0%} "
          f"with a key: {n_keys / dt / 1e6:.2f} M keys+actions/s)")

    distinct = [int(k) for k in np.unique(keys[keys != 0])]
    t0 = time.perf_counter()
    texts = [key_text(k) for k in distinct]
    dt_text = time.perf_counter() - t0
    t0 = time.perf_counter()
    back = [text_key(s) for s in texts]
    dt_back = time.perf_counter() - t0
    assert back == distinct
    print(f"codec   key_text:          {len(distinct) / dt_text / 1e3:7.1f} k keys/s "
          f"({dt_text / len(distinct) * 1e6:.1f} us per key)")
    print(f"codec   text_key:          {len(distinct) / dt_back / 1e3:7.1f} k keys/s "
          f"({dt_back / len(distinct) * 1e6:.1f} us per key, re-encoding check included)")

    walk_census(1, args.seed)  # compile / load
    c, dt = walk_census(args.walk_deals, args.seed, args.report_every)
    nodes, decisions = int(c.counts[0]), int(c.counts[1])
    print(f"walk    {args.walk_deals} deals (seed {args.seed}): {dt:.1f} s, "
          f"{args.walk_deals / dt:.2f} deals/s, {nodes / dt / 1e6:.1f} M nodes/s "
          f"({dt / nodes * 1e9:.0f} ns per node), {decisions / args.walk_deals:,.0f} keyed "
          f"decisions per deal")
    print(f"        info sets {int(c.counts[6]):,}: {c.by_kind()}")


if __name__ == "__main__":
    main()
