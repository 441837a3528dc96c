"""A small multi-layer perceptron in numpy (training) and numba (the forward pass a bidder
calls), with grouped softmax outputs.

Why not PyTorch: the network is two hidden layers of a few hundred units trained on tens of
thousands of rows; numpy's BLAS matrix products train it in minutes on one core, and the
forward pass of one row is ~100 k multiply-adds, which a numba loop does in tens of
microseconds, far below PyTorch's per-call overhead. So the learned evaluator needs nothing
beyond numpy and numba (already dependencies): no optional extra, nothing new on a fresh
machine or in CI.

The output layer is `groups` x `classes` logits; each group is an independent softmax (one
distribution of deal outcomes per bid option, see `games.setback.search.learned_evaluator`).
Training minimises the cross-entropy to soft targets (a target may spread its mass over two classes)
on the groups a row has a target for (`mask`), by minibatch Adam with a seeded generator:
the same data, sizes and seed give bit-identical weights.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit


@dataclass
class MLP:
    """Weights of an MLP with ReLU hidden layers: `weights[k]` float64[in, out], `biases[k]`
    float64[out]; the last layer's outputs are `groups` softmaxes of `classes` each."""

    weights: list
    biases: list
    groups: int
    classes: int

    @classmethod
    def create(cls, inputs: int, hidden: tuple, groups: int, classes: int,
               seed: int) -> "MLP":
        """He-initialised weights from a generator seeded by `seed`."""
        rng = np.random.default_rng(seed)
        sizes = [inputs, *hidden, groups * classes]
        weights = [rng.standard_normal((a, b)) * np.sqrt(2.0 / a) for a, b in
                   zip(sizes[:-1], sizes[1:])]
        biases = [np.zeros(b) for b in sizes[1:]]
        return cls(weights, biases, int(groups), int(classes))

    def logits(self, x: np.ndarray) -> tuple[np.ndarray, list]:
        """(logits float[n, groups, classes], the activations of each layer) of rows `x`."""
        acts = [x]
        h = x
        for k, (w, b) in enumerate(zip(self.weights, self.biases)):
            h = h @ w + b
            if k < len(self.weights) - 1:
                h = np.maximum(h, 0.0)
            acts.append(h)
        return h.reshape(-1, self.groups, self.classes), acts

    def probabilities(self, x: np.ndarray) -> np.ndarray:
        """float64[n, groups, classes]: the softmax of each group (the numpy reference)."""
        z, _ = self.logits(np.asarray(x, np.float64))
        return softmax(z)

    def parameters(self) -> list:
        """Every array, in a fixed order (weights then biases, layer by layer)."""
        out = []
        for w, b in zip(self.weights, self.biases):
            out += [w, b]
        return out

    def loss_and_gradients(self, x, target, mask) -> tuple[float, list]:
        """Mean (per row) masked soft-target cross-entropy of rows `x` (float[n, in]),
        `target` float[n, groups, classes] (rows of a masked group ignored), `mask`
        float[n, groups]; and its gradient for every parameter (`parameters` order)."""
        z, acts = self.logits(x)
        p = softmax(z)
        n = x.shape[0]
        loss = -float((mask[:, :, None] * target * np.log(p + 1e-12)).sum()) / n
        grad = ((p - target) * mask[:, :, None]).reshape(n, -1) / n
        grads = [None] * (2 * len(self.weights))
        for k in range(len(self.weights) - 1, -1, -1):
            grads[2 * k] = acts[k].T @ grad
            grads[2 * k + 1] = grad.sum(axis=0)
            if k:
                grad = (grad @ self.weights[k].T) * (acts[k] > 0)
        return loss, grads

    def mean_loss(self, x, target, mask, batch: int = 4096) -> float:
        """The masked cross-entropy per row over all rows (no gradient)."""
        total = 0.0
        for i in range(0, x.shape[0], batch):
            p = self.probabilities(x[i:i + batch])
            total -= float((mask[i:i + batch, :, None] * target[i:i + batch]
                            * np.log(p + 1e-12)).sum())
        return total / max(1, x.shape[0])


