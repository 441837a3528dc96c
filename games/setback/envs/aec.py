"""The PettingZoo AEC environment of Setback (see `envs.aec` for agents, observations,
rewards and seeding): `env()` wrapped in PettingZoo's order-enforcing checks, `raw_env()` bare.

    from games.setback.envs import aec as setback_env
    e = setback_env.env(episode="game")  # a game to 11; episode="hand" for one deal
"""

from __future__ import annotations

from envs.aec import env_constructors

raw_env, env = env_constructors("setback")
