"""How well do beliefs about the hidden cards match the truth? The engine of
`setback-cfr inference`.

Positions come from self-play: deal i (its own random stream of `seed`, dealer rotating) is
played by the policy's own player at all four seats until a random number of cards (1..23) has
been played; the seat to act there is the observer. Three beliefs about the other seats' hands:
- uniform: every layout consistent with the observer's hand, the cards played and the hand
  sizes (the voids shown ignored);
- voids: the same, also respecting the voids shown (what `pimc` samples);
- policy: the voids belief reweighted by the policy's probability of the other seats' moves
  (what `pimc-pi` uses; `search.inference`).
For each, over the positions: the mean log-likelihood (nats) of the true layout (exact for the
two uniform beliefs, the log of one over the number of layouts; for the policy belief the
importance estimate log L(truth) - log(mean L over the sampled worlds) added to the voids
figure), and for every card the other seats truly hold, whether the seat the belief thinks
most likely holds it (from WORLDS sampled worlds) is the true one ("accuracy"), and the mean
probability the belief gives the true holder. The policy weights' effective sample size is
reported too.
"""

from __future__ import annotations

import math
import sys

import numpy as np

from games.rng import stream_seed
from games.setback import state as S
from games.setback.rules import apply_move
from games.setback.view import SeatView
from search.inference import DEFAULT_FLOOR, effective_sample_size, log_weight
from search.inference import cards_played_by, normalized
from search.pimc import WorldSearch
from search.sampler import log_layouts

BELIEFS = ("uniform", "voids", "policy")


def self_play_position(player, seed: int, index: int, rng):
    """(state, dealer, history) of a random position of deal `index`, or None (all passed)."""
    from play.tournament import deal_state

    dealer = index % 4
    state = deal_state(np.uint64(stream_seed(seed, index)), 0)
    target = int(rng.integers(1, 24))
    history: list[int] = []
    while state[S.PHASE] != S.PHASE_OVER:
        if state[S.PHASE] == S.PHASE_PLAY and bin(int(state[S.PLAYED])).count("1") == target:
            return state, dealer, history
        move = int(player.choose(SeatView.of(state, dealer, (0, 0), history)))
        apply_move(state, move)
        history.append(move)
    return None


def holder_scores(hands: np.ndarray, weights: np.ndarray, truth: np.ndarray, seat: int):
    """(cards judged, correct argmax holders, sum of the probability of the true holder) over
    the cards the other seats truly hold."""
    others = [(seat + k) % 4 for k in (1, 2, 3)]
    judged = correct = 0
    mass = 0.0
    for true_seat in others:
        mask = int(truth[true_seat])
        while mask:
            card = (mask & -mask).bit_length() - 1
            mask &= mask - 1
            bit = np.int64(1) << card
            probs = [float(weights[(hands[:, s] & bit) != 0].sum()) for s in others]
            judged += 1
            correct += others[int(np.argmax(probs))] == true_seat
            mass += probs[others.index(true_seat)]
    return judged, correct, mass


def evaluate(policy_spec: str, positions: int, seed: int = 0, worlds: int = 100,
             floor: float = DEFAULT_FLOOR, progress: bool = False) -> dict:
    """The inference table (module docstring) over `positions` self-play positions."""
    from play.player_spec import make_player
    from play.policy_model import PolicyModel

    player = make_player(policy_spec, seed)
    model = PolicyModel(player.db, player.use_bootstrap)
    search = WorldSearch(seed)
    rng = np.random.default_rng(seed)
    sums = {b: {"loglik": 0.0, "judged": 0, "correct": 0, "mass": 0.0} for b in BELIEFS}
    ess, done, index = [], 0, 0
    while done < positions:
        found = self_play_position(player, seed, index, rng)
        index += 1
        if found is None:
            continue
        state, dealer, history = found
        seat = int(state[S.TO_ACT])
        view = SeatView.of(state, dealer, (0, 0), history).state
        truth = np.array([state[S.HAND + s] for s in range(4)], dtype=np.int64)
        uniform = search.sample(view, seat, worlds, voids=False)
        voided = search.sample(view, seat, worlds, voids=True)
        played = cards_played_by(history)
        log_w = np.array([log_weight(row, played, history, seat, model, dealer, (0, 0), floor)
                          for row in voided])
        weights = normalized(log_w)
        ess.append(effective_sample_size(weights))
        flat = np.full(worlds, 1.0 / worlds)
        voids_ll = -float(log_layouts(view, seat, True))
        top = float(np.max(log_w))
        log_mean = top + math.log(float(np.mean(np.exp(log_w - top))))
        truth_w = log_weight(truth, played, history, seat, model, dealer, (0, 0), floor)
        lls = {"uniform": -float(log_layouts(view, seat, False)), "voids": voids_ll,
               "policy": voids_ll + truth_w - log_mean}
        for belief, hands, w in (("uniform", uniform, flat), ("voids", voided, flat),
                                 ("policy", voided, weights)):
            judged, correct, mass = holder_scores(hands, w, truth, seat)
            entry = sums[belief]
            entry["loglik"] += lls[belief]
            entry["judged"] += judged
            entry["correct"] += correct
            entry["mass"] += mass
        done += 1
        if progress:
            print(f"\r{done}/{positions} positions", end="", file=sys.stderr, flush=True)
    if progress:
        print("\r", end="", file=sys.stderr)
    table = {}
    for belief in BELIEFS:
        e = sums[belief]
        table[belief] = {
            "loglik": e["loglik"] / max(done, 1),
            "accuracy": e["correct"] / max(e["judged"], 1),
            "p_true_holder": e["mass"] / max(e["judged"], 1),
        }
    return {"policy": policy_spec, "positions": done, "seed": seed, "worlds": worlds,
            "floor": floor, "beliefs": table,
            "ess_mean": float(np.mean(ess)) if ess else 0.0,
            "ess_median": float(np.median(ess)) if ess else 0.0,
            "model_lookups": model.lookups, "model_missing": model.missing}


def format_table(result: dict) -> str:
    """The inference table as text."""
    lines = [f"inference: {result['positions']} self-play positions of {result['policy']}, "
             f"seed {result['seed']}, {result['worlds']} worlds, floor {result['floor']}",
             f"  {'belief':8} {'log-lik (nats)':>15} {'holder accuracy':>16} "
             f"{'P(true holder)':>15}"]
    for belief in BELIEFS:
        row = result["beliefs"][belief]
        lines.append(f"  {belief:8} {row['loglik']:15.2f} {100 * row['accuracy']:15.1f}% "
                     f"{row['p_true_holder']:15.3f}")
    lines.append(f"  policy weights' effective sample size: mean {result['ess_mean']:.1f}, "
                 f"median {result['ess_median']:.1f} of {result['worlds']}")
    lines.append(f"  policy keys looked up {result['model_lookups']:,}, "
                 f"missing {result['model_missing']:,} (counted as uniform)")
    return "\n".join(lines)
