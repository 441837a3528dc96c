"""The one web table every game is played at: a person at South, bots at West, North and East,
one game to the game's target, and the bookkeeping around the rules.

`WebTable` keeps the game's seed, owner, deals (`records`), score, status and version; starts a
game (`new`) and rebuilds one from its stored moves (`restore`); checks and applies the
person's move (`play`), lets the bots play until it is South's turn again (`_advance`), scores
finished deals and ends the game; answers hints and the whole game's replay; and builds the
view South sees. What is a game's own it reads from the game's declaration, its
`games/<game>/table_view.py` (`look`): the hand's face (`Face`: the rules, dealt with
`Face.random`), how a stored hand opens (`open_hand`, `setup_of`), the deal's result and the
score it adds (`result`), the view's fields of its own (`view_fields`), the order of South's
cards (`sort_key`), who deals first and next, when a team has won, which bots' moves stay face
down, and how it shows (`show`, `deal_over`, `move_title`, `move_text`). `table_for(look)` is
the game's table class.

The game follows the game's tournament: deal k of the game `seed` is the face dealt from
`stream_seed(seed, k)` (the same cards as deal k of a tournament game with that seed), and
every deal is played to its last card (a person expects to play out the hand). A game is its
seed and its moves: `restore` replays the stored moves of each deal, and the bots' later moves
are reseeded per decision (`decision_seed`), so a game resumed after a restart goes on exactly
as it would have. The game never waits on a bot: after each of the person's moves the bots
play until it is South's turn again, and the moves come back as events for the page.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from games.rng import stream_seed
from play.tournament import PLAYER_SEED_BASE
from web.table_errors import Conflict, IllegalMove

HUMAN = "S"
SEAT_CHARS = "WNES"
TEAM_OF = {"W": "EW", "E": "EW", "N": "NS", "S": "NS"}
SUIT_ORDER = "SHCD"  # the person's hand, by suit with colours alternating
CARD_PHASES = ("lead", "follow")


def decision_seed(seed: int, deal: int, move: int, player_seed_base: int) -> int:
    """The bots' generator seed for move `move` of deal `deal` of the game `seed`: the stream
    the game's tournament gives player `deal` (`player_seed_base + deal`), then its `move`th."""
    return int(stream_seed(np.uint64(stream_seed(np.uint64(seed), player_seed_base + deal)),
                           move))


class DealRecord:
    """A deal as stored: its dealer, the hands dealt, the moves so far, the game score before
    it (`{"EW": a, "NS": b}`) and `setup`, what the store keeps beside them (None: nothing;
    a card turned up: it); `result` once it is over."""

    def __init__(self, number: int, dealer: str, hands: dict, moves: list[str],
                 score_before: dict, setup: dict | None, with_score: bool):
        self.number = number
        self.dealer = dealer
        self.hands = hands
        self.moves = moves
        self.score_before = score_before
        self.setup = setup
        self.with_score = with_score  # the game's replay reads the score before the deal
        self.result: dict | None = None

    def replay_spec(self) -> dict:
        """The deal as `setback-cfr replay --game G` input."""
        spec = {"dealer": self.dealer, "hands": self.hands, **(self.setup or {}),
                "moves": list(self.moves)}
        if self.with_score:
            spec["score"] = dict(self.score_before)
        return spec


