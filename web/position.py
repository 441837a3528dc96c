"""One seat's position, as a program outside sends it: the replay JSON of a deal so far with
only the hand of the seat to act (`POST /api/decide`, `setback-cfr decide`).

    {"dealer": "S", "score": {"EW": 3, "NS": 5},            # score optional (0-0)
     "hands": {"N": ["QH", "TH", "5D", "9C", "4S", "8C"]},  # as dealt: the seat to act only
     "moves": ["3", "P", "P", "P", "AS", "4S", "TS"]}

The moves are replayed on the engine with the other seats' hands unknown: a card another seat
plays is given to it as it is played. Every move is checked as the rules check it where the
rules can see it (every bid, the seat's own cards: legal, from its hand); another seat's card
must be one nobody has played and the seat to act does not hold, of no suit that seat has
shown it lacks (`SHOWN_VOIDS`: then it could not have held the card), and once replayed some
layout of the unseen cards must fit every hand size and void (`layout_exists`). Those are
exactly the conditions under which some deal of the full rules makes these moves.

The result is the `SeatView` the seat would get in a real game: the same key, the same legal
moves, the same history. Two fields are set apart: `EXHAUSTED` is left 0 (a real view's flag
depends on the hidden hands: whether the Jack was dealt), and no other seat's `HAND` or
`DEALT` is known; a view has neither.
"""

from __future__ import annotations

import numpy as np

from games.setback import state as S
from games.setback.api import format_move, parse_move
from games.setback.cards import SEAT_CHARS, format_card, parse_hand, parse_seat
from games.setback.errors import SetbackError
from games.setback.rules import BID_MOVE, MAX_MOVES, apply_move, is_legal, legal_moves
from games.setback.view import SeatView
from search.sampler import constraints
from web.position_checks import (NO_LAYOUT, check_fields, check_seat, decision_reply, hall,
                                  shown_hand)

MAX_SCORE = 10**9  # as `setback-cfr replay`: keeps the scores inside the key builder's int64
SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
# Every well-formed card token (upper case, `10` for Ten too) -> its card: a dict lookup per
# move instead of `parse_move`'s parsing (which still words the errors).
CARD_TOKENS = {**{format_card(c): c for c in range(52)},
               **{"10" + format_card(c)[1]: c for c in range(52) if format_card(c)[0] == "T"}}
BID_TOKENS = {format_move(m): m for m in (BID_MOVE, BID_MOVE + 2, BID_MOVE + 3, BID_MOVE + 4)}


class PositionError(SetbackError):
    """A position no deal can reach, or one that shows too little or too much; one line."""


def position_view(spec) -> tuple[SeatView, str]:
    """(the view of the seat to act, that seat's letter) for the position `spec` (see the
    module docstring); bad input raises `PositionError` (a `SetbackError`) naming the problem."""
    check_fields(spec, PositionError)
    dealer = parse_seat(spec["dealer"])
    score = _score(spec.get("score"))
    seat_letter, hand = _hand(spec["hands"])
    moves = spec["moves"]
    if not isinstance(moves, list):
        raise PositionError("'moves' must be a list such as [\"3\", \"P\", \"AS\"]")

    own = (parse_seat(seat_letter) - dealer) % 4 if seat_letter else -1
    hands = np.zeros(4, dtype=np.int64)
    if own >= 0:
        hands[own] = hand
    state = S.new_state()
    S.reset_deal(state, hands)
    history = []
    for index, token in enumerate(moves):
        if not isinstance(token, (str, int)) or isinstance(token, bool):
            raise PositionError(f"move {index} ({token!r}): a move is a string such as \"P\", "
                                "\"3\" or \"AS\"")
        if int(state[S.PHASE]) == S.PHASE_OVER:
            raise PositionError(f"move {index} ({token!r}): the deal is already over")
        try:
            move = _replay_move(state, str(token), own, dealer)
        except SetbackError as exc:
            raise PositionError(f"move {index} ({token!r}): {exc}") from None
        history.append(move)
    if int(state[S.PHASE]) == S.PHASE_OVER:
        raise PositionError("the deal is over: there is no decision to make")
    to_act = int(state[S.TO_ACT])
    to_act_letter = SEAT_CHARS[(dealer + to_act) % 4]
    check_seat(seat_letter, to_act_letter, PositionError, "six")
    if int(state[S.PHASE]) == S.PHASE_PLAY and not layout_exists(state, own):
        raise PositionError(NO_LAYOUT)
    state[S.EXHAUSTED] = 0
    return SeatView.of(state, dealer, score, history), to_act_letter


