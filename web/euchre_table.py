"""One Euchre game to 10 at a web table: a person at South, bots at West, North and East.

The game follows `games.euchre.match.play_game` (what tournaments play): South deals first, the
deal passes clockwise, hand k of the game `seed` is `match.deal_hand(seed, k, dealer)` (the
same cards as hand k of a tournament game with that seed), and `game.game_winner` says when a
team has 10. After each of the person's moves the bots play until it is South's turn again or
the game is over (a lone maker's partner sits out: when North goes alone the bots play the
whole hand), and the moves come back as events for the page to show at its own pace.

What South may not see stays hidden: the other hands, and the dealer's discard unless South is
the dealer (a bot dealer's discard is an event without its card). A finished hand's replay
(`replay_spec`, what `setback-cfr replay --game euchre` reads) shows everything.

A game is its seed and its moves: `restore` replays the stored moves of each hand, and the bots'
later moves are reseeded per decision (`decision_seed`), so a game resumed after a restart goes
on exactly as it would have. The interface is `web.table.Table`'s, so `web.app` serves either.
"""

from __future__ import annotations

import numpy as np

from games.euchre.api import Hand, format_move, parse_move
from games.euchre.cards import SEAT_CHARS, effective_suit, format_cards, parse_card, power
from games.euchre.errors import EuchreError
from games.euchre.game import FIRST_DEALER, game_winner, next_dealer
from games.euchre.match import deal_hand
from games.euchre.state import DEALT, HAND, OUT
from games.euchre.view import SeatView
from games.rng import stream_seed
from play.euchre_tournament import PLAYER_SEED_BASE
from web.table_errors import Conflict, IllegalMove

HUMAN = "S"
TEAM_OF = {"W": "EW", "E": "EW", "N": "NS", "S": "NS"}
SUIT_ORDER = "SHCD"  # the person's hand, by suit with colours alternating
SUIT_INDEX = {"C": 0, "D": 1, "H": 2, "S": 3}
CALL_PHASES = {"order": 1, "name": 2}  # the two rounds of naming trump


def decision_seed(seed: int, hand: int, move: int) -> int:
    """The bots' generator seed for move `move` of hand `hand` of the game `seed`."""
    return int(stream_seed(np.uint64(stream_seed(np.uint64(seed), PLAYER_SEED_BASE + hand)),
                           move))


class EuchreDealRecord:
    """A hand as stored: its dealer, the hands dealt, the upcard, the moves so far and the game
    score before it; `result` once it is over."""

    def __init__(self, number: int, dealer: str, hands: dict, upcard: str, moves: list[str],
                 score_before: dict):
        self.number = number
        self.dealer = dealer
        self.hands = hands
        self.upcard = upcard
        self.moves = moves
        self.score_before = score_before
        self.result: dict | None = None

    @property
    def setup(self) -> dict:
        """What the store keeps beside the dealer, hands and moves: the upcard."""
        return {"upcard": self.upcard}

    def replay_spec(self) -> dict:
        """The hand as `setback-cfr replay --game euchre` input."""
        return {"dealer": self.dealer, "hands": self.hands, "upcard": self.upcard,
                "moves": list(self.moves)}


