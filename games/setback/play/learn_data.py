"""Training data for the learned auction evaluator (`games.setback.search.learned_evaluator`):
decisions of random deals, each labelled two ways, and the targets and measurements built from them.

`generate(deals, seed, auction, play)`: deal k (from `games.rng.stream_seed(seed, k)`) is bid
seat by seat (1, 2, 3, 0 from the dealer) by the `auction` player (the heuristic, or a
strategy database); every seat with two or more legal bids is a decision. For each decision
and each of its legal bids (and each trump the seat holds, where the contract is the seat's):
- solver label: `SingleDummy.evaluate_auction` on the TRUE layout (one world): the auction
  finished by the `auction` player, the contract solved exactly (double dummy), split into
  both teams' points (holder points, other points, who holds it, at which level);
- playout label: the same auction, the contract played out by the `play` player at every
  seat (the seat's own contract pitching the candidate trump as `games/setback/play/sds.py`
  pitches): the real deal score pair (ours, theirs).
One world per decision is a noisy label, but the network averages over many deals, which is
what the single-dummy evaluator's W sampled worlds do for one.

Data files: numpy .npz written atomically with `format_version` and the generating options;
`load_data` refuses other versions in one line.
"""

from __future__ import annotations

import io
import json
import os

import numpy as np

from games.setback import state as S
from games.setback.rules import BID_MOVE, apply_bid, apply_move
from games.setback.scoring import deal_score, is_exhausted
from games.setback.view import SeatView
from games.setback.search.learned_evaluator import (GROUPS, N_CLASSES, OPTION_GROUP, OWN_GROUP,
                                                    outcome_class)
from games.setback.search.single_dummy import NONE, OURS, PARTNER, THEIRS

DATA_VERSION = 1
OPTIONS = 4  # Pass, Two, Three, Four
# A data set's arrays, one row a decision: the deal (index, dealer, the four hands), the seat
# deciding (its hand, the bids before it, its legal options), and per option and trump the
# labels (the contract's kind and level, holder and other points, the played-out us and them)
ROW_FIELDS = ("deal", "dealer", "hands", "hand", "seat", "bids", "legal", "kind", "level",
              "holder", "other", "us", "them")


class DataFileError(ValueError):
    """A data file that cannot be used; one line."""


class PlayerContinuation:
    """`games.setback.search.single_dummy.Continuation` by any player (a database player, say): the
    bid and the pitch's suit it would choose from the acting seat's own view."""

    def __init__(self, player):
        self.player = player

    def bid(self, state, dealer, score):
        """The player's bid (0, 2, 3, 4) for the seat to act."""
        return int(self.player.choose(SeatView.of(state, dealer, score))) - BID_MOVE

    def pitch_suit(self, state, dealer, score):
        """The suit of the player's pitch for the bidder to lead."""
        return int(self.player.choose(SeatView.of(state, dealer, score))) // 13


def continuation_of(spec: str, seed: int = 0):
    """A continuation for the player spec (the heuristic's memoised one for `heuristic`)."""
    if spec.strip().lower() == "heuristic":
        from games.setback.play.sds import HeuristicContinuation

        return HeuristicContinuation()
    from games.setback.play.grammar import make_player

    return PlayerContinuation(make_player(spec, seed))


def _play_out(state, dealer, player) -> tuple[int, int]:
    """Play `state` to its end with `player` everywhere; the deal score by relative team."""
    while not is_exhausted(state):
        apply_move(state, int(player.choose(SeatView.of(state, dealer))))
    a, b = deal_score(state)
    return int(a), int(b)


