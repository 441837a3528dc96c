"""One game to 11 at a web table: a person at South, bots at West, North and East.

The game follows `play.tournament`: South deals first, the deal passes clockwise, deal k is
dealt by `deal_state(seed, k)` (the same cards as game `seed`'s deal k in a tournament), and
`game_winner` decides when the game is over. Unlike a tournament, every deal is played to its
last card: a person expects to play out the hand (the score is the same, `is_exhausted` says
so). The game never waits on a bot: after each of the person's moves the bots play until it is
South's turn again or the game is over, and the moves come back as events for the page to
show at its own pace.

A game is its seed and its moves (`web.table_base.WebTable`, which keeps the bookkeeping every
web game shares): `Table.restore` replays the stored moves of each deal, and the bots' later
moves are reseeded per decision, so a game resumed after a restart goes on exactly as it
would have.
"""

from __future__ import annotations

import numpy as np

from games.setback import state as S
from games.setback.api import Deal, format_move
from games.setback.cards import RANK_CHARS, SEAT_CHARS, format_card
from games.setback.errors import SetbackError
from games.setback.game import FIRST_DEALER, game_winner, next_dealer
from games.setback.view import SeatView
from play.tournament import PLAYER_SEED_BASE, deal_state
from games.setback import table_view
from web.table_base import HUMAN, SUIT_ORDER, TEAM_OF, WebTable
from web.table_base import DealRecord as _StoredDeal
from web.table_errors import Conflict, IllegalMove, TableError  # noqa: F401  (re-exported)


def seeded_deal(seed: int, number: int, dealer: str) -> Deal:
    """Deal `number` of the game `seed`, dealt by `dealer`: `play.tournament.deal_state`'s cards
    (by seat relative to the dealer) given to the absolute seats."""
    state = deal_state(np.uint64(seed), number)
    d = SEAT_CHARS.index(dealer)
    hands = {SEAT_CHARS[(d + rel) % 4]: _cards(state[S.HAND + rel]) for rel in range(4)}
    return Deal(dealer, hands)


class DealRecord(_StoredDeal):
    """A Setback deal as stored (`web.table_base.DealRecord`: no setup beyond the hands)."""

    def replay_spec(self) -> dict:
        """The deal as `setback-cfr replay` input (with the score, for the bootstrap keys)."""
        return {"dealer": self.dealer, "hands": self.hands, "moves": list(self.moves),
                "score": dict(self.score_before)}


