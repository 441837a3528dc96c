"""An abstract game module bound into the `Game` the CFR core runs: one generic binder for the
trainer (`train/`) and the players that walk the same abstract game (`play/`'s rollout
search), so that `play/` never imports `train/` to get it.

A game's abstract game module (`games/NAME/abstraction/abstract_game.py`) holds the six numba
functions of the interface (`cfr/game.py`), `initial_state`, `apply_past_forced` (the move,
then every forced move after it), `MAX_ACTIONS` and `MAX_DEPTH`. This module imports none of
them: the caller hands the module in (`train/` and `play/` may both import `abstraction/`, which
may not import `cfr/`), so `cfr/` stays game-agnostic. The module is the game's definition;
binding it is a convention, written once here:

- the name is `NAME-baseline` (NAME the game whose place holds the module: `setback-baseline`,
  `euchre-baseline`, `spades-baseline`), what checkpoints record, so a run is never resumed
  under another game; a key layout other than the default (Setback's
  `games/setback/abstraction/layouts.py`) replaces `decision` and appends its name;
- the state size is the root's (`initial_state()`), the depth bound keeps two rows of room
  beyond `MAX_DEPTH`, and `apply` is `apply_past_forced`: forced moves carry no key, so a
  pass skipping them changes no value.

Binding is memoized: the same module and layout give the same `Game` wherever they are bound.
"""

from __future__ import annotations

import functools
from types import ModuleType

from cfr.game import Game

FUNCTIONS = ("initial_state", "current_player", "decision", "apply", "utility",
             "chance_outcomes", "chance_sample")


def game_name(module: ModuleType) -> str:
    """The bound game's name for the abstract game `module` (`games.NAME.abstraction.
    abstract_game`, in the game's place; `NAME.abstraction.abstract_game` for a game that is
    its own package, registered at run time as the tutorial's): `NAME-baseline`. Checkpoints
    record it, so it is the game's name, never the module's path (the abstraction was
    `abstraction.NAME` before issue 55 moved it: the recorded names stayed)."""
    parts = module.__name__.split(".")
    if parts[0] == "games" and len(parts) > 2:
        return f"{parts[1]}-baseline"
    if len(parts) > 2 and parts[1] == "abstraction":
        return f"{parts[0]}-baseline"
    raise ValueError(f"{module.__name__} is not a game's abstract game (games.NAME.abstraction)")


@functools.cache
def bind(module: ModuleType, layout: str = "", decision=None) -> Game:
    """The `Game` of the abstract game `module` (module docstring); with a key `layout`, its
    `decision` function replaces the module's and its name is appended to the game's."""
    functions = {name: getattr(module, name) for name in FUNCTIONS}
    functions["apply"] = module.apply_past_forced
    if decision is not None:
        functions["decision"] = decision
    return Game(name=game_name(module) + (f"-{layout}" if layout else ""),
                state_size=len(module.initial_state()), max_actions=module.MAX_ACTIONS,
                max_depth=module.MAX_DEPTH + 2, key_words=1, **functions)


def layout_game(module: ModuleType, layouts, layout: str) -> Game:
    """The `Game` of the abstract game `module` keyed by the key layout `layout` of the layout
    registry `layouts` (a module with `DEFAULT` and `load(name)`, the layout's module with its
    `decision`: Setback's `games/setback/abstraction/layouts.py`). The default layout's game is the
    module's own, under the game's name."""
    if layout == layouts.DEFAULT:
        return bind(module)
    return bind(module, layout, layouts.load(layout).decision)
