"""Spades in the toolkits (`envs.adapters`' interface): OpenSpiel 2.0.2's spades, to 500.

Moves are the engine's (OpenSpiel's own numbers): cards 0..51, then 52 + bid (Nil = 52, 1..13
= 53..65). A hand is dealt thirteen cards a seat (deck cards 13s..13s+12 to the seat s from the
dealer, as `games.spades.state.random_hand` deals); every bid and card is public. A hand's
payoff is the engine's `hand_score` (contracts, Nil, bags and their penalty; OpenSpiel's bonus
at 500 is a game's, not a hand's), each team's between -387 (two Nils set, no contract, thirteen
bags past a ten) and +230 (Nil made beside 13 made), so a difference within +-617.

The observation (`SPADES_SIZE` = 409 floats, seats relative to the observer): hand 0, dealt 52,
played in completed tricks 104, this trick's cards by the three others 156 (3 x 52), bids 312
(4 seats x not yet/Nil/1..13), tricks taken / 13 372 (4 seats), dealer 376, leader 380 (during
the play), shown voids 384 (4 seats x 4 suits), phase 400 (bid/lead/follow/over), tricks done /
13 404, bags us/them 405 ((bags + 9) / 18: OpenSpiel's bags are the game score's last digit, of
its sign), game score us/them / 500 407 (clipped to +-4; the last two, as for every game).

`resample` (`GameAdapter.resample`, the one world sampler on `games/spades/public.py`) draws the
other seats' hidden cards uniformly over every layout consistent with the hand sizes and the
voids the state shows (`SHOWN_VOIDS`, plus any `extra_voids`, e.g. a seat that led a spade and so
holds spades only: `games.spades.public.replay_public`), exactly, with the search's own draw.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from envs.adapters import Engine, GameAdapter
from envs.encoding import SCORE_CLIP
from games.spades import rules, scoring
from games.spades import state as S
from games.spades.api import format_move

SPADES_SIZE = 409


@njit(cache=True)
def spades_observation(state, seat, us, them, out):
    """Fill `out` (float32, `SPADES_SIZE`) with what relative seat `seat` knows of the Spades
    `state`, the game score being `us`-`them` (the layout: the module docstring)."""
    out[:] = 0.0
    n_in = state[S.N_IN_TRICK]
    leader = state[S.LEADER]
    in_trick = np.int64(0)
    for i in range(n_in):
        player = (leader + i) % 4
        card = state[S.TRICK + i]
        in_trick |= np.int64(1) << card
        if player != seat:
            out[156 + 52 * ((player - seat) % 4 - 1) + card] = 1.0
    for c in range(52):
        out[c] = (state[S.HAND + seat] >> c) & 1
        out[52 + c] = (state[S.DEALT + seat] >> c) & 1
        out[104 + c] = ((state[S.PLAYED] & ~in_trick) >> c) & 1
    for k in range(4):
        s = (seat + k) % 4
        out[312 + 15 * k + state[S.BID + s] + 1] = 1.0  # -1 not yet, 0 Nil, 1..13
        out[372 + k] = state[S.TAKEN + s] / 13.0
        for suit in range(4):
            out[384 + 4 * k + suit] = (state[S.SHOWN_VOIDS] >> (4 * s + suit)) & 1
    out[376 + (0 - seat) % 4] = 1.0
    phase = state[S.PHASE]
    if phase == S.PHASE_PLAY:
        out[380 + (leader - seat) % 4] = 1.0
        out[400 + (1 if n_in == 0 else 2)] = 1.0
    elif phase == S.PHASE_BID:
        out[400] = 1.0
    else:
        out[403] = 1.0
    out[404] = state[S.TRICK_NUMBER] / 13.0
    team = seat % 2
    out[405] = (scoring.bags_so_far(state[S.SCORE + team]) + 9) / 18.0
    out[406] = (scoring.bags_so_far(state[S.SCORE + 1 - team]) + 9) / 18.0
    out[407] = min(max(us / 500.0, -SCORE_CLIP), SCORE_CLIP)
    out[408] = min(max(them / 500.0, -SCORE_CLIP), SCORE_CLIP)


class SpadesAdapter(GameAdapter):
    """Spades as OpenSpiel 2.0.2 plays it, to 500 (module docstring)."""

    name = "spades"
    all_moves_public = True
    worlds = "search.spades_worlds:public_worlds"
    num_actions = rules.N_MOVES
    n_cards = 52
    cards_dealt = 52
    target = scoring.TARGET
    first_dealer = 0  # West deals first: OpenSpiel's North bids first (`games.spades.match`)
    max_hand_length = 4 + 52
    min_hand_payoff = -617.0
    max_hand_payoff = 617.0
    obs_size = SPADES_SIZE
    encode = staticmethod(spades_observation)

    def __init__(self):
        self.rules = Engine(S, rules, hand_score=scoring.hand_score,
                            game_winner=scoring.game_winner)
        self._move_text = tuple(format_move(m) for m in range(rules.N_MOVES))

    def deal_hands(self, cards: list[int]) -> np.ndarray:
        """The state of a hand whose 52 cards came off the deck in the order `cards`: deck
        cards 13s..13s+12 to the seat s from the dealer, as the engine deals; 0 to 0."""
        hands = np.zeros(4, dtype=np.int64)
        for i, card in enumerate(cards):
            hands[i // S.HAND_SIZE] |= np.int64(1) << card
        state = S.new_state()
        S.reset_hand(state, hands, 0, 0)
        return state

    def set_score(self, state, score, dealer: int) -> None:
        """The game score before the hand (`score` by absolute team: EW, NS) into `state`, by
        team relative to the dealer: OpenSpiel reads each team's bags from its last digit."""
        for team in (0, 1):
            state[S.SCORE + team] = int(score[(team + dealer) % 2])

    def chance_seat(self, i: int) -> int:
        """The seat (relative to the dealer) receiving the hand's `i`-th card."""
        return i // S.HAND_SIZE

    def is_over(self, state) -> bool:
        """Whether the thirteen tricks are played."""
        return int(state[S.PHASE]) == S.PHASE_OVER

    def public_move(self, state_before, move: int, observer: int) -> int:
        """Every Spades move is public."""
        return int(move)
