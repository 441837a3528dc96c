"""The PettingZoo AEC environment of Euchre (see `envs.aec` for agents, observations,
rewards and seeding): `env()` wrapped in PettingZoo's order-enforcing checks, `raw_env()` bare.

    from games.euchre.envs import aec as euchre_env
    e = euchre_env.env(episode="game")  # a game to 10; episode="hand" for one hand
"""

from __future__ import annotations

from envs.aec import env_constructors

raw_env, env = env_constructors("euchre")
