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

A game is its seed and its moves (`web.table_base.WebTable`, which keeps the bookkeeping every
web game shares and the interface `web.app` serves): `restore` replays the stored moves of each
hand, and the bots' later moves are reseeded per decision, so a game resumed after a restart
goes on exactly as it would have.
"""

from __future__ import annotations

from games.euchre.api import Hand, format_move, parse_move
from games.euchre.cards import SEAT_CHARS, effective_suit, format_cards, parse_card, power
from games.euchre.errors import EuchreError
from games.euchre.game import FIRST_DEALER, game_winner, next_dealer
from games.euchre.match import deal_hand
from games.euchre.state import DEALT, HAND, OUT
from games.euchre.view import SeatView
from play.euchre_tournament import PLAYER_SEED_BASE
from games.euchre import table_view
from web.table_base import HUMAN, SUIT_ORDER, TEAM_OF, DealRecord, WebTable

SUIT_INDEX = {"C": 0, "D": 1, "H": 2, "S": 3}
CALL_PHASES = {"order": 1, "name": 2}  # the two rounds of naming trump


class EuchreDealRecord(DealRecord):
    """A hand as stored (`web.table_base.DealRecord`) with its upcard, the setup the store
    keeps beside the dealer, hands and moves."""

    def __init__(self, number: int, dealer: str, hands: dict, upcard: str, moves: list[str],
                 score_before: dict):
        super().__init__(number, dealer, hands, moves, score_before)
        self.upcard = upcard

    @property
    def setup(self) -> dict:
        """What the store keeps beside the dealer, hands and moves: the upcard."""
        return {"upcard": self.upcard}

    def replay_spec(self) -> dict:
        """The hand as `setback-cfr replay --game euchre` input."""
        return {"dealer": self.dealer, "hands": self.hands, "upcard": self.upcard,
                "moves": list(self.moves)}


class EuchreTable(WebTable):
    """One Euchre game (`WebTable`: its owner, hands, score, status, winner and version); this
    class brings Euchre's rules, hands, scoring and view."""

    game = "euchre"  # the registry's name, recorded with the game in the store
    rules_error = EuchreError
    move_help = ("'move' must be a card such as \"JD\", P (pass), a suit letter C, D, H, S, "
                 "alone or partner")
    player_seed_base = PLAYER_SEED_BASE
    seat_chars = SEAT_CHARS
    first_dealer = FIRST_DEALER
    hand_field = HAND
    look = table_view
    replay_fields = {"rules": "euchre"}
    format_move = staticmethod(format_move)
    next_dealer = staticmethod(next_dealer)
    game_winner = staticmethod(game_winner)

    def __init__(self, game_id: str, seed: int, bots, owner: str | None = None):
        super().__init__(game_id, seed, bots, owner)
        self._calls: list[dict] = []  # this hand's naming of trump: seat, call, round
        self._trick: dict | None = None  # the trick being played (or the last one)
        self._last_trick: dict | None = None  # the last trick before this hand's first
        self._moves: list[int] = []  # this hand's moves as engine integers (the bots' views)
        self._discard: str | None = None  # the dealer's discard (shown to South if South's)

    # --- the game's hooks -------------------------------------------------------------
    def _deal_cards(self, number: int, dealer: str) -> tuple[dict, dict]:
        hand = deal_hand(self.seed, number, dealer)
        hands = {hand.seat_letter(rel): format_cards(hand.state[DEALT + rel]) for rel in range(4)}
        return hands, {"upcard": hand.upcard}

    def _seat_view(self) -> SeatView:
        deal = self.deal
        return SeatView.of(deal.state, deal.dealer, (self.score["EW"], self.score["NS"]),
                           self._moves)

    def _open_deal(self, dealer: str, hands: dict, setup: dict | None) -> EuchreDealRecord:
        upcard = (setup or {}).get("upcard")
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

    def _apply(self, token: str) -> str:
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
        return phase

    def _score_deal(self) -> dict:
        deal = self.deal
        points = deal.points()
        for team in ("EW", "NS"):
            self.score[team] += points[team]
        won = deal.tricks_won()
        return {"points": points, "tricks": {"NS": won["NS"], "EW": won["EW"]},
                "maker": deal.maker, "trump": deal.trump, "alone": bool(deal.alone),
                "score": dict(self.score)}

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
    def _game_view(self) -> dict:
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
            **self._view_head(),
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

    def _sort_hand(self, mask: int, trump: str | None) -> list[str]:
        """South's hand grouped by suit (trump first once named, the bowers at its top), high
        cards first."""
        order = (trump or "") + SUIT_ORDER.replace(trump or "", "")
        t = SUIT_INDEX[trump] if trump else -1

        def rank(text: str) -> tuple[int, int]:
            card = parse_card(text)
            if t < 0:
                return order.index(text[1]), -card
            suit = "CDHS"[effective_suit(card, t)]
            return order.index(suit), -power(card, t, effective_suit(card, t))

        return sorted(format_cards(mask), key=rank)
