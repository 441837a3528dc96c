"""One Spades game to 500 at a web table: a person at South, bots at West, North and East.

The game follows `games.spades.match.play_game` (what tournaments play): West deals first (so
North bids and leads first, as in OpenSpiel), the deal passes left, hand k of the game `seed` is
dealt from `stream_seed(seed, k)` (the same cards as hand k of a tournament game with that
seed), every hand starts from the game score before it (OpenSpiel reads a team's bags from its
last digit), and `scoring.game_winner` says when a team has 500 and leads, or has fallen to
-350 behind (the mercy rule). After each of the person's moves the bots play until it is
South's turn again or the game is over; the moves come back as events.

In Spades every bid and card is public, so the view hides the other hands only. A finished
hand's replay (`replay_spec`, what `setback-cfr replay --game spades` reads) shows everything,
the game score before it included. A game is its seed and its moves (`web.table_base`).
"""

from __future__ import annotations

from games.rng import stream_seed
from games.scaffold.table import SEAT_CHARS, next_dealer
from games.spades import state as S
from games.spades.api import Hand, format_move
from games.spades.cards import format_cards, parse_card
from games.spades.errors import SpadesError
from games.spades.random_play import FIRST_DEALER
from games.spades.scoring import TARGET, bags_so_far, game_winner
from games.spades.view import SeatView
from play.tournament import PLAYER_SEED_BASE
from games.spades import table_view
from web.table_base import HUMAN, SUIT_ORDER, TEAM_OF, DealRecord, WebTable

TEAMS = ("NS", "EW")


class SpadesDealRecord(DealRecord):
    """A hand as stored (`web.table_base.DealRecord`); its replay carries the score before it."""

    def replay_spec(self) -> dict:
        """The hand as `setback-cfr replay --game spades` input."""
        return {"dealer": self.dealer, "hands": self.hands, "moves": list(self.moves),
                "score": dict(self.score_before)}


