"""The policy network: a seat's whole view in, a distribution over its legal moves and the value
of the position out; trained on search's choices (`train distill`), played by `net:FILE` and
rolled out by `search:net:FILE`.

Game-generic: rows of features in, `outputs` move slots out (a game maps its moves to slots;
Setback's view features and slots are `games/setback/search/net.py`'s). The network is two ReLU
hidden layers, then `outputs` policy logits and one value. The policy is a softmax over the
legal slots only (illegal logits are never seen, so no capacity goes to learning the rules);
the value is a plain linear output (search's mean value of the move it chose, in the game's
points).

Training (`PolicyNet.fit`) minimises the cross-entropy to a target distribution over the legal
slots plus `value_weight` times the squared value error, by minibatch Adam with a generator
seeded by `seed` over float32 arrays: the same data, sizes, starting weights and seed give the
same weights bit for bit.

The forward pass of one row for the players and the rollouts is numba (`net_forward`): the
first layer adds only the rows of w1 whose input is not zero (a view is mostly zeros), tens of
microseconds for the sizes used.

Files (`net_bytes`, `load_net`): a magic line, a JSON header (format, version, game, the
feature layout's name and size, the outputs, the hidden sizes, free metadata: the run, its
round, its data; a SHA-256 of the payload) and the weights as .npz. Another game's or feature
layout's network, a newer version or a damaged file is refused with `NetFileError` in one line.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

import numpy as np
from numba import njit

from games.rng import next_u64
from search import model_file
from search.mlp import adam_update

MAGIC = b"SETBACK-CFR-POLICY-NET\n"
FORMAT = "policy-net"
FORMAT_VERSION = 1
NEG = -1e30  # an illegal slot's logit
NAMES = ("w1", "b1", "w2", "b2", "w3", "b3")  # the arrays, in file order


class NetFileError(ValueError):
    """A policy network file that cannot be used; one line."""


@dataclass
class PolicyNet:
    """Weights `w1, b1, w2, b2, w3, b3` (float32; w3 has `outputs + 1` columns, the last the
    value) and what the network is for: `game`, the feature `layout` and its size `inputs`,
    `outputs` move slots; `meta` free metadata written to the file."""

    w1: np.ndarray
    b1: np.ndarray
    w2: np.ndarray
    b2: np.ndarray
    w3: np.ndarray
    b3: np.ndarray
    game: str
    layout: str
    meta: dict = field(default_factory=dict)

    @classmethod
    def create(cls, inputs: int, hidden: tuple, outputs: int, seed: int, game: str,
               layout: str) -> "PolicyNet":
        """He-initialised weights from a generator seeded by `seed` (the output layer small,
        so a new network's policy starts near uniform over the legal moves)."""
        rng = np.random.default_rng(seed)
        h1, h2 = (int(h) for h in hidden)
        w1 = rng.standard_normal((inputs, h1)) * np.sqrt(2.0 / inputs)
        w2 = rng.standard_normal((h1, h2)) * np.sqrt(2.0 / h1)
        w3 = rng.standard_normal((h2, outputs + 1)) * 0.01
        f32 = np.float32
        return cls(w1.astype(f32), np.zeros(h1, f32), w2.astype(f32), np.zeros(h2, f32),
                   w3.astype(f32), np.zeros(outputs + 1, f32), game, layout)

    @property
    def inputs(self) -> int:
        """The feature count."""
        return int(self.w1.shape[0])

    @property
    def outputs(self) -> int:
        """The move slots."""
        return int(self.w3.shape[1]) - 1

    @property
    def hidden(self) -> tuple:
        """The hidden layers' sizes."""
        return int(self.w1.shape[1]), int(self.w2.shape[1])

    def parameters(self) -> list:
        """Every array, in file order."""
        return [self.w1, self.b1, self.w2, self.b2, self.w3, self.b3]

    def copy(self) -> "PolicyNet":
        """A deep copy (weights and metadata)."""
        return PolicyNet(*[p.copy() for p in self.parameters()], self.game, self.layout,
                         json.loads(json.dumps(self.meta)))

    def forward(self, x: np.ndarray, legal: np.ndarray) -> tuple:
        """(probabilities float32[n, outputs], 0 on illegal slots; values float32[n]; the
        hidden activations) of rows `x` float32[n, inputs] with `legal` bool[n, outputs]."""
        h1 = np.maximum(x @ self.w1 + self.b1, 0.0)
        h2 = np.maximum(h1 @ self.w2 + self.b2, 0.0)
        z = h2 @ self.w3 + self.b3
        logits = np.where(legal, z[:, :-1], NEG)
        logits -= logits.max(axis=1, keepdims=True)
        e = np.exp(logits) * legal
        p = e / e.sum(axis=1, keepdims=True)
        return p, z[:, -1], (h1, h2)

    def loss_and_gradients(self, x, legal, target, value, value_weight: float) -> tuple:
        """(mean cross-entropy to `target` (float32[n, outputs], rows summing to one over
        legal slots), mean squared value error over the rows whose `value` is not NaN,
        gradients in `parameters` order)."""
        n = x.shape[0]
        p, v, (h1, h2) = self.forward(x, legal)
        ce = -float((target * np.log(p + 1e-12)).sum()) / n
        known = np.isfinite(value)  # a row without a value (imitation data) trains no value
        err = np.where(known, v - np.where(known, value, 0.0), 0.0).astype(np.float32)
        mse = float((err * err).sum()) / max(1, int(known.sum()))
        dz = np.empty((n, self.outputs + 1), dtype=np.float32)
        dz[:, :-1] = (p - target) / n
        dz[:, -1] = 2.0 * value_weight * err / n
        g3 = h2.T @ dz
        d2 = (dz @ self.w3.T) * (h2 > 0)
        g2 = h1.T @ d2
        d1 = (d2 @ self.w2.T) * (h1 > 0)
        g1 = x.T @ d1
        return ce, mse, [g1, d1.sum(0), g2, d2.sum(0), g3, dz.sum(0)]

    def fit(self, x, legal, target, value, epochs: int, batch: int, learning_rate: float,
            seed: int, value_weight: float = 0.05, weight_decay: float = 1e-5,
            progress=None) -> list:
        """Minibatch Adam for `epochs` over the rows (shuffled by a generator seeded by
        `seed`); `progress(epoch, rows_done)` after each batch when given. Returns the
        per-epoch (cross-entropy, value mse)."""
        rng = np.random.default_rng(seed)
        params = self.parameters()
        m = [np.zeros_like(p) for p in params]
        s = [np.zeros_like(p) for p in params]
        step = 0
        history = []
        n = x.shape[0]
        for epoch in range(epochs):
            order = rng.permutation(n)
            ce_sum = mse_sum = 0.0
            for i in range(0, n, batch):
                idx = np.sort(order[i:i + batch])
                ce, mse, grads = self.loss_and_gradients(x[idx], legal[idx], target[idx],
                                                         value[idx], value_weight)
                ce_sum += ce * len(idx)
                mse_sum += mse * len(idx)
                step += 1
                adam_update(params, grads, m, s, step, learning_rate, weight_decay)
                if progress is not None:
                    progress(epoch, min(n, i + batch))
            history.append((ce_sum / max(1, n), mse_sum / max(1, n)))
        return history

    def evaluate(self, x, legal, target, value) -> dict:
        """The mean cross-entropy, value mse and top-1 agreement with the target's argmax
        on these rows (no gradient)."""
        p, v, _ = self.forward(x, legal)
        n = max(1, x.shape[0])
        known = np.isfinite(value)
        return {"cross_entropy": -float((target * np.log(p + 1e-12)).sum()) / n,
                "value_mse": float(((v - value)[known] ** 2).mean()) if known.any() else 0.0,
                "agreement": float((p.argmax(1) == target.argmax(1)).mean())
                if x.shape[0] else 0.0}


@njit(cache=True, nogil=True)
def _dense_row(x, w, b, relu, out):
    """`out = x @ w + b` for one row (skipping zero inputs), then the ReLU when `relu`."""
    for j in range(out.shape[0]):
        out[j] = b[j]
    for i in range(x.shape[0]):
        a = x[i]
        if a != 0.0:
            for j in range(out.shape[0]):
                out[j] += a * w[i, j]
    if relu:
        for j in range(out.shape[0]):
            if out[j] < 0.0:
                out[j] = 0.0


@njit(cache=True, nogil=True)
def net_forward(x, legal, w1, b1, w2, b2, w3, b3, h1, h2, z, probs):
    """The policy over the legal slots (`legal` bool[outputs]) of one row `x` into `probs`
    (float64[outputs], 0 on illegal slots) and the value (returned): the numba twin of
    `PolicyNet.forward`. `h1`, `h2`, `z` are scratch rows of the hidden and output sizes."""
    _dense_row(x, w1, b1, True, h1)
    _dense_row(h1, w2, b2, True, h2)
    _dense_row(h2, w3, b3, False, z)
    outputs = probs.shape[0]
    top = -1e300
    for j in range(outputs):
        if legal[j] and z[j] > top:
            top = z[j]
    total = 0.0
    for j in range(outputs):
        if legal[j]:
            probs[j] = np.exp(z[j] - top)
            total += probs[j]
        else:
            probs[j] = 0.0
    for j in range(outputs):
        probs[j] /= total
    return z[outputs]


@njit(cache=True, nogil=True)
def pick(move_probs, n, greedy, rng):
    """An index in [0, n): the most probable (the first on ties) when `greedy`, else drawn."""
    if greedy:
        best = 0
        for j in range(1, n):
            if move_probs[j] > move_probs[best]:
                best = j
        return best
    u = (next_u64(rng) >> np.uint64(11)) * (1.0 / 9007199254740992.0)
    running = 0.0
    for j in range(n):
        running += move_probs[j]
        if u < running:
            return j
    return n - 1


class NetScratch:
    """One thread's scratch buffers for a game's network kernels (Setback's and Euchre's
    `games/NAME/search/net.py`): one decision (`net_decision`), the rollouts
    (`net_world_move_values`) and a belief's log-weights, for a network of hidden sizes
    `hidden` on states of `state_size`, deals of at most `max_history` moves, `inputs`
    features, `outputs` slots, `moves` legal moves at most and a public record of
    `record_rows` rows; `slot_buffers` are the game's own (its move slots' maps), taken by its
    kernels after the tricks won."""

    def __init__(self, hidden: tuple, state_size: int, max_history: int, inputs: int,
                 outputs: int, moves: int, record_rows: int, slot_buffers: tuple):
        self.child = np.zeros(state_size, np.int64)
        self.a = np.zeros(state_size, np.int64)
        self.hist = np.zeros(max_history + 2, np.int64)
        self.moves = np.zeros(moves, np.int64)
        self.move_probs = np.zeros(moves, np.float64)
        self.x = np.zeros(inputs, np.float64)
        self.legal = np.zeros(outputs, np.bool_)
        self.h1 = np.zeros(hidden[0], np.float64)
        self.h2 = np.zeros(hidden[1], np.float64)
        self.z = np.zeros(outputs + 1, np.float64)
        self.probs = np.zeros(outputs, np.float64)
        self.record = np.zeros((record_rows, 4), np.int64)
        self.tricks = np.zeros(4, np.int64)
        self.slot_buffers = tuple(slot_buffers)
        self.rng = np.zeros(1, np.uint64)

    def decision_buffers(self) -> tuple:
        """The buffers of `net_decision` after the weights, in its order."""
        return (self.moves, self.move_probs, self.x, self.legal, self.h1, self.h2, self.z,
                self.probs, self.record, self.tricks) + self.slot_buffers

    def belief_buffers(self) -> tuple:
        """The buffers of a belief's log-weights kernel after the weights, in its order (its
        `state` is `a`)."""
        return (self.a,) + self.decision_buffers()

    def rollout_buffers(self) -> tuple:
        """The buffers of `net_world_move_values` after `seed`, in its order."""
        return (self.child, self.a, self.hist) + self.decision_buffers() + (self.rng,)


def net_bytes(net: PolicyNet) -> bytes:
    """The network file's bytes (module docstring)."""
    header = {"format": FORMAT, "version": FORMAT_VERSION, "game": net.game,
              "layout": net.layout, "features": net.inputs, "outputs": net.outputs,
              "hidden": list(net.hidden), "meta": net.meta}
    return model_file.model_bytes(MAGIC, header, dict(zip(NAMES, net.parameters())))


def load_net(path: str, game: str, layout: str, inputs: int, outputs: int) -> PolicyNet:
    """The policy network of file `path` for `game` whose features are `layout` (`inputs`
    features, `outputs` move slots); `NetFileError` in one line if the file is missing, not
    such a network, newer, damaged, or of another game or layout."""
    header, arrays = model_file.read(path, MAGIC, FORMAT, FORMAT_VERSION, game,
                                     "policy network", "`setback-cfr export` of a `train "
                                     "distill` run", NetFileError)
    if header.get("layout") != layout or header.get("features") != inputs or \
            header.get("outputs") != outputs:
        raise NetFileError(f"{path}: feature layout {header.get('layout')!r} "
                           f"({header.get('features')} features, {header.get('outputs')} "
                           f"moves); this program builds {layout!r} ({inputs}, {outputs})")
    try:
        weights = [np.ascontiguousarray(arrays[name], dtype=np.float32) for name in NAMES]
    except KeyError:
        raise NetFileError(f"{path}: damaged policy network weights") from None
    return PolicyNet(*weights, game, layout, header.get("meta", {}))
