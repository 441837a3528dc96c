"""The trainer's side of a game plug-in: a game's abstract game module bound into the
`cfr.game.Game` the solver, the census and the trainers run.

The abstract game (`abstraction/NAME/abstract_game.py`) depends on `games` only, so it cannot
build a `Game` itself; every game's module has the same members, so one function binds any of
them (a new game's `train/NAME_game.py` is one call).
"""

from __future__ import annotations

from types import ModuleType

from cfr.game import Game
from games.interface import functions_of


def abstract_game(name: str, module: ModuleType, state_size: int) -> Game:
    """The `Game` called `name` of the abstract game `module` over states of `state_size`
    words. Its `apply` is the module's `apply_past_forced`: forced moves need no pass frame
    of their own (they carry no key, so skipping them changes no value); the depth bound
    keeps two rows of room beyond the module's `MAX_DEPTH`."""
    return Game(name=name, state_size=state_size, max_actions=module.MAX_ACTIONS,
                max_depth=module.MAX_DEPTH + 2, key_words=1,
                **{**functions_of(vars(module)), "apply": module.apply_past_forced})


def plugin_settings(game: str, abstraction: str, version: int, seed: int, batch: int,
                    algorithm: str = "es-mccfr", sampling=None) -> dict:
    """The settings a plug-in game's baseline run records (and a resume must match): the
    game, seed, batch, the algorithm as run (es-mccfr's sampling options), the abstraction and
    its version."""
    from train.baseline import new_run_sampling
    from train.runner import ALGORITHMS, ES_MCCFR

    if algorithm not in ALGORITHMS:
        raise ValueError(f"algorithm must be one of {', '.join(ALGORITHMS)}")
    if sampling is not None and algorithm != ES_MCCFR:
        raise ValueError("sampling options only apply to es-mccfr")
    extra = (sampling or new_run_sampling()).settings() if algorithm == ES_MCCFR else {}
    return {"game": game, "seed": int(seed), "batch": int(batch), "dtype": "float32",
            "algorithm": algorithm, **extra, "updates": "simultaneous",
            "abstraction": abstraction, "abstraction_version": version}


# A plug-in game's baseline run's defaults (what `train baseline --game NAME` takes unless told)
PLUGIN_DEFAULTS = {"seed": 0, "batch": 1, "updates": "simultaneous", "algorithm": "es-mccfr"}
