"""Training the card-location network (`search.card_location`): a masked grouped softmax,
minibatch Adam, resumable bit for bit, and the yardstick it is measured against.

The loss: each hidden card is one softmax over the holders the hard facts allow (the others'
logits are -inf, so the network never spends mass on them), and the loss is the mean
cross-entropy of the true holder, in nats per hidden card (the figure the benchmark reports).
The seen cards' groups are left out. The gradient of the masked softmax is the familiar
`p - target` on the allowed holders (0 elsewhere), backed through `search.mlp.MLP`'s layers.

Resuming: the whole training state (weights, Adam's moments and step, the epochs done, the
curve, the seconds spent) is one `TrainingState`; `state_bytes`/`state_from_bytes` turn it into
a checkpoint and back exactly. Epoch e's row order comes from a generator seeded by (seed, e)
only, so an interrupted run resumed from its last epoch's checkpoint continues bit for bit.

Data: a dict of row arrays (`ROW_FIELDS`): `states` int64[n, state size] (the seat's view),
`seats`, `records` int64[n, record rows, 4] and `tricks_won` (the game's `public_record`, by
seat relative to the dealer), `scores` [n, 2] (us, them), `hands` int64[n, 4] (the true current
hands: the labels).

Uniform (the yardstick): `uniform_probs` gives the exact marginals of a layout drawn uniformly
among those consistent with the hand sizes and voids shown (the one world sampler's count,
`search.world_sampler.layout_table`, run forwards and backwards over the game's suits):
p(card of suit s -> seat i) = E[cards of s seat i gets] / hidden cards of s.
"""

from __future__ import annotations

import io
import json
import time
import zipfile
from dataclasses import dataclass, field

import numpy as np
from numba import njit

from games.bits import popcount
from games.registry import DEFAULT_GAME
from search import card_location as C
from search.card_location import HOLDERS, UNDEALT, game_features
from search.mlp import MLP, softmax
from search.world_sampler import binomial_table, layout_table

ROW_FIELDS = ("states", "seats", "records", "tricks_won", "scores", "hands")
STATE_VERSION = 1
ADAM = (0.9, 0.999, 1e-8)
# The pair weights are few and shared by every card: Adam moves each by about the learning
# rate a step, and they need values of several units (a card ruled out by play), so they take
# this multiple of the network's rate.
PAIR_RATE = 30.0


def encode(data: dict, rows, with_targets: bool = True, game: str = DEFAULT_GAME,
           totals: bool = False):
    """(x float64[n, features], pairs float64[n, cards, 3, pair features], allowed
    bool[n, cards, 4], target float64[n, cards, 4]) of the rows `rows` (indices) of `data`, a
    data set of `game`, in the network's card order; with `totals`, also each row's holder
    totals float64[n, 4] (`card_location.holder_totals`, what the fitting needs)."""
    rows = np.asarray(rows)
    x, _, pairs, allowed, target, holders = C.encode_positions(
        game_features(game), data["states"][rows], data["seats"][rows], data["records"][rows],
        data["tricks_won"][rows], data["scores"][rows],
        data["hands"][rows] if with_targets else None)
    return (x, pairs, allowed, target, holders) if totals else (x, pairs, allowed, target)


def _logits(mlp: MLP, pair_weights, x, pairs):
    """(the network's logits plus the pair terms [n, cards, 4], the layers' activations)."""
    z, acts = mlp.logits(x)
    z = z.copy()
    z[:, :, :3] += pairs @ pair_weights
    return z, acts


def masked_probs(mlp: MLP, pair_weights, x, pairs, allowed) -> np.ndarray:
    """float64[n, cards, 4]: each group's softmax over its allowed holders (0 elsewhere; rows of
    seen cards all 0)."""
    z, _ = _logits(mlp, pair_weights, x, pairs)
    return _masked_softmax(z, allowed)


def _masked_softmax(z, allowed):
    """Softmax of logits `z` over the `allowed` classes of each group."""
    hidden = allowed.any(axis=2, keepdims=True)
    z = np.where(allowed | ~hidden, z, -np.inf)
    p = softmax(z)
    return np.where(hidden, p, 0.0)


