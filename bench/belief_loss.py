"""Beliefs measured per position (issue 47, level 1): on positions of games the model never saw,
how well each belief predicts who holds each hidden card, by phase of the deal.

For every decision of every seat in --games games of --game (Setback or Euchre) between
--players (their self-play, or every ordered pairing of several; deals from --seed, which
training should never have used), each belief gives p(hidden card -> holder) (the holders: the
three other seats and the cards nobody holds: Setback's undealt cards, Euchre's kitty).
Printed per phase (Setback: auction, tricks 1-2, 3-4, 5-6; Euchre: calls, tricks 1-2, 3-4,
trick 5), overall and on the hidden trumps once trump is known:
- log-loss: nats per hidden card, -mean log p(true holder);
- accuracy: the share of hidden cards whose most likely holder is the true one.

Beliefs:
- uniform: the exact marginals of a layout drawn uniformly among those consistent with the
  hand sizes and voids (`search.card_location_training.uniform_probs`);
- model: each --model file as written (its own fitting iterations), and with --raw also the
  network with the facts only (fit 0);
- policy (--policy db:PATH): `search[belief=policy]`'s worlds as marginals, at each --temper
  (Euchre: the Euchre search player's own pool and weights, `pool_log_weights`);
- a hook for more: `BELIEFS` maps a name to `factory(args) -> belief`, a belief being
  `belief(state, seat, record, tricks_won, score, moves, dealer) -> float64[cards, 4]` (engine
  card order, columns left, partner, right, nobody; rows of seen cards ignored; `moves` the
  deal's moves so far, `dealer` its absolute seat, for a belief that replays the deal). A
  policy belief given as weighted worlds turns into marginals with `marginals_from_worlds`
  (the weighted share of the worlds in which each holder holds each card).

    python bench/belief_loss.py --players db:qs/strategy.db --games 200 --seed 9001 \\
        --model table.model
    python bench/belief_loss.py --game euchre --players heuristic,db:euchre.db --games 60 \\
        --model euchre.model --policy db:euchre.db
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.setback import state as S  # noqa: E402
from play.belief_data import (close_population, generate_games,  # noqa: E402
                              make_population, parse_population, row_moves)
from search.card_location import (HAND_FIELD, HOLDERS, UNDEALT, allowed_holders,  # noqa: E402
                                  game_features, holder_targets, load_model)
from search.card_location_training import uniform_probs  # noqa: E402

N_CARDS = 52  # Setback's cards: the Setback-only beliefs below


def marginals_from_worlds(worlds: np.ndarray, weights: np.ndarray, seat: int,
                          n_cards: int = N_CARDS) -> np.ndarray:
    """float64[n_cards, 4]: the weighted share of `worlds` (full states, rows) in which each
    holder column (relative to `seat`) holds each card; `weights` need not be normalised. The
    cards `seat` sees get whatever the worlds say (ignored downstream)."""
    w = np.asarray(weights, np.float64)
    w = w / w.sum()
    out = np.zeros((n_cards, HOLDERS))
    cards = np.arange(n_cards, dtype=np.int64)
    held = np.zeros((worlds.shape[0], n_cards), bool)
    for k in range(3):
        hand = worlds[:, HAND_FIELD + (seat + 1 + k) % 4]
        bits = ((hand[:, None] >> cards[None, :]) & 1).astype(bool)
        out[:, k] = w @ bits
        held |= bits
    out[:, UNDEALT] = w @ ~held
    return out


def uniform_belief(args):
    """The uniform yardstick (exact marginals of the game's consistent layouts)."""
    k = game_features(args.game)

    def belief(state, seat, record, tricks_won, score, moves, dealer):
        out = np.empty((k.n_cards, HOLDERS))
        uniform_probs(k, state, seat, out)
        return out
    return belief


def sampled_uniform_belief(worlds: int, seed: int):
    """Uniform estimated from `worlds` consistent worlds (`games.setback.search.worlds`, which also
    rejects layouts under which the deal would already be settled), smoothed by one
    pseudo-world spread over the holders the facts allow (a card never seen with a holder
    keeps a little probability)."""
    from games.rng import new_rng
    from games.setback.search.worlds import consistent_worlds

    rng = new_rng(seed)
    states = np.zeros((worlds, S.STATE_SIZE), np.int64)
    allowed = np.zeros((N_CARDS, HOLDERS), np.bool_)

    def belief(state, seat, record, tricks_won, score, moves, dealer):
        drawn, _ = consistent_worlds(state, np.int64(seat), rng, True, states)
        p = marginals_from_worlds(states[:drawn], np.ones(drawn), seat)
        allowed_holders(game_features("setback"), state, seat, allowed)
        spread = allowed / np.maximum(allowed.sum(axis=1, keepdims=True), 1)
        return (drawn * p * allowed + spread) / (drawn + 1)
    return belief


def model_belief(path: str, fit: int | None = None, game: str = "setback"):
    """The belief of a `game` model file (its own fitting, or `fit` iterations)."""
    model = load_model(path, game)

    def belief(state, seat, record, tricks_won, score, moves, dealer):
        return np.exp(model.record_log_probs(state, seat, record, tricks_won, score, fit))
    return belief


def euchre_policy_belief(policy: str, temper: float, pool: int, seed: int):
    """Euchre's `search[belief=policy]` belief as marginals: the Euchre search player's own
    pool of `pool` consistent worlds and their weights (`pool_log_weights`: the table's
    probability of every call and card the other seats made, raised to `temper`), smoothed
    like the Setback one (one pseudo-world over the allowed holders)."""
    from games.euchre.view import SeatView
    from games.rng import new_rng
    from games.euchre.play.tournament import make_euchre_player

    worlds = 100
    player = make_euchre_player(f"search[belief=policy,temper={temper},worlds={worlds},"
                                f"pool={max(1, pool // worlds)},threads=1]:{policy}", seed)
    k = game_features("euchre")
    rng = new_rng(seed)
    states = np.zeros((worlds * max(1, pool // worlds), k.state_size), np.int64)
    allowed = np.zeros((k.n_cards, HOLDERS), np.bool_)

    def belief(state, seat, record, tricks_won, score, moves, dealer):
        view = SeatView(state, seat, dealer, (0, 0), tuple(int(m) for m in moves))
        player._draw_all(view, rng, states)
        history = np.asarray(moves, np.int64)
        log_w = player.pool_log_weights(view, states, history) if history.size else \
            np.zeros(states.shape[0])
        w = np.exp(log_w - log_w.max())
        p = marginals_from_worlds(states, w, seat, k.n_cards)
        allowed_holders(k, state, seat, allowed)
        spread = allowed / np.maximum(allowed.sum(axis=1, keepdims=True), 1)
        n = states.shape[0]
        return (p * allowed + spread / n) / (1 + 1 / n)
    return belief


def policy_belief(table: str, temper: float, pool: int, seed: int):
    """`search[belief=policy]`'s belief as marginals: `pool` consistent worlds weighted by the
    table's probability of every move the other seats made (`search/likelihood.py`), raised to
    `temper`, smoothed like the sampled uniform (one pseudo-world over the allowed holders)."""
    from games.setback.db.policy_arrays import load_policy_arrays
    from games.rng import new_rng
    from games.setback.search.inference import cards_played_by
    from games.setback import public, rules
    from play.likelihood import world_log_weights
    from search.likelihood import POLICY
    from games.setback.search.worlds import consistent_worlds
    from games.setback.train.baseline import layout_game

    arrays = load_policy_arrays(table)
    functions = layout_game(arrays.layout).addresses
    rng = new_rng(seed)
    states = np.zeros((pool, S.STATE_SIZE), np.int64)
    log_w = np.zeros(pool)
    allowed = np.zeros((N_CARDS, HOLDERS), np.bool_)

    def belief(state, seat, record, tricks_won, score, moves, dealer):
        drawn, _ = consistent_worlds(state, np.int64(seat), rng, True, states)
        history = np.asarray(moves, np.int64)
        others = sum(1 << s for s in range(4) if s != seat)
        world_log_weights(public, rules.apply_move, S.TO_ACT, functions, POLICY, states,
                          cards_played_by(history), history, others, arrays, 1e-3, log_w, 0,
                          drawn)
        w = np.exp(temper * (log_w[:drawn] - log_w[:drawn].max()))
        p = marginals_from_worlds(states[:drawn], w, seat)
        allowed_holders(game_features("setback"), state, seat, allowed)
        spread = allowed / np.maximum(allowed.sum(axis=1, keepdims=True), 1)
        return (p * allowed + spread / drawn) / (1 + 1 / drawn)
    return belief


# name -> factory(args) -> belief; the model files are added from --model
BELIEFS = {"uniform": uniform_belief}


def rows_of(game: str) -> tuple:
    """The table's rows: the game's phases, all, then the hidden trumps once trump is known."""
    return game_features(game).phase_names + ("all", "trumps")


ROWS = rows_of("setback")


def measure(data: dict, beliefs: dict, limit: int, game: str = "setback") -> dict:
    """{belief name: float[row, (log-loss sum, correct, hidden cards, positions)]} over the
    first `limit` positions of `data` (`game`'s), one row a phase, then all, then the hidden
    trumps of the positions where trump is known."""
    k = game_features(game)
    rows = rows_of(game)
    n = min(limit, data["seats"].size) if limit else data["seats"].size
    phases = k.phase_of(data["states"][:n])
    sums = {name: np.zeros((len(rows), 4)) for name in beliefs}
    target = np.zeros((k.n_cards, HOLDERS))
    bits = np.int64(1) << np.arange(k.n_cards, dtype=np.int64)
    everything, trumps_row = len(rows) - 2, len(rows) - 1
    for i in range(n):
        state, seat = data["states"][i], int(data["seats"][i])
        holder_targets(k, state, seat, data["hands"][i], target)
        hidden = target.sum(axis=1) > 0
        truth = target[hidden].argmax(axis=1)
        trump_mask = k.trump_cards(state)
        trumps = (bits[hidden] & trump_mask) != 0
        for name, belief in beliefs.items():
            p = belief(state, seat, data["records"][i], data["tricks_won"][i].astype(np.int64),
                       tuple(int(v) for v in data["scores"][i]),
                       row_moves(data["moves"][i], game), int(data["dealer"][i]))[hidden]
            losses = -np.log(np.maximum(p[np.arange(truth.size), truth], 1e-300))
            right = p.argmax(axis=1) == truth
            for phase in (phases[i], everything):
                sums[name][phase] += (losses.sum(), right.sum(), truth.size, 1)
            if trump_mask:
                sums[name][trumps_row] += (losses[trumps].sum(), right[trumps].sum(),
                                           trumps.sum(), 1)
    return sums


def main(argv=None) -> int:
    """Generate the positions, measure every belief, print the table."""
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", choices=("setback", "euchre"), default="setback",
                        help="the game (default setback)")
    parser.add_argument("--players", required=True, help="the population (learn belief's)")
    parser.add_argument("--games", type=int, default=100, help="games to generate")
    parser.add_argument("--seed", type=int, default=9001,
                        help="seed of the games: one training never used")
    parser.add_argument("--model", action="append", default=[], metavar="FILE",
                        help="a card-location model file (repeat to compare)")
    parser.add_argument("--raw", action="store_true",
                        help="also each model without its fitting (fit 0)")
    parser.add_argument("--uniform-worlds", type=int, default=0, metavar="K",
                        help="also uniform estimated from K consistent worlds a position "
                             "(e.g. 2000; slower)")
    parser.add_argument("--policy", metavar="POLICY",
                        help="also the policy belief of this table (db:PATH), at each "
                             "--temper, from --pool consistent worlds a position")
    parser.add_argument("--temper", type=float, nargs="+", default=[0.25],
                        help="the policy belief's tempers (default 0.25)")
    parser.add_argument("--pool", type=int, default=2000,
                        help="the policy belief's worlds a position (default 2000)")
    parser.add_argument("--positions", type=int, default=0,
                        help="measure only the first N positions (default all)")
    args = parser.parse_args(argv)
    if args.game != "setback" and args.uniform_worlds:
        parser.error("--uniform-worlds is Setback's only")
    beliefs = {name: factory(args) for name, factory in BELIEFS.items()}
    if args.uniform_worlds:
        beliefs[f"uniform, {args.uniform_worlds} worlds"] = sampled_uniform_belief(
            args.uniform_worlds, args.seed)
    policy = policy_belief if args.game == "setback" else euchre_policy_belief
    for temper in (args.temper if args.policy else ()):
        beliefs[f"policy, temper {temper:g}"] = policy(args.policy, temper, args.pool,
                                                       args.seed)
    for path in args.model:
        name = Path(path).name
        beliefs[name] = model_belief(path, game=args.game)
        if args.raw:
            beliefs[name + " (fit 0)"] = model_belief(path, 0, args.game)
    start = time.time()
    players = make_population(parse_population(args.players), args.seed, args.game)
    try:
        data = generate_games(players, args.seed, 0, args.games, game=args.game)
    finally:
        close_population(players)
    sums = measure(data, beliefs, args.positions, args.game)
    everything = len(rows_of(args.game)) - 2
    print(f"{args.players}: {args.games} games of seed {args.seed}, "
          f"{int(sums['uniform'][everything, 3]):,} positions, "
          f"{int(sums['uniform'][everything, 2]):,} hidden "
          f"cards ({time.time() - start:.0f} s)")
    print(f"{'belief':<28} {'phase':<11} {'positions':>9} {'log-loss':>9} {'accuracy':>9} "
          f"{'cut vs uniform':>15}")
    for phase, label in enumerate(rows_of(args.game)):
        base = sums["uniform"][phase]
        for name, s in sums.items():
            if s[phase, 2] == 0:
                continue
            loss = s[phase, 0] / s[phase, 2]
            cut = 100 * (1 - loss / (base[0] / base[2]))
            print(f"{name:<28} {label:<11} {int(s[phase, 3]):>9,} {loss:>9.4f} "
                  f"{100 * s[phase, 1] / s[phase, 2]:>8.1f}% {cut:>+14.1f}%")
    return 0


if __name__ == "__main__":
    sys.exit(main())
