"""How well do beliefs about the hidden cards match the truth? The engine of
`setback-cfr inference`.

Positions come from self-play: deal i (its own random stream of `seed`, dealer rotating) is
played by the policy's own player at all four seats until a random number of cards (1..23) has
been played; the seat to act there is the observer. Three beliefs about the other seats' hands:
- uniform: every layout consistent with the observer's hand, the cards played and the hand
  sizes (the voids shown ignored);
- voids: the same, also respecting the voids shown (what `pimc` samples);
- policy: the voids belief reweighted by the policy's probability of the other seats' moves
  (what `pimc-pi` uses; `games.setback.search.inference`);
- bids: the voids belief reweighted by the policy's probability of the bids only, from the
  policy's arrays (what `search[belief=bids]:POLICY` resamples by, untempered;
  `games/setback/search/worlds.py`);
- with bid tables (`tables`): tables, the layouts (voids respected) drawn in proportion to
  the product of the tables' per-card probabilities given the auction and the pitch (what
  `pimc:W,tables=FILE` samples; its log-likelihood is exact, `games/setback/search/bid_tables.py`),
  and tables+policy, those worlds weighted by the policy's probability of the moves after the pitch
  only (the auction is the tables').
For each, over the positions: the mean log-likelihood (nats) of the true layout (exact for the
two uniform beliefs, the log of one over the number of layouts; for the policy belief the
importance estimate log L(truth) - log(mean L over the sampled worlds) added to the voids
figure), and for every card the other seats truly hold, whether the seat the belief thinks
most likely holds it (from WORLDS sampled worlds) is the true one ("accuracy"), and the mean
probability the belief gives the true holder. The policy weights' effective sample size is
reported too. With `exact`, two ceilings (`games/setback/play/exact_belief.py`): exact:auction, the
exact posterior given the auction and the pitch (no belief built on them, bid tables included, can
do better on average), and exact:all, given every move seen (no belief at all can); their holder
figures come from the first WORLDS layouts that reproduce the moves. Each belief's cut against
uniform carries a 95 % interval over the positions (1.96 standard errors of the per-position
gain in log-likelihood, divided by the mean uniform log-loss).
"""

from __future__ import annotations

import math
import sys

import numpy as np

from games.rng import stream_seed
from games.setback import state as S
from games.setback.rules import apply_move
from games.setback.view import SeatView
from games.setback.search.inference import (DEFAULT_FLOOR, cards_played_by,
                                            effective_sample_size, log_weight, log_weights,
                                            normalized)
from games.setback.search.world_search import WorldSearch
from games.setback.play.pimc import TABLES_SKIP
from games.setback.search.sampler import log_layouts

BELIEFS = ("uniform", "voids", "policy", "bids")
TABLES_BELIEFS = ("tables", "tables+policy")
EXACT_BELIEFS = ("exact:auction", "exact:all")
EXACT_STREAM = 1 << 62  # the exact beliefs' layouts: a stream of the seed no deal uses


def self_play_position(player, seed: int, index: int, rng, first_trick: bool = False):
    """(state, dealer, history) of a random position of deal `index`, or None (all passed);
    with `first_trick`, a position of the first trick after the pitch (1..3 cards played)."""
    from games.setback.play.tournament import deal_state

    dealer = index % 4
    state = deal_state(np.uint64(stream_seed(np.uint64(seed), np.uint64(index))), 0)
    target = int(rng.integers(1, 4 if first_trick else 24))
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


def reweighted(prior_ll: float, drawn: np.ndarray, truth: np.ndarray, history, seat: int,
               model, dealer: int, floor: float, skip: int = 0) -> tuple[float, np.ndarray]:
    """A belief reweighted by the policy: (the importance estimate of the truth's
    log-likelihood, prior_ll + log L(truth) - log(mean L over `drawn`), and the normalized
    weights of `drawn`); the first `skip` moves of `history` are not scored."""
    log_w = log_weights(drawn, history, seat, model, dealer, (0, 0), floor, skip)
    top = float(np.max(log_w))
    log_mean = top + math.log(float(np.mean(np.exp(log_w - top))))
    played = cards_played_by(history)
    truth_w = log_weight(truth, played, history, seat, model, dealer, (0, 0), floor, skip)
    return prior_ll + truth_w - log_mean, normalized(log_w)