def loss_and_gradients(mlp: MLP, pair_weights, x, pairs, allowed,
                       target) -> tuple[float, int, list]:
    """(summed log-loss of the true holders over the hidden cards, their number, the gradient
    of the MEAN loss per hidden card for every parameter in `MLP.parameters` order, then the
    pair weights')."""
    z, acts = _logits(mlp, pair_weights, x, pairs)
    p = _masked_softmax(z, allowed)
    cards = int(target.sum())
    loss = -float((target * np.log(np.where(target > 0, p, 1.0))).sum())
    n = x.shape[0]
    diff = (p - target) / max(1, cards)
    pair_grad = np.einsum("ngi,ngik->k", diff[:, :, :3], pairs)
    grad = diff.reshape(n, -1)
    grads = [None] * (2 * len(mlp.weights)) + [pair_grad]
    for k in range(len(mlp.weights) - 1, -1, -1):
        grads[2 * k] = acts[k].T @ grad
        grads[2 * k + 1] = grad.sum(axis=0)
        if k:
            grad = (grad @ mlp.weights[k].T) * (acts[k] > 0)
    return loss, cards, grads


def row_log_losses(mlp: MLP, pair_weights, data: dict, rows, fit: int = 0,
                   batch: int = 2048, game: str = DEFAULT_GAME) -> tuple[np.ndarray, np.ndarray]:
    """Per row of `rows` of `game`'s `data`: (summed log-loss of the true holders, hidden
    cards) under the network with the facts applied and then `fit` iterations of
    `card_location.fit_marginals`."""
    rows = np.asarray(rows)
    losses = np.zeros(rows.size)
    cards = np.zeros(rows.size, np.int64)
    for i in range(0, rows.size, batch):
        part = rows[i:i + batch]
        x, pairs, allowed, target, totals = encode(data, part, game=game, totals=True)
        p = masked_probs(mlp, pair_weights, x, pairs, allowed)
        if fit > 0:
            # the fitting works in engine order, the network's order only permutes the rows
            C.fit_rows(p, allowed, totals, fit)
        hit = target > 0
        losses[i:i + part.size] = -(np.log(np.where(hit, p, 1.0))).sum(axis=(1, 2))
        cards[i:i + part.size] = hit.sum(axis=(1, 2))
    return losses, cards


def log_loss(mlp: MLP, pair_weights, data: dict, rows, fit: int = 0,
             game: str = DEFAULT_GAME) -> tuple[float, int]:
    """(mean log-loss in nats per hidden card, hidden cards) of the network with the facts
    applied (and `fit` fitting iterations) on `rows` of `game`'s `data`."""
    losses, cards = row_log_losses(mlp, pair_weights, data, rows, fit, game=game)
    return float(losses.sum()) / max(1, int(cards.sum())), int(cards.sum())


@dataclass
class TrainingState:
    """Everything a resumed run needs: the network and the pair weights, Adam's moments and
    step (`parameters` order), the epochs done, the curve (one dict an epoch: epoch, train,
    heldout, seconds), the seconds spent and `info` (the run's figures; `info["game"]` the
    game whose features it learns, Setback when absent)."""

    mlp: MLP
    pair: np.ndarray
    m: list
    v: list
    step: int = 0
    epoch: int = 0
    curve: list = field(default_factory=list)
    seconds: float = 0.0
    info: dict = field(default_factory=dict)

    @classmethod
    def create(cls, hidden: tuple, seed: int, info: dict | None = None,
               game: str = DEFAULT_GAME) -> "TrainingState":
        """A fresh state of a `game` network: He-initialised weights from `seed`, zero
        moments."""
        k = game_features(game)
        mlp = MLP.create(k.n_features, tuple(hidden), k.n_cards, HOLDERS, seed)
        pair = np.zeros(k.n_pair)
        params = mlp.parameters() + [pair]
        return cls(mlp, pair, [np.zeros_like(p) for p in params],
                   [np.zeros_like(p) for p in params], info={**(info or {}), "game": game})

    @property
    def game(self) -> str:
        """The game whose features the network learns."""
        return self.info.get("game", DEFAULT_GAME)

    def parameters(self) -> list:
        """The network's arrays (`MLP.parameters`) then the pair weights."""
        return self.mlp.parameters() + [self.pair]