def generate(deals: int, seed: int, auction: str = "heuristic", play: str = "heuristic",
             progress: bool = True, first: int = 0, solver: bool = True) -> dict:
    """The decisions of deals first..first+deals-1 of `seed`, labelled (module docstring).
    Returns a dict of arrays (one row per decision). `solver=False` skips the solver labels
    (about half the time; `holder`/`other` stay -9, who holds the contract and at which level
    are read from the played auction), for data meant for `--labels playout` only."""
    from tqdm import tqdm

    from games.rng import new_rng, stream_seed
    from games.setback.play.grammar import make_player
    from games.setback.play.evaluated_bidder import pitch_card
    from games.setback.search.single_dummy import SingleDummy

    cont = continuation_of(auction, seed)
    player = make_player(play, seed)
    solver = SingleDummy(seed, threads=1) if solver else None
    rows = {k: [] for k in ROW_FIELDS}
    score = (0, 0)
    for k in tqdm(range(first, first + deals), unit="deal", disable=not progress,
                  desc="generate"):
        start = S.new_state()
        S.random_deal(new_rng(int(stream_seed(np.uint64(seed), k))), start)
        dealer = k % 4
        hands = np.array([start[S.HAND + s] for s in range(4)], np.int64)
        auction_state = start.copy()
        for _ in range(4):
            seat = int(auction_state[S.TO_ACT])
            view = SeatView.of(auction_state, dealer, score)
            legal = [int(m) - BID_MOVE for m in view.legal_moves()]
            if len(legal) >= 2:
                _label(rows, k, dealer, hands, auction_state, seat, view, legal, solver, cont,
                       player, score, pitch_card)
            apply_bid(auction_state, int(cont.bid(auction_state, dealer, score)))
            if int(auction_state[S.PHASE]) != S.PHASE_AUCTION:
                break
    if hasattr(player, "close"):
        player.close()
    out = {k: np.array(v) for k, v in rows.items()}
    out["meta"] = np.array(json.dumps({"deals": deals, "first": first, "seed": seed,
                                       "auction": auction, "play": play,
                                       "labels": ["solver", "playout"] if solver is not None
                                       else ["playout"]}))
    return out


def contract_of(state, seat: int) -> tuple[int, int]:
    """(who holds the contract from `seat`'s side: NONE, OURS, PARTNER or THEIRS; its level)
    of a state whose auction is over."""
    if int(state[S.PHASE]) == S.PHASE_OVER:
        return NONE, 0
    holder = int(state[S.HIGH_BIDDER])
    kind = OURS if holder == seat else PARTNER if holder % 2 == seat % 2 else THEIRS
    return kind, int(state[S.HIGH_BID])


def _label(rows, k, dealer, hands, auction_state, seat, view, legal, solver, cont, player,
           score, pitch_card) -> None:
    """Append one decision's row: both labels of every legal bid and held trump."""
    hand = int(hands[seat])
    held = [t for t in range(4) if (hand >> (13 * t)) & 0x1FFF]
    ev = solver.evaluate_auction(view, 1, cont, hands=hands[None, :]) if solver else None
    kind = np.full(OPTIONS, -1, np.int8)
    level = np.zeros(OPTIONS, np.int8)
    holder = np.full((OPTIONS, 4), -9, np.int8)
    other = np.full((OPTIONS, 4), -9, np.int8)
    us = np.full((OPTIONS, 4), -9, np.int8)
    them = np.full((OPTIONS, 4), -9, np.int8)
    team = seat % 2
    for i, b in enumerate(ev.bids if ev is not None else legal):
        o = OPTION_GROUP[int(b)]
        if ev is not None:
            kind[o] = ev.kind[i, 0]
            level[o] = ev.level[i, 0]
            holder[o] = ev.holder_points[i, :, 0]
            other[o] = ev.other_points[i, :, 0]
        st = auction_state.copy()
        apply_bid(st, int(b))
        while int(st[S.PHASE]) == S.PHASE_AUCTION:
            apply_bid(st, int(cont.bid(st, dealer, score)))
        if ev is None:
            kind[o], level[o] = contract_of(st, seat)
        if int(st[S.PHASE]) == S.PHASE_OVER:
            us[o, held], them[o, held] = 0, 0
            continue
        if int(st[S.HIGH_BIDDER]) == seat:
            for t in held:
                s2 = st.copy()
                apply_move(s2, pitch_card(SeatView.of(s2, dealer, score), t, player))
                result = _play_out(s2, dealer, player)
                us[o, t], them[o, t] = result[team], result[1 - team]
        else:
            result = _play_out(st.copy(), dealer, player)
            us[o, held], them[o, held] = result[team], result[1 - team]
    add_row(rows, deal=k, dealer=dealer, hands=hands, hand=hand, seat=seat,
            bids=auction_state[S.BID:S.BID + 4].astype(np.int8),
            legal=np.array([b in legal for b in (0, 2, 3, 4)]), kind=kind, level=level,
            holder=holder, other=other, us=us, them=them)