def _score(score) -> tuple[int, int]:
    """(EW, NS) from the position's optional "score"."""
    if score is None:
        return 0, 0
    if (not isinstance(score, dict) or set(score) != {"EW", "NS"}
            or not all(isinstance(v, int) and not isinstance(v, bool) and abs(v) <= MAX_SCORE
                       for v in score.values())):
        raise PositionError('"score" must look like {"EW": 3, "NS": -2} (integers within '
                            '+-1,000,000,000)')
    return score["EW"], score["NS"]


def _hand(hands) -> tuple[str | None, int]:
    """(seat letter, card mask) of the one hand a position shows ((None, 0) when none)."""
    letter, cards = shown_hand(hands, PositionError, _seat, "six",
                               '{"N": ["QH", "TH", "5D", "9C", "4S", "8C"]}')
    if letter is None:
        return None, 0
    try:
        return letter, parse_hand(cards, expected_size=S.HAND_SIZE)
    except SetbackError as exc:
        raise PositionError(f"hand {letter}: {exc}") from None


def _seat(key) -> int:
    """The seat of a key of 'hands' (one line naming it if it is none)."""
    try:
        return parse_seat(key)
    except SetbackError:
        raise PositionError(f"unknown seat {key!r} in 'hands': expected W, N, E or S") from None


def _replay_move(state, token: str, own: int, dealer: int) -> int:
    """Apply `token` for the seat to act in `state` and return the engine move. Another seat's
    card is first given to it (see the module docstring for what is checked)."""
    phase = int(state[S.PHASE])
    if phase == S.PHASE_AUCTION:
        kind = "bid"
    else:
        kind = "lead" if state[S.N_IN_TRICK] == 0 else "follow"
    move = (BID_TOKENS if kind == "bid" else CARD_TOKENS).get(token.strip().upper())
    if move is None:
        move = parse_move(token, kind)  # raises, naming what is wrong
    seat = int(state[S.TO_ACT])
    letter = SEAT_CHARS[(dealer + seat) % 4]
    if kind != "bid" and seat != own:
        bit = 1 << move
        if state[S.PLAYED] >> move & 1:
            raise SetbackError(f"{format_card(move)} was played already")
        if own >= 0 and state[S.DEALT + own] >> move & 1:
            raise SetbackError(f"{format_card(move)} is in {SEAT_CHARS[(dealer + own) % 4]}'s "
                               "own hand")
        suit = move // 13
        if state[S.SHOWN_VOIDS] >> (4 * seat + suit) & 1:
            raise SetbackError(f"{letter} showed earlier that it holds no "
                               f"{SUIT_NAMES[format_card(move)[1]]}")
        state[S.HAND + seat] |= bit
        state[S.DEALT + seat] |= bit
    elif not is_legal(state, move):
        buffer = np.empty(MAX_MOVES, dtype=np.int64)
        n = legal_moves(state, buffer)
        raise SetbackError(f"illegal move {format_move(move)} for {letter} ({kind}); legal: "
                           f"{' '.join(format_move(int(m)) for m in buffer[:n])}")
    apply_move(state, move)
    return move


def layout_exists(state, seat: int) -> bool:
    """Whether the cards `seat` has not seen can fill the other seats' hands, no seat getting
    a suit it showed it lacks: Hall's condition, every set of those seats needing no more
    cards than the unseen cards of the suits one of them may hold (`search.sampler`'s
    `layout_table` counts these layouts; this only asks whether there is one, in
    microseconds)."""
    needs, voids = np.zeros(3, np.int64), np.zeros(3, np.int64)
    unseen = int(constraints(state, seat, True, needs, voids))
    per_suit = [(unseen >> (13 * suit) & 0x1FFF).bit_count() for suit in range(4)]
    return hall(per_suit, needs, voids)


def decision(bots, spec) -> dict:
    """The bots' decision for the position `spec`: `{"seat", "move", "legal",
    "probabilities": {abstract action: probability or None}, "explanation"}`, the
    explanation being the Hint panel's (`web.bots.Bots.decide`). The bots are seeded from the
    position itself, so the same position always gets the same answer."""
    return decision_reply(bots, *position_view(spec), format_move)
