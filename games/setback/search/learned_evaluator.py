"""The learned auction evaluator: a small network that predicts, from one seat's hand, its seat
and the bids before it, the distribution of the deal's outcome for each bid it could make and
each trump it could pitch: the quantity `games.setback.search.single_dummy.SingleDummy` estimates by
solving sampled layouts, in microseconds instead of a few hundred milliseconds.

Outputs (`GROUPS` = 7 softmaxes of `N_CLASSES` = 81 classes each; `search.mlp`):
- groups 0..3, the options Pass, Two, Three, Four: the seat makes that bid and the auction is
  finished by the other seats' bidding (as in the training data: the heuristic's, or a
  database's); the class is the deal score pair (ours, theirs), each in -4..4, class
  `(ours + 4) * 9 + (theirs + 4)`. Who ends up holding the contract (us, the partner, an
  opponent who overbids, nobody) is inside the distribution;
- groups 4..6, our own contract at Two, Three, Four: the seat holds the contract at that level
  and pitches the candidate trump (what the pitch is chosen by).
The candidate trump is an input (`search.hand_features`: the trump suit always in block 0),
so one network serves the four suits; an option whose contract is not ours does not depend on
it.

Labels (`games.setback.play.learn_data`): for each training decision, either the exact solver's
value of the true deal (double dummy, every trump the seat holds) split into both teams' points,
with the perfect-information correction of `games/setback/play/sds.py` applied as soft targets (a
made contract loses one point to the defenders with probability q[level]), or the outcome of the
true deal played out by a card player (self-play). `setback-cfr learn evaluate` measures which
predicts real outcomes better.

Model files (`model_bytes`, written by `games.setback.play.learn_data.save_model`; `load_model`): a
magic line, one JSON header line (format, version, sha256 of the payload, the payload's length,
metadata: sizes, labels, the data it was trained on, seed) and the payload (numpy .npz of the
weights). Written atomically
(`cfr.atomic_file`). A file without the magic (foreign), of a newer version, truncated or
whose checksum does not match (damaged) is refused with one line (`ModelFileError`).
"""

from __future__ import annotations

import hashlib
import io
import json
import os

import numpy as np

from search.hand_features import N_FEATURES, encode
from search import model_file
from search.mlp import MLP, forward3

MAGIC = b"SETBACK-CFR LEARNED EVALUATOR\n"
FORMAT = "setback-cfr/learned-evaluator"
FORMAT_VERSION = 1
N_CLASSES = 81
GROUPS = 7
OPTION_BIDS = (0, 2, 3, 4)  # groups 0..3
OWN_GROUP = {2: 4, 3: 5, 4: 6}  # our own contract at a level -> its group
OPTION_GROUP = {0: 0, 2: 1, 3: 2, 4: 3}

_US = np.repeat(np.arange(-4, 5), 9)  # class -> our deal score
_THEM = np.tile(np.arange(-4, 5), 9)  # class -> theirs
DIFF = (_US - _THEM).astype(np.float64)


class ModelFileError(ValueError):
    """A model file that cannot be used (foreign, newer, damaged); the message is one line."""


_SET = _US < 0  # the classes in which our own contract is set


def floor_values(values: np.ndarray, made: np.ndarray, floor: float) -> np.ndarray:
    """`values` (bid x trump) with every cell whose probability of being made (`made`, 1 for
    an option that is not our own contract) is below `floor` set to -inf; `values` unchanged
    if that leaves nothing (a dealer who must bid)."""
    floored = np.where(made < floor, -np.inf, values)
    return floored if np.isfinite(floored).any() else values


def outcome_class(us, them):
    """Class index of the deal score pair (ours, theirs) (arrays broadcast)."""
    return (np.asarray(us) + 4) * 9 + (np.asarray(them) + 4)


def class_scores() -> tuple[np.ndarray, np.ndarray]:
    """(our deal score, theirs) of every class, int[81] each."""
    return _US.copy(), _THEM.copy()


# --- model files -----------------------------------------------------------------------
def model_bytes(model: MLP, meta: dict) -> bytes:
    """The model file's bytes of `model` with `meta` (JSON-able);
    `games.setback.play.learn_data.save_model` writes them atomically (search/ stays below cfr/ in
    the data flow)."""
    if len(model.weights) != 3:
        raise ValueError("the learned evaluator's files hold two-hidden-layer networks")
    arrays = {f"w{k}": w for k, w in enumerate(model.weights)}
    arrays.update({f"b{k}": b for k, b in enumerate(model.biases)})
    header = {"format": FORMAT, "version": FORMAT_VERSION, "groups": model.groups,
              "classes": model.classes, "meta": meta}
    return model_file.model_bytes(MAGIC, header, arrays)