def add_row(rows: dict, **row) -> None:
    """Append one labelled decision to `rows` (a list for each of `ROW_FIELDS`): `row` has a
    value for every field."""
    for name in ROW_FIELDS:
        rows[name].append(row[name])


def save_model(model, path: str, meta: dict) -> str:
    """Write the model file of `model` with `meta` to `path` atomically
    (`games.setback.search.learned_evaluator.model_bytes`); return the path."""
    from cfr.atomic_file import atomic_writer
    from games.setback.search.learned_evaluator import model_bytes

    data = model_bytes(model, meta)
    with atomic_writer(path) as handle:
        handle.write(data)
    return path


def save_data(data: dict, path: str) -> str:
    """Write generated data to `path` (.npz) atomically, with `DATA_VERSION`."""
    from cfr.atomic_file import atomic_writer

    buffer = io.BytesIO()
    np.savez_compressed(buffer, format_version=np.array(DATA_VERSION), **data)
    with atomic_writer(path) as handle:
        handle.write(buffer.getvalue())
    return path


def load_data(path: str) -> dict:
    """The arrays of a data file; `DataFileError` in one line if missing, foreign or of
    another version."""
    if not os.path.isfile(path):
        raise DataFileError(f"{path}: no such data file")
    try:
        with np.load(path, allow_pickle=False) as f:
            data = {k: f[k] for k in f.files}
    except (ValueError, OSError, EOFError):
        raise DataFileError(f"{path}: not a learn data file (setback-cfr learn generate "
                            "writes them)") from None
    version = int(data.pop("format_version", -1))
    if version != DATA_VERSION or "kind" not in data:
        raise DataFileError(f"{path}: learn data version {version}, expected {DATA_VERSION}")
    return data


def concat(datasets: list) -> dict:
    """Several data files' rows as one (metadata of the first)."""
    out = {k: np.concatenate([d[k] for d in datasets]) for k in datasets[0] if k != "meta"}
    out["meta"] = datasets[0]["meta"]
    return out


# --- targets ----------------------------------------------------------------------------
def solver_pairs(kind, level, holder, other, correction: dict | None):
    """(base class, shifted class, shift weight), each [n, 4 options, 4 trumps], of the solver
    labels: the (ours, theirs) deal score pair of the solved outcome, and the same with one of
    the holder's points in a made contract moved to the defenders, weighted q[level] (the
    sds correction; 0 where nothing can move)."""
    kind = kind[:, :, None].astype(np.int64)
    level = level[:, :, None].astype(np.int64)
    h = holder.astype(np.int64)
    o = other.astype(np.int64)

    def pair(hp, op):
        """(ours, theirs) of holder/other points by who holds."""
        hs = np.where(hp >= 0, hp, -level)
        mine = (kind == OURS) | (kind == PARTNER)
        ours = np.where(kind == NONE, 0, np.where(mine, hs, op))
        theirs = np.where(kind == NONE, 0, np.where(mine, op, hs))
        return outcome_class(ours, theirs)

    base = pair(h, o)
    lost = np.where(h - 1 >= level, h - 1, -1)
    shifted = pair(lost, o + 1)
    q = np.zeros(kind.shape, np.float64)
    for lv, p in (correction or {}).items():
        q = np.where(level == int(lv), float(p), q)
    q = np.where((kind != NONE) & (h > 0), q, 0.0) * np.ones(h.shape)
    shifted = np.where(q > 0, shifted, base)  # nothing moves: no second class
    return base, shifted, q


