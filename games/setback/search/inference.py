"""Policy-based inference: how likely each sampled world makes the moves actually seen.

A world (the hidden hands) is weighted by the probability that a model of the players would
have made the other seats' observed moves, bids and cards, had they held the world's cards
(Rebstock, Solinas, Buro, Sturtevant 2019). The deal is replayed from its first bid with the
world's dealt hands (each seat's cards now plus the cards the history shows it played); at every
move of a seat other than the observer the model gives the move's probability. A move that is
illegal in the world makes its weight 0; otherwise each probability is raised to a floor, so
one move the model finds odd cannot zero a world. Weights are kept as logs.

The model is any callable `model(state, move, us, them) -> probability` (the state before the
move, the mover's team's game score and the other's); `games/setback/play/policy_model.py` builds
one from a trained strategy through the abstraction. This module depends on the rules only.
"""

from __future__ import annotations

import math

import numpy as np

from games.setback import state as S
from games.setback.public import replay_public
from games.setback.rules import apply_move, is_legal

DEFAULT_FLOOR = 0.01
ALL_CARDS = (1 << 52) - 1


def cards_played_by(history) -> np.ndarray:
    """The cards each seat (relative to the dealer) played in `history` (engine moves from the
    deal's first bid): `games.setback.public.replay_public`'s."""
    return replay_public(None, history)[0]


def others_moves(hands, played, history, observer: int, skip: int = 0, upto: int | None = None):
    """Replay the deal from its first bid in the world whose current hands are `hands` (by
    seat; `played` = `cards_played_by(history)`) and yield (index, state, move) before each
    move of `history[skip:upto]` made by a seat other than `observer`, `state` the full state
    before that move (valid until the next item is asked for)."""
    state = S.new_state()
    S.reset_deal(state, np.asarray(hands, dtype=np.int64) | played)
    for index in range(len(history) if upto is None else upto):
        move = int(history[index])
        if index >= skip and int(state[S.TO_ACT]) != observer:
            yield index, state, move
        apply_move(state, move)


def log_weight(hands, played, history, observer: int, model, dealer: int = 0,
               score=(0, 0), floor: float = DEFAULT_FLOOR, skip: int = 0) -> float:
    """Log of the probability of the other seats' moves in `history` under `model`, in the
    world whose current hands are `hands` (by seat); `played` = `cards_played_by(history)`;
    -inf when one of those moves is illegal in the world. `score`: the game score by absolute
    team (EW, NS) before the deal. The first `skip` moves are replayed but not scored (the
    auction and the pitch, when bid tables account for them:
    `games/setback/search/bid_tables.py`)."""
    total = 0.0
    for _, state, move in others_moves(hands, played, history, observer, skip):
        if not is_legal(state, move):
            return -math.inf
        team = (dealer + int(state[S.TO_ACT])) % 2
        p = model(state, move, int(score[team]), int(score[1 - team]))
        total += math.log(max(float(p), floor))
    return total


def log_weights(worlds: np.ndarray, history, observer: int, model, dealer: int = 0,
                score=(0, 0), floor: float = DEFAULT_FLOOR, skip: int = 0) -> np.ndarray:
    """`log_weight` of every world (rows of hands by seat)."""
    played = cards_played_by(history)
    return np.array([log_weight(row, played, history, observer, model, dealer, score, floor,
                                skip) for row in worlds], dtype=np.float64)


def normalized(log_w: np.ndarray) -> np.ndarray:
    """Weights summing to 1 from log-weights (uniform if every world has weight 0)."""
    top = np.max(log_w) if log_w.size else -math.inf
    if not np.isfinite(top):
        return np.full(log_w.size, 1.0 / max(log_w.size, 1))
    w = np.exp(log_w - top)
    return w / w.sum()


def effective_sample_size(weights: np.ndarray) -> float:
    """(sum w)^2 / sum w^2: how many equally weighted worlds the weights are worth."""
    total = float(weights.sum())
    squares = float((weights * weights).sum())
    return total * total / squares if squares > 0 else 0.0