class SpadesTable(WebTable):
    """One Spades game (`WebTable`); this class brings Spades' rules, hands, scoring and
    view."""

    game = "spades"
    rules_error = SpadesError
    move_help = "'move' must be a card such as \"TS\" or a bid: Nil or 1..13"
    player_seed_base = PLAYER_SEED_BASE
    seat_chars = SEAT_CHARS
    first_dealer = FIRST_DEALER
    hand_field = S.HAND
    look = table_view
    replay_fields = {"rules": "spades"}
    format_move = staticmethod(format_move)
    next_dealer = staticmethod(next_dealer)

    @staticmethod
    def game_winner(ew: int, ns: int) -> int:
        """0 (EW) or 1 (NS) once a team has won, else -1 (`scoring.game_winner`)."""
        return int(game_winner(ew, ns))

    def __init__(self, game_id: str, seed: int, bots, owner: str | None = None):
        super().__init__(game_id, seed, bots, owner)
        self._moves: list[int] = []  # this hand's moves as engine integers (the bots' views)
        self._last_trick: dict | None = None  # the last trick of the hand before

    # --- the game's hooks -------------------------------------------------------------
    def _deal_cards(self, number: int, dealer: str) -> tuple[dict, None]:
        dealt = Hand.random(int(stream_seed(self.seed, number)), dealer)
        return {dealt.seat_letter(rel): format_cards(dealt.state[S.DEALT + rel])
                for rel in range(4)}, None

    def _open_deal(self, dealer: str, hands: dict, setup: dict | None) -> SpadesDealRecord:
        record = SpadesDealRecord(len(self.records), dealer, hands, [], dict(self.score))
        self.deal = Hand(dealer, hands, dict(self.score))
        if self.records and self._done:
            self._last_trick = self._done[-1]
        self.records.append(record)
        self._done, self._moves = [], []
        return record

    def _apply(self, token: str) -> str:
        deal = self.deal
        phase = deal.phase
        deal.play(token)  # parses and checks the move (SpadesError, nothing changed)
        text = deal.moves[-1]
        self.records[-1].moves.append(text)
        self._moves = self._moves + [deal.parse_move(text, phase)]
        if phase != "bid" and deal.tricks[-1].winner is not None:
            self._done = self._done + [self._trick(len(deal.tricks) - 1)]
        return phase

    def _trick(self, index: int) -> dict:
        """Trick `index` of the hand as the view shows it: its leader, winner (None while it is
        played) and each card with its seat."""
        trick = self.deal.tricks[index]
        first = SEAT_CHARS.index(trick.leader)
        return {"leader": trick.leader, "winner": trick.winner,
                "cards": [{"seat": SEAT_CHARS[(first + i) % 4], "card": card}
                          for i, card in enumerate(trick.cards)]}

    def _score_deal(self) -> dict:
        deal = self.deal
        points = deal.scores()  # what the game score gains (contracts, Nil, bags)
        for team in TEAMS:
            self.score[team] += points[team]
        return {"points": points, "bids": deal.bids(), "taken": deal.tricks_won(),
                "tricks": self._team_tricks(), "contracts": self._contracts(),
                "bags": self._bags(), "score": dict(self.score)}

    def _move_event(self, seat: str, phase: str, explanation: dict | None) -> dict:
        event = {"type": "move", "seat": seat, "phase": phase, "move": self.deal.moves[-1]}
        if explanation is not None:
            event["explain"] = explanation
        if phase != "bid" and self.deal.tricks[-1].winner is not None:
            event["trick_winner"] = self.deal.tricks[-1].winner
        event["view"] = self.view()
        return event

    def _seat_view(self) -> SeatView:
        deal = self.deal
        return SeatView.of(deal.state, deal.dealer, (self.score["EW"], self.score["NS"]),
                           self._moves)

    def _sort_hand(self, mask: int, trump: str | None) -> list[str]:
        """South's hand by suit, spades (always trump) first, colours alternating, high
        cards first."""
        return sorted(format_cards(mask), key=lambda c: (SUIT_ORDER.index(c[1]),
                                                         -parse_card(c)))

    # --- the hand's public figures -----------------------------------------------------
    def _team_tricks(self) -> dict:
        taken = self.deal.tricks_won()
        return {team: sum(n for seat, n in taken.items() if TEAM_OF[seat] == team)
                for team in TEAMS}

    def _contracts(self) -> dict:
        """Each team's contract so far: its bids' sum (a Nil counts 0), None before either
        seat of the team has bid."""
        out = {}
        for team in TEAMS:
            bids = [int(b) for s, b in self.deal.bids().items()
                    if TEAM_OF[s] == team and b != "Nil"]
            made = [s for s in self.deal.bids() if TEAM_OF[s] == team]
            out[team] = sum(bids) if made else None
        return out

    def _bags(self) -> dict:
        """Each team's bags before this hand as OpenSpiel counts them: its game score's last
        digit (negative at a negative score: `scoring.bags_so_far`)."""
        return {team: int(bags_so_far(self.records[-1].score_before[team])) for team in TEAMS}

    # --- what South sees --------------------------------------------------------------
    def _game_view(self) -> dict:
        """The game from South's seat: scores and bags, the bids, contracts and tricks taken,
        the trick on the table, South's cards and legal moves (only on South's turn); nothing
        of the other hands but their sizes."""
        deal, record = self.deal, self.records[-1]
        to_act = deal.to_act
        bids = deal.bids()
        current = self._trick(len(deal.tricks) - 1) if deal.tricks else None
        return {
            **self._view_head(),
            "target": TARGET,
            "deal": record.number,
            "dealer": record.dealer,
            "phase": deal.phase,
            "to_act": to_act,
            "trump": "S",
            "bids": [{"seat": seat, "bid": bid} for seat, bid in bids.items()],
            "contracts": self._contracts(),
            "bags": self._bags(),
            "taken": deal.tricks_won(),
            "tricks_won": self._team_tricks(),
            "hand": self._sorted_hand(),
            "legal": deal.legal_moves() if to_act == HUMAN else [],
            "held": {seat: bin(int(deal.state[S.HAND + deal.relative(seat)])).count("1")
                     for seat in SEAT_CHARS},
            "trick": current,  # the trick being played, else the last one
            "tricks": self._done,
            "last_trick": self._done[-1] if self._done else self._last_trick,
            "tricks_done": len(self._done),
            "history": self._history,
        }
