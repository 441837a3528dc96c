"""One seat's position, as a program outside sends it: the replay JSON of a deal so far with
only the hand of the seat to act (`POST /api/decide`, `setback-cfr decide`), read once for
every game that offers it, each game declaring its parts (its `games/<game>/table_view.py`:
the hand's `Face` and `SeatView`, how a position's state starts, its score and hand are read,
the words of its examples; its `public.py`: the voids its moves show, the world sampler's).

    {"dealer": "S", "score": {"EW": 3, "NS": 5},            # score optional (0-0)
     "hands": {"N": ["QH", "TH", "5D", "9C", "4S", "8C"]},  # as dealt: the seat to act only
     "moves": ["3", "P", "P", "P", "AS", "4S", "TS"]}

The moves are replayed on the engine with the other seats' hands unknown: a card another seat
plays is given to it as it is played. Every move is checked as the rules check it where the
rules can see it (every bid, the seat's own cards: legal, from its hand); another seat's card
must be one nobody has played and the seat to act does not hold, of no suit that seat has
shown it lacks (the engine's `SHOWN_VOIDS` and the game's `public.replay_public`: a lead the
rules allow only from a hand of trumps), nor one the public facts place elsewhere (the world
sampler's constraints: a card turned up and taken is its taker's), and once replayed some
layout of the unseen cards must fit every hand size and void (`layout_exists`: Hall's condition
on those constraints). Those are exactly the conditions under which some deal of the full rules
makes these moves.

Where a game's position has more, it declares it: fields beside the hands (`SETUP_FIELDS`,
read by its `read_setup` into its `start_state`'s last argument: a card turned up), a phase
whose move only its maker sees (`HIDDEN_PHASES`: the other seats write it `"?"`, replayed by
its `apply_hidden`, which returns what their history holds), and the suit a card follows in a
state when that is not its printed suit (`effective_suit_in`: a bower; by default a 52-card
deck's `card // 13`).

The result is the `SeatView` the seat would get in a real game: the same key, the same legal
moves, the same history. What a view cannot know the game zeroes (`HIDDEN_FIELDS`: a flag that
depends on the hidden hands); no other seat's hand is known.
"""

from __future__ import annotations

from functools import lru_cache, partial

import numpy as np

from games.scaffold.table import SEAT_CHARS, parse_seat
from web.position_checks import (HIDDEN_TOKEN, NO_LAYOUT, check_fields, check_seat,
                                  decision_reply, hall, shown_hand)

SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
MAX_PARSED = 10_000  # the parsed tokens kept (valid ones only; a bound on a request's junk)


class PositionError(ValueError):
    """A position no deal can reach, or one that shows too little or too much; one line. Each
    game's reader raises a subclass that is also the game's rules error (`Reader.error`)."""


