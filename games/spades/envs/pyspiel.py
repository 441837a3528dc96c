"""One of our Spades seat views as a state of pyspiel's own `spades` (OpenSpiel's C++ game), as
`games.euchre.envs.pyspiel` does for Euchre; our whole hand as a pyspiel game is `python_spades`
(`envs.openspiel_games`, on `games/spades/toolkit.py`).

OpenSpiel's bots (ISMCTS, MCTS on a determinization) search pyspiel's `spades`, which our engine
is checked against move for move (`tests/test_spades_vs_openspiel.py`). For them, a seat's view
must become a pyspiel state the seat cannot tell from the real hand: the hidden cards are drawn
uniformly over every layout consistent with the view (`GameAdapter.resample`, with the voids
the moves show: a suit not followed, and a spade lead, which the rules allow only from a hand
of spades alone), the hand is dealt the way pyspiel deals (card k of its chance nodes to its
player k mod 4, its player p being our seat p + 1 from the dealer: OpenSpiel's North bids
first, so its dealer is West), the game score before the hand is set (pyspiel reads the bags
from it), and the moves are replayed: a move is the same number in both engines.

The result is checked where it is made: the state's player to act and legal actions must be
the view's, or `NativeStateError` says where they differ (it cannot happen while the engines
agree). `tests/test_spades_envs.py` checks that the acting player's observation string equals
that of the real hand dealt through pyspiel, at random decisions of random hands.
"""

from __future__ import annotations

import numpy as np

from envs.adapters import NativeStateError, check_native


def native_state(game, view_state, seat: int, dealer: int, history, seed: int,
                 adapter=None):
    """A state of pyspiel's `spades` (`game`, from `pyspiel.load_game("spades")`) that relative
    seat `seat` cannot tell from its view (`view_state`, the others' cards erased; `history`
    the hand's moves), the hidden cards drawn from `seed`. `dealer` (absolute, our W N E S)
    changes nothing: pyspiel's players are named from its dealer, always West, so only the
    seats relative to the dealer matter (the argument keeps `games.euchre.envs.pyspiel`'s
    signature). A view no layout fits is a `NativeStateError`."""
    from envs.adapters import adapter as adapter_of
    from games.spades import state as S
    from games.spades.rules import MAX_MOVES, legal_moves
    from games.spades.search.worlds import replay_public

    g = adapter or adapter_of("spades")
    view_state = np.asarray(view_state, dtype=np.int64)
    moves = [int(m) for m in history]
    played_by, lead_voids = replay_public(moves)  # who played which card; spade leads' voids
    world = g.resample(view_state, seat, seed, lead_voids)
    if world is None:
        raise NativeStateError("no layout of the hidden cards fits the view")
    dealt = [int(world[S.HAND + s]) | int(played_by[s]) for s in range(4)]
    state = game.new_initial_state()
    # pyspiel's scores are [N-S, E-W], its N-S being the dealer's left and partner: our team 1
    state.set_current_scores([int(view_state[S.SCORE + 1]), int(view_state[S.SCORE])])
    by_player = [sorted(c for c in range(52) if dealt[(p + 1) % 4] >> c & 1) for p in range(4)]
    for k in range(52):
        state.apply_action(by_player[k % 4][k // 4])
    for move in moves:
        state.apply_action(move)
    expected_player = (int(seat) - 1) % 4
    buffer = np.empty(MAX_MOVES, dtype=np.int64)
    ours = buffer[:legal_moves(view_state, buffer)].tolist()
    check_native(state, expected_player, ours)
    return state
