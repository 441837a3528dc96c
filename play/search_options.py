"""What the search players of every game share: the `search[OPTIONS]:POLICY` options, the
blueprint's arrays read once a process, and the resampling of weighted worlds.

The player is `play/search_base.py`'s, written once; each game's module
(`games/setback/play/search_player.py` for Setback, `games/euchre/play/search_player.py`,
`games/spades/play/search_player.py`) declares its parts (`public`, `rules`, `fields`, `sampler`,
`model_game`, `table_game`) and keeps what is its own (Setback's `objective=win`, Spades'
heuristic rollouts).
"""

from __future__ import annotations

import os
import threading

import numpy as np

from games.rng import next_u64

DEFAULTS = {"worlds": 100, "rollout": "sample", "bids": "search", "margin": 0.0,
            "think": None, "threads": None, "voids": "on", "belief": "uniform", "temper": None,
            "pool": None, "floor": None, "evidence": "others", "objective": "score"}
CHOICES = {"rollout": ("sample", "greedy"), "bids": ("search", "blueprint"),
           "voids": ("on", "off"), "belief": ("uniform", "bids", "policy"),
           "evidence": ("others", "opponents"), "objective": ("score", "win")}
FLOATS = ("margin", "think", "temper", "floor")
FLOOR = 1e-3  # a blueprint probability below this counts as this (one odd bid is no proof)
# Each belief's own defaults for the options left unset (None above). `bids`: issue 36's.
# `policy`: a pool of 20 x worlds (2,000 at the default 100) so that the worlds the moves point
# to are in it at all, the weights tempered to T = 0.25: T = 1 measured level with it head to
# head (docs/results/search.md#beliefs-what-the-play-says-about-the-hidden-cards), and the
# lower temper trusts the blueprint less as a model of players who do not play like it.
BELIEF_DEFAULTS = {"uniform": {"temper": 1.0, "pool": 1, "floor": FLOOR},
                   "bids": {"temper": 1.0, "pool": 4, "floor": FLOOR},
                   "policy": {"temper": 0.25, "pool": 20, "floor": FLOOR},
                   "model": {"temper": 1.0, "pool": 20, "floor": FLOOR},
                   "model+policy": {"temper": 0.25, "pool": 20, "floor": FLOOR}}
# beliefs that read a learned card-location model, named after a colon: `belief=model:FILE`
MODEL_BELIEFS = ("model", "model+policy")


def belief_kind(belief: str) -> tuple[str, str | None]:
    """(kind, model file or None) of a `belief=` value: `policy` -> ("policy", None),
    `model+policy:m.belief` -> ("model+policy", "m.belief")."""
    kind, colon, path = belief.partition(":")
    return (kind.lower(), path) if colon else (belief.lower(), None)


def belief_settings(belief: str, temper=None, pool=None, floor=None) -> tuple:
    """(temper, pool, floor) of a belief, each left unset (None) taking the belief's default
    (`BELIEF_DEFAULTS`)."""
    own = BELIEF_DEFAULTS[belief_kind(belief)[0]]
    return (own["temper"] if temper is None else float(temper),
            own["pool"] if pool is None else int(pool),
            own["floor"] if floor is None else float(floor))


def parse_options(text: str, error, spec_form: str, example: str,
                  known: tuple = tuple(DEFAULTS)) -> tuple[dict, str]:
    """(options, POLICY) of a spec `search[OPTIONS]:POLICY` or `search:POLICY`, the options
    limited to `known` (a game's); a malformed spec raises `error` (one line) naming what is
    wrong, `spec_form` and `example` in the message."""
    body = text.strip()
    if not body.lower().startswith("search"):
        raise error(f"{text!r}: expected {spec_form}")
    rest = body[len("search"):]
    options = {name: DEFAULTS[name] for name in known}
    if rest.startswith("["):
        close = rest.find("]")
        if close < 0:
            raise error(f"{text!r}: the options' '[' has no ']'")
        for item in filter(None, (p.strip() for p in rest[1:close].split(","))):
            name, eq, value = item.partition("=")
            name, value = name.strip().lower(), value.strip()
            if name != "belief":  # a belief may name a model file, whose case is kept
                value = value.lower()
            if not eq or name not in known:
                raise error(f"{text!r}: unknown search option {item!r} (known: "
                            f"{', '.join(known)})")
            options[name] = option_value(text, name, value, error)
        rest = rest[close + 1:]
    if not rest.startswith(":") or not rest[1:].strip():
        raise error(f"{text!r}: search needs a policy, as in {example} ({spec_form})")
    return options, rest[1:].strip()