def build_targets(data: dict, labels: str, correction: dict | None = None):
    """(features float32[rows, N_FEATURES], targets float32[rows, GROUPS, N_CLASSES], mask
    float32[rows, GROUPS]): one row per decision and trump the seat holds; groups 0..3 the
    legal options, 4..6 our own contract where the option made it ours. `labels`: 'solver'
    (with `correction`) or 'playout'."""
    from search.hand_features import encode_rows

    if labels not in ("solver", "playout"):
        raise ValueError(f"labels must be 'solver' or 'playout', not {labels!r}")
    n = data["hand"].shape[0]
    if labels == "solver" and (data["legal"] & (data["holder"] == -9).all(axis=2)).any():
        raise DataFileError("the data has decisions without solver labels (generated with "
                            "--no-solver): train it with --labels playout")
    if labels == "solver":
        base, shifted, q = solver_pairs(data["kind"], data["level"], data["holder"],
                                        data["other"], correction)
    else:
        base = outcome_class(data["us"].astype(np.int64), data["them"].astype(np.int64))
        shifted, q = base, np.zeros(base.shape)
    hand = data["hand"].astype(np.int64)
    held = np.stack([(hand >> (13 * t)) & 0x1FFF != 0 for t in range(4)], axis=1)
    rows, trumps = np.nonzero(held)
    x = encode_rows(hand[rows], data["seat"][rows], data["bids"][rows], trumps)
    m = rows.size
    target = np.zeros((m, GROUPS, N_CLASSES), np.float32)
    mask = np.zeros((m, GROUPS), np.float32)
    r = np.arange(m)
    for o, bid in enumerate((0, 2, 3, 4)):
        ok = data["legal"][rows, o]
        b = base[rows, o, trumps]
        s = shifted[rows, o, trumps]
        w = q[rows, o, trumps]
        groups = [OPTION_GROUP[bid]]
        if bid in OWN_GROUP:
            groups.append(OWN_GROUP[bid])
        for g in groups:
            sel = ok if g < 4 else ok & (data["kind"][rows, o] == OURS)
            np.add.at(target, (r[sel], g, b[sel]), (1.0 - w[sel]).astype(np.float32))
            np.add.at(target, (r[sel], g, s[sel]), w[sel].astype(np.float32))
            mask[sel, g] = 1.0
    return x, target, mask, rows, trumps


# --- training ---------------------------------------------------------------------------
def train_model(data: dict, labels: str, correction: dict | None, hidden=(256, 256),
                epochs: int = 20, batch: int = 256, learning_rate: float = 1e-3,
                seed: int = 0, validation: float = 0.1, progress: bool = True):
    """Train a network on `data` with `labels` ('solver' with `correction`, or 'playout');
    the last `validation` share of the decisions (by deal) is held out for the loss shown.
    Returns (model, metadata for the model file, history). Same inputs and seed, same
    weights."""
    from tqdm import tqdm

    from search.hand_features import N_FEATURES
    from search.mlp import MLP, train

    x, target, mask, rows, _ = build_targets(data, labels, correction)
    deals = data["deal"][rows]
    cut = np.quantile(np.unique(data["deal"]), 1.0 - validation) if validation > 0 else None
    held = deals > cut if cut is not None else np.zeros(rows.size, bool)
    model = MLP.create(N_FEATURES, tuple(hidden), GROUPS, N_CLASSES, seed)
    bar = tqdm(total=epochs, unit="epoch", disable=not progress, desc=f"train ({labels})")

    def report(epoch, loss, val):
        """Advance the bar with the losses."""
        bar.set_postfix(loss=f"{loss:.4f}", val="-" if val is None else f"{val:.4f}")
        bar.update(1)

    val = (x[held], target[held], mask[held]) if held.any() else None
    history = train(model, x[~held], target[~held], mask[~held], epochs, batch,
                    learning_rate, seed, progress=report, validation=val)
    bar.close()
    meta = {"labels": labels, "correction": {str(k): v for k, v in (correction or {}).items()}
            if labels == "solver" else None, "hidden": list(hidden), "epochs": epochs,
            "batch": batch, "learning_rate": learning_rate, "seed": seed,
            "validation": validation, "rows": int((~held).sum()),
            "data": json.loads(str(data["meta"])) if "meta" in data else None,
            "final_loss": history[-1][0], "final_validation_loss": history[-1][1]}
    return model, meta, history