class Reader:
    """The position reader of one game, from its declaration `look` (module docstring)."""

    def __init__(self, look):
        self.look = look
        self.face = look.Face
        self.rules = look.Face.engine_rules
        self.S = look.Face.engine_state
        self.public = look.public
        self.words = look.POSITION
        self.error = type("PositionError", (PositionError, look.Face.error), {})
        self._parsed: dict = {}  # (token, kind) -> engine move, for the tokens seen
        # optional hooks: the position's fields beyond the four every game has (a card
        # turned up), and a card's suit in a state where it is not its printed one (a bower)
        self.setup_fields = getattr(look, "SETUP_FIELDS", ())
        self.effective_suit = getattr(look, "effective_suit_in", None)

    def view(self, spec):
        """(the view of the seat to act, that seat's letter) for the position `spec`; bad
        input raises `self.error` naming the problem."""
        error, S, words = self.error, self.S, self.words
        check_fields(spec, error, self.setup_fields)
        dealer = parse_seat(spec["dealer"], error)
        try:
            score = self.look.read_score(spec.get("score"))  # by absolute team: EW, NS
        except self.face.error as exc:
            raise error(str(exc)) from None
        letter, hand = self._hand(spec["hands"])
        moves = spec["moves"]
        if not isinstance(moves, list):
            raise error(f"'moves' must be a list such as {words['moves']}")
        own = (SEAT_CHARS.index(letter) - dealer) % 4 if letter else -1
        hands = np.zeros(4, dtype=np.int64)
        if own >= 0:
            hands[own] = hand
        state = self.look.start_state(hands, score, dealer, *self._setup(spec, hand))
        history: list[int] = []
        cards: list[tuple] = []  # another seat's cards: (index, token, seat, suit)
        known: list = []  # the public facts of where cards are (`_check_known`), once
        noun = self.face.noun
        for index, token in enumerate(moves):
            try:
                if not isinstance(token, (str, int)) or isinstance(token, bool):
                    raise error(f"move {index} ({token!r}): a move is a string such as "
                                f"{words['tokens']}")
                if int(state[S.PHASE]) == S.PHASE_OVER:
                    raise error(f"move {index} ({token!r}): the {noun} is already over")
                try:
                    history.append(self._replay_move(state, str(token), own, dealer,
                                                     (index, token), cards, known))
                except self.face.error as exc:
                    raise error(f"move {index} ({token!r}): {exc}") from None
            except PositionError:
                self._extra_voids(state, history, cards, dealer)  # an earlier refusal first
                raise
        extra = self._extra_voids(state, history, cards, dealer)
        if int(state[S.PHASE]) == S.PHASE_OVER:
            raise error(f"the {noun} is over: there is no decision to make")
        to_act = SEAT_CHARS[(dealer + int(state[S.TO_ACT])) % 4]
        check_seat(letter, to_act, error, words["size"])
        if not layout_exists(state, own, self.public, extra):
            raise error(NO_LAYOUT)
        for field in self.look.HIDDEN_FIELDS:
            state[field] = 0
        return self.look.SeatView.of(state, dealer, (int(score[0]), int(score[1])),
                                     history), to_act

    def _hand(self, hands) -> tuple[str | None, int]:
        """(seat letter, card mask) of the one hand a position shows ((None, 0) when none)."""
        letter, cards = shown_hand(hands, self.error, self._seat, self.words["size"],
                                   self.words["hand"])
        if letter is None:
            return None, 0
        try:
            return letter, self.look.read_hand(letter, cards)
        except self.face.error as exc:
            raise self.error(str(exc)) from None

    def _setup(self, spec, hand: int) -> tuple:
        """The game's reading of the position's `SETUP_FIELDS` (`read_setup`: the shown
        `hand`'s mask beside them, for the duplicates), as the one extra argument of its
        `start_state`; nothing for a game that adds no field."""
        if not self.setup_fields:
            return ()
        try:
            return (self.look.read_setup({name: spec[name] for name in self.setup_fields},
                                         hand),)
        except self.face.error as exc:
            raise self.error(str(exc)) from None

    def _seat(self, key) -> int:
        """The seat of a key of 'hands' (one line naming it if it is none)."""
        try:
            return parse_seat(key, self.error)
        except PositionError:
            raise self.error(f"unknown seat {key!r} in 'hands': expected W, N, E or S") \
                from None

    def _kind(self, state) -> str:
        """The phase's name as the rules' messages use it: a non-card phase's, lead, follow."""
        S = self.S
        phase = int(state[S.PHASE])
        if phase in self.face.PHASE_NAMES:
            return self.face.PHASE_NAMES[phase]
        return "lead" if state[S.N_IN_TRICK] == 0 else "follow"

    def _parse(self, token: str, kind: str) -> int:
        """The engine move of `token` in a phase of `kind` (the game's `parse_move`, which
        words the errors), remembered: a server reads the same tokens over and over."""
        move = self._parsed.get((token, kind))
        if move is None:
            move = int(self.face.parse_move(token, kind))
            if len(self._parsed) < MAX_PARSED:
                self._parsed[(token, kind)] = move
        return move

    def _extra_voids(self, state, history, cards, dealer: int) -> int:
        """The voids the moves of `history` show beyond the engine's (`public.replay_public`,
        4 bits a seat), once every card another seat played (`cards`) is checked against those
        its earlier moves showed: the first one a void forbids is refused. Replayed once for
        the whole history, again only for a card whose suit its seat shows it lacks in the
        end (no game's extra voids cost a replay a move)."""
        extra = int(self.public.replay_public(state, history)[1])
        for index, token, seat, suit in cards:
            bit = 1 << (4 * seat + suit)
            if extra & bit and int(self.public.replay_public(state, history[:index])[1]) & bit:
                raise self.error(f"move {index} ({token!r}): {SEAT_CHARS[(dealer + seat) % 4]} "
                                 f"showed earlier that it holds no {SUIT_NAMES[suit]}")
        return extra

    def _replay_move(self, state, token: str, own: int, dealer: int, place, cards,
                     known: list) -> int:
        """Apply `token` for the seat to act in `state` and return the engine move. Another
        seat's card is first given to it (what is checked: the module docstring; the voids
        only the history shows are checked after, `_extra_voids`) and noted in `cards`
        (`place`: the move's index and token as given)."""
        S, rules, fmt = self.S, self.rules, self.face.format_move
        kind = self._kind(state)
        seat = int(state[S.TO_ACT])
        letter = SEAT_CHARS[(dealer + seat) % 4]
        if kind in self.look.HIDDEN_PHASES:  # a move only its maker sees (a discard)
            if (token == HIDDEN_TOKEN) != (seat != own):
                raise self.face.error(
                    f"{letter} sees its own {kind}: give it" if seat == own else
                    f"{letter}'s {kind} is seen by {letter} alone: write \"{HIDDEN_TOKEN}\"")
            if seat != own:
                return int(self.look.apply_hidden(state))
        move = self._parse(token, kind)
        if kind in ("lead", "follow") and seat != own:
            if state[S.PLAYED] >> move & 1:
                raise self.face.error(f"{fmt(move)} was played already")
            if own >= 0 and (state[S.DEALT + own] | state[S.HAND + own]) >> move & 1:
                raise self.face.error(f"{fmt(move)} is in {SEAT_CHARS[(dealer + own) % 4]}'s "
                                      "own hand")
            suit = move // 13 if self.effective_suit is None else \
                int(self.effective_suit(state, move))
            if state[S.SHOWN_VOIDS] >> (4 * seat + suit) & 1:
                raise self.face.error(f"{letter} showed earlier that it holds no "
                                      f"{SUIT_NAMES[suit]}")
            if own >= 0:
                self._check_known(state, own, seat, move, dealer, known)
            cards.append((*place, seat, suit))
            bit = np.int64(1) << move
            state[S.HAND + seat] |= bit
            state[S.DEALT + seat] |= bit
        elif not rules.is_legal(state, move):
            buffer = np.empty(rules.MAX_MOVES, dtype=np.int64)
            n = rules.legal_moves(state, buffer)
            raise self.face.error(f"illegal move {fmt(move)} for {letter} ({kind}); legal: "
                                  f"{' '.join(fmt(int(m)) for m in buffer[:n])}")
        rules.apply_move(state, move)
        return move

    def _check_known(self, state, own: int, seat: int, move: int, dealer: int,
                     known: list) -> None:
        """Refuse `move` played by `seat` when the public facts place it elsewhere (the world
        sampler's constraints, seen by `own`): a card everyone knows another seat holds (a
        card turned up and taken), or one no seat can hold (turned up and refused). A game
        with no such facts never refuses here. The facts are read once, at the play's first
        card of another seat, into `known` (unseen, holds): in the play only the cards played
        change them, and a card played twice is refused before."""
        if not known:
            needs, voids, holds = (np.zeros(3, np.int64) for _ in range(3))
            known += [int(self.public.constraints(state, own, False, np.int64(0), needs, voids,
                                                  holds)), holds]
        unseen, holds = known
        bit = 1 << move
        for i in range(3):
            if int(holds[i]) & bit:
                if (own + 1 + i) % 4 == seat:
                    return
                holder = SEAT_CHARS[(dealer + own + 1 + i) % 4]
                raise self.face.error(f"{self.face.format_move(move)} is known to be in "
                                      f"{holder}'s hand")
        if not unseen & bit:
            raise self.face.error(f"{self.face.format_move(move)} is in no hand: it is out "
                                  "of play")


