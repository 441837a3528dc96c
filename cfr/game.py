"""The game interface the CFR core traverses, documented once here.

A game is a `Game` bundle of six numba functions, each compiled with
`@njit(SIG, cache=True, _nrt=False)` for the exact signature below (`_nrt=False`: the functions
allocate nothing, and without it numba wraps every call in an atomic reference-count increment
and decrement of each array argument, ~20 ns per call; use loops, not slice assignment, to copy
a state, since `a[:] = b` may allocate), over a fixed-size state: a 1-D C-contiguous `int64[::1]` array
of `Game.state_size` words whose layout only the game knows. The core never allocates states:
it keeps a preallocated stack `states[depth, :]` and asks the game to write each child into the
next row. The functions are passed to the kernels as `numba.types.FunctionType` arguments, which
keeps every kernel loadable from numba's on-disk cache.

| member | signature | meaning |
|--|--|--|
| `current_player(state)` | `int64(int64[::1])` | 0 or 1 for a CFR player, `CHANCE` (-1), `TERMINAL` (-2) |
| `decision(state, actions_out, key_out)` | `int64(int64[::1], int64[::1], uint64[::1])` | writes the legal actions, returns their count n >= 1; when n >= 2 also writes the acting player's info-set key into `key_out[0]` (and `key_out[1]` when `key_words == 2`) |
| `apply(state, action, child_out)` | `int64(int64[::1], int64, int64[::1])` | writes the child reached by `action` (a decision action or a chance outcome); returns 0 |
| `utility(state)` | `float64(int64[::1])` | player 0's payoff at a terminal; player 1 gets its negation |
| `chance_outcomes(state, outcomes_out, probs_out)` | `int64(int64[::1], int64[::1], float64[::1])` | every chance outcome with its probability (summing to 1); returns their count |
| `chance_sample(state, u, child_out)` | `int64(int64[::1], uint64, int64[::1])` | maps one uniformly random 64-bit word to an outcome and writes that child; returns the outcome |

Rules a game must honour (checked for every game by `tests/test_game_conformance.py`):
- info-set keys are collision-free by construction (bit-packed, never a lossy hash) and depend
  only on what the acting player knows; equal keys always come with the same legal actions;
- a decision with n == 1 is a forced move: the core applies it without a table lookup;
- the game is two-player zero-sum (`utility` is player 0's payoff);
- depth (number of states from the root to a terminal, root included) never exceeds
  `max_depth`, and no node has more than `max_actions` actions or chance outcomes.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Callable

import warnings

import numpy as np
from numba import types
from numba.core.errors import NumbaExperimentalFeatureWarning

# First-class functions are how games reach the kernels; numba flags the feature as experimental.
warnings.filterwarnings("ignore", category=NumbaExperimentalFeatureWarning)

CHANCE = -1
TERMINAL = -2

# abstraction/dealing.py declares the same signatures for the games' side: cfr/ may not import
# the games nor they cfr/ (tests/test_package_boundaries.py), and numba needs them at both ends.
STATE = types.int64[::1]
CURRENT_PLAYER_SIG = types.int64(STATE)
DECISION_SIG = types.int64(STATE, types.int64[::1], types.uint64[::1])
APPLY_SIG = types.int64(STATE, types.int64, STATE)
UTILITY_SIG = types.float64(STATE)
CHANCE_OUTCOMES_SIG = types.int64(STATE, types.int64[::1], types.float64[::1])
CHANCE_SAMPLE_SIG = types.int64(STATE, types.uint64, STATE)

# The kernels' parameter types for the six members, in `Game.functions()` order.
FUNCTION_TYPES = (
    types.FunctionType(CURRENT_PLAYER_SIG),
    types.FunctionType(DECISION_SIG),
    types.FunctionType(APPLY_SIG),
    types.FunctionType(UTILITY_SIG),
    types.FunctionType(CHANCE_OUTCOMES_SIG),
    types.FunctionType(CHANCE_SAMPLE_SIG),
)


class FunctionAddress(types.WrapperAddressProtocol):
    """A game function resolved once to its machine address, to pass to kernels cheaply.

    Passing a dispatcher to a `FunctionType` parameter makes numba look its address up on
    every call (~30 us each); this object answers from a cache, and `_numba_type_` spares
    the type inference as well.
    """

    def __init__(self, dispatcher, function_type):
        from numba.experimental.function_type import _get_wrapper_address

        self.dispatcher = dispatcher  # keeps the compiled code alive
        self._signature = function_type.signature
        self._numba_type_ = function_type
        self._address = _get_wrapper_address(dispatcher, function_type.signature)

    def __wrapper_address__(self):
        return self._address

    def signature(self):
        """The numba signature the address implements."""
        return self._signature


@dataclass(frozen=True)
class Game:
    """A game as the CFR core sees it: sizes, the root state and the six numba functions."""

    name: str
    state_size: int
    max_actions: int
    max_depth: int
    key_words: int
    initial_state: Callable[[], np.ndarray]
    current_player: Callable
    decision: Callable
    apply: Callable
    utility: Callable
    chance_outcomes: Callable
    chance_sample: Callable

    def functions(self) -> tuple:
        """The six numba functions in the order the kernels take them."""
        return (
            self.current_player,
            self.decision,
            self.apply,
            self.utility,
            self.chance_outcomes,
            self.chance_sample,
        )

    @cached_property
    def addresses(self) -> tuple:
        """The six functions as `FunctionAddress` objects: what the kernels are passed."""
        return tuple(FunctionAddress(f, t) for f, t in zip(self.functions(), FUNCTION_TYPES))
