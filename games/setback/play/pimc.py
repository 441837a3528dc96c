"""PIMC players: `pimc[:WORLDS]` and `pimc-pi[:WORLDS]:POLICY` play the cards by sampling worlds
and solving each exactly; the bidding is another player's (`bid=SPEC`).

One card decision (`search/`): a forced move is played at once; otherwise WORLDS layouts of the
hidden cards are drawn uniformly among those consistent with the seat's view (its hand, the cards
played, the voids shown, the hand sizes), every legal card is solved exactly in each world
(`games.setback.search.capture_solver`, the baseline payoff from the seat's team's side), and
the card with the best mean value is played (ties: the lowest card). `pimc-pi` weights each
world by the probability that the policy would have made the other seats' moves seen so far
(`games.setback.search.inference`, `games.setback.play.policy_model`); that needs the deal's
history in the view (`SeatView.history`, which the tournament supplies); without it the weights are
uniform.

Bid tables (`,tables=FILE`, `games/setback/play/bid_tables.py`,
`games/setback/search/bid_tables.py`): once trump is set, the worlds are drawn from the tables'
belief about the hidden cards given the auction and the pitch (constructively, exactly, respecting
the hand sizes and voids) instead of uniformly; the pitch decision itself still samples uniformly.
With `pimc-pi` the policy then weights only the moves after the pitch, so the auction's evidence is
not counted twice.

Spec strings: `pimc[:WORLDS][,tables=FILE][,bid=SPEC]` and
`pimc-pi[:WORLDS]:POLICY[,tables=FILE][,bid=SPEC]`, POLICY being `db:PATH` or
`strategy:PATH[,PATH...]`; WORLDS defaults to 20; the bidding defaults to the policy's player
for `pimc-pi` and to the heuristic for `pimc`.
"""

from __future__ import annotations

import numpy as np

from games.setback import state as S
from games.setback.search.bid_tables import applies
from games.setback.search.inference import DEFAULT_FLOOR, log_weights, normalized
from games.setback.search.world_search import WorldSearch

DEFAULT_WORLDS = 20
TABLES_SKIP = 5  # the four bids and the pitch: the bid tables' evidence


class PimcPlayer:
    """Plays the cards by PIMC (module docstring); `bidder` makes the bids. `model`, when given,
    weights the worlds (policy-based inference)."""

    def __init__(self, worlds: int = DEFAULT_WORLDS, bidder=None, model=None, seed: int = 0,
                 floor: float = DEFAULT_FLOOR, name: str | None = None, tables=None):
        if worlds < 1:
            raise ValueError("a PIMC player needs at least one world")
        if bidder is None:
            from games.setback.play.heuristic import HeuristicPlayer

            bidder = HeuristicPlayer()
        self.worlds = int(worlds)
        self.bidder = bidder
        self.model = model
        self.tables = tables  # a games.setback.search.bid_tables.TablesBelief, or None
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
        use_tables = self.tables is not None and applies(view.state)
        if use_tables:
            hands = self.tables.sample(view.state, view.seat, self.worlds, self.search.rng)
        else:
            hands = self.search.sample(view.state, view.seat, self.worlds)
        moves, values = self.search.values(view.state, view.seat, hands)
        weights = self.weights(view, hands, TABLES_SKIP if use_tables else 0)
        return moves, weights @ values

    def weights(self, view, hands: np.ndarray, skip: int = 0) -> np.ndarray:
        """Normalized world weights: uniform, or the policy's when a model and history exist
        (the first `skip` moves of the history not scored)."""
        history = getattr(view, "history", ())
        if self.model is None or not history:
            return np.full(hands.shape[0], 1.0 / hands.shape[0])
        log_w = log_weights(hands, history, view.seat, self.model, view.dealer, view.score,
                            self.floor, skip)
        return normalized(log_w)

    def close(self) -> None:
        """Close the bidder (a database player holds a connection)."""
        if hasattr(self.bidder, "close"):
            self.bidder.close()


def make_pimc_player(text: str, seed: int = 0):
    """The PIMC player of a spec string (module docstring); bad specs raise PlayerSpecError."""
    from play.player_spec import PlayerSpecError, make_player

    name = text.strip()
    tables = None
    if ",tables=" in text:
        head, _, rest = text.partition(",tables=")
        path, bid_sep, after = rest.partition(",bid=")
        text = head + (",bid=" + after if bid_sep else "")
        tables = load_tables(path.strip(), name)
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
        from games.setback.play.policy_model import PolicyModel

        policy_player = make_player(policy, seed)
        model = PolicyModel(policy_player.db, policy_player.use_bootstrap)
    elif kind != "pimc" or rest.strip():
        raise PlayerSpecError(f"unknown player {text!r}")
    if sep:
        bidder = make_player(bid_spec.strip(), seed)
    else:
        bidder = policy_player  # None: the heuristic
    return PimcPlayer(worlds, bidder=bidder, model=model, seed=seed, name=name, tables=tables)


def load_tables(path: str, spec: str):
    """The `TablesBelief` of `tables=PATH` in `spec`; a bad path or file is a PlayerSpecError."""
    from games.setback.play.bid_tables import BidTablesError, load_belief
    from play.player_spec import PlayerSpecError

    if not path:
        raise PlayerSpecError(f"{spec!r}: tables= needs a bid tables file")
    try:
        return load_belief(path)
    except BidTablesError as exc:
        raise PlayerSpecError(str(exc)) from None