@lru_cache(maxsize=None)
def reader_for(look) -> Reader:
    """The position reader of the game declared by the module `look` (one per game)."""
    return Reader(look)


def layout_exists(state, seat: int, public, extra_voids: int = 0) -> bool:
    """Whether the cards `seat` has not seen can fill the other seats' hands, no seat getting
    a suit it showed it lacks: Hall's condition, every set of those seats needing no more
    cards than the unseen cards of the suits one of them may hold, on the game's `public`
    constraints (the world sampler's; `extra_voids`: `public.replay_public`'s). The sampler
    counts these layouts; this only asks whether there is one, in microseconds."""
    needs, voids, holds = (np.zeros(3, np.int64) for _ in range(3))
    unseen = int(public.constraints(state, seat, True, np.int64(extra_voids), needs, voids,
                                    holds))
    suits = np.zeros(4, np.int64)
    public.suit_masks(state, suits)
    per_suit = [(unseen & int(suits[s])).bit_count() for s in range(4)]
    return hall(per_suit, needs, voids)


def position_view(spec, look):
    """(the view of the seat to act, that seat's letter) for the position `spec` of the game
    declared by `look`; bad input raises that game's `PositionError`."""
    return reader_for(look).view(spec)


def decision(bots, spec, look) -> dict:
    """The bots' decision for the position `spec` of the game declared by `look`: `{"seat",
    "move", "legal", "probabilities": {abstract action: probability or None},
    "explanation"}` (`web.position_checks.decision_reply`: the same position, the same
    answer)."""
    return decision_reply(bots, *position_view(spec, look), look.Face.format_move)


def decider(look):
    """`decision` for the game declared by `look`: `(bots, spec) -> answer`."""
    return partial(decision, look=look)
