"""An opponent nobody here wrote: OpenSpiel's ISMCTS bot (`open_spiel.python.algorithms.ismcts`)
as a player of a game with an OpenSpiel game of ours (`envs.openspiel_games`: `python_setback`,
`python_euchre`), or, declared by the game (`NativeGame`), with OpenSpiel's own C++ game of it.
A game's grammar names the kind (`ismcts[:SIMS][,pyspiel]`) and its game; nothing here is one
game's.

At each decision the seat's view (`games.setback.view.SeatView` or `games.euchre.view.SeatView`:
its cards, every move of the hand it saw) becomes an OpenSpiel state of the hand, the other
seats' cards drawn uniformly among the layouts consistent with the view (the one world sampler,
`envs.adapters.GameAdapter.resample`); the
bot then runs its search from there, redrawing the hidden cards for every simulation through
the state's `resample_from_infostate` (here through `set_resampler`, so the draws come from the
player's own seeded stream). The settings, fixed so that the name says everything:

* simulations: `SIMS` of the spec `ismcts[:SIMS]` (default 100) a decision;
* evaluator: `RandomRolloutEvaluator` with one random rollout to the end of the hand;
* UCT constant 4 (a hand's payoff, team minus other team, spans -8..8 in Setback, -4..4 in
  Euchre), the final move the most visited (`MAX_VISIT_COUNT`), no limit on world samples.

With `,pyspiel` (`ismcts[:SIMS],pyspiel`) the bot searches OpenSpiel's own C++ game of the
game instead, as the game declares it (`NativeGame`: Euchre's `games/euchre/play/ismcts.py`, Spades'
`games/spades/play/ismcts.py`, whose only ISMCTS it is); our engine still referees the game.

The bot plays for the hand's score difference: it does not see the game score (the OpenSpiel
game is one hand). A decision with one legal move is made without a search. Everything is
deterministic from the seed the tournament gives the player (`seed(s)`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

DEFAULT_SIMULATIONS = 100
MAX_SIMULATIONS = 1_000_000
UCT_C = 4.0
ROLLOUTS = 1


@dataclass(frozen=True)
class NativeGame:
    """What a game declares for `ismcts[:SIMS],pyspiel`, a search of OpenSpiel's own C++ game
    of it (Euchre's `games/euchre/play/ismcts.py`, Spades' `games/spades/play/ismcts.py`): the
    pyspiel game's `name`; `uct_c`, the UCT constant for its hand's returns; `bot_class()`, the
    `ISMCTSBot` subclass keyed by what a player knows there; `state(game, view_state, seat,
    dealer, history, seed, adapter)`, the pyspiel state of a view with the hidden cards drawn
    from `seed` (`games/NAME/envs/pyspiel.py`'s `native_state`); `resample(player, state,
    pyspiel_player, seed)`, the bot's world draw for every simulation (None: the view's world
    drawn again, `state`); `move(action)`, our move of a pyspiel action (None: the same
    number); `only`: the game has no Python OpenSpiel game to search
    (the spec must say `,pyspiel`); `check_history`: the view's history is checked against
    the moves its state shows (the adapter's rules have the public counts)."""

    name: str
    uct_c: float
    bot_class: Callable
    state: Callable
    resample: Callable | None = None
    move: Callable | None = None
    only: bool = False
    check_history: bool = True


class ISMCTSPlayer:
    """OpenSpiel's ISMCTSBot playing `game` from a `SeatView` (see the module docstring):
    `native`, a game's `NativeGame`, searches OpenSpiel's own C++ game of it instead of ours."""

    def __init__(self, simulations: int = DEFAULT_SIMULATIONS, seed: int = 0,
                 name: str | None = None, game: str | None = None,
                 native: NativeGame | None = None):
        from envs.adapters import adapter
        from games import registry

        game = game or registry.DEFAULT_GAME
        self.simulations = int(simulations)
        self.native = native
        self.name = name or f"ismcts:{self.simulations}" + (",pyspiel" if native else "")
        if native is not None:
            import pyspiel

            self.game = pyspiel.load_game(native.name)
        else:
            from envs.openspiel_games import load

            self.game = load(game)
        self.adapter = adapter(game)
        self._view = None  # the view of the decision under way (a native world draw reads it)
        self.seed(seed)

    def seed(self, seed: int) -> None:
        """Restart the player's random stream (the bot's choices, rollouts and world draws)
        from `seed`."""
        from open_spiel.python.algorithms import ismcts, mcts

        self._random = np.random.RandomState(int(seed) % 2**32)
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=ROLLOUTS, random_state=self._random)
        native = self.native
        bot_class = native.bot_class() if native else ismcts.ISMCTSBot
        self.bot = bot_class(
            game=self.game, evaluator=evaluator, uct_c=native.uct_c if native else UCT_C,
            max_simulations=self.simulations, random_state=self._random,
            final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT)
        self.bot.set_resampler(self._resample)

    def _resample(self, state, player):
        """The bot's world draw, seeded from the player's own stream (a native game's own)."""
        seed = int(self._random.randint(2**31))
        if self.native is None:
            return state.resampled(player, seed)
        if self.native.resample is None:
            return self.world(self._view, seed)
        return self.native.resample(self, state, player, seed)

    def world(self, view, seed: int | None = None):
        """The OpenSpiel state of `view`'s hand with the hidden cards drawn (the one world
        sampler; `seed` drawn from the player's stream when None)."""
        if seed is None:
            seed = int(self._random.randint(2**31))
        if self.native:
            return self.native.state(self.game, view.state, view.seat, view.dealer,
                                     view.history, seed, self.adapter)
        from envs.openspiel_games import state_from_view

        return state_from_view(self.game, view.state, view.seat, view.dealer, view.history,
                               seed)

    def choose(self, view) -> int:
        """The bot's move for the seat of `view` (engine integer)."""
        legal = view.legal_moves()
        if len(legal) == 1:
            return int(legal[0])
        if self.native is None or self.native.check_history:
            made = self.adapter.moves_made(view.state)
            if len(view.history) != made:
                raise ValueError(f"{self.name} needs the deal's moves in the view (history): "
                                 f"{made} made, {len(view.history)} given")
        self._view = view
        action = int(self.bot.step(self.world(view)))
        move = self.native.move(action) if self.native and self.native.move else action
        if move not in legal:  # cannot happen: the bot picks among the state's legal moves
            raise RuntimeError(f"{self.name} chose {move}, not among {legal.tolist()}")
        return move


def make_ismcts_player(spec: str, seed: int = 0, game: str | None = None,
                       native: NativeGame | None = None, error: type | None = None
                       ) -> ISMCTSPlayer:
    """The player of the spec `ismcts[:SIMS][,pyspiel]` (SIMS simulations a decision, default
    100; `,pyspiel`: search OpenSpiel's own C++ game, the game's `native` declaration) for
    `game` (None: the default game); a bad spec is one `error` line (`PlayerSpecError` by
    default)."""
    from games import registry
    from play.player_spec import PlayerSpecError

    error = error or PlayerSpecError
    game = game or registry.DEFAULT_GAME
    text = str(spec).strip()
    form = "ismcts[:SIMS],pyspiel" if native and native.only else "ismcts[:SIMS][,pyspiel]"
    head, comma, option = text.partition(",")
    wants_native = option.strip().lower() == "pyspiel"
    if native is not None and native.only and not wants_native:
        raise error(f"{text!r}: the ISMCTS of {game} searches OpenSpiel's own C++ "
                    f"{native.name}: write {form}")
    if comma and not wants_native:
        raise error(f"{text!r}: the only option of ismcts is ,pyspiel ({form})")
    if wants_native and native is None:
        raise error(f"{text!r}: ,pyspiel searches OpenSpiel's own C++ game, and OpenSpiel "
                    f"has none of {game}")
    kind, sep, argument = head.strip().partition(":")
    if kind.lower() != "ismcts":
        raise error(f"{text!r}: not an ismcts spec ({form})")
    simulations = DEFAULT_SIMULATIONS
    if sep:
        if not argument.isdigit() or not 1 <= int(argument) <= MAX_SIMULATIONS:
            raise error(f"{text!r}: SIMS must be a whole number of simulations from 1 to "
                        f"{MAX_SIMULATIONS}, as in ismcts:100" + (",pyspiel" if wants_native
                                                                  else ""))
        simulations = int(argument)
    try:
        return ISMCTSPlayer(simulations, seed, game=game,
                            native=native if wants_native else None)
    except ImportError as exc:
        raise error(f"{text!r}: OpenSpiel is not installed ({exc.name}); "
                    "pip install -e '.[test]' brings it") from None


class _Timed:
    """A player wrapper that adds up the time and the number of its searched decisions."""

    def __init__(self, player):
        self.player = player
        self.name = player.name
        self.seconds = 0.0
        self.decisions = 0

    def seed(self, seed: int) -> None:
        """Reseed the wrapped player."""
        self.player.seed(seed)

    def choose(self, view) -> int:
        """The wrapped player's move, timed."""
        import time

        start = time.perf_counter()
        move = self.player.choose(view)
        self.seconds += time.perf_counter() - start
        self.decisions += 1
        return move


def main(argv=None) -> int:
    """`python3 -m play.ismcts_player`: a duplicate match of ISMCTS against another player of
    `--game` (any game with a tournament; the default game by default), through the one
    tournament loop, with the win rate's 95% interval and the bot's mean time a decision
    (forced moves included)."""
    import argparse

    from games import registry
    from play.player_spec import PlayerSpecError, make_player
    from play.tournament import pair_interval, run_tournament, tournament_game

    games = registry.names(("tournament",))
    parser = argparse.ArgumentParser(
        prog="python3 -m play.ismcts_player",
        description="A duplicate match of OpenSpiel's ISMCTS bot against another player "
                    "of the game, its games played by the one tournament loop.")
    parser.add_argument("--sims", type=int, default=50,
                        help="ISMCTS simulations a decision (default 50)")
    parser.add_argument("--pyspiel", action="store_true",
                        help="search OpenSpiel's own C++ game of the game (ismcts:SIMS,pyspiel; "
                             "a game whose only ISMCTS it is needs it)")
    parser.add_argument("--against", default="heuristic",
                        help="the opponent, a player spec of the game (default heuristic)")
    parser.add_argument("--pairs", type=int, default=20,
                        help="duplicate pairs of games (default 20)")
    parser.add_argument("--seed", type=int, default=0, help="the tournament seed (default 0)")
    parser.add_argument("--game", choices=games, default=registry.DEFAULT_GAME,
                        help=f"the game (default {registry.DEFAULT_GAME})")
    args = parser.parse_args(argv)
    if args.sims < 1 or args.pairs < 1 or args.seed < 0:
        parser.error("--sims and --pairs must be positive and --seed non-negative")
    spec = f"ismcts:{args.sims}" + (",pyspiel" if args.pyspiel else "")
    try:
        bot = _Timed(make_player(spec, args.seed, args.game))
        other = make_player(args.against, args.seed, args.game)
    except PlayerSpecError as exc:
        parser.error(str(exc))
    interrupted: list = []
    # one pair a chunk: the bar moves every pair, and Ctrl-C keeps every finished pair
    rows = run_tournament((bot, other), args.pairs, seed=args.seed, duplicate=True, chunk=1,
                          interrupted=interrupted, game=args.game)
    if len(rows) == 0:
        print("interrupted before the first pair finished")
        return 1
    plugin = tournament_game(args.game)
    rate, low, high = pair_interval(plugin.pair_scores(
        np.asarray(rows).reshape(-1, 2, plugin.width)))
    note = " (interrupted: the pairs finished so far)" if interrupted else ""
    print(f"{args.game} {bot.name} vs {other.name}: {len(rows)} games ({len(rows) // 2} "
          f"duplicate pairs{note}), "
          f"win rate {rate:.3f} (95% {low:.3f}..{high:.3f}), "
          f"{bot.seconds / max(bot.decisions, 1) * 1000:.1f} ms a decision "
          f"over {bot.decisions} decisions")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
