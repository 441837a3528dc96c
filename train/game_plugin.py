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
