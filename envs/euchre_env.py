"""The PettingZoo AEC environment of Euchre (see `envs.aec` for agents, observations,
rewards and seeding): `env()` wrapped in PettingZoo's order-enforcing checks, `raw_env()` bare.

    from envs import euchre_env
    e = euchre_env.env(episode="game")  # a game to 10; episode="hand" for one hand
"""

from __future__ import annotations

from pettingzoo.utils import wrappers

from envs.aec import CardGameEnv


def raw_env(**kwargs) -> CardGameEnv:
    """The bare environment (`envs.aec.CardGameEnv` keywords: episode, max_hands, seed,
    render_mode)."""
    return CardGameEnv("euchre", **kwargs)


def env(**kwargs):
    """The environment wrapped in PettingZoo's `OrderEnforcingWrapper`."""
    return wrappers.OrderEnforcingWrapper(raw_env(**kwargs))
