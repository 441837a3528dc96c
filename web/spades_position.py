"""One seat's Spades position, as a program outside sends it to `POST /api/decide` (`serve
--game spades`): the replay JSON of a hand so far with only the hand of the seat to act.

    {"dealer": "S", "score": {"NS": 120, "EW": -35},       # score optional (0-0)
     "hands": {"E": ["AS", "KS", ... 13 cards as dealt]},  # the seat to act only
     "moves": ["3", "Nil", "4", "2", "KH", "2H"]}

As `web.position` does for Setback, the moves are replayed on the engine with the other seats'
hands unknown: every bid and the seat's own cards are checked by the rules; another seat's card
is given to it as it is played, and must be one nobody has played, not in the seat's own hand,
and of no suit that seat has shown it lacks: it did not follow a suit, or it led a spade, which
the rules allow only from a hand of spades alone (`games.spades.rules`). Once replayed, some
layout of the unseen cards must fit every hand size and void (Hall's condition). Those are the
conditions under which some deal makes these moves. The result is the `SeatView` the seat
would get in a real game.
"""

from __future__ import annotations

import numpy as np

from games.scaffold.table import SEAT_CHARS, parse_seat
from games.spades import state as S
from games.spades.api import _read_hand, _read_score, format_move, parse_move
from games.spades.cards import N_RANKS, SPADES, format_card
from games.spades.errors import SpadesError
from games.spades.rules import BID_MOVE, MAX_MOVES, apply_move, is_legal, legal_moves
from games.spades.view import SeatView
from web.position_checks import (NO_LAYOUT, check_fields, check_seat, decision_reply, hall,
                                  shown_hand)

SUIT_NAMES = "clubs", "diamonds", "hearts", "spades"


class PositionError(SpadesError):
    """A position no deal can reach, or one that shows too little or too much; one line."""


def position_view(spec) -> tuple[SeatView, str]:
    """(the view of the seat to act, that seat's letter) for the position `spec` (module
    docstring); bad input raises `PositionError` naming the problem."""
    check_fields(spec, PositionError)
    dealer = parse_seat(spec["dealer"], PositionError)
    try:
        score = _read_score(spec.get("score"))  # by absolute team: EW, NS
    except SpadesError as exc:
        raise PositionError(str(exc)) from None
    letter, hand = _hand(spec["hands"])
    moves = spec["moves"]
    if not isinstance(moves, list):
        raise PositionError("'moves' must be a list such as [\"3\", \"Nil\", \"KH\"]")
    own = (SEAT_CHARS.index(letter) - dealer) % 4 if letter else -1
    hands = np.zeros(4, dtype=np.int64)
    if own >= 0:
        hands[own] = hand
    state = S.new_state()
    S.reset_hand(state, hands, *(int(score[(dealer + t) % 2]) for t in (0, 1)))
    voids = np.zeros(4, dtype=np.int64)  # suits each seat has shown it lacks (a bit a suit)
    history = []
    for index, token in enumerate(moves):
        if not isinstance(token, (str, int)) or isinstance(token, bool):
            raise PositionError(f"move {index} ({token!r}): a move is a string such as "
                                "\"Nil\", \"4\" or \"KH\"")
        if int(state[S.PHASE]) == S.PHASE_OVER:
            raise PositionError(f"move {index} ({token!r}): the hand is already over")
        try:
            history.append(_replay_move(state, str(token), own, dealer, voids))
        except SpadesError as exc:
            raise PositionError(f"move {index} ({token!r}): {exc}") from None
    if int(state[S.PHASE]) == S.PHASE_OVER:
        raise PositionError("the hand is over: there is no decision to make")
    to_act = int(state[S.TO_ACT])
    to_act_letter = SEAT_CHARS[(dealer + to_act) % 4]
    check_seat(letter, to_act_letter, PositionError, "13")
    if not layout_exists(state, own, voids):
        raise PositionError(NO_LAYOUT)
    return SeatView.of(state, dealer, (int(score[0]), int(score[1])), history), to_act_letter


def _hand(hands) -> tuple[str | None, int]:
    """(seat letter, card mask) of the one hand a position shows ((None, 0) when none)."""
    letter, cards = shown_hand(hands, PositionError, lambda key: parse_seat(key, PositionError),
                               "13", '{"E": ["AS", "KS", ...13 cards as dealt]}')
    if letter is None:
        return None, 0
    try:
        return letter, _read_hand(letter, cards, 0)
    except SpadesError as exc:
        raise PositionError(str(exc)) from None


def _replay_move(state, token: str, own: int, dealer: int, voids) -> int:
    """Apply `token` for the seat to act in `state` and return the engine move; another seat's
    card is first given to it (what is checked: module docstring), and the voids it shows are
    noted in `voids`."""
    phase = int(state[S.PHASE])
    leading = phase == S.PHASE_PLAY and state[S.N_IN_TRICK] == 0
    move = parse_move(token, "bid" if phase == S.PHASE_BID else "play")
    seat = int(state[S.TO_ACT])
    letter = SEAT_CHARS[(dealer + seat) % 4]
    if phase == S.PHASE_PLAY and seat != own:
        suit = move // N_RANKS
        if state[S.PLAYED] >> move & 1:
            raise SpadesError(f"{format_card(move)} was played already")
        if own >= 0 and state[S.DEALT + own] >> move & 1:
            raise SpadesError(f"{format_card(move)} is in {SEAT_CHARS[(dealer + own) % 4]}'s "
                              "own hand")
        if voids[seat] >> suit & 1:
            raise SpadesError(f"{letter} showed earlier that it holds no {SUIT_NAMES[suit]}")
        if not leading and suit != state[S.TRICK] // N_RANKS:
            voids[seat] |= 1 << int(state[S.TRICK] // N_RANKS)  # it could not follow
        elif leading and suit == SPADES:
            voids[seat] |= 0b0111  # a spade is led from a hand of spades alone
        bit = np.int64(1) << move
        state[S.HAND + seat] |= bit
        state[S.DEALT + seat] |= bit
    elif not is_legal(state, move):
        buffer = np.empty(MAX_MOVES, dtype=np.int64)
        n = legal_moves(state, buffer)
        kind = "bid" if move >= BID_MOVE else "lead" if leading else "follow"
        raise SpadesError(f"illegal move {format_move(move)} for {letter} ({kind}); legal: "
                          f"{' '.join(format_move(int(m)) for m in buffer[:n])}")
    apply_move(state, move)
    return move


def layout_exists(state, seat: int, voids) -> bool:
    """Whether the cards `seat` has not seen can fill the other seats' hands (each the cards
    it still holds), no seat getting a suit of its `voids`: Hall's condition over every set
    of the three seats."""
    unseen = ((1 << 52) - 1) & ~int(state[S.HAND + seat] | state[S.PLAYED])
    per_suit = [(unseen >> (N_RANKS * suit) & 0x1FFF).bit_count() for suit in range(4)]
    others = [(seat + k) % 4 for k in (1, 2, 3)]
    leader, in_trick = int(state[S.LEADER]), int(state[S.N_IN_TRICK])
    needs = [S.HAND_SIZE - int(state[S.TRICK_NUMBER]) - ((s - leader) % 4 < in_trick)
             for s in others]
    return hall(per_suit, needs, [voids[s] for s in others])


def decision(bots, spec) -> dict:
    """The bots' decision for the position `spec`: `{"seat", "move", "legal",
    "probabilities": {abstract action: probability or None}, "explanation"}`
    (`web.position_checks.decision_reply`: the same position, the same answer)."""
    return decision_reply(bots, *position_view(spec), format_move)
