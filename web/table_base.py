"""What every web table does whatever its game: a person at South, bots at West, North and
East, one game to the game's target, and the bookkeeping around the rules.

`WebTable` keeps the game's seed, owner, deals (`records`), score, status and version; starts a
game (`new`) and rebuilds one from its stored moves (`restore`); checks and applies the
person's move (`play`), lets the bots play until it is South's turn again (`_advance`), scores
finished deals and ends the game; answers hints and the whole game's replay. A game's table
(`web.table.Table` for Setback, `web.euchre_table.EuchreTable`) brings its rules through
class attributes and a few hooks (dealing, applying a move, scoring a deal, the view).

A game is its seed and its moves: `restore` replays the stored moves of each deal, and the
bots' later moves are reseeded per decision (`decision_seed`), so a game resumed after a
restart goes on exactly as it would have.
"""

from __future__ import annotations

import numpy as np

from games.rng import stream_seed
from web.table_errors import Conflict, IllegalMove

HUMAN = "S"
TEAM_OF = {"W": "EW", "E": "EW", "N": "NS", "S": "NS"}
SUIT_ORDER = "SHCD"  # the person's hand, by suit with colours alternating


def decision_seed(seed: int, deal: int, move: int, player_seed_base: int) -> int:
    """The bots' generator seed for move `move` of deal `deal` of the game `seed`: the stream
    the game's tournament gives player `deal` (`player_seed_base + deal`), then its `move`th."""
    return int(stream_seed(np.uint64(stream_seed(np.uint64(seed), player_seed_base + deal)),
                           move))


class DealRecord:
    """A deal as stored: its dealer, the hands dealt, the moves so far and the game score
    before it (`{"EW": a, "NS": b}`); `result` once it is over. `setup` is what the store
    keeps beside them (None: nothing; a game with more public setup overrides it)."""

    setup = None

    def __init__(self, number: int, dealer: str, hands: dict, moves: list[str],
                 score_before: dict):
        self.number = number
        self.dealer = dealer
        self.hands = hands
        self.moves = moves
        self.score_before = score_before
        self.result: dict | None = None


