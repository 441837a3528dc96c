"""How many cards a seat holds in a game where every seat plays one card to every trick: public,
what the world sampler deals each seat (`search/world_sampler.py`)."""

from __future__ import annotations

from numba import njit


@njit(cache=True, nogil=True, inline="always")
def cards_left(hand_size, tricks_done, leader, n_in_trick, seat):
    """`hand_size` less the completed tricks, less one if `seat` has played to the trick under
    way (led by `leader`, `n_in_trick` cards played: the seats leader, leader+1, ...)."""
    played_now = 1 if (seat - leader) % 4 < n_in_trick else 0
    return hand_size - tricks_done - played_now
