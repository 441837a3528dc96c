"""A PettingZoo AEC environment over any adapted game (`envs.adapters`).

Agents are the four seats, `player_0`..`player_3` = W N E S (partners 0-2 and 1-3, as
OpenSpiel numbers players). Each step is the acting seat's move, an engine integer in
`Discrete(num_actions)`; `observe(agent)` is `{"observation": float32 vector of what that seat
knows, "action_mask": int8 vector, 1 on the legal moves of the seat to act, all 0 for the
others}` (the layout of the vector is the adapter's `observation` docstring).

Episodes (`episode=`):
* `"game"` (the default): a whole game, to the game's target, the deal passing clockwise
  from the game's first dealer after every hand, as the tournaments play it. The reward is +1
  to both seats of the team that wins and -1 to the others, at the end only. A game still
  undecided after `max_hands` hands is truncated (reward 0).
* `"hand"`: one hand, the dealer drawn from the seed; the reward at its end is the team's
  hand score minus the other team's (the engine's `hand_score`), so rewards sum to zero.

Seeding: `reset(seed=s)` fixes every card of the episode: episode i after it (the seeded one
is 0, each `reset()` without a seed the next) has seed `stream_seed(s, i)`, and its hand k is
dealt from `stream_seed(that, k)`, so hand k is the same whatever was played before it (the
tournaments deal their games the same way, `games.setback.play.tournament.deal_state`). A run
is deterministic from the constructor's `seed` (default 0) on.
"""

from __future__ import annotations

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from envs.adapters import SEATS, adapter, hand_seed
from games.scaffold.observation import SCORE_CLIP

EPISODES = ("game", "hand")
DEFAULT_MAX_HANDS = 200  # as tournaments abandon a game


class EnvError(ValueError):
    """A bad environment argument or an illegal action."""


