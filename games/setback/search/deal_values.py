"""The exact value of every legal move of a Setback deal in its playout, all four hands known
(`setback-cfr solve-deal`, found by the registry's `declaration("setback", "search.deal_values")`;
the solver is the one solver, `capture_solver.py`)."""

from __future__ import annotations

from games.setback import state as S
from games.setback.api import Deal
from games.setback.cards import format_card
from games.setback.errors import SetbackError
from games.setback.replay import replay
from games.setback.search.capture_solver import Solver


def solve_spec(spec) -> dict:
    """{"to_move", "bidder_team", "values": {card: value}} for a replay-style `spec` whose
    auction is complete and whose deal is not over: each legal move's deal score with the rest
    played perfectly, from the bidder's team's side. Bad input raises `SetbackError`."""
    replay(spec)  # every check of the replay input, with its messages
    deal = Deal(spec["dealer"], spec["hands"])
    for move in spec["moves"]:
        deal.play(str(move))
    if deal.is_over:
        raise SetbackError("the deal is over: there is no move to solve")
    if deal.phase == "bid":
        raise SetbackError("the auction is not complete: solve-deal needs the playout "
                           "(add the remaining bids to \"moves\")")
    try:
        moves, values = Solver().move_values(deal.state)
    except ValueError as exc:
        raise SetbackError(str(exc)) from None
    bidder = int(deal.state[S.HIGH_BIDDER])
    return {
        "to_move": deal.to_act,
        "bidder_team": deal.team_name(bidder % 2),
        "values": {format_card(int(m)): int(v) for m, v in zip(moves, values)},
    }