def load_model(path: str) -> tuple[MLP, dict]:
    """(the network, the header's metadata) of the model file `path`; `ModelFileError` in one
    line if it is missing, foreign, newer or damaged."""
    if not os.path.isfile(path):
        raise ModelFileError(f"{path}: no such model file")
    with open(path, "rb") as handle:
        data = handle.read()
    if not data.startswith(MAGIC):
        raise ModelFileError(f"{path}: not a setback-cfr learned-evaluator model file")
    line_end = data.find(b"\n", len(MAGIC))
    try:
        header = json.loads(data[len(MAGIC):line_end].decode())
        if header.get("format") != FORMAT:
            raise ValueError
    except (ValueError, UnicodeDecodeError):
        raise ModelFileError(f"{path}: damaged model file (unreadable header)") from None
    version = header.get("version")
    if not isinstance(version, int) or version > FORMAT_VERSION:
        raise ModelFileError(f"{path}: model file version {version} is newer than this "
                             f"program's ({FORMAT_VERSION}); upgrade setback-cfr")
    payload = data[line_end + 1:]
    if len(payload) != header.get("payload_bytes") or \
            hashlib.sha256(payload).hexdigest() != header.get("sha256"):
        raise ModelFileError(f"{path}: damaged model file (checksum mismatch)")
    try:
        with np.load(io.BytesIO(payload)) as arrays:
            weights = [np.ascontiguousarray(arrays[f"w{k}"], np.float64) for k in range(3)]
            biases = [np.ascontiguousarray(arrays[f"b{k}"], np.float64) for k in range(3)]
    except (KeyError, ValueError, OSError):
        raise ModelFileError(f"{path}: damaged model file (bad payload)") from None
    model = MLP(weights, biases, int(header["groups"]), int(header["classes"]))
    if weights[0].shape[0] != N_FEATURES or model.groups != GROUPS or \
            model.classes != N_CLASSES:
        raise ModelFileError(f"{path}: model file of another shape (inputs "
                             f"{weights[0].shape[0]}, {model.groups} x {model.classes} "
                             "outputs)")
    return model, header.get("meta", {})


# --- evaluation -------------------------------------------------------------------------
class LearnedEvaluator:
    """The network of a model file, asked about one seat's decisions (module docstring)."""

    def __init__(self, model: MLP, meta: dict | None = None):
        self.model = model
        self.meta = meta or {}
        self._x = np.zeros(N_FEATURES, np.float64)
        self._bids = np.zeros(4, np.int64)
        self._worth: dict = {}  # (score, we deal next) -> class values, score-aware

    @classmethod
    def load(cls, path: str) -> "LearnedEvaluator":
        """The evaluator of model file `path` (`ModelFileError` if refused)."""
        model, meta = load_model(path)
        return cls(model, meta)

    def distributions(self, hand: int, seat: int, bids, trump: int) -> np.ndarray:
        """float64[GROUPS, N_CLASSES]: the predicted outcome distributions of every group for
        `hand` held by `seat` with the auction's `bids` (int[4] by seat, -1 not yet) and the
        candidate `trump`."""
        self._bids[:] = np.asarray(bids, np.int64)
        encode(np.int64(hand), np.int64(seat), self._bids, np.int64(trump), self._x)
        out = np.empty((GROUPS, N_CLASSES), np.float64)
        w, b = self.model.weights, self.model.biases
        forward3(self._x, w[0], b[0], w[1], b[1], w[2], b[2], GROUPS, N_CLASSES, out)
        return out

    def class_values(self, score_aware: bool, score=(0, 0), we_deal_next: bool = False):
        """float64[81]: what each class is worth: our deal score minus theirs, or, score-aware,
        the probability of winning the game after it (`search.win_probability`)."""
        if not score_aware:
            return DIFF
        key = (int(score[0]), int(score[1]), bool(we_deal_next))
        worth = self._worth.get(key)
        if worth is None:  # a game has few score pairs: remember them (the table is fixed)
            from search.win_probability import win_after

            worth = win_after(key[0], key[1], _US, _THEM, key[2])
            self._worth[key] = worth
        return worth

    def auction_values(self, hand: int, seat: int, bids, legal_bids, score_aware: bool = False,
                       score=(0, 0), we_deal_next: bool = False,
                       made_floor: float = 0.0) -> np.ndarray:
        """float64[len(legal_bids), 4]: the value (`class_values`) of each legal bid with each
        trump (-inf for a suit not in `hand`), the table
        `games.setback.search.single_dummy.choose_bid` takes; with `made_floor`, our own contracts
        made with a lower probability are -inf (`floor_values`)."""
        worth = self.class_values(score_aware, score, we_deal_next)
        out = np.full((len(legal_bids), 4), -np.inf)
        made = np.ones((len(legal_bids), 4))
        for t in range(4):
            if not (int(hand) >> (13 * t)) & 0x1FFF:
                continue
            probs = self.distributions(hand, seat, bids, t)
            for i, b in enumerate(legal_bids):
                out[i, t] = float(probs[OPTION_GROUP[int(b)]] @ worth)
                if made_floor > 0.0 and int(b) in OWN_GROUP:
                    made[i, t] = 1.0 - float(probs[OWN_GROUP[int(b)]][_SET].sum())
        return floor_values(out, made, made_floor) if made_floor > 0.0 else out

    def pitch_values(self, hand: int, seat: int, bids, level: int, score_aware: bool = False,
                     score=(0, 0), we_deal_next: bool = False) -> np.ndarray:
        """float64[1, 4]: the value of our own contract at `level` with each trump (-inf for a
        suit not in `hand`); `bids` as at the seat's auction turn (later bids are ignored)."""
        worth = self.class_values(score_aware, score, we_deal_next)
        out = np.full((1, 4), -np.inf)
        for t in range(4):
            if (int(hand) >> (13 * t)) & 0x1FFF:
                out[0, t] = float(self.distributions(hand, seat, bids, t)[OWN_GROUP[level]]
                                  @ worth)
        return out
