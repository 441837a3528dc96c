"""An opponent nobody here wrote: OpenSpiel's ISMCTS bot (`open_spiel.python.algorithms.ismcts`)
as a Setback player, through our OpenSpiel game (`envs.openspiel_games`, `python_setback`).

At each decision the seat's view (`games.setback.view.SeatView`: its cards, every move of the
deal) becomes an OpenSpiel state of the deal, the other seats' cards drawn uniformly over the
layouts consistent with the view (`search.sampler`); the bot then runs its search from there,
redrawing the hidden cards for every simulation through the state's
`resample_from_infostate` (here through `set_resampler`, so the draws come from the player's own
seeded stream). The settings, fixed so that the name says everything:

* simulations: `SIMS` of the spec `ismcts[:SIMS]` (default 100) a decision;
* evaluator: `RandomRolloutEvaluator` with one random rollout to the end of the deal;
* UCT constant 4 (the deal's payoff, team minus other team, spans -8..8; Setback deals mostly
  end within +-4), the final move the most visited (`MAX_VISIT_COUNT`), no limit on world
  samples.

The bot plays for the deal's score difference: it does not see the game score (the OpenSpiel
game is one deal). A decision with one legal move is made without a search. Everything is
deterministic from the seed the tournament gives the player (`seed(s)`).
"""

from __future__ import annotations

import numpy as np

from games.setback import state as S

DEFAULT_SIMULATIONS = 100
MAX_SIMULATIONS = 1_000_000
UCT_C = 4.0
ROLLOUTS = 1


class ISMCTSPlayer:
    """OpenSpiel's ISMCTSBot playing Setback from a `SeatView` (see the module docstring)."""

    def __init__(self, simulations: int = DEFAULT_SIMULATIONS, seed: int = 0,
                 name: str | None = None):
        from envs.openspiel_games import load

        self.simulations = int(simulations)
        self.name = name or f"ismcts:{self.simulations}"
        self.game = load("setback")
        self.seed(seed)

    def seed(self, seed: int) -> None:
        """Restart the player's random stream (the bot's choices, rollouts and world draws)
        from `seed`."""
        from open_spiel.python.algorithms import ismcts, mcts

        self._random = np.random.RandomState(int(seed) % 2**32)
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=ROLLOUTS, random_state=self._random)
        self.bot = ismcts.ISMCTSBot(
            game=self.game, evaluator=evaluator, uct_c=UCT_C,
            max_simulations=self.simulations, random_state=self._random,
            final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT)
        self.bot.set_resampler(self._resample)

    def _resample(self, state, player):
        """The bot's world draw, seeded from the player's own stream."""
        return state.resampled(player, int(self._random.randint(2**31)))

    def choose(self, view) -> int:
        """The bot's move for the seat of `view` (engine integer)."""
        from envs.openspiel_games import state_from_view

        legal = view.legal_moves()
        if len(legal) == 1:
            return int(legal[0])
        made = int(view.state[S.N_BIDS]) + bin(int(view.state[S.PLAYED])).count("1")
        if len(view.history) != made:
            raise ValueError(f"{self.name} needs the deal's moves in the view (history): "
                             f"{made} made, {len(view.history)} given")
        state = state_from_view(self.game, view.state, view.seat, view.dealer, view.history,
                                int(self._random.randint(2**31)))
        move = int(self.bot.step(state))
        if move not in legal:  # cannot happen: the bot picks among the state's legal moves
            raise RuntimeError(f"{self.name} chose {move}, not among {legal.tolist()}")
        return move


def make_ismcts_player(spec: str, seed: int = 0) -> ISMCTSPlayer:
    """The player of the spec `ismcts[:SIMS]` (SIMS simulations a decision, default 100);
    a bad spec is one `PlayerSpecError` line."""
    from play.player_spec import PlayerSpecError

    text = str(spec).strip()
    kind, sep, argument = text.partition(":")
    if kind.lower() != "ismcts":
        raise PlayerSpecError(f"{text!r}: not an ismcts spec (ismcts[:SIMS])")
    simulations = DEFAULT_SIMULATIONS
    if sep:
        if not argument.isdigit() or not 1 <= int(argument) <= MAX_SIMULATIONS:
            raise PlayerSpecError(f"{text!r}: SIMS must be a whole number of simulations "
                                  f"from 1 to {MAX_SIMULATIONS}, as in ismcts:100")
        simulations = int(argument)
    try:
        return ISMCTSPlayer(simulations, seed, name=f"ismcts:{simulations}")
    except ImportError as exc:
        raise PlayerSpecError(f"{text!r}: OpenSpiel is not installed ({exc.name}); "
                              "pip install -e '.[test]' brings it") from None