class Table(WebTable):
    """One game of Setback (`WebTable`: its owner, deals, score, status, winner and version);
    this class brings Setback's rules, deals, scoring and view."""

    game = "setback"  # the registry's name, recorded with the game in the store
    rules_error = SetbackError
    move_help = "'move' must be a card such as \"AS\" or a bid P, 2, 3, 4"
    player_seed_base = PLAYER_SEED_BASE
    seat_chars = SEAT_CHARS
    first_dealer = FIRST_DEALER
    hand_field = S.HAND
    look = table_view
    format_move = staticmethod(format_move)
    next_dealer = staticmethod(next_dealer)
    game_winner = staticmethod(game_winner)

    def __init__(self, game_id: str, seed: int, bots, owner: str | None = None):
        super().__init__(game_id, seed, bots, owner)
        self._won: dict[str, list[str]] = {"EW": [], "NS": []}  # their cards, by team

    # --- the game's hooks ------------------------------------------------------------
    def _deal_cards(self, number: int, dealer: str) -> tuple[dict, None]:
        deal = seeded_deal(self.seed, number, dealer)
        return {seat: deal.hand(seat) for seat in SEAT_CHARS}, None

    def _seat_view(self) -> SeatView:
        deal = self.deal
        return SeatView.of(deal.state, deal.dealer, (self.score["EW"], self.score["NS"]),
                           deal.history)

    def _open_deal(self, dealer: str, hands: dict, setup=None) -> DealRecord:
        record = DealRecord(len(self.records), dealer, hands, [], dict(self.score))
        self.records.append(record)
        self.deal = Deal(dealer, hands)
        self._done, self._won = [], {"EW": [], "NS": []}
        return record

    def _apply(self, token: str) -> str:
        deal = self.deal
        deal.play(token)
        self.records[-1].moves.append(deal.moves[-1])
        trick = deal.tricks[-1] if deal.tricks else None
        if trick is not None and trick.winner is not None and len(self._done) < len(deal.tricks):
            team = TEAM_OF[trick.winner]
            self._done = self._done + [_trick_view(trick)]
            self._won = {**self._won, team: self._won[team] + trick.cards}
        return "bid" if len(deal.moves) <= self._bids_made() else "card"

    def _score_deal(self) -> dict:
        deal = self.deal
        deal_score = deal.deal_score()
        for team in ("EW", "NS"):
            self.score[team] += deal_score[team]
        high = int(deal.state[S.HIGH_BID])
        bidder = deal.seat_letter(int(deal.state[S.HIGH_BIDDER])) if high else None
        return {"points": deal.points(), "deal_score": deal_score,
                "score": dict(self.score), "bid": high, "bidder": bidder}

    def _move_event(self, seat: str, phase: str, explanation: dict | None) -> dict:
        deal = self.deal
        event = {"type": "move", "seat": seat, "move": deal.moves[-1], "phase": phase}
        if explanation is not None:
            event["explain"] = explanation
        trick = deal.tricks[-1] if deal.tricks else None
        if phase == "card" and trick is not None and trick.winner is not None \
                and len(trick.cards) == 4:
            event["trick_winner"] = trick.winner
        event["view"] = self.view()
        return event

    def _bids_made(self) -> int:
        return int(self.deal.state[S.N_BIDS])

    # --- what South sees -------------------------------------------------------------
    def _game_view(self) -> dict:
        """Everything the person at South may see, as JSON-ready data: their hand and legal
        moves, the auction, the trick on the table and the last one, the cards each team has
        won this deal, how many cards each seat holds, the scores and each deal's result.

        Built for every event of every move, so it reads the state kept as the moves were
        applied (completed tricks, cards won, results) instead of walking the deal again.
        """
        deal, record = self.deal, self.records[-1]
        state = deal.state
        n_bids = int(state[S.N_BIDS])
        high = int(state[S.HIGH_BID])
        to_act = deal.to_act if self.status == "playing" else None
        done = self._done
        held = dict.fromkeys(SEAT_CHARS, 6 - len(done))
        trick = done[-1] if done else None
        if deal.tricks and deal.tricks[-1].winner is None:  # a trick on the table
            current = deal.tricks[-1]
            for seat in SEATS_FROM[current.leader][:len(current.cards)]:
                held[seat] -= 1
            trick = _trick_view(current)
        return {
            **self._view_head(),
            "deal": record.number,
            "dealer": record.dealer,
            "phase": deal.phase,
            "to_act": to_act,
            "trump": deal.trump,
            "bids": [{"seat": seat, "bid": move}
                     for seat, move in zip(BID_ORDER[record.dealer], record.moves[:n_bids])],
            "high_bid": high,
            "high_bidder": deal.seat_letter(int(state[S.HIGH_BIDDER])) if high else None,
            "hand": self._sorted_hand(),
            "legal": deal.legal_moves() if to_act == HUMAN else [],
            "held": held,
            "trick": trick,
            "last_trick": done[-1] if done else None,
            "tricks_done": len(done),
            "won": {"EW": self._won["EW"], "NS": self._won["NS"]},
            "history": self._history,
        }

    def _sort_hand(self, mask: int, trump: str | None) -> list[str]:
        """South's hand grouped by suit (trump first once known), high cards first."""
        order = (trump or "") + SUIT_ORDER.replace(trump or "", "")
        return sorted(_cards(mask), key=lambda c: (order.index(c[1]), -RANK_CHARS.index(c[0])))


SEATS_FROM = {seat: [SEAT_CHARS[(i + k) % 4] for k in range(4)]
              for i, seat in enumerate(SEAT_CHARS)}  # a trick's seats, from its leader on
BID_ORDER = {seat: SEATS_FROM[seat][1:] + [seat] for seat in SEAT_CHARS}  # by the dealer


def _trick_view(trick) -> dict:
    """A trick as the view shows it: its leader, its winner (None while it is played) and
    each card with the seat that played it."""
    return {"leader": trick.leader, "winner": trick.winner,
            "cards": [{"seat": s, "card": c}
                      for s, c in zip(SEATS_FROM[trick.leader], trick.cards)]}


def _cards(mask) -> list[str]:
    mask = int(mask)
    return [format_card(c) for c in range(52) if mask >> c & 1]