# --- measurement ------------------------------------------------------------------------
def auction_view(data: dict, i: int):
    """The `SeatView` of decision i of a data file: its deal, the bids made before it."""
    state = S.new_state()
    S.reset_deal(state, data["hands"][i].astype(np.int64))
    for _ in range(4):
        seat = int(state[S.TO_ACT])
        if seat == int(data["seat"][i]):
            break
        apply_bid(state, int(data["bids"][i][seat]))
    return SeatView.of(state, int(data["dealer"][i]))


def real_metrics(model, heldout: dict) -> dict:
    """The network's error against the real outcomes of `heldout` (its playout labels): per
    kind of group (the bid options, our own contract), the mean log-loss of the real class,
    the bias and mean squared error of the expected deal score (ours minus theirs), and for
    our own contract the Brier score of "made". Also the arrays the calibration picture
    needs."""
    from games.setback.search.learned_evaluator import DIFF, class_scores

    x, target, mask, rows, trumps = build_targets(heldout, "playout")
    p = model.probabilities(x)
    real = target.argmax(axis=2)
    us, _ = class_scores()
    out = {}
    for name, groups in (("options", range(4)), ("own", range(4, 7))):
        g = np.array(list(groups))
        sel = mask[:, g] > 0
        pg = p[:, g][sel]
        rc = real[:, g][sel]
        pred = pg @ DIFF
        truth = DIFF[rc]
        entry = {"n": int(sel.sum()),
                 "log_loss": float(-np.mean(np.log(pg[np.arange(rc.size), rc] + 1e-12))),
                 "bias": float(np.mean(pred - truth)),
                 "mse": float(np.mean((pred - truth) ** 2)),
                 "pred_mean": float(pred.mean()), "real_mean": float(truth.mean())}
        if name == "own":
            made_p = pg[:, us > 0].sum(axis=1)
            made = (us[rc] > 0).astype(float)
            entry.update(brier=float(np.mean((made_p - made) ** 2)),
                         pred_made=float(made_p.mean()), real_made=float(made.mean()),
                         made_p=made_p, made=made)
        entry.update(pred=pred, truth=truth)
        out[name] = entry
    return out