def option_value(text: str, name: str, value: str, error):
    """One option's value, checked (`error`, one line, when it is not one)."""
    if name == "belief":
        kind, path = belief_kind(value)
        if kind in MODEL_BELIEFS:
            if not path:
                raise error(f"{text!r}: belief={kind} names its model file: "
                            f"belief={kind}:FILE (made by `setback-cfr learn belief`)")
            return f"{kind}:{path}"
        if path is not None or kind not in CHOICES[name]:
            raise error(f"{text!r}: belief= takes {', '.join(CHOICES[name])}, "
                        f"model:FILE or model+policy:FILE")
        return kind
    if name in CHOICES:
        if value not in CHOICES[name]:
            *most, last = CHOICES[name]
            raise error(f"{text!r}: {name}= takes {', '.join(most)} or {last}")
        return value
    try:
        number = float(value) if name in FLOATS else int(value)
    except ValueError:
        raise error(f"{text!r}: {name}= takes a number, not {value!r}") from None
    if (name == "margin" and number < 0) or (name != "margin" and number <= 0):
        raise error(f"{text!r}: {name}= must be {'>= 0' if name == 'margin' else '> 0'}")
    if name == "temper" and number > 1:
        raise error(f"{text!r}: temper= must be at most 1")
    if name == "floor" and number >= 1:
        raise error(f"{text!r}: floor= must be below 1")
    return number


def constructor_options(options: dict) -> dict:
    """The search player's constructor arguments (`play.search_base.SearchPlayerBase`) of
    parsed `options` (`parse_options`), in its names."""
    return {"worlds": options["worlds"], "greedy": options["rollout"] == "greedy",
            "search_bids": options["bids"] == "search", "margin": options["margin"],
            "think_ms": options["think"], "threads": options["threads"],
            "voids": options["voids"] == "on", "belief": options["belief"],
            "temper": options["temper"], "pool": options["pool"], "floor": options["floor"],
            "evidence": options["evidence"]}


_ARRAYS: dict = {}  # (files, sizes, mtimes) -> PolicyArrays: one copy a process
_ARRAYS_LOCK = threading.Lock()


def shared_arrays(blueprint, build):
    """The blueprint's policy arrays, read once a process (`build(blueprint)` the first time):
    a server makes one search player a thread, a tournament one a side, and the arrays of a
    large database take seconds and hundreds of MB. Keyed by the files' paths, sizes and
    modification times, so a database rewritten in place is read again."""
    paths = [p for p in str(blueprint.db.path).split(",") if p]
    key = tuple((os.path.realpath(p), os.path.getsize(p), os.stat(p).st_mtime_ns)
                for p in paths)
    with _ARRAYS_LOCK:
        if key not in _ARRAYS:
            _ARRAYS[key] = build(blueprint)
        return _ARRAYS[key]


_MODELS: dict = {}  # (path, size, mtime, game) -> a card-location model: one copy a process


def shared_model(path: str, game: str):
    """The card-location model of `path` for `game` (`search.card_location.load_model`), read
    once a process; a missing, damaged or other game's file raises ValueError (one line)."""
    from search.card_location import load_model

    try:
        stat = os.stat(path)
    except OSError as exc:
        raise ValueError(f"belief model {path!r}: {exc.strerror}") from None
    key = (os.path.realpath(path), stat.st_size, stat.st_mtime_ns, game)
    with _ARRAYS_LOCK:
        if key not in _MODELS:
            _MODELS[key] = load_model(path, game)
        return _MODELS[key]


def resample(log_w: np.ndarray, temper: float, count: int, rng) -> tuple[np.ndarray, float]:
    """(`count` indices into the weighted worlds, the weights' effective sample size): the
    weights exp(temper * log_w), normalized, resampled systematically (one uniform offset from
    `rng`, then evenly spaced points on the cumulative weights)."""
    weights = np.exp(temper * (log_w - log_w.max()))
    weights /= weights.sum()
    u = (int(next_u64(rng)) >> 11) / float(1 << 53)
    points = (u + np.arange(count)) / count
    picks = np.minimum(np.searchsorted(np.cumsum(weights), points, side="right"),
                       log_w.size - 1)
    return picks, 1.0 / float(np.sum(weights ** 2))