class CardGameEnv(AECEnv):
    """The AEC environment of one adapted game (see the module docstring)."""

    metadata = {"render_modes": ["human", "ansi"], "name": "card_game_v0",
                "is_parallelizable": False}

    def __init__(self, game: str, episode: str = "game", max_hands: int = DEFAULT_MAX_HANDS,
                 seed: int = 0, render_mode: str | None = None):
        super().__init__()
        if episode not in EPISODES:
            raise EnvError(f"bad episode {episode!r}: expected one of {', '.join(EPISODES)}")
        if not isinstance(max_hands, int) or max_hands < 1:
            raise EnvError(f"bad max_hands {max_hands!r}: expected a positive integer")
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise EnvError(f"bad render_mode {render_mode!r}: expected human, ansi or None")
        self.game = adapter(game)
        self.metadata = {**self.metadata, "name": f"{game}_v0"}
        self.episode = episode
        self.max_hands = max_hands
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(4)]
        self.agents = self.possible_agents[:]
        n = self.game.obs_size
        low = np.zeros(n, dtype=np.float32)
        high = np.ones(n, dtype=np.float32)
        low[-2:], high[-2:] = -SCORE_CLIP, SCORE_CLIP  # the game score: the last two
        obs_space = spaces.Dict({
            "observation": spaces.Box(low=low, high=high, dtype=np.float32),
            "action_mask": spaces.Box(low=0, high=1, shape=(self.game.num_actions,),
                                      dtype=np.int8),
        })
        act_space = spaces.Discrete(self.game.num_actions)
        self._obs_spaces = {a: obs_space for a in self.possible_agents}
        self._act_spaces = {a: act_space for a in self.possible_agents}
        self._seed = int(seed)
        self._episode_index = -1
        self.state = None
        self.dealer = 0
        self.score = [0, 0]

    # --- spaces ------------------------------------------------------------------------
    def observation_space(self, agent):
        """The Dict space of `agent`'s observations (the same object every call)."""
        return self._obs_spaces[agent]

    def action_space(self, agent):
        """`Discrete(num_actions)`: the game's engine moves."""
        return self._act_spaces[agent]

    # --- episode -----------------------------------------------------------------------
    def reset(self, seed=None, options=None):
        """Start an episode: seeded by `seed`, or the next of the current seed's sequence."""
        if seed is not None:
            self._seed = int(seed)
            self._episode_index = 0
        else:
            self._episode_index += 1
        self._episode_seed = hand_seed(self._seed, self._episode_index)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self.score = [0, 0]  # by absolute team: 0 = seats 0 and 2 (EW), 1 = NS
        self.hand_index = 0
        if self.episode == "hand":
            self.dealer = int(np.random.default_rng(self._episode_seed).integers(4))
        else:
            self.dealer = self.game.first_dealer
        self._start_hand()

    def _start_hand(self) -> None:
        self.state = self.game.deal(hand_seed(self._episode_seed, self.hand_index))
        self.game.set_score(self.state, self.score, self.dealer)  # a hand that reads it
        self.history: list[int] = []
        self._select()

    def _select(self) -> None:
        """Point `agent_selection` at the seat to act."""
        self.agent_selection = self.possible_agents[
            (self.game.to_act(self.state) + self.dealer) % 4]

    def _absolute_team_points(self) -> list[int]:
        """The hand's points by absolute team (the engine scores by dealer-relative team)."""
        relative = self.game.hand_points(self.state)
        points = [0, 0]
        for rel_team in (0, 1):
            points[(rel_team + self.dealer) % 2] = relative[rel_team]
        return points

    def step(self, action):
        """Play `action` (an engine move) for the agent to act; an illegal move is an
        `EnvError` naming the legal ones."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        move = int(action)
        legal = self.game.legal_moves(self.state)
        if move not in legal:
            raise EnvError(f"illegal action {move} for {agent}; legal: {legal}")
        self._cumulative_rewards[agent] = 0
        self.rewards = dict.fromkeys(self.agents, 0)
        self.game.apply(self.state, move)
        self.history.append(move)
        if self.game.is_over(self.state):
            self._end_hand()
        else:
            self._select()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _end_hand(self) -> None:
        points = self._absolute_team_points()
        self.score[0] += points[0]
        self.score[1] += points[1]
        if self.episode == "hand":
            diff = points[0] - points[1]
            self._finish({a: float(diff if i % 2 == 0 else -diff)
                          for i, a in enumerate(self.agents)}, truncated=False)
            return
        winner = self.game.game_winner(self.score[0], self.score[1])
        if winner >= 0:
            self._finish({a: 1.0 if i % 2 == winner else -1.0
                          for i, a in enumerate(self.agents)}, truncated=False)
            return
        self.hand_index += 1
        if self.hand_index >= self.max_hands:
            self._finish(dict.fromkeys(self.agents, 0.0), truncated=True)
            return
        self.dealer = (self.dealer + 1) % 4
        self._start_hand()

    def _finish(self, rewards: dict, truncated: bool) -> None:
        self.rewards = rewards
        if truncated:
            self.truncations = dict.fromkeys(self.agents, True)
        else:
            self.terminations = dict.fromkeys(self.agents, True)

    # --- observing ---------------------------------------------------------------------
    def observe(self, agent):
        """What `agent`'s seat knows now, and its action mask (zeros unless it is to act)."""
        absolute = self.possible_agents.index(agent)
        seat = (absolute - self.dealer) % 4
        team = absolute % 2
        observation = self.game.observation(self.state, seat,
                                            (self.score[team], self.score[1 - team]))
        mask = np.zeros(self.game.num_actions, dtype=np.int8)
        over = all(self.terminations.values()) or all(self.truncations.values())
        if agent == self.agent_selection and not over and not self.game.is_over(self.state):
            mask[self.game.legal_moves(self.state)] = 1
        return {"observation": observation, "action_mask": mask}

    def render(self):
        """The table as text: the score, the dealer, each seat's cards, the moves so far
        (`ansi` returns it, `human` prints it)."""
        if self.render_mode is None:
            return None
        g = self.game
        lines = [f"{g.name}: score EW {self.score[0]} NS {self.score[1]}, "
                 f"dealer {SEATS[self.dealer]}"]
        for absolute in range(4):
            mask = int(self.state[g.rules.HAND + (absolute - self.dealer) % 4])
            cards = " ".join(g.card_text(c) for c in range(g.n_cards) if mask >> c & 1)
            lines.append(f"  {SEATS[absolute]}: {cards}")
        lines.append("  moves: " + " ".join(g.move_text(m) for m in self.history))
        text = "\n".join(lines)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self):
        """Nothing to release."""



def env_constructors(game: str):
    """The two constructors a PettingZoo environment module exports for registered game
    `game`: `raw_env(**kwargs)`, the bare `CardGameEnv`, and `env(**kwargs)`, it wrapped in
    PettingZoo's `OrderEnforcingWrapper` (one module a game, each a single call of this)."""
    from pettingzoo.utils import wrappers

    def raw_env(**kwargs) -> CardGameEnv:
        """The bare environment (`envs.aec.CardGameEnv` keywords: episode, max_hands, seed,
        render_mode)."""
        return CardGameEnv(game, **kwargs)

    def env(**kwargs):
        """The environment wrapped in PettingZoo's `OrderEnforcingWrapper`."""
        return wrappers.OrderEnforcingWrapper(raw_env(**kwargs))

    return raw_env, env
