"""The all-seeing `oracle` of every game whose card play is declared (`games/<game>/trick_play.py`):
it SEES EVERY HAND. A ceiling for tournaments and ratings, never a real player. It names no game.

Issue 37 (part 3) and issue 55 (item 2): every card is played by the one double-dummy solver
(`search.trick_values`, driven by the game's declaration) on the TRUE hand: the card of best
value for the seat's team (its hand score less the other team's; ties: the lowest card; a single
legal card is played without solving). Everything before the card play (bids, calls,
discards) is another player's: `oracle,bid=SPEC` (or `oracle:SPEC` where the game allows it),
SPEC any player of the game but an oracle, by default the heuristic's.

What the oracle reads of the declaration: the state's fields `PHASE`, `PHASE_PLAY` (the card
play: before it the bidder decides), `N_TRICKS`, `TRICK_NUMBER` (tricks done) and `TO_ACT`
(seats 0 and 2 are side 0), `NOT_IN_CARD_PLAY` (the one line refusing another phase),
`ORACLE_TT_BITS` (optional: the solver's table size, 18 by default). A game whose full solve
can be too slow gives the oracle `exact_tricks` (exact only from so many tricks left),
`node_limit` (the nodes a score search may take before that: a count, the same on any machine)
and `play_on(state, horizon)` (the legal cards ascending and the state after each with the
game's rollout policy playing on until `horizon` tricks remain): before `exact_tricks` are
left, a search within `node_limit` is exact; past it, each card is followed by `play_on` and
the rest solved exactly (a one-ply lookahead whose leaves are exact).

How it sees: players receive a `SeatView`, the other hands erased; the oracle cannot play from
one (`choose` refuses with `OracleRefused`). It declares `sees_all = True`, and the game loops
ask their players through `games.scaffold.view.ask`, which hands it the true state through
`choose_seeing_all(state, view)`. `serve` and `decide` refuse it when the spec is read
(`web.bots`, `refuses_oracle`): a person is never seated against a player that sees their hand.
"""

from __future__ import annotations

import numpy as np

BID_OPTION = ",bid="
DEFAULT_BIDDER = "heuristic"


class OracleRefused(RuntimeError):
    """The oracle was asked to play from a seat's view (it needs the whole deal)."""


def refuses_oracle(player, where: str) -> str | None:
    """The one line refusing `player` in `where` when it is an all-seeing player, else None."""
    if getattr(player, "sees_all", False) is True:
        return (f"{getattr(player, 'name', 'oracle')}: the oracle sees every hand (a ceiling "
                f"for tournaments and ratings); it cannot play in {where}")
    return None


class SeeingPlayer:
    """What every game's oracle shares: `sees_all`, a `bidder` (another player of the game)
    for the decisions before the cards, a `choose` that refuses, and passing `seed` and
    `close` on to the bidder. A subclass plays the cards in `choose_seeing_all(state, view)`."""

    sees_all = True  # games.scaffold.view.ask hands it the whole deal

    def __init__(self, bidder, name: str | None = None):
        self.bidder = bidder
        self.name = name or "oracle"

    def seed(self, seed: int) -> None:
        """Reseed the bidder, if it draws (the card play is deterministic)."""
        if hasattr(self.bidder, "seed"):
            self.bidder.seed(seed)

    def choose(self, view) -> int:
        """Refused: a seat's view hides the other hands, and the oracle plays from them."""
        raise OracleRefused(f"{self.name} sees every hand: only a tournament or a rating "
                            "hands it the deal (it cannot play from a seat's view, behind "
                            "another player, in serve or in decide)")

    def close(self) -> None:
        """Close the bidder (a database player holds a connection)."""
        if hasattr(self.bidder, "close"):
            self.bidder.close()


def in_card_play(game, state) -> bool:
    """Whether `state` of the game `game` declares (`trick_play`) is in its card play."""
    return int(state[game.PHASE]) == game.PHASE_PLAY


def tricks_left(game, state) -> int:
    """The tricks left to play in `state`, the one under way included."""
    return game.N_TRICKS - int(state[game.TRICK_NUMBER])


def side_to_act(game, state) -> int:
    """The side of the seat to act in `state` (0: seats 0 and 2)."""
    return int(state[game.TO_ACT]) % 2


