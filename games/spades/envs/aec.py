"""The PettingZoo AEC environment of Spades (see `envs.aec` for agents, observations, rewards
and seeding; `games/spades/toolkit.py` for the moves and the observation's layout): `env()`
wrapped in PettingZoo's order-enforcing checks, `raw_env()` bare.

    from games.spades.envs import aec as spades_env
    e = spades_env.env(episode="game")  # a game to 500; episode="hand" for one hand
"""

from __future__ import annotations

from envs.aec import env_constructors

raw_env, env = env_constructors("spades")