def bids_reweighted(prior_ll: float, drawn: np.ndarray, truth: np.ndarray, history, arrays,
                    functions, floor: float) -> tuple[float, np.ndarray]:
    """`reweighted` for the search player's bids belief: the weights are the policy arrays'
    probability of the deal's bids (`search/likelihood.py`'s `BIDS`; `functions`: the abstract
    game's addresses)."""
    from games.setback import public, rules
    from play.likelihood import ALL_SEATS, world_log_weights
    from search.likelihood import BIDS

    moves = np.asarray(history, dtype=np.int64)
    played = cards_played_by(history)
    rows = np.zeros((drawn.shape[0] + 1, S.STATE_SIZE), dtype=np.int64)
    rows[:-1, S.HAND:S.HAND + 4] = drawn  # the likelihood reads the hands only
    rows[-1, S.HAND:S.HAND + 4] = truth
    log_w = np.zeros(rows.shape[0], dtype=np.float64)
    world_log_weights(public, rules.apply_move, S.TO_ACT, functions, BIDS, rows, played, moves,
                      ALL_SEATS, arrays, floor, log_w)
    drawn_w, truth_w = log_w[:-1], float(log_w[-1])
    top = float(np.max(drawn_w))
    log_mean = top + math.log(float(np.mean(np.exp(drawn_w - top))))
    return prior_ll + truth_w - log_mean, normalized(drawn_w)


def evaluate(policy_spec: str, positions: int, seed: int = 0, worlds: int = 100,
             floor: float = DEFAULT_FLOOR, progress: bool = False, tables: str | None = None,
             first_trick: bool = False, exact: bool = False, exact_hits: int = 50,
             exact_samples: int = 200_000) -> dict:
    """The inference table (module docstring) over `positions` self-play positions; `tables`:
    a bid tables file adds the tables beliefs; `first_trick`: positions of the first trick;
    `exact`: the exact beliefs, each position's fraction estimated to `exact_hits` layouts that
    reproduce the moves or `exact_samples` drawn."""
    from games.setback.play.grammar import make_player
    from games.setback.play.policy_model import PolicyModel
    from games.setback.play.bid_tables import load_belief
    from games.setback.play.exact_belief import ExactBelief

    belief = load_belief(tables) if tables else None
    beliefs = BELIEFS + (TABLES_BELIEFS if belief is not None else ()) + \
        (EXACT_BELIEFS if exact else ())
    player = make_player(policy_spec, seed)
    model = PolicyModel(player.db, player.use_bootstrap)
    from games.setback.abstraction import abstract_game, layouts
    from cfr.binding import layout_game
    from games.setback.db.policy_arrays import arrays_of_player

    arrays = arrays_of_player(player, progress)
    functions = layout_game(abstract_game, layouts, arrays.layout).addresses
    search = WorldSearch(seed)
    exact_belief = ExactBelief(player, int(stream_seed(np.uint64(seed), np.uint64(EXACT_STREAM))),
                               exact_hits, exact_samples) if exact else None
    rng = np.random.default_rng(seed)
    sums = {b: {"loglik": 0.0, "judged": 0, "correct": 0, "mass": 0.0} for b in beliefs}
    gains = {b: [] for b in beliefs}  # per position: log-lik minus the uniform one
    ess, ess_tables, done, index = [], [], 0, 0
    while done < positions:
        found = self_play_position(player, seed, index, rng, first_trick)
        index += 1
        if found is None:
            continue
        state, dealer, history = found
        seat = int(state[S.TO_ACT])
        view = SeatView.of(state, dealer, (0, 0), history).state
        truth = np.array([state[S.HAND + s] for s in range(4)], dtype=np.int64)
        uniform = search.sample(view, seat, worlds, voids=False)
        voided = search.sample(view, seat, worlds, voids=True)
        flat = np.full(worlds, 1.0 / worlds)
        voids_ll = -float(log_layouts(view, seat, True))
        policy_ll, weights = reweighted(voids_ll, voided, truth, history, seat, model, dealer,
                                        floor)
        ess.append(effective_sample_size(weights))
        bids_ll, bids_weights = bids_reweighted(voids_ll, voided, truth, history, arrays,
                                                functions, floor)
        lls = {"uniform": -float(log_layouts(view, seat, False)), "voids": voids_ll,
               "policy": policy_ll, "bids": bids_ll}
        judged_sets = [("uniform", uniform, flat), ("voids", voided, flat),
                       ("policy", voided, weights), ("bids", voided, bids_weights)]
        if belief is not None:
            drawn = belief.sample(view, seat, worlds, search.rng)
            lls["tables"] = belief.loglik(view, seat, truth)
            lls["tables+policy"], weights_t = reweighted(
                lls["tables"], drawn, truth, history, seat, model, dealer, floor, TABLES_SKIP)
            ess_tables.append(effective_sample_size(weights_t))
            judged_sets += [("tables", drawn, flat), ("tables+policy", drawn, weights_t)]
        if exact_belief is not None:
            played = cards_played_by(history)
            for name, upto in (("exact:auction", min(TABLES_SKIP, len(history))),
                               ("exact:all", len(history))):
                hits, n, kept = exact_belief.fraction(view, seat, history, played, dealer, upto,
                                                      keep=worlds)
                lls[name] = exact_belief.loglik(voids_ll, hits, n)
                judged_sets.append((name, kept, np.full(len(kept), 1.0 / max(len(kept), 1))))
        for belief_name, hands, w in judged_sets:
            judged, correct, mass = holder_scores(hands, w, truth, seat)
            entry = sums[belief_name]
            entry["loglik"] += lls[belief_name]
            gains[belief_name].append(lls[belief_name] - lls["uniform"])
            entry["judged"] += judged
            entry["correct"] += correct
            entry["mass"] += mass
        done += 1
        if progress:
            print(f"\r{done}/{positions} positions", end="", file=sys.stderr, flush=True)
    if progress:
        print("\r", end="", file=sys.stderr)
    table = {}
    uniform_loss = -sums["uniform"]["loglik"] / max(done, 1)
    for name in beliefs:
        e = sums[name]
        gain = np.array(gains[name])
        spread = float(gain.std(ddof=1) / math.sqrt(gain.size)) if gain.size > 1 else 0.0
        table[name] = {
            "loglik": e["loglik"] / max(done, 1),
            "cut": float(gain.mean()) / uniform_loss if uniform_loss > 0 else 0.0,
            "cut_ci95": 1.96 * spread / uniform_loss if uniform_loss > 0 else 0.0,
            "accuracy": e["correct"] / max(e["judged"], 1),
            "p_true_holder": e["mass"] / max(e["judged"], 1),
        }
    return {"policy": policy_spec, "positions": done, "seed": seed, "worlds": worlds,
            "floor": floor, "beliefs": table, "tables": tables, "first_trick": first_trick,
            "exact_hits": exact_hits if exact else None,
            "exact_samples": exact_samples if exact else None,
            "exact_limited": exact_belief.limited if exact else None,
            "ess_mean": float(np.mean(ess)) if ess else 0.0,
            "ess_median": float(np.median(ess)) if ess else 0.0,
            "ess_tables_policy_mean": float(np.mean(ess_tables)) if ess_tables else None,
            "model_lookups": model.lookups, "model_missing": model.missing}