class TrickOraclePlayer(SeeingPlayer):
    """Plays every card by the solver on the true hand of the game `trick_play` declares;
    `bidder` makes every other decision (module docstring for the rest)."""

    def __init__(self, bidder, trick_play, name: str | None = None,
                 exact_tricks: int | None = None, node_limit: int | None = None,
                 play_on=None):
        from search.trick_values import TrickPlaySolver

        super().__init__(bidder, name)
        self.game = trick_play
        self.solver = TrickPlaySolver(getattr(trick_play, "ORACLE_TT_BITS", 18))
        self.exact_tricks = exact_tricks  # None: exact from the first trick
        self.node_limit = node_limit
        self.play_on = play_on

    def choose_seeing_all(self, state: np.ndarray, view) -> int:
        """The move of the seat to act, seeing the true hand `state` (engine state): the
        bidder's before the card play, else the card of best value for the seat's team."""
        return self.decide_seeing_all(state, view)["move"]

    def decide_seeing_all(self, state: np.ndarray, view) -> dict:
        """The move and its figures: `{"move", "reason": "bidder" | "forced" | "exact" |
        "rollout+exact", "moves": [{"move", "value"}...] best first}`."""
        game = self.game
        if not in_card_play(game, state):
            return {"move": int(self.bidder.choose(view)), "reason": "bidder", "moves": []}
        legal = view.legal_moves()
        if legal.size == 1:
            return {"move": int(legal[0]), "reason": "forced", "moves": []}
        found = None
        early = self.exact_tricks is not None and tricks_left(game, state) > self.exact_tricks
        if early:
            found = self.solver.card_values(state, game, node_limit=self.node_limit)
        exact = found is not None or not early
        moves, values = found or self.card_values(state, 0 if exact else self.exact_tricks)
        order = np.argsort(-values, kind="stable")  # the first best: the lowest card
        return {"move": int(moves[order[0]]), "reason": "exact" if exact else "rollout+exact",
                "moves": [{"move": int(moves[i]), "value": float(values[i])} for i in order]}

    def card_values(self, state: np.ndarray, horizon: int = 0) -> tuple[np.ndarray, np.ndarray]:
        """(legal cards ascending, their values from the acting seat's team's side) of `state`,
        a hand in its card play: exact with `horizon` 0; else `play_on` plays on after each
        card until `horizon` tricks remain and the rest is solved exactly. ValueError (the
        game's one line) for any other phase."""
        game = self.game
        if not in_card_play(game, state):
            raise ValueError(game.NOT_IN_CARD_PLAY)
        if horizon <= 0:
            return self.solver.card_values(state, game)
        sign = 1 if side_to_act(game, state) == 0 else -1
        cards, children = self.play_on(state, int(horizon))
        values = np.array([sign * self.solver.value(child, game) for child in children],
                          dtype=np.int64)
        return cards, values


def is_oracle_spec(text: str) -> bool:
    """Whether the spec `text` names the oracle (`oracle`, `oracle,...` or `oracle:...`, any
    case)."""
    lower = str(text).strip().lower()
    return lower == "oracle" or lower.startswith(("oracle,", "oracle:"))


def split_oracle_spec(text: str, error, game: str = "",
                      colon: bool = False) -> tuple[str, str | None]:
    """(the oracle's name, its bidder's spec or None for the default) of a spec
    `oracle[,bid=SPEC]` (and `oracle:SPEC` when `colon`); `error` (an exception class, one
    line) for a bad one. `game`: the game's name and a space in the messages, or ""."""
    name = str(text).strip()
    if colon and name.lower().startswith("oracle:"):
        bid_spec = name[len("oracle:"):].strip()
        if not bid_spec:
            raise error(f"{name!r}: oracle:SPEC needs a {game}player, as in oracle:heuristic")
        return name, bid_spec
    body, sep, bid_spec = name.partition(BID_OPTION)
    if body.strip().lower() != "oracle":
        raise error(f"{name!r}: expected oracle[,bid=SPEC]"
                    + (f" (SPEC a {game}player)" if game else ""))
    if sep and not bid_spec.strip():
        raise error(f"{name!r}: bid= needs a {game}player, as in oracle,bid=heuristic")
    return (name, bid_spec.strip()) if sep else ("oracle", None)


def make_trick_oracle_player(text: str, seed: int, make_player, error, trick_play,
                             game: str = "", colon: bool = False,
                             bidder: str = DEFAULT_BIDDER, **options):
    """The oracle of a spec `oracle[,bid=SPEC]` (and `oracle:SPEC` when `colon`) for the game
    `trick_play` declares; `make_player(SPEC, seed)` makes the bidder (the game's player
    grammar's; `bidder` the spec without `bid=`); `error` (one line) for a bad spec; `game`
    names the game in the messages (its name and a space); `options`: `TrickOraclePlayer`'s
    (`exact_tricks`, `node_limit`, `play_on`)."""
    name, bid_spec = split_oracle_spec(text, error, game, colon)
    if bid_spec is not None and is_oracle_spec(bid_spec):
        raise error(f"{name!r}: the oracle's bidder cannot be an oracle")
    return TrickOraclePlayer(make_player(bid_spec or bidder, seed), trick_play,
                             name=name, **options)
