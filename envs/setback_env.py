"""The PettingZoo AEC environment of Setback (see `envs.aec` for agents, observations,
rewards and seeding): `env()` wrapped in PettingZoo's order-enforcing checks, `raw_env()` bare.

    from envs import setback_env
    e = setback_env.env(episode="game")  # a game to 11; episode="hand" for one deal
"""

from __future__ import annotations

from pettingzoo.utils import wrappers

from envs.aec import CardGameEnv


def raw_env(**kwargs) -> CardGameEnv:
    """The bare environment (`envs.aec.CardGameEnv` keywords: episode, max_hands, seed,
    render_mode)."""
    return CardGameEnv("setback", **kwargs)


def env(**kwargs):
    """The environment wrapped in PettingZoo's `OrderEnforcingWrapper`."""
    return wrappers.OrderEnforcingWrapper(raw_env(**kwargs))
