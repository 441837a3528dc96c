"""Spades' `oracle` player: it SEES EVERY HAND. A ceiling for tournaments and ratings, never a
real player.

As Euchre's (`play/euchre_oracle.py`): the bids are another player's (`oracle,bid=SPEC` or
`oracle:SPEC`, SPEC any Spades player but an oracle; by default the heuristic), and every card
is played by the one double-dummy solver on the TRUE hand (`search.trick_values`, driven by
Spades' declaration `games.spades.trick_play`): the card of best value for the seat's team (its
hand score less the other team's; ties: the lowest card). When that score follows from the
tricks the team takes, never falling as they rise (no Nil bid standing, no bag penalty within
reach: most hands), the solver counts tricks and the oracle is exact from the first trick (a
tenth of a second a decision, typically). Otherwise (a Nil bidder's own tricks, bags about to
cost 100) it searches the score itself, handing every trick's start to the trick count once
the score follows from the tricks there; that too is exact from the first trick when it takes
at most `NODE_LIMIT` nodes (a count, so the same on any machine; about a tenth of a second);
it is not tried while a Nil bidder has taken no trick (such a search can take minutes). Past
that the oracle is exact once `EXACT_TRICKS`
(7) tricks or fewer remain, counting the one under way; before that, each candidate card is
followed by the heuristic at every seat (its numba twin, `search.spades_policy`) until 7
tricks remain, and the rest is solved exactly: a one-ply lookahead whose leaves are exact.

How it sees: a `play.oracle.SeeingPlayer` (`sees_all = True`); the Spades game loop
(`games.spades.match.play_game`, which `tournament --game spades` and `rating --game spades`
use) asks its players through `games.scaffold.view.ask`, which hands it the true state. `serve`
refuses it (`web.bots`).
"""

from __future__ import annotations

import numpy as np

from games.spades import state as S
from play.oracle import SeeingPlayer, split_oracle_spec

DEFAULT_BIDDER = "heuristic"
EXACT_TRICKS = 7  # always exact from this many tricks left (docstring)
NODE_LIMIT = 500_000  # nodes a score search may take before EXACT_TRICKS are left


class SpadesOraclePlayer(SeeingPlayer):
    """Plays every Spades card by the solver on the true hand; `bidder` bids (module
    docstring)."""

    def __init__(self, bidder=None, name: str | None = None, exact_tricks: int | None = None):
        from search.trick_values import TrickPlaySolver

        if bidder is None:
            from play.spades_heuristic import SpadesHeuristicPlayer

            bidder = SpadesHeuristicPlayer()
        super().__init__(bidder, name)
        self.solver = TrickPlaySolver()
        self.exact_tricks = EXACT_TRICKS if exact_tricks is None else int(exact_tricks)

    def choose_seeing_all(self, state: np.ndarray, view) -> int:
        """The move of the seat to act, seeing the true hand `state`: the bidder's bid, else
        the card of best value (a single legal card is played without solving)."""
        return self.decide_seeing_all(state, view)["move"]

    def decide_seeing_all(self, state: np.ndarray, view) -> dict:
        """The move and its figures: `{"move", "reason": "bidder" | "forced" | "exact" |
        "rollout+exact", "moves": [{"move", "value"}...] best first}`."""
        legal = view.legal_moves()
        if int(state[S.PHASE]) == S.PHASE_BID:
            return {"move": int(self.bidder.choose(view)), "reason": "bidder", "moves": []}
        if legal.size == 1:
            return {"move": int(legal[0]), "reason": "forced", "moves": []}
        from games.spades import trick_play

        found = None
        nil_stands = any(int(state[S.BID + seat]) == 0 and int(state[S.TAKEN + seat]) == 0
                         for seat in range(4))  # such a search runs long: not tried
        if S.N_TRICKS - int(state[S.TRICK_NUMBER]) > self.exact_tricks and (
                not nil_stands or self.solver.solvable_by_tricks(state, trick_play)):
            found = self.solver.card_values(state, trick_play, node_limit=NODE_LIMIT)
        exact = found is not None or S.N_TRICKS - int(state[S.TRICK_NUMBER]) <= self.exact_tricks
        moves, values = found or self.card_values(state, 0 if exact else self.exact_tricks)
        order = np.argsort(-values, kind="stable")  # the first best: the lowest card
        return {"move": int(moves[order[0]]), "reason": "exact" if exact else "rollout+exact",
                "moves": [{"move": int(moves[i]), "value": float(values[i])} for i in order]}

    def card_values(self, state: np.ndarray, horizon: int = 0) -> tuple[np.ndarray, np.ndarray]:
        """(legal cards ascending, their values from the acting seat's team's side) of `state`,
        a hand in its card play: exact with `horizon` 0; else the heuristic plays on after
        each card until `horizon` tricks remain and the rest is solved exactly. ValueError for
        any other phase."""
        from games.spades import trick_play
        from games.spades.rules import apply_card, legal_cards
        from search.spades_policy import play_heuristic

        if int(state[S.PHASE]) != S.PHASE_PLAY:
            raise ValueError("the Spades solver needs a hand in its card play (every bid made, "
                             "cards left to play)")
        if horizon <= 0:
            return self.solver.card_values(state, trick_play)
        sign = 1 if int(state[S.TO_ACT]) % 2 == 0 else -1
        legal = int(legal_cards(state))
        cards = np.array([c for c in range(52) if legal >> c & 1], dtype=np.int64)
        values = np.zeros(cards.size, dtype=np.int64)
        for i, card in enumerate(cards):
            child = np.array(state, dtype=np.int64)
            apply_card(child, int(card))
            play_heuristic(child, int(horizon))
            values[i] = sign * self.solver.value(child, trick_play)
        return cards, values


def is_oracle_spec(text: str) -> bool:
    """Whether the Spades spec `text` names the oracle (`oracle`, `oracle,...` or `oracle:...`,
    any case)."""
    lower = str(text).strip().lower()
    return lower == "oracle" or lower.startswith(("oracle,", "oracle:"))


def make_spades_oracle_player(text: str, seed: int, make_player, error=ValueError):
    """The oracle of a spec `oracle[,bid=SPEC]` or `oracle:SPEC`; `make_player(SPEC, seed)`
    makes the bidder (the Spades player grammar's); `error` (one line) for a bad spec."""
    text = str(text).strip()
    if text.lower().startswith("oracle:"):
        bid_spec = text[len("oracle:"):].strip()
        if not bid_spec:
            raise error(f"{text!r}: oracle:SPEC needs a Spades player, as in oracle:heuristic")
        name = text
    else:
        name, bid_spec = split_oracle_spec(text, error, "Spades ")
    if bid_spec is not None and is_oracle_spec(bid_spec):
        raise error(f"{name!r}: the oracle's bidder cannot be an oracle")
    return SpadesOraclePlayer(make_player(bid_spec or DEFAULT_BIDDER, seed), name=name)
