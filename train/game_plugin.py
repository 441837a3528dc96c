"""The trainer's side of a game plug-in: a game's abstract game module bound into the
`cfr.game.Game` the solver, the census and the trainers run, and the settings a plug-in game's
run records.

The binding itself is `cfr.binding.bind` (generic, importing no game, so that `play/` binds
the same game without importing `train/`); a new game's `games/NAME/train/game.py` is one call.
"""

from __future__ import annotations

from types import ModuleType

from cfr.binding import bind
from cfr.game import Game


def abstract_game(name: str, module: ModuleType, state_size: int) -> Game:
    """The `Game` called `name` of the abstract game `module` over states of `state_size`
    words: `cfr.binding.bind(module)` (the same object `play/` binds), whose name and state
    size are checked against the ones the caller records."""
    game = bind(module)
    if (game.name, game.state_size) != (name, state_size):
        raise ValueError(f"{module.__name__} binds as {game.name!r} over {game.state_size} "
                         f"words, not {name!r} over {state_size}")
    return game


def new_run_sampling():
    """es-mccfr's options for a new run: every option off but the summed visits, which cut
    the log, the merge and Ray's bytes ~3.5x (a resumed run keeps the options it recorded).
    A function: `cfr.external_sampling` compiles its kernels on import."""
    from cfr.external_sampling import SamplingOptions

    return SamplingOptions(sum_visits=True)


def plugin_settings(game: str, abstraction: str, version: int, seed: int, batch: int,
                    algorithm: str = "es-mccfr", sampling=None) -> dict:
    """The settings a plug-in game's baseline run records (and a resume must match): the
    game, seed, batch, the algorithm as run (es-mccfr's sampling options), the abstraction and
    its version."""
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


def baseline_stage(game: Game, name: str, abstraction: str, version: int, seed: int,
                   batch: int, algorithm: str = PLUGIN_DEFAULTS["algorithm"], sampling=None):
    """A plug-in game's baseline `Stage` on its bound abstract `game`: the `plugin_settings` of
    game `name` and its abstraction; the reported payoff is the running mean root value of the
    non-dealer team (as Setback's)."""
    from train.runner import Stage

    settings = plugin_settings(name, abstraction, version, seed, batch, algorithm, sampling)
    return Stage("baseline", game, settings, payoff_sign=-1.0)


class PluginBaseline:
    """The baseline `Stage` factory `(seed, batch, algorithm, sampling)` of plug-in game `name`,
    from its declarations alone: its abstract game (`games/NAME/abstraction/abstract_game.py`),
    its abstraction's name and version (`abstraction/version.py`) and its rules' `STATE_SIZE`.

    It pickles as the game's name: a Ray worker rebuilds it, binding the game's compiled
    functions in its own process (a pickled copy of a bound game would hand a cached kernel
    functions it was not compiled against, and crash it)."""

    def __init__(self, name: str):
        from games import registry

        self.name = name
        module = registry.declaration(name, "abstraction.abstract_game")
        self.version = registry.declaration(name, "abstraction.version")
        self.game = abstract_game(f"{name}-baseline", module,
                                  registry.get(name).load("STATE_SIZE"))

    def __call__(self, seed: int, batch: int, algorithm: str = PLUGIN_DEFAULTS["algorithm"],
                 sampling=None):
        """The game's baseline `Stage` for a seed, batch size and algorithm."""
        return baseline_stage(self.game, self.name, self.version.ABSTRACTION_NAME,
                              self.version.ABSTRACTION_VERSION, seed, batch, algorithm, sampling)

    def __reduce__(self):
        return PluginBaseline, (self.name,)


def plugin_baseline(name: str):
    """(the bound abstract game, its baseline `Stage` factory, a `PluginBaseline`) of plug-in
    game `name`: a game's `train/game.py` is this one call; its registry `trainer` names the
    factory."""
    stage = PluginBaseline(name)
    return stage.game, stage
