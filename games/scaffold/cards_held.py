"""How many cards a seat holds in a game where every seat plays one card to every trick: public,
what the world sampler deals each seat (`search/world_sampler.py`); and the sampler's whole
`constraints` hook for a game whose hidden cards only voids tell about (Setback, Spades)."""

from __future__ import annotations

from numba import njit


@njit(cache=True, nogil=True, inline="always")
def cards_left(hand_size, tricks_done, leader, n_in_trick, seat):
    """`hand_size` less the completed tricks, less one if `seat` has played to the trick under
    way (led by `leader`, `n_in_trick` cards played: the seats leader, leader+1, ...)."""
    played_now = 1 if (seat - leader) % 4 < n_in_trick else 0
    return hand_size - tricks_done - played_now


@njit(cache=True, nogil=True, inline="always")
def held_in(state, words, hand_size, seat):
    """`cards_left` read off a game's state (`words`: its trick words, `games.scaffold.trick`)."""
    _, _, _, n_in_trick, _, leader, _, trick_number = words
    return cards_left(hand_size, state[trick_number], state[leader], state[n_in_trick], seat)


@njit(cache=True, nogil=True, inline="always")
def plain_constraints(view_state, words, hand_size, shown_voids, all_cards, seat, use_voids,
                      extra_voids, needs, voids, holds):
    """The sampler's `constraints` hook where only voids tell where a hidden card is: the
    cards held (`needs`), the voids shown (word `shown_voids` | `extra_voids`; none unless
    `use_voids`) and none known held, for seats seat+1..seat+3; returns the cards hidden from
    `seat` (of `all_cards`, neither its own nor played)."""
    for i in range(3):
        other = (seat + 1 + i) % 4
        needs[i] = held_in(view_state, words, hand_size, other)
        shown = (view_state[shown_voids] | extra_voids) >> (4 * other) & 0xF
        voids[i] = shown if use_voids else 0
        holds[i] = 0
    hand, played, _, _, _, _, _, _ = words
    return all_cards & ~(view_state[hand + seat] | view_state[played])