class EuchreTable:
    """One Euchre game: its owner (`web.guard`), its hands (`records`, the last one being
    played), the game score, the status (`playing` or `over`), the winning team and a version
    counting the person's accepted moves (a stale tab is refused)."""

    game = "euchre"  # the registry's name, recorded with the game in the store

    def __init__(self, game_id: str, seed: int, bots, owner: str | None = None):
        self.id = game_id
        self.owner = owner
        self.seed = int(seed)
        self.bots = bots
        self.records: list[EuchreDealRecord] = []
        self.deal: Hand | None = None
        self.score = {"EW": 0, "NS": 0}
        self.status = "playing"
        self.winner: str | None = None
        self.version = 0
        # What the views share, replaced (never changed in place) when it changes: the events
        # of one request each carry a view, and all are written out at the end.
        self._history: list[dict] = []  # the finished hands' results
        self._calls: list[dict] = []  # this hand's naming of trump: seat, call, round
        self._done: list[dict] = []  # this hand's completed tricks, as the view shows them
        self._trick: dict | None = None  # the trick being played (or the last one)
        self._last_trick: dict | None = None  # the last trick before this hand's first
        self._moves: list[int] = []  # this hand's moves as engine integers (the bots' views)
        self._discard: str | None = None  # the dealer's discard (shown to South if South's)
        self._hand: tuple = (None, None, [])  # (South's card mask, trump, sorted hand)

    # --- starting and restoring -------------------------------------------------------
    @classmethod
    def new(cls, game_id: str, seed: int, bots,
            owner: str | None = None) -> tuple["EuchreTable", list[dict]]:
        """A new game of `owner`'s; returns it with the events of the bots' first moves."""
        table = cls(game_id, seed, bots, owner)
        events: list[dict] = []
        table._start_deal(SEAT_CHARS[FIRST_DEALER], events)
        table._advance(events)
        return table, events

    @classmethod
    def restore(cls, game_id: str, seed: int, bots, deals: list[dict],
                version: int, owner: str | None = None) -> "EuchreTable":
        """The game rebuilt from its stored hands (`{"dealer", "hands", "moves", "setup":
        {"upcard"}}` in order): every move replayed through the rules, the scores recomputed."""
        table = cls(game_id, seed, bots, owner)
        table.version = int(version)
        for stored in deals:
            table._open_deal(stored["dealer"], stored["hands"],
                             (stored.get("setup") or {}).get("upcard"))
            for token in stored["moves"]:
                table._apply(token)
            if table.deal.is_over:
                table._finish_deal(None)
        if table.status == "playing":
            if table.deal is None or table.deal.is_over:  # saved between two hands
                table._start_deal(table._next_dealer(), None)
            table._advance(None)
        return table

    # --- the person's move ------------------------------------------------------------
    def play(self, token, version=None, seat=None) -> list[dict]:
        """Apply the person's move `token`, then the bots' replies; return the events.

        Refused (TableError, nothing changed): a seat other than South, a stale `version`, a
        finished game, a token that is not a legal move now.
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
            raise IllegalMove("'move' must be a card such as \"JD\", P (pass), a suit letter "
                              "C, D, H, S, alone or partner")
        try:
            _, phase = self._apply(token)
        except EuchreError as exc:
            raise IllegalMove(str(exc)) from None
        self.version += 1
        events = [self._move_event(HUMAN, phase, None)]
        self._advance(events)
        return events

    def hint(self) -> dict:
        """What the bots would play in the person's place, and why (`EuchreBots.decide`)."""
        if self.status != "playing" or self.deal.to_act != HUMAN:
            raise Conflict("there is no decision of yours to hint at now")
        _, explanation = self.bots.decide(self._seat_view(), self._decision_seed())
        return explanation

    # --- the game loop ----------------------------------------------------------------
    def _advance(self, events: list[dict] | None) -> None:
        """Let the bots play until it is South's turn or the game is over; hands that end are
        scored and the next one is dealt. `events` (if a list) receives what happened."""
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
            move, explanation = self.bots.decide(self._seat_view(), self._decision_seed())
            _, phase = self._apply(format_move(move))
            if events is not None:
                events.append(self._move_event(seat, phase, explanation))

    def _seat_view(self) -> SeatView:
        deal = self.deal
        return SeatView.of(deal.state, deal.dealer, (self.score["EW"], self.score["NS"]),
                           self._moves)

    def _decision_seed(self) -> int:
        return decision_seed(self.seed, len(self.records) - 1, len(self.deal.moves))

    def _next_dealer(self) -> str:
        return SEAT_CHARS[next_dealer(SEAT_CHARS.index(self.records[-1].dealer))]

    def _open_deal(self, dealer: str, hands: dict, upcard) -> EuchreDealRecord:
        record = EuchreDealRecord(len(self.records), dealer, hands, upcard, [],
                                  dict(self.score))
        self.deal = Hand(dealer, hands, upcard)
        record.upcard = self.deal.upcard
        self.records.append(record)
        if self._done:
            self._last_trick = self._done[-1]
        self._calls, self._done, self._trick, self._moves = [], [], None, []
        self._discard = None
        return record

    def _start_deal(self, dealer: str, events: list[dict] | None) -> None:
        hand = deal_hand(self.seed, len(self.records), dealer)
        hands = {hand.seat_letter(rel): format_cards(hand.state[DEALT + rel]) for rel in range(4)}
        self._open_deal(dealer, hands, hand.upcard)
        if events is not None:
            events.append({"type": "deal", "number": len(self.records) - 1, "dealer": dealer,
                           "view": self.view()})

    def _apply(self, token: str) -> tuple[str, str]:
        """Play `token` for the seat to act; return (that seat, the phase it moved in). A bad
        token raises `EuchreError` and changes nothing."""
        deal = self.deal
        seat, phase = deal.to_act, deal.phase
        move = parse_move(token, phase)
        deal.play(format_move(move))
        text = deal.moves[-1]
        self.records[-1].moves.append(text)
        self._moves = self._moves + [move]
        if phase in CALL_PHASES:
            self._calls = self._calls + [{"seat": seat, "call": text,
                                          "round": CALL_PHASES[phase]}]
        elif phase == "discard":
            self._discard = text
        elif phase in ("lead", "follow"):
            trick = self._trick if phase == "follow" else {"leader": seat, "cards": []}
            winner = deal.tricks[-1].winner
            self._trick = {"leader": trick["leader"], "winner": winner,
                           "cards": trick["cards"] + [{"seat": seat, "card": text}]}
            if winner is not None:
                self._done = self._done + [self._trick]
        return seat, phase

    def _finish_deal(self, events: list[dict] | None) -> None:
        deal, record = self.deal, self.records[-1]
        points = deal.points()
        for team in ("EW", "NS"):
            self.score[team] += points[team]
        won = deal.tricks_won()
        record.result = {"points": points, "tricks": {"NS": won["NS"], "EW": won["EW"]},
                         "maker": deal.maker, "trump": deal.trump, "alone": bool(deal.alone),
                         "score": dict(self.score)}
        self._history = self._history + [{"number": record.number, "dealer": record.dealer,
                                          **record.result}]
        winner = game_winner(self.score["EW"], self.score["NS"])
        if winner >= 0:
            self.status = "over"
            self.winner = ("EW", "NS")[winner]
        if events is not None:
            events.append({"type": "deal_over", "number": record.number, **record.result,
                           "view": self.view()})
            if self.status == "over":
                events.append({"type": "game_over", "winner": self.winner,
                               "score": dict(self.score), "view": self.view()})

    def _move_event(self, seat: str, phase: str, explanation: dict | None) -> dict:
        hidden = phase == "discard" and seat != HUMAN  # a bot dealer's discard is face down
        event = {"type": "move", "seat": seat, "phase": phase,
                 "move": None if hidden else self.deal.moves[-1]}
        if explanation is not None and not hidden:
            event["explain"] = explanation
        if phase in ("lead", "follow") and self._trick["winner"] is not None:
            event["trick_winner"] = self._trick["winner"]
        event["view"] = self.view()
        return event

    # --- what South sees --------------------------------------------------------------
    def view(self) -> dict:
        """The game from South's seat: scores, the hand's naming of trump and tricks, South's
        cards and legal moves (only on South's turn); nothing South may not see."""
        deal, record = self.deal, self.records[-1]
        to_act = deal.to_act
        maker, trump, alone = deal.maker, deal.trump, deal.alone
        out = int(deal.state[OUT])
        ordered = any(c["round"] == 1 and c["call"] != "P" for c in self._calls)
        if deal.phase == "order":
            upcard_status = "up"
        else:
            upcard_status = "taken" if ordered else "turned down"
        return {
            "game": self.id,
            "version": self.version,
            "status": self.status,
            "winner": self.winner,
            "score": dict(self.score),
            "target": 10,
            "deal": record.number,
            "dealer": record.dealer,
            "phase": deal.phase,
            "to_act": to_act,
            "upcard": deal.upcard,
            "upcard_status": upcard_status,
            "calls": self._calls,
            "stuck": deal.phase == "name" and to_act == record.dealer
            and "P" not in deal.legal_moves(),
            "trump": trump,
            "maker": maker,
            "alone": alone,
            "out": deal.seat_letter(out) if out >= 0 else None,
            "discard": self._discard if record.dealer == HUMAN else None,
            "hand": self._sorted_hand(),
            "legal": deal.legal_moves() if to_act == HUMAN else [],
            "held": {seat: bin(int(deal.state[HAND + deal.relative(seat)])).count("1")
                     for seat in SEAT_CHARS},
            "trick": self._trick,  # the trick being played, else the last one
            "tricks": self._done,
            "last_trick": self._done[-1] if self._done else self._last_trick,
            "tricks_done": len(self._done),
            "tricks_won": {"NS": sum(TEAM_OF[t["winner"]] == "NS" for t in self._done),
                           "EW": sum(TEAM_OF[t["winner"]] == "EW" for t in self._done)},
            "history": self._history,
        }

    def _sorted_hand(self) -> list[str]:
        """South's hand grouped by suit (trump first once named, the bowers at its top), high
        cards first."""
        deal = self.deal
        mask, trump = int(deal.state[HAND + deal.relative(HUMAN)]), deal.trump
        if self._hand[:2] != (mask, trump):
            order = (trump or "") + SUIT_ORDER.replace(trump or "", "")
            t = SUIT_INDEX[trump] if trump else -1

            def rank(text: str) -> tuple[int, int]:
                card = parse_card(text)
                if t < 0:
                    return order.index(text[1]), -card
                suit = "CDHS"[effective_suit(card, t)]
                return order.index(suit), -power(card, t, effective_suit(card, t))

            self._hand = (mask, trump, sorted(format_cards(mask), key=rank))
        return self._hand[2]

    def replay(self) -> dict:
        """The whole game as JSON: its seed, the final score and each hand as `replay --game
        euchre` input."""
        return {"game": self.id, "seed": self.seed, "bots": self.bots.spec, "rules": "euchre",
                "status": self.status, "winner": self.winner, "score": dict(self.score),
                "deals": [r.replay_spec() for r in self.records]}