def train_epoch(state: TrainingState, data: dict, rows, seed: int, batch: int,
                learning_rate: float, weight_decay: float = 0.0, should_stop=None,
                progress=None) -> float | None:
    """One pass of minibatch Adam over `rows` of `data` in the order of a generator seeded by
    (seed, epoch); updates `state` in place and returns the mean training loss per hidden card,
    or None (state untouched) when `should_stop()` turned true before the epoch ended.
    `progress(rows_done)` is called after each batch."""
    rng = np.random.default_rng([seed, state.epoch])
    rows = np.asarray(rows)
    order = rows[rng.permutation(rows.size)]
    params = state.parameters()
    work = [p.copy() for p in params]  # the epoch works on copies: a stop leaves `state` as it was
    m = [a.copy() for a in state.m]
    v = [a.copy() for a in state.v]
    step = state.step
    b1, b2, eps = ADAM
    total, cards = 0.0, 0
    layers = len(state.mlp.weights)
    shadow = MLP(work[0:2 * layers:2], work[1:2 * layers:2], state.mlp.groups,
                 state.mlp.classes)
    shadow_pair = work[-1]
    for i in range(0, order.size, batch):
        if should_stop is not None and should_stop():
            return None
        x, pairs, allowed, target = encode(data, np.sort(order[i:i + batch]),
                                           game=state.game)
        loss, n, grads = loss_and_gradients(shadow, shadow_pair, x, pairs, allowed, target)
        total += loss
        cards += n
        step += 1
        for k, (p, g) in enumerate(zip(work, grads)):
            if weight_decay and p.ndim == 2:
                g = g + weight_decay * p
            m[k] = b1 * m[k] + (1 - b1) * g
            v[k] = b2 * v[k] + (1 - b2) * g * g
            rate = learning_rate * (PAIR_RATE if k == len(work) - 1 else 1.0)
            p -= rate * (m[k] / (1 - b1 ** step)) / (np.sqrt(v[k] / (1 - b2 ** step)) + eps)
        if progress is not None:
            progress(min(i + batch, order.size))
    for p, w in zip(params, work):
        p[...] = w
    state.m, state.v, state.step = m, v, step
    state.epoch += 1
    return total / max(1, cards)


def state_bytes(state: TrainingState) -> bytes:
    """A checkpoint of `state` (npz: every array, and the rest as JSON)."""
    arrays = {}
    for k, p in enumerate(state.parameters()):
        arrays[f"p{k}"] = p
        arrays[f"m{k}"] = state.m[k]
        arrays[f"v{k}"] = state.v[k]
    meta = {"version": STATE_VERSION, "step": state.step, "epoch": state.epoch,
            "curve": state.curve, "seconds": state.seconds, "info": state.info,
            "layers": len(state.mlp.weights)}
    buffer = io.BytesIO()
    np.savez(buffer, meta=np.array(json.dumps(meta)), **arrays)
    return buffer.getvalue()


def state_from_bytes(data: bytes) -> TrainingState:
    """The `TrainingState` of a checkpoint (ValueError, one line, if it is not one of this
    version)."""
    try:
        with np.load(io.BytesIO(data), allow_pickle=False) as f:
            meta = json.loads(str(f["meta"]))
            if meta.get("version") != STATE_VERSION:
                raise ValueError(f"checkpoint version {meta.get('version')}, expected "
                                 f"{STATE_VERSION}")
            count = 2 * meta["layers"] + 1
            params = [f[f"p{k}"] for k in range(count)]
            m = [f[f"m{k}"] for k in range(count)]
            v = [f[f"v{k}"] for k in range(count)]
    except (OSError, KeyError, EOFError, json.JSONDecodeError, zipfile.BadZipFile) as exc:
        raise ValueError(f"not a card-location training checkpoint ({type(exc).__name__})") \
            from None
    groups = params[-2].size // HOLDERS  # the last layer's biases: a group of holders a card
    mlp = MLP(params[0:-1:2], params[1:-1:2], groups, HOLDERS)
    return TrainingState(mlp, params[-1], m, v, meta["step"], meta["epoch"], meta["curve"],
                         meta["seconds"], meta["info"])


