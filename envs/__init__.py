"""Our games in the field's toolkits: a PettingZoo AEC environment and an OpenSpiel Python game
for every registered game that has an adapter (`envs.adapters`). A game's own modules of this
layer are in its place (`games/<game>/envs/`: its AEC module `aec.py`, and the pyspiel state of
a seat's view, `pyspiel.py`, for Euchre and Spades).

    import envs
    e = envs.make("setback")              # PettingZoo AEC, a game to 11
    from games.euchre.envs import aec as euchre_env
    e = euchre_env.env(episode="hand")    # one Euchre hand
    from envs import openspiel_games      # registers python_setback, _euchre, _spades
    game = openspiel_games.load("setback")

PettingZoo (and gymnasium) come with the `envs` extra (`pip install -e '.[envs]'`); OpenSpiel
with the `test` extra. Nothing is imported until asked for, so `import envs` needs neither.
"""

from __future__ import annotations

import importlib

_MODULES = {"aec", "adapters", "openspiel_games"}


def make(name: str, **kwargs):
    """The PettingZoo AEC environment of registered game `name` (order-enforcing wrapper on;
    keywords as `envs.aec.CardGameEnv`: episode, max_hands, seed, render_mode)."""
    from pettingzoo.utils import wrappers

    from envs.aec import CardGameEnv

    return wrappers.OrderEnforcingWrapper(CardGameEnv(name, **kwargs))


def __getattr__(name: str):
    """`envs.aec`, `envs.adapters` and `envs.openspiel_games`, imported on first use."""
    if name in _MODULES:
        return importlib.import_module(f"envs.{name}")
    raise AttributeError(f"module 'envs' has no attribute {name!r}")
