"""One game to 11 at a web table: a person at South, bots at West, North and East.

The game follows `play.tournament`: South deals first, the deal passes clockwise, deal k is
dealt by `deal_state(seed, k)` (the same cards as game `seed`'s deal k in a tournament), and
`game_winner` decides when the game is over. Unlike a tournament, every deal is played to its
last card: a person expects to play out the hand (the score is the same, `is_exhausted` says
so). The game never waits on a bot: after each of the person's moves the bots play until it is
South's turn again or the game is over, and the moves come back as events for the page to
show at its own pace.

A game is its seed and its moves: `Table.restore` replays the stored moves of each deal, and
the bots' later moves are reseeded per decision (`decision_seed`), so a game resumed after a
restart goes on exactly as it would have.
"""

from __future__ import annotations

import numpy as np

from games.rng import stream_seed
from games.setback import state as S
from games.setback.api import Deal, format_move
from games.setback.cards import RANK_CHARS, SEAT_CHARS, format_card
from games.setback.errors import SetbackError
from games.setback.game import FIRST_DEALER, game_winner, next_dealer
from games.setback.view import SeatView
from play.tournament import PLAYER_SEED_BASE, deal_state
from web.table_errors import Conflict, IllegalMove, TableError  # noqa: F401  (re-exported)

HUMAN = "S"
TEAM_OF = {"W": "EW", "E": "EW", "N": "NS", "S": "NS"}
SUIT_ORDER = "SHCD"  # the person's hand, by suit with colours alternating


def decision_seed(seed: int, deal: int, move: int) -> int:
    """The bots' generator seed for move `move` of deal `deal` of the game `seed`."""
    return int(stream_seed(np.uint64(stream_seed(np.uint64(seed), PLAYER_SEED_BASE + deal)), move))


def seeded_deal(seed: int, number: int, dealer: str) -> Deal:
    """Deal `number` of the game `seed`, dealt by `dealer`: `play.tournament.deal_state`'s cards
    (by seat relative to the dealer) given to the absolute seats."""
    state = deal_state(np.uint64(seed), number)
    d = SEAT_CHARS.index(dealer)
    hands = {SEAT_CHARS[(d + rel) % 4]: _cards(state[S.HAND + rel]) for rel in range(4)}
    return Deal(dealer, hands)


class DealRecord:
    """A deal as stored: its dealer, the hands dealt, the moves so far and the game score
    before it (`{"EW": a, "NS": b}`); `result` once it is over."""

    def __init__(self, number: int, dealer: str, hands: dict, moves: list[str],
                 score_before: dict):
        self.number = number
        self.dealer = dealer
        self.hands = hands
        self.moves = moves
        self.score_before = score_before
        self.result: dict | None = None

    def replay_spec(self) -> dict:
        """The deal as `setback-cfr replay` input (with the score, for the bootstrap keys)."""
        return {"dealer": self.dealer, "hands": self.hands, "moves": list(self.moves),
                "score": dict(self.score_before)}