class Clock:
    """Seconds of this process's CPU time since it was made (the budget `--for` counts)."""

    def __init__(self):
        self.start = time.process_time()

    def __call__(self) -> float:
        return time.process_time() - self.start


# --- the uniform yardstick ----------------------------------------------------------------
def uniform_probs(k, view_state, seat: int, out) -> None:
    """`out[card, h]`: the exact probability that holder column h holds the hidden `card` of
    game `k`'s view when the layout is uniform among those consistent with the hand sizes and
    voids shown (module docstring); rows of seen cards all 0."""
    unseen, needs, voids, suits = C.position_facts(k, view_state, seat)
    uniform_marginals(unseen, suits, needs, voids, k.size, out)


@njit(cache=True, nogil=True)
def uniform_marginals(unseen, suits, needs, voids, size, out):
    """`out[card, h]` for the hidden cards `unseen` in the suits `suits` (four card masks),
    three seats needing `needs` of them (each below `size`) with the suit voids `voids`, the
    rest nobody's: each card's probability of each holder, the layout uniform among the
    consistent ones. Forward counts of the suits before s times `layout_table`'s counts of the
    suits after: E[k_i,s] = sum over the cards each seat got before s and the k_i it gets in s
    of k_i x ways, over all layouts."""
    table = layout_table(unseen, suits, needs, voids, size)
    binom = binomial_table()
    total = table[0, needs[0], needs[1], needs[2]]
    forward = np.zeros((size, size, size), np.float64)
    forward[0, 0, 0] = 1.0
    for card in range(out.shape[0]):
        for h in range(HOLDERS):
            out[card, h] = 0.0
    for suit in range(4):
        m = popcount(unseen & suits[suit])
        cap = np.empty(3, np.int64)
        for i in range(3):
            cap[i] = 0 if voids[i] >> suit & 1 else size - 1
        expect = np.zeros(3, np.float64)
        nxt = np.zeros((size, size, size), np.float64)
        for a in range(needs[0] + 1):
            for b in range(needs[1] + 1):
                for c in range(needs[2] + 1):
                    f = forward[a, b, c]
                    if f == 0.0:
                        continue
                    for k0 in range(min(needs[0] - a, cap[0], m) + 1):
                        for k1 in range(min(needs[1] - b, cap[1], m - k0) + 1):
                            for k2 in range(min(needs[2] - c, cap[2], m - k0 - k1) + 1):
                                ways = f * binom[m, k0] * binom[m - k0, k1] * \
                                    binom[m - k0 - k1, k2]
                                nxt[a + k0, b + k1, c + k2] += ways
                                below = table[suit + 1, needs[0] - a - k0, needs[1] - b - k1,
                                              needs[2] - c - k2]
                                if below > 0.0:
                                    expect[0] += k0 * ways * below
                                    expect[1] += k1 * ways * below
                                    expect[2] += k2 * ways * below
        forward = nxt
        if m == 0 or total <= 0.0:
            continue
        for card in range(out.shape[0]):
            if not (unseen & suits[suit]) >> card & 1:
                continue
            rest = 1.0
            for i in range(3):
                out[card, i] = expect[i] / total / m
                rest -= out[card, i]
            out[card, UNDEALT] = max(rest, 0.0)


def uniform_log_loss(data: dict, rows, game: str = DEFAULT_GAME) -> tuple[np.ndarray, np.ndarray]:
    """Per row of `rows` of `game`'s `data`: (summed log-loss of the true holders under the
    game's exact uniform marginals, hidden cards)."""
    k = game_features(game)
    rows = np.asarray(rows)
    losses = np.zeros(rows.size)
    cards = np.zeros(rows.size, np.int64)
    probs = np.zeros((k.n_cards, HOLDERS))
    target = np.zeros((k.n_cards, HOLDERS))
    for j, i in enumerate(rows):
        st = data["states"][i]
        seat = np.int64(data["seats"][i])
        uniform_probs(k, st, seat, probs)
        C.holder_targets(k, st, seat, data["hands"][i], target)
        hit = target > 0
        losses[j] = -float(np.log(probs[hit]).sum())
        cards[j] = int(hit.sum())
    return losses, cards