class WebTable:
    """One game at a web table: its owner (`web.guard`; None for a game from before owners),
    its deals (`records`, the last one being played), the game score, the status (`playing`
    or `over`), the winning team and a version counting the person's accepted moves (the page
    sends it back, so a stale tab is refused). `look` is the game's declaration (module
    docstring); `table_for(look)` makes the game's class."""

    look = None

    def __init__(self, game_id: str, seed: int, bots, owner: str | None = None):
        self.id = game_id
        self.owner = owner
        self.seed = int(seed)
        self.bots = bots
        self.records: list[DealRecord] = []
        self.deal = None
        self.score = {"EW": 0, "NS": 0}
        self.status = "playing"
        self.winner: str | None = None
        self.version = 0
        # What the views share, replaced (never changed in place) when it changes: the events
        # of one request each carry a view, and all are written out at the end.
        self._history: list[dict] = []  # the finished deals' results
        self._log: list[dict] = []  # this deal's moves: seat, phase, move
        self._trick: dict | None = None  # the trick being played, else this deal's last
        self._done: list[dict] = []  # this deal's completed tricks, as the view shows them
        self._last_trick: dict | None = None  # the deal before's last trick (`look`'s choice)
        self._hand: tuple = (None, None, [])  # (South's card mask, trump, sorted hand)

    @property
    def game(self) -> str:
        """The registry's name, recorded with the game in the store."""
        return self.look.PAGE["name"]

    # --- starting and restoring ------------------------------------------------------
    @classmethod
    def new(cls, game_id: str, seed: int, bots, owner: str | None = None):
        """A new game of `owner`'s; returns it with the events of the bots' first moves."""
        table = cls(game_id, seed, bots, owner)
        events: list[dict] = []
        table._start_deal(SEAT_CHARS[cls.look.FIRST_DEALER], events)
        table._advance(events)
        return table, events

    @classmethod
    def restore(cls, game_id: str, seed: int, bots, deals: list[dict],
                version: int, owner: str | None = None):
        """The game rebuilt from its stored deals (`{"dealer", "hands", "moves", "setup"?}` in
        order): every move replayed through the rules, the scores recomputed."""
        table = cls(game_id, seed, bots, owner)
        table.version = int(version)
        for stored in deals:
            table._open_deal(stored["dealer"], stored["hands"], stored.get("setup"))
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
            raise IllegalMove(self.look.MOVE_HELP)
        try:
            phase = self._apply(token)
        except self.look.Face.error as exc:
            raise IllegalMove(str(exc)) from None
        self.version += 1
        events = [self._move_event(HUMAN, phase, None)]
        self._advance(events)
        return events

    def hint(self) -> dict:
        """What the bots would play in the person's place, and why (`Bots.decide`)."""
        if self.status != "playing" or self.deal.to_act != HUMAN:
            raise Conflict("there is no decision of yours to hint at now")
        _, explanation = self.bots.decide(self._seat_view(), self._decision_seed())
        return self._with_texts(explanation, self.deal.phase)

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
            move, explanation = self.bots.decide(self._seat_view(), self._decision_seed())
            phase = self._apply(deal.format_move(move))
            if events is not None:
                events.append(self._move_event(seat, phase, explanation))

    def _decision_seed(self) -> int:
        return decision_seed(self.seed, len(self.records) - 1, len(self.deal.moves),
                             PLAYER_SEED_BASE)

    def _seat_view(self):
        """The seat to act's view of the deal, as the bots read it."""
        deal = self.deal
        return self.look.SeatView.of(deal.state, deal.dealer,
                                     (self.score["EW"], self.score["NS"]), deal.history)

    def _next_dealer(self) -> str:
        return SEAT_CHARS[int(self.look.next_dealer(SEAT_CHARS.index(self.records[-1].dealer)))]

    def _start_deal(self, dealer: str, events: list[dict] | None) -> None:
        """Deal the game's next deal (the tournament's cards) and open it."""
        dealt = self.look.Face.random(int(stream_seed(np.uint64(self.seed), len(self.records))),
                                      dealer)
        hands = {seat: dealt.hand(seat) for seat in SEAT_CHARS}
        self._open_deal(dealer, hands, self.look.setup_of(dealt))
        if events is not None:
            events.append({"type": "deal", "number": len(self.records) - 1,
                           "dealer": dealer, "view": self.view()})

    def _open_deal(self, dealer: str, hands: dict, setup: dict | None) -> None:
        """Start playing a deal with these hands: its record appended, the deal's state
        reset."""
        self.deal = self.look.open_hand(dealer, hands, setup, dict(self.score))
        self.records.append(DealRecord(len(self.records), dealer, hands, [], dict(self.score),
                                       self.look.setup_of(self.deal), self.look.REPLAY_SCORE))
        if self._done and self.look.LAST_TRICK_CARRIES:
            self._last_trick = self._done[-1]
        self._log, self._trick, self._done = [], None, []

    def _apply(self, token: str) -> str:
        """Play `token` for the seat to act and record it; return the move's phase. A bad
        token raises the rules' error and changes nothing."""
        deal = self.deal
        seat, phase = deal.to_act, deal.phase
        deal.play(token)  # parses and checks the move (the game's error, nothing changed)
        text = deal.moves[-1]
        self.records[-1].moves.append(text)
        self._log = self._log + [{"seat": seat, "phase": phase, "move": text}]
        if phase in CARD_PHASES:  # the trick as the view shows it: each card with its seat
            cards = self._trick["cards"] if phase == "follow" else []
            self._trick = {"leader": seat if phase == "lead" else self._trick["leader"],
                           "winner": deal.tricks[-1].winner,
                           "cards": cards + [{"seat": seat, "card": text}]}
            if self._trick["winner"] is not None:
                self._done = self._done + [self._trick]
        return phase

    def _finish_deal(self, events: list[dict] | None) -> None:
        """Score the deal that just ended (`look.result`), and end the game if a team won."""
        record = self.records[-1]
        gains, result = self.look.result(self.deal, record.score_before)
        for team in ("EW", "NS"):
            self.score[team] += gains[team]
        record.result = {**result, "score": dict(self.score)}
        self._history = self._history + [{"number": record.number, "dealer": record.dealer,
                                          **record.result}]
        winner = int(self.look.game_winner(self.score["EW"], self.score["NS"]))
        if winner >= 0:
            self.status = "over"
            self.winner = ("EW", "NS")[winner]
        if events is not None:
            events.append({"type": "deal_over", "number": record.number, **record.result,
                           "show": self.look.deal_over(record.result), "view": self.view()})
            if self.status == "over":
                events.append({"type": "game_over", "winner": self.winner,
                               "score": dict(self.score), "view": self.view()})

    def _move_event(self, seat: str, phase: str, explanation: dict | None) -> dict:
        """The event of the move just made by `seat` in `phase`: the move (None: a bot's move
        the game keeps face down), the bot's explanation with the page's words for its moves,
        the trick's winner once it is complete, the Why panel's `title`, the view."""
        hidden = phase in self.look.HIDDEN_PHASES and seat != HUMAN
        event = {"type": "move", "seat": seat,
                 "phase": self.look.EVENT_PHASES.get(phase, phase),
                 "move": None if hidden else self.deal.moves[-1]}
        if explanation is not None and not hidden:
            event["explain"] = self._with_texts(explanation, phase)
        if phase in CARD_PHASES and self._trick["winner"] is not None:
            event["trick_winner"] = self._trick["winner"]
        event["title"] = self.look.move_title(event)
        event["view"] = self.view()
        return event

    def _with_texts(self, explanation: dict, phase: str) -> dict:
        """A copy of a bot's `explanation` with `move_texts`: each move it names (the move,
        the actions', the searched moves', the belief's cards) as the page writes it."""
        moves = [explanation.get("move")]
        moves += [a.get("move") for a in explanation.get("actions") or []]
        moves += [s.get("move") for s in explanation.get("searched") or []]
        moves += [b.get("card") for b in explanation.get("belief") or []]
        texts = {m: self.look.move_text(m, phase) for m in moves if isinstance(m, str)}
        return {**explanation, "move_texts": texts}

    # --- what South sees -------------------------------------------------------------
    def view(self) -> dict:
        """Everything the person at South may see, as JSON-ready data: the game's head, the
        deal's public state, South's cards and legal moves (only on South's turn), how many
        cards each seat holds, the trick on the table and the last one, the deals' results,
        the game's own fields (`look.view_fields`) and what the page draws of it all
        (`show`: `look.show`). Nothing South may not see."""
        deal, record = self.deal, self.records[-1]
        to_act = deal.to_act
        hand_field = deal.engine_state.HAND
        view = {"game": self.id, "version": self.version, "status": self.status,
                "winner": self.winner, "score": dict(self.score),
                "deal": record.number, "dealer": record.dealer, "phase": deal.phase,
                "to_act": to_act, "trump": deal.trump, "hand": self._sorted_hand(),
                "legal": deal.legal_moves() if to_act == HUMAN else [],
                "held": {seat: bin(int(deal.state[hand_field + deal.relative(seat)])).count("1")
                         for seat in SEAT_CHARS},
                "trick": self._trick,  # the trick being played, else the last one
                "last_trick": self._done[-1] if self._done else self._last_trick,
                "tricks_done": len(self._done), "history": self._history,
                **self.look.view_fields(deal, record, self._log, self._done)}
        view["show"] = self.look.show(view)
        return view

    def _sorted_hand(self) -> list[str]:
        """South's hand as the page shows it (`look.sort_key`), sorted again only when it or
        trump changed."""
        deal = self.deal
        mask = int(deal.state[deal.engine_state.HAND + deal.relative(HUMAN)])
        trump = deal.trump
        if self._hand[:2] != (mask, trump):
            self._hand = (mask, trump, sorted(deal.hand(HUMAN), key=self.look.sort_key(trump)))
        return self._hand[2]

    def replay(self) -> dict:
        """The whole game as JSON: its seed, the final score and each deal as `replay`
        input."""
        return {"game": self.id, "seed": self.seed, "bots": self.bots.spec,
                **self.look.REPLAY_FIELDS, "status": self.status, "winner": self.winner,
                "score": dict(self.score), "deals": [r.replay_spec() for r in self.records]}


@lru_cache(maxsize=None)
def table_for(look) -> type:
    """The web table class of the game declared by the module `look` (its table_view.py)."""
    name = look.PAGE["name"].capitalize() + "Table"
    return type(name, (WebTable,), {"look": look, "__doc__": f"{WebTable.__doc__}"})