class Table:
    """One game of Setback: its owner (`web.guard`; None for a game from before owners), its deals
    (`records`, the last one being played), the game score, the status (`playing` or
    `over`), the winning team and a version that counts the person's accepted moves (the
    page sends it back, so a stale tab is refused)."""

    game = "setback"  # the registry's name, recorded with the game in the store

    def __init__(self, game_id: str, seed: int, bots, owner: str | None = None):
        self.id = game_id
        self.owner = owner
        self.seed = int(seed)
        self.bots = bots
        self.records: list[DealRecord] = []
        self.deal: Deal | None = None
        self.score = {"EW": 0, "NS": 0}
        self.status = "playing"
        self.winner: str | None = None
        self.version = 0
        # What the views share, replaced (never changed in place) when it changes: the
        # events of one request each carry a view, and all are written out at the end.
        self._history: list[dict] = []  # the finished deals' results
        self._done: list[dict] = []  # this deal's completed tricks, as the view shows them
        self._won: dict[str, list[str]] = {"EW": [], "NS": []}  # their cards, by team
        self._hand: tuple = (None, None, [])  # (South's card mask, trump, sorted hand)

    # --- starting and restoring ------------------------------------------------------
    @classmethod
    def new(cls, game_id: str, seed: int, bots,
            owner: str | None = None) -> tuple["Table", list[dict]]:
        """A new game of `owner`'s; returns it with the events of the bots' first moves."""
        table = cls(game_id, seed, bots, owner)
        events: list[dict] = []
        table._start_deal(SEAT_CHARS[FIRST_DEALER], events)
        table._advance(events)
        return table, events

    @classmethod
    def restore(cls, game_id: str, seed: int, bots, deals: list[dict],
                version: int, owner: str | None = None) -> "Table":
        """The game rebuilt from its stored deals (`{"dealer", "hands", "moves"}` in order):
        every move replayed through the rules, the scores recomputed."""
        table = cls(game_id, seed, bots, owner)
        table.version = int(version)
        for stored in deals:
            table._open_deal(stored["dealer"], stored["hands"])
            for token in stored["moves"]:
                table._apply(token)
            if table.deal.is_over:
                table._finish_deal(None)
        if table.status == "playing":
            if table.deal is None or table.deal.is_over:  # saved between two deals
                table._start_deal(table._next_dealer(), None)
            table._advance(None)
        return table

    # --- the person's move -----------------------------------------------------------
    def play(self, token, version=None, seat=None) -> list[dict]:
        """Apply the person's move `token`, then the bots' replies; return the events.

        Refused (TableError, nothing changed): a seat other than South, a stale `version`,
        a finished game, a token that is not a legal move now.
        """
        if seat is not None and str(seat).upper() != HUMAN:
            raise Conflict(f"seat {seat} is played by the bots; you play {HUMAN}")
        if version is not None and int(version) != self.version:
            raise Conflict(f"the game has moved on (version {self.version}, this move was "
                           f"made at version {version}): reload it")
        if self.status != "playing":
            raise Conflict(f"game {self.id} is over ({self.winner} won "
                           f"{self.score['EW']}-{self.score['NS']} EW-NS)")
        if self.deal.to_act != HUMAN:  # never once `_advance` has run; a safety net
            raise Conflict(f"it is {self.deal.to_act}'s turn, not {HUMAN}'s")
        if not isinstance(token, str) or not token.strip():
            raise IllegalMove("'move' must be a card such as \"AS\" or a bid P, 2, 3, 4")
        try:
            self._apply(token)
        except SetbackError as exc:
            raise IllegalMove(str(exc)) from None
        self.version += 1
        events = [self._move_event(HUMAN, None)]
        self._advance(events)
        return events

    def hint(self) -> dict:
        """What the bots would play in the person's place, and why (see `Bots.decide`)."""
        if self.status != "playing" or self.deal.to_act != HUMAN:
            raise Conflict("there is no decision of yours to hint at now")
        view = SeatView.of(self.deal.state, self.deal.dealer, self._score_tuple())
        _, explanation = self.bots.decide(view, self._decision_seed())
        return explanation

    # --- the game loop ---------------------------------------------------------------
    def _advance(self, events: list[dict] | None) -> None:
        """Let the bots play until it is South's turn or the game is over; deals that end
        are scored and the next one is dealt. `events` (if a list) receives what happened."""
        while self.status == "playing":
            deal = self.deal
            if deal.is_over:
                self._finish_deal(events)
                if self.status == "playing":
                    self._start_deal(self._next_dealer(), events)
                continue
            seat = deal.to_act
            if seat == HUMAN:
                return
            view = SeatView.of(deal.state, deal.dealer, self._score_tuple())
            move, explanation = self.bots.decide(view, self._decision_seed())
            self._apply(format_move(move))
            if events is not None:
                events.append(self._move_event(seat, explanation))

    def _decision_seed(self) -> int:
        return decision_seed(self.seed, len(self.records) - 1, len(self.deal.moves))

    def _score_tuple(self) -> tuple[int, int]:
        return self.score["EW"], self.score["NS"]

    def _next_dealer(self) -> str:
        return SEAT_CHARS[next_dealer(SEAT_CHARS.index(self.records[-1].dealer))]

    def _open_deal(self, dealer: str, hands: dict) -> DealRecord:
        record = DealRecord(len(self.records), dealer, hands, [], dict(self.score))
        self.records.append(record)
        self.deal = Deal(dealer, hands)
        self._done, self._won = [], {"EW": [], "NS": []}
        return record

    def _start_deal(self, dealer: str, events: list[dict] | None) -> None:
        deal = seeded_deal(self.seed, len(self.records), dealer)
        self._open_deal(dealer, {seat: deal.hand(seat) for seat in SEAT_CHARS})
        if events is not None:
            events.append({"type": "deal", "number": len(self.records) - 1,
                           "dealer": dealer, "view": self.view()})

    def _apply(self, token: str) -> None:
        deal = self.deal
        deal.play(token)
        self.records[-1].moves.append(deal.moves[-1])
        trick = deal.tricks[-1] if deal.tricks else None
        if trick is not None and trick.winner is not None and len(self._done) < len(deal.tricks):
            team = TEAM_OF[trick.winner]
            self._done = self._done + [_trick_view(trick)]
            self._won = {**self._won, team: self._won[team] + trick.cards}

    def _finish_deal(self, events: list[dict] | None) -> None:
        deal, record = self.deal, self.records[-1]
        deal_score = deal.deal_score()
        for team in ("EW", "NS"):
            self.score[team] += deal_score[team]
        winner = game_winner(self.score["EW"], self.score["NS"])
        high = int(deal.state[S.HIGH_BID])
        bidder = deal.seat_letter(int(deal.state[S.HIGH_BIDDER])) if high else None
        record.result = {"points": deal.points(), "deal_score": deal_score,
                         "score": dict(self.score), "bid": high, "bidder": bidder}
        self._history = self._history + [{"number": record.number, "dealer": record.dealer,
                                          **record.result}]
        if winner >= 0:
            self.status = "over"
            self.winner = ("EW", "NS")[winner]
        if events is not None:
            events.append({"type": "deal_over", "number": record.number,
                           **record.result, "view": self.view()})
            if self.status == "over":
                events.append({"type": "game_over", "winner": self.winner,
                               "score": dict(self.score), "view": self.view()})

    def _move_event(self, seat: str, explanation: dict | None) -> dict:
        deal = self.deal
        event = {"type": "move", "seat": seat, "move": deal.moves[-1],
                 "phase": "bid" if len(deal.moves) <= self._bids_made() else "card"}
        if explanation is not None:
            event["explain"] = explanation
        trick = deal.tricks[-1] if deal.tricks else None
        if event["phase"] == "card" and trick is not None and trick.winner is not None \
                and len(trick.cards) == 4:
            event["trick_winner"] = trick.winner
        event["view"] = self.view()
        return event

    def _bids_made(self) -> int:
        return int(self.deal.state[S.N_BIDS])

    # --- what South sees -------------------------------------------------------------
    def view(self) -> dict:
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
            "game": self.id,
            "version": self.version,
            "status": self.status,
            "winner": self.winner,
            "score": dict(self.score),
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

    def _sorted_hand(self) -> list[str]:
        """South's hand grouped by suit (trump first once known), high cards first."""
        deal = self.deal
        mask, trump = int(deal.state[S.HAND + deal.relative(HUMAN)]), deal.trump
        if self._hand[:2] != (mask, trump):
            order = (trump or "") + SUIT_ORDER.replace(trump or "", "")
            cards = _cards(mask)
            self._hand = (mask, trump, sorted(
                cards, key=lambda c: (order.index(c[1]), -RANK_CHARS.index(c[0]))))
        return self._hand[2]

    def replay(self) -> dict:
        """The whole game as JSON: its seed, the final score and each deal as `replay` input."""
        return {"game": self.id, "seed": self.seed, "bots": self.bots.spec,
                "status": self.status, "winner": self.winner, "score": dict(self.score),
                "deals": [r.replay_spec() for r in self.records]}


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
