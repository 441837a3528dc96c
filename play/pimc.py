"""PIMC players: `pimc[:WORLDS]` and `pimc-pi[:WORLDS]:POLICY` play the cards by sampling worlds
and solving each exactly; the bidding is another player's (`bid=SPEC`).

One card decision (`search/`): a forced move is played at once; otherwise WORLDS layouts of the
hidden cards are drawn uniformly among those consistent with the seat's view (its hand, the
cards played, the voids shown, the hand sizes), every legal card is solved exactly in each world
(`search.solver`, the baseline payoff from the seat's team's side), and the card with the best
mean value is played (ties: the lowest card). `pimc-pi` weights each world by the probability
that the policy would have made the other seats' moves seen so far (`search.inference`,
`play.policy_model`); that needs the deal's history in the view (`SeatView.history`, which the
tournament supplies); without it the weights are uniform.

Spec strings: `pimc[:WORLDS][,bid=SPEC]` and `pimc-pi[:WORLDS]:POLICY[,bid=SPEC]`, POLICY being
`db:PATH` or `strategy:PATH[,PATH...]`; WORLDS defaults to 20; the bidding defaults to the
policy's player for `pimc-pi` and to the heuristic for `pimc`.
"""

from __future__ import annotations

import numpy as np

from games.setback import state as S
from search.inference import DEFAULT_FLOOR, log_weights, normalized
from search.pimc import WorldSearch

DEFAULT_WORLDS = 20


class PimcPlayer:
    """Plays the cards by PIMC (module docstring); `bidder` makes the bids. `model`, when given,
    weights the worlds (policy-based inference)."""

    def __init__(self, worlds: int = DEFAULT_WORLDS, bidder=None, model=None, seed: int = 0,
                 floor: float = DEFAULT_FLOOR, name: str | None = None):
        if worlds < 1:
            raise ValueError("a PIMC player needs at least one world")
        if bidder is None:
            from play.heuristic import HeuristicPlayer

            bidder = HeuristicPlayer()
        self.worlds = int(worlds)
        self.bidder = bidder
        self.model = model
        self.floor = float(floor)
        self.search = WorldSearch(seed)
        self.name = name or (f"pimc-pi:{worlds}" if model is not None else f"pimc:{worlds}")

    def seed(self, seed: int) -> None:
        """Restart the world sampler (and the bidder's generator, if it has one)."""
        self.search.seed(seed)
        if hasattr(self.bidder, "seed"):
            self.bidder.seed(seed)

    def choose(self, view) -> int:
        """The move for the seat to act in `view` (a `games.setback.view.SeatView`)."""
        state = view.state
        if int(state[S.PHASE]) == S.PHASE_AUCTION:
            return int(self.bidder.choose(view))
        legal = view.legal_moves()
        if legal.size == 1:
            return int(legal[0])
        moves, mean = self.move_values(view)
        return int(moves[int(np.argmax(mean))])

    def move_values(self, view) -> tuple[np.ndarray, np.ndarray]:
        """(legal moves, their weighted mean value over the sampled worlds)."""
        hands = self.search.sample(view.state, view.seat, self.worlds)
        moves, values = self.search.values(view.state, view.seat, hands)
        weights = self.weights(view, hands)
        return moves, weights @ values

    def weights(self, view, hands: np.ndarray) -> np.ndarray:
        """Normalized world weights: uniform, or the policy's when a model and history exist."""
        history = getattr(view, "history", ())
        if self.model is None or not history:
            return np.full(hands.shape[0], 1.0 / hands.shape[0])
        log_w = log_weights(hands, history, view.seat, self.model, view.dealer, view.score,
                            self.floor)
        return normalized(log_w)

    def close(self) -> None:
        """Close the bidder (a database player holds a connection)."""
        if hasattr(self.bidder, "close"):
            self.bidder.close()


def make_pimc_player(text: str, seed: int = 0):
    """The PIMC player of a spec string (module docstring); bad specs raise PlayerSpecError."""
    from play.player_spec import PlayerSpecError, make_player

    body, sep, bid_spec = text.partition(",bid=")
    if sep and not bid_spec.strip():
        raise PlayerSpecError(f"{text!r}: bid= needs a player, as in bid=heuristic")
    kind, _, rest = body.partition(":")
    kind = kind.strip().lower()
    worlds = DEFAULT_WORLDS
    head, _, tail = rest.partition(":")
    if head.strip().isdigit():
        worlds, rest = int(head), tail
    elif kind == "pimc" and rest:
        raise PlayerSpecError(f"{text!r}: expected pimc[:WORLDS][,bid=SPEC] with WORLDS a "
                              "positive integer")
    if worlds < 1:
        raise PlayerSpecError(f"{text!r}: WORLDS must be at least 1")
    model, policy_player = None, None
    if kind == "pimc-pi":
        policy = rest.strip()
        if not policy.lower().startswith(("db:", "strategy:")):
            raise PlayerSpecError(f"{text!r}: pimc-pi needs a policy, as in "
                                  "pimc-pi:50:db:strategy.db")
        from play.policy_model import PolicyModel

        policy_player = make_player(policy, seed)
        model = PolicyModel(policy_player.db, policy_player.use_bootstrap)
    elif kind != "pimc" or rest.strip():
        raise PlayerSpecError(f"unknown player {text!r}")
    if sep:
        bidder = make_player(bid_spec.strip(), seed)
    else:
        bidder = policy_player  # None: the heuristic
    return PimcPlayer(worlds, bidder=bidder, model=model, seed=seed, name=text.strip())
