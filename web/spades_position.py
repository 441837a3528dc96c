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

import hashlib

import numpy as np

from games.scaffold.table import SEAT_CHARS, parse_seat
from games.spades import state as S
from games.spades.api import _read_hand, _read_score, format_move, parse_move
from games.spades.cards import N_RANKS, SPADES, format_card
from games.spades.errors import SpadesError
from games.spades.rules import BID_MOVE, MAX_MOVES, apply_move, is_legal, legal_moves
from games.spades.view import SeatView

FIELDS = ("dealer", "hands", "moves", "score")
SUIT_NAMES = "clubs", "diamonds", "hearts", "spades"


class PositionError(SpadesError):
    """A position no deal can reach, or one that shows too little or too much; one line."""


def position_view(spec) -> tuple[SeatView, str]:
    """(the view of the seat to act, that seat's letter) for the position `spec` (module
    docstring); bad input raises `PositionError` naming the problem."""
    if not isinstance(spec, dict):
        raise PositionError("the position must be a JSON object with dealer, hands and moves")
    unknown = sorted(set(spec) - set(FIELDS))
    if unknown:
        raise PositionError(f"unknown field {unknown[0]!r}: a position has \"dealer\", "
                            "\"hands\" (the seat to act only), \"moves\" and \"score\"")
    for name in ("dealer", "hands", "moves"):
        if name not in spec:
            raise PositionError(f"the position has no {name!r}")
    dealer = parse_seat(spec["dealer"], PositionError) if isinstance(spec["dealer"], str) \
        else None
    if dealer is None:
        raise PositionError("'dealer' must be a seat: W, N, E or S")
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
    if own < 0:
        raise PositionError(f"the position hides the hand of {to_act_letter}, the seat to act: "
                            f"give \"hands\": {{\"{to_act_letter}\": [its 13 cards as dealt]}}")
    if to_act != own:
        raise PositionError(f"the position shows {letter}'s hand, but {to_act_letter} is to "
                            f"act after these moves: give {to_act_letter}'s hand only")
    if not layout_exists(state, own, voids):
        raise PositionError("no deal fits these moves: the other seats' cards cannot fill "
                            "their hands without a suit they showed they lack")
    return SeatView.of(state, dealer, (int(score[0]), int(score[1])), history), to_act_letter


def _hand(hands) -> tuple[str | None, int]:
    """(seat letter, card mask) of the one hand a position shows ((None, 0) when none)."""
    if not isinstance(hands, dict):
        raise PositionError("'hands' must map the seat to act to its 13 cards as dealt, as "
                            "{\"E\": [\"AS\", \"KS\", ...]}")
    letters = [SEAT_CHARS[parse_seat(key, PositionError)] for key in hands]
    if len(letters) > 1:
        raise PositionError(f"the position shows {len(letters)} hands ({', '.join(letters)}): "
                            "give only the hand of the seat to act; the others are hidden")
    if not letters:
        return None, 0
    cards = next(iter(hands.values()))
    if not isinstance(cards, list):
        raise PositionError(f"hand {letters[0]}: expected a list of 13 cards")
    try:
        return letters[0], _read_hand(letters[0], cards, 0)
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
    for subset in range(1, 8):
        members = [i for i in range(3) if subset >> i & 1]
        allowed = 0
        for i in members:
            allowed |= ~int(voids[others[i]]) & 0xF
        supply = sum(per_suit[suit] for suit in range(4) if allowed >> suit & 1)
        if sum(needs[i] for i in members) > supply:
            return False
    return True


def decision(bots, spec) -> dict:
    """The bots' decision for the position `spec`: `{"seat", "move", "legal",
    "probabilities": {abstract action: probability or None}, "explanation"}` (the Hint
    panel's, `web.spades_bots.SpadesBots.decide`). The bots are seeded from the position, so
    the same position always gets the same answer."""
    view, seat = position_view(spec)
    digest = hashlib.blake2b(view.state.tobytes() + np.asarray(view.history, np.int64).tobytes()
                             + np.asarray(view.score, np.int64).tobytes(), digest_size=8)
    _, explanation = bots.decide(view, int.from_bytes(digest.digest(), "little") >> 1)
    return {"seat": seat, "move": explanation["move"],
            "legal": [format_move(int(m)) for m in view.legal_moves()],
            "probabilities": {a["action"]: a["prob"] for a in explanation["actions"]},
            "explanation": explanation}