def softmax(z: np.ndarray) -> np.ndarray:
    """Softmax over the last axis, stable."""
    z = z - z.max(axis=-1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=-1, keepdims=True)


def train(model: MLP, x: np.ndarray, target: np.ndarray, mask: np.ndarray, epochs: int,
          batch: int, learning_rate: float, seed: int, weight_decay: float = 0.0,
          progress=None, validation=None) -> list:
    """Minibatch Adam on (x, target, mask) for `epochs`, rows shuffled by a generator seeded
    by `seed` (reproducible). `progress(epoch, loss, val)` is called after each epoch;
    `validation`: (x, target, mask) whose loss is reported. Returns the per-epoch
    (train loss, validation loss or None)."""
    rng = np.random.default_rng(seed)
    params = model.parameters()
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    step = 0
    history = []
    n = x.shape[0]
    for epoch in range(epochs):
        order = rng.permutation(n)
        total, seen = 0.0, 0
        for i in range(0, n, batch):
            idx = np.sort(order[i:i + batch])
            xb = x[idx].astype(np.float64)
            loss, grads = model.loss_and_gradients(xb, target[idx].astype(np.float64),
                                                   mask[idx].astype(np.float64))
            total += loss * len(idx)
            seen += len(idx)
            step += 1
            adam_update(params, grads, m, v, step, learning_rate, weight_decay)
        val = None if validation is None else model.mean_loss(*validation)
        history.append((total / max(1, seen), val))
        if progress is not None:
            progress(epoch, total / max(1, seen), val)
    return history


def adam_update(params: list, grads: list, m: list, v: list, step: int, learning_rate: float,
                weight_decay: float = 0.0) -> None:
    """One Adam step (beta 0.9 and 0.999, eps 1e-8) on `params` in place, `m` and `v` their
    moments (updated), `step` counted from 1; `weight_decay` adds an L2 pull on the weight
    matrices (not the biases). Each parameter keeps its dtype."""
    b1, b2, eps = 0.9, 0.999, 1e-8
    for k, (p, g) in enumerate(zip(params, grads)):
        if weight_decay and p.ndim == 2:
            g = g + weight_decay * p
        m[k] = b1 * m[k] + (1 - b1) * g
        v[k] = b2 * v[k] + (1 - b2) * g * g
        mhat = m[k] / (1 - b1 ** step)
        vhat = v[k] / (1 - b2 ** step)
        p -= (learning_rate * mhat / (np.sqrt(vhat) + eps)).astype(p.dtype, copy=False)


@njit(cache=True)
def _dense(x, w, b, relu):
    """`x @ w + b` for one row, skipping the zero inputs (ReLU outputs and 0/1 features are
    mostly zero), then the ReLU when `relu`."""
    out = b.copy()
    for i in range(x.shape[0]):
        a = x[i]
        if a != 0.0:
            for j in range(out.shape[0]):
                out[j] += a * w[i, j]
    if relu:
        for j in range(out.shape[0]):
            if out[j] < 0.0:
                out[j] = 0.0
    return out


@njit(cache=True)
def forward3(x, w1, b1, w2, b2, w3, b3, groups, classes, out):
    """The softmax outputs (`out` float64[groups, classes]) of a two-hidden-layer ReLU MLP on
    one row `x` (float64[in]); the numba twin of `MLP.probabilities`. Inputs are 0/1, so the
    first layer only adds the rows of w1 whose input is not zero (a hand has 6 cards)."""
    z = _dense(_dense(_dense(x, w1, b1, True), w2, b2, True), w3, b3, False)
    for g in range(groups):
        top = -1e300
        for c in range(classes):
            if z[g * classes + c] > top:
                top = z[g * classes + c]
        total = 0.0
        for c in range(classes):
            e = np.exp(z[g * classes + c] - top)
            out[g, c] = e
            total += e
        for c in range(classes):
            out[g, c] /= total