def format_table(result: dict) -> str:
    """The inference table as text."""
    where = "first-trick" if result.get("first_trick") else "self-play"
    lines = [f"inference: {result['positions']} {where} positions of {result['policy']}, "
             f"seed {result['seed']}, {result['worlds']} worlds, floor {result['floor']}"
             + (f", tables {result['tables']}" if result.get("tables") else ""),
             f"  {'belief':13} {'log-lik (nats)':>15} {'vs uniform (95 %)':>18} "
             f"{'holder accuracy':>16} {'P(true holder)':>15}"]
    for belief, row in result["beliefs"].items():
        cut = f"{100 * row['cut']:+6.1f}% ± {100 * row['cut_ci95']:3.1f}"
        lines.append(f"  {belief:13} {row['loglik']:15.2f} {cut:>18} "
                     f"{100 * row['accuracy']:15.1f}% {row['p_true_holder']:15.3f}")
    lines.append(f"  policy weights' effective sample size: mean {result['ess_mean']:.1f}, "
                 f"median {result['ess_median']:.1f} of {result['worlds']}")
    if result.get("ess_tables_policy_mean") is not None:
        lines.append(f"  tables+policy weights' effective sample size: mean "
                     f"{result['ess_tables_policy_mean']:.1f} of {result['worlds']}")
    lines.append("  (vs uniform: the cut in log-loss, -log-lik, against the uniform belief, and "
                 "its 95 % interval over the positions)")
    if result.get("exact_hits") is not None:
        lines.append("  exact:auction caps any belief built on the auction and the pitch, "
                     "exact:all any belief at all (on average);")
        lines.append(f"  each replays the player on voids layouts until {result['exact_hits']} "
                     f"reproduce its moves, at most {result['exact_samples']:,} drawn: "
                     f"{result['exact_limited']} of {2 * result['positions']} estimates "
                     "stopped short (a ceiling found with fewer "
                     "hits is less precise, and understated when none)")
    lines.append(f"  policy keys looked up {result['model_lookups']:,}, "
                 f"missing {result['model_missing']:,} (counted as uniform)")
    return "\n".join(lines)