def sds_comparison(evaluators: dict, heldout: dict, samples: int, worlds: int, seed: int,
                   auction: str, progress: bool = True) -> dict:
    """On the first `samples` decisions of `heldout`: the single-dummy evaluation
    (`sds:worlds` with its correction and `auction`'s continuation) of every legal bid and
    held trump, the learned evaluators' for the same, and the real outcomes. Returns per
    evaluator the mean absolute difference to single dummy and the MSE of both against the
    real outcomes (the same cells), and the sds decision time."""
    import time

    from tqdm import tqdm

    from games.setback.play.sds import CORRECTION
    from games.setback.search.single_dummy import SingleDummy

    sd = SingleDummy(seed)
    cont = continuation_of(auction, seed)
    cells = {name: [] for name in evaluators}
    sds_cells, real_cells, seconds = [], [], []
    n = min(samples, heldout["hand"].shape[0])
    for i in tqdm(range(n), unit="decision", disable=not progress, desc="single dummy"):
        view = auction_view(heldout, i)
        start = time.perf_counter()
        ev = sd.evaluate_auction(view, worlds, cont)
        table = ev.expected_scores(CORRECTION)
        seconds.append(time.perf_counter() - start)
        hand, seat = int(heldout["hand"][i]), int(heldout["seat"][i])
        bids = heldout["bids"][i].astype(np.int64)
        tables = {name: e.auction_values(hand, seat, bids, ev.bids) for name, e in
                  evaluators.items()}
        for k, b in enumerate(ev.bids):
            o = OPTION_GROUP[int(b)]
            for t in range(4):
                if not np.isfinite(table[k, t]):
                    continue
                sds_cells.append(table[k, t])
                real_cells.append(int(heldout["us"][i][o, t]) - int(heldout["them"][i][o, t]))
                for name in evaluators:
                    cells[name].append(tables[name][k, t])
    sds_v, real_v = np.array(sds_cells), np.array(real_cells)
    out = {"decisions": n, "cells": int(sds_v.size), "worlds": worlds,
           "sds_mse_real": float(np.mean((sds_v - real_v) ** 2)),
           "sds_bias_real": float(np.mean(sds_v - real_v)),
           "sds_seconds_p50": float(np.percentile(seconds, 50)),
           "models": {}}
    for name, values in cells.items():
        v = np.array(values)
        out["models"][name] = {"mae_vs_sds": float(np.mean(np.abs(v - sds_v))),
                               "corr_vs_sds": float(np.corrcoef(v, sds_v)[0, 1]),
                               "mse_real": float(np.mean((v - real_v) ** 2)),
                               "bias_real": float(np.mean(v - real_v))}
    return out


def write_calibration_png(metrics: dict, path: str) -> str:
    """The calibration picture of each model's `real_metrics`: left, predicted probability that
    our own contract is made (10 bins) against the share made; right, predicted expected deal
    score of every bid option against the real mean, binned. Style of play/rating_plot.py."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        from play.summary_plot import INSTALL_HINT, PlotUnavailable

        raise PlotUnavailable(INSTALL_HINT) from None
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 5))
    for name, m in metrics.items():
        own = m["own"]
        edges = np.linspace(0, 1, 11)
        which = np.clip(np.digitize(own["made_p"], edges) - 1, 0, 9)
        xs, ys, ns = [], [], []
        for b in range(10):
            sel = which == b
            if sel.sum() >= 5:
                xs.append(own["made_p"][sel].mean())
                ys.append(own["made"][sel].mean())
                ns.append(int(sel.sum()))
        left.plot(xs, ys, "o-", label=f"{name} (Brier {own['brier']:.3f})")
        opt = m["options"]
        edges = np.quantile(opt["pred"], np.linspace(0, 1, 13))
        which = np.clip(np.digitize(opt["pred"], edges[1:-1]), 0, 11)
        xs = [opt["pred"][which == b].mean() for b in range(12) if (which == b).any()]
        ys = [opt["truth"][which == b].mean() for b in range(12) if (which == b).any()]
        right.plot(xs, ys, "o-", label=f"{name} (MSE {opt['mse']:.2f})")
    for ax, lo, hi in ((left, 0, 1), (right, -6, 4)):
        ax.plot([lo, hi], [lo, hi], color="grey", linestyle="--", linewidth=1)
        ax.legend(fontsize=8)
        ax.grid(alpha=0.3)
    left.set_xlabel("predicted P(our contract made)")
    left.set_ylabel("share made (real play)")
    left.set_title("own contract: made, calibration")
    right.set_xlabel("predicted expected deal score (ours - theirs)")
    right.set_ylabel("real mean deal score")
    right.set_title("every bid option: deal score, calibration")
    fig.suptitle("learned auction evaluator against real outcomes (held-out deals)")
    fig.tight_layout()
    from play.figure_file import save_png

    save_png(fig, path)
    plt.close(fig)
    return path