class WebTable:
    """One game at a web table: its owner (`web.guard`; None for a game from before owners),
    its deals (`records`, the last one being played), the game score, the status (`playing`
    or `over`), the winning team and a version counting the person's accepted moves (the page
    sends it back, so a stale tab is refused).

    A game's subclass sets the class attributes below and implements `_deal_cards`,
    `_open_deal`, `_apply`, `_score_deal`, `_move_event`, `_seat_view`, `_sort_hand` and
    `_game_view`."""

    game = ""  # the registry's name, recorded with the game in the store
    rules_error: type = Exception  # what the rules raise for a move they refuse
    move_help = ""  # the refusal of an empty move: what a move looks like
    player_seed_base = 0  # the tournament's first player stream (`decision_seed`)
    seat_chars = "WNES"  # the rules' seat letters, by index
    first_dealer = 3  # the index of the first deal's dealer
    hand_field = 0  # the state's field of the first seat's hand (a bitmask per seat)
    replay_fields: dict = {}  # what the game's replay adds after its bots
    look = None  # how the game shows at the browser table: its `games/<game>/table_view.py`

    @staticmethod
    def format_move(move: int) -> str:
        """An engine move as the rules' text."""
        raise NotImplementedError

    @staticmethod
    def next_dealer(dealer: int) -> int:
        """The next deal's dealer (an index)."""
        raise NotImplementedError

    @staticmethod
    def game_winner(ew: int, ns: int) -> int:
        """0 (EW) or 1 (NS) once a team has won with these scores, else -1."""
        raise NotImplementedError

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
        self._done: list[dict] = []  # this deal's completed tricks, as the view shows them
        self._hand: tuple = (None, None, [])  # (South's card mask, trump, sorted hand)

    # --- starting and restoring ------------------------------------------------------
    @classmethod
    def new(cls, game_id: str, seed: int, bots, owner: str | None = None):
        """A new game of `owner`'s; returns it with the events of the bots' first moves."""
        table = cls(game_id, seed, bots, owner)
        events: list[dict] = []
        table._start_deal(cls.seat_chars[cls.first_dealer], events)
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
            raise IllegalMove(self.move_help)
        try:
            phase = self._apply(token)
        except self.rules_error as exc:
            raise IllegalMove(str(exc)) from None
        self.version += 1
        events = [self._shown_move(HUMAN, phase, None)]
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
            phase = self._apply(self.format_move(move))
            if events is not None:
                events.append(self._shown_move(seat, phase, explanation))

    def _decision_seed(self) -> int:
        return decision_seed(self.seed, len(self.records) - 1, len(self.deal.moves),
                             self.player_seed_base)

    def _next_dealer(self) -> str:
        seats = self.seat_chars
        return seats[self.next_dealer(seats.index(self.records[-1].dealer))]

    def _start_deal(self, dealer: str, events: list[dict] | None) -> None:
        """Deal the game's next deal (`_deal_cards`) and open it."""
        hands, setup = self._deal_cards(len(self.records), dealer)
        self._open_deal(dealer, hands, setup)
        if events is not None:
            events.append({"type": "deal", "number": len(self.records) - 1,
                           "dealer": dealer, "view": self.view()})

    def _finish_deal(self, events: list[dict] | None) -> None:
        """Score the deal that just ended (`_score_deal`), and end the game if a team won."""
        record = self.records[-1]
        record.result = self._score_deal()
        self._history = self._history + [{"number": record.number, "dealer": record.dealer,
                                          **record.result}]
        winner = self.game_winner(self.score["EW"], self.score["NS"])
        if winner >= 0:
            self.status = "over"
            self.winner = ("EW", "NS")[winner]
        if events is not None:
            events.append({"type": "deal_over", "number": record.number, **record.result,
                           "show": self.look.deal_over(record.result), "view": self.view()})
            if self.status == "over":
                events.append({"type": "game_over", "winner": self.winner,
                               "score": dict(self.score), "view": self.view()})

    # --- the game's hooks ------------------------------------------------------------
    def _deal_cards(self, number: int, dealer: str) -> tuple[dict, dict | None]:
        """(hands by seat letter, setup) of deal `number` of this game's seed."""
        raise NotImplementedError

    def _open_deal(self, dealer: str, hands: dict, setup: dict | None) -> DealRecord:
        """Start playing a deal with these hands: its record appended, the deal's state
        reset."""
        raise NotImplementedError

    def _apply(self, token: str) -> str:
        """Play `token` for the seat to act and record it; return the move's phase (for its
        event). A bad token raises `rules_error` and changes nothing."""
        raise NotImplementedError

    def _score_deal(self) -> dict:
        """Add the deal that just ended to the score; return its result (`record.result`)."""
        raise NotImplementedError

    def _move_event(self, seat: str, phase: str, explanation: dict | None) -> dict:
        """The event of the move just made by `seat`."""
        raise NotImplementedError

    def _seat_view(self):
        """The seat to act's view of the deal, as the bots read it."""
        raise NotImplementedError

    def _sort_hand(self, mask: int, trump: str | None) -> list[str]:
        """South's cards (`mask`) in the order the page shows them."""
        raise NotImplementedError

    # --- what South sees -------------------------------------------------------------
    def view(self) -> dict:
        """Everything the person at South may see, as JSON-ready data (`_game_view`), with
        what the page draws of it (`show`: the game's `look.show`)."""
        view = self._game_view()
        view["show"] = self.look.show(view)
        return view

    def _game_view(self) -> dict:
        """The game's view for South, without `show`."""
        raise NotImplementedError

    def _shown_move(self, seat: str, phase: str, explanation: dict | None) -> dict:
        """The event of the move just made (`_move_event`) with the page's words: the Why
        panel's `title` (None: leave it) and the explanation's move texts."""
        event = self._move_event(seat, phase, explanation)
        event["title"] = self.look.move_title(event)
        if event.get("explain") is not None:
            event["explain"] = self._with_texts(event["explain"], phase)
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

    def _view_head(self) -> dict:
        """What every game's view starts with: the game, its version, status and score."""
        return {"game": self.id, "version": self.version, "status": self.status,
                "winner": self.winner, "score": dict(self.score)}

    def _sorted_hand(self) -> list[str]:
        """South's hand as the page shows it (`_sort_hand`), sorted again only when it or
        trump changed."""
        deal = self.deal
        mask, trump = int(deal.state[self.hand_field + deal.relative(HUMAN)]), deal.trump
        if self._hand[:2] != (mask, trump):
            self._hand = (mask, trump, self._sort_hand(mask, trump))
        return self._hand[2]

    def replay(self) -> dict:
        """The whole game as JSON: its seed, the final score and each deal as `replay`
        input."""
        return {"game": self.id, "seed": self.seed, "bots": self.bots.spec,
                **self.replay_fields, "status": self.status, "winner": self.winner,
                "score": dict(self.score), "deals": [r.replay_spec() for r in self.records]}
