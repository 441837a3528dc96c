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

`resample` draws the other seats' hidden cards uniformly over every layout consistent with the
hand sizes and the voids the state shows (`SHOWN_VOIDS`, plus any `extra_voids`, e.g. a seat that
led a spade and so holds spades only: `lead_voids`), exactly: the layouts are counted suit by
suit (a dynamic programme over the cards each seat still needs, in Python integers) and drawn
in proportion, then the cards of each suit shuffled.
"""

from __future__ import annotations

import functools
import random
from math import comb

import numpy as np
from numba import njit

from envs.adapters import Engine, GameAdapter
from envs.encoding import SCORE_CLIP
from games.spades import rules, scoring
from games.spades import state as S
from games.spades.api import format_move
from games.spades.cards import N_RANKS, SPADES, power

SPADES_SIZE = 409
ALL_SUITS_BUT_SPADES = 0b0111


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


def lead_voids(history) -> list[int]:
    """The suits each seat (relative to the dealer) has shown it lacks by leading a spade: the
    rules let a seat lead a spade only from a hand of spades alone (`games.spades.rules`), so
    such a leader holds no club, diamond or heart. `history`: the hand's moves."""
    voids = [0, 0, 0, 0]
    cards = [int(m) for m in history if int(m) < rules.BID_MOVE]
    leader = 1  # the dealer's left leads the first trick
    for start in range(0, len(cards), 4):
        trick = cards[start:start + 4]
        led = trick[0] // N_RANKS
        if led == SPADES:
            voids[leader] |= ALL_SUITS_BUT_SPADES
        if len(trick) == 4:
            leader = (leader + max(range(4), key=lambda k: power(trick[k], led))) % 4
    return voids


class SpadesAdapter(GameAdapter):
    """Spades as OpenSpiel 2.0.2 plays it, to 500 (module docstring)."""

    name = "spades"
    all_moves_public = True
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

    def cards_held(self, state, seat: int) -> int:
        """How many cards relative seat `seat` holds (public: 13 less those it played)."""
        played_now = (seat - int(state[S.LEADER])) % 4 < int(state[S.N_IN_TRICK])
        return S.HAND_SIZE - int(state[S.TRICK_NUMBER]) - played_now

    def resample(self, state, seat: int, seed: int, extra_voids=(0, 0, 0, 0)):
        """A full state consistent with what relative seat `seat` knows of `state` (its cards,
        the cards played, the voids shown and `extra_voids`, a suit bit mask by seat), the other
        seats' cards drawn from `seed` uniformly over every consistent layout (module
        docstring); None when no layout is consistent."""
        seen = int(state[S.HAND + seat]) | int(state[S.PLAYED])
        others = [(seat + k) % 4 for k in (1, 2, 3)]
        needs = tuple(self.cards_held(state, s) for s in others)
        shown = int(state[S.SHOWN_VOIDS])
        voids = tuple((shown >> (4 * s) & 0xF) | int(extra_voids[s]) for s in others)
        suits = [[c for c in range(N_RANKS * suit, N_RANKS * (suit + 1)) if not seen >> c & 1]
                 for suit in range(4)]
        counts = tuple(len(cards) for cards in suits)
        total = _layouts(0, needs, counts, voids)
        if total == 0:
            return None
        chooser = random.Random(int(seed))
        hands = [0, 0, 0]
        for suit in range(4):
            pick = chooser.randrange(_layouts(suit, needs, counts, voids))
            for split in _splits(suit, needs, counts, voids):
                ways = comb(counts[suit], split[0]) * comb(counts[suit] - split[0], split[1]) \
                    * _layouts(suit + 1, tuple(n - k for n, k in zip(needs, split)), counts,
                               voids)
                if pick < ways:
                    break
                pick -= ways
            cards = list(suits[suit])
            chooser.shuffle(cards)
            start = 0
            for i, k in enumerate(split):
                for card in cards[start:start + k]:
                    hands[i] |= 1 << card
                start += k
            needs = tuple(n - k for n, k in zip(needs, split))
        out = state.copy()
        for s, mask in zip(others, hands):
            out[S.HAND + s] = mask
            out[S.DEALT + s] = mask  # what it held since the deal is not recoverable
        return out


def _splits(suit, needs, counts, voids):
    """The ways (k0, k1, k2) the three other seats may share suit `suit`'s unseen cards: all
    of them dealt, none to a seat void in the suit, none beyond what a seat still needs."""
    m = counts[suit]
    caps = [0 if voids[i] >> suit & 1 else needs[i] for i in range(3)]
    for k0 in range(min(caps[0], m) + 1):
        for k1 in range(min(caps[1], m - k0) + 1):
            k2 = m - k0 - k1
            if k2 <= caps[2]:
                yield k0, k1, k2


@functools.lru_cache(maxsize=4096)
def _layouts(suit, needs, counts, voids) -> int:
    """The layouts of the unseen cards of suits `suit`..3 giving the three other seats
    exactly `needs` more cards (an exact Python integer)."""
    if suit == 4:
        return int(needs == (0, 0, 0))
    total = 0
    for k0, k1, k2 in _splits(suit, needs, counts, voids):
        rest = (needs[0] - k0, needs[1] - k1, needs[2] - k2)
        total += comb(counts[suit], k0) * comb(counts[suit] - k0, k1) \
            * _layouts(suit + 1, rest, counts, voids)
    return total
