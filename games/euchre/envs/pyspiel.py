"""One of our Euchre seat views as a state of pyspiel's own `euchre` (OpenSpiel's C++ game).

OpenSpiel's ISMCTS bot can search either our Python game `python_euchre`
(`envs.openspiel_games`) or OpenSpiel's own C++ `euchre`, which our engine is checked against
decision by decision (`tests/test_euchre_vs_openspiel.py`). For the second, the seat's view
must become a pyspiel state that the seat cannot tell from the real hand: a layout of the hidden
cards is drawn (`envs.adapters.GameAdapter.resample`, uniform over the layouts consistent with
the view, shown voids included), and the hand is dealt and replayed through pyspiel's own
chance and decision actions. pyspiel deals only whole hands, so the layout's cards have to be
put back where they were dealt: a seat's dealt cards are the cards it holds now plus the ones
it played (who played which card comes from replaying the moves through our engine, whose turn
order is OpenSpiel's), and the dealer's are corrected for the upcard it picked up and the card
it discarded.

The result is checked where it is made: the state's player to act and legal actions must be
the view's, or `NativeStateError` says where they differ (it cannot happen while the engines
agree). `tests/test_pyspiel_euchre.py` checks that the acting player's information state
string equals that of the real hand dealt through pyspiel, at every decision of random hands.
"""

from __future__ import annotations

import numpy as np

from envs.adapters import NativeStateError, check_native

OS_SEATS = "NESW"  # OpenSpiel's players 0..3
N_CARDS = 24
HAND_SIZE = 5


def to_openspiel_action(move: int) -> int:
    """OpenSpiel's action id of our Euchre move (its cards are `rank * 4 + suit`, ours
    `suit * 6 + rank`; its other actions are numbered as ours)."""
    from games.euchre.cards import N_RANKS, N_SUITS

    if move < N_CARDS:
        return (move % N_RANKS) * N_SUITS + move // N_RANKS
    return int(move)


def from_openspiel_action(action: int) -> int:
    """Our Euchre move of OpenSpiel's action id (the inverse of `to_openspiel_action`)."""
    from games.euchre.cards import from_openspiel_card

    return from_openspiel_card(action) if action < N_CARDS else int(action)


def _card_owners(view_state, history, discard: int) -> np.ndarray:
    """Which relative seat played each card of `history` (-1 for cards not played): the
    moves replayed through our engine on empty hands (the turn order depends only on the
    moves and the trick's cards). `discard` stands in for the hidden discard."""
    from games.euchre import state as S
    from games.euchre.rules import PASS_MOVE, apply_move
    from games.euchre.view import HIDDEN

    owners = np.full(N_CARDS, -1, dtype=np.int64)
    replay = S.new_state()
    S.reset_hand(replay, np.zeros(4, dtype=np.int64), int(view_state[S.UPCARD]),
                 int(view_state[S.STICK]))
    for move in history:
        move = discard if move == HIDDEN else int(move)
        if move < PASS_MOVE and replay[S.PHASE] != S.PHASE_DISCARD:
            owners[move] = int(replay[S.TO_ACT])
        apply_move(replay, move)
    return owners


def native_state(game, view_state, seat: int, dealer: int, history, seed: int,
                 adapter=None):
    """A state of pyspiel's `euchre` (`game`, from `pyspiel.load_game("euchre")`) that
    relative seat `seat` cannot tell from its view (`view_state` with the others' cards
    erased, `dealer` absolute in our W N E S order, `history` the hand's moves as it saw
    them), the hidden cards drawn from `seed`. A view no layout fits is a `NativeStateError`."""
    from envs.adapters import adapter as adapter_of
    from games.euchre import state as S
    from games.euchre.cards import SEAT_CHARS
    from games.euchre.rules import legal_mask

    g = adapter or adapter_of("euchre")
    view_state = np.asarray(view_state, dtype=np.int64)
    world = g.resample(view_state, seat, seed)
    if world is None:
        raise NativeStateError("no layout of the hidden cards fits the view")
    discard = int(world[S.DISCARD])
    moves = [int(m) for m in history]
    owners = _card_owners(view_state, moves, discard)
    upcard = int(world[S.UPCARD])
    ordered_up = int(world[S.MAKER]) >= 0 and int(world[S.N_PASSES]) < 4
    dealt = []
    for rel in range(4):
        cards = int(world[S.HAND + rel])
        for card in np.flatnonzero(owners == rel):
            cards |= 1 << int(card)
        if rel == 0 and ordered_up and int(world[S.PHASE]) != S.PHASE_DISCARD:
            cards = (cards | (1 << discard)) & ~(1 << upcard)
        elif rel == 0 and ordered_up:  # about to discard: it holds six, the upcard among them
            cards &= ~(1 << upcard)
        dealt.append([c for c in range(N_CARDS) if cards >> c & 1])
        if len(dealt[-1]) != HAND_SIZE:
            raise NativeStateError(f"seat {rel} (from the dealer) would be dealt "
                                   f"{len(dealt[-1])} cards, not {HAND_SIZE}")
    state = game.new_initial_state()
    os_dealer = OS_SEATS.index(SEAT_CHARS[int(dealer)])
    state.apply_action(os_dealer)
    for k in range(4 * HAND_SIZE):  # pyspiel deals card k to the dealer + k
        state.apply_action(to_openspiel_action(dealt[k % 4][k // 4]))
    state.apply_action(to_openspiel_action(upcard))
    for move in moves:
        state.apply_action(to_openspiel_action(discard if move < 0 else move))
    expected_player = (os_dealer + int(seat)) % 4
    mask = int(legal_mask(view_state))
    ours = sorted(to_openspiel_action(m) for m in range(31) if mask >> m & 1)
    check_native(state, expected_player, ours)
    return state
