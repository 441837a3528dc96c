"""Bit tricks on 64-bit card masks, as numba intrinsics (one machine instruction each).

Hands, tricks and captured cards are 52-bit masks held in int64; these helpers count and
locate their bits without loops.
"""

from __future__ import annotations

from numba import njit, types
from numba.extending import intrinsic


def _bit_count_intrinsic(emit):
    """An int64 -> int64 intrinsic whose code is `emit(context, builder, x)` (one LLVM bit
    instruction): the three below differ only in that instruction."""

    def typer(typingctx, x):
        def codegen(context, builder, signature, args):
            return emit(context, builder, args[0])

        return types.int64(types.int64), codegen

    return intrinsic(typer)


_ctpop = _bit_count_intrinsic(lambda context, builder, x: builder.ctpop(x))
_cttz = _bit_count_intrinsic(
    lambda context, builder, x: builder.cttz(x, context.get_constant(types.boolean, False)))
_ctlz = _bit_count_intrinsic(
    lambda context, builder, x: builder.ctlz(x, context.get_constant(types.boolean, False)))


@njit(cache=True, inline="always")
def popcount(mask):
    """Number of set bits of `mask` (an int64 card mask)."""
    return _ctpop(mask)


@njit(cache=True, inline="always")
def lowest_bit(mask):
    """Index of the lowest set bit of a non-zero `mask` (64 for zero)."""
    return _cttz(mask)


@njit(cache=True, inline="always")
def highest_bit(mask):
    """Index of the highest set bit of a non-zero `mask` (-1 for zero)."""
    return 63 - _ctlz(mask)


@njit(cache=True, inline="always")
def bit_at(mask, i):
    """Bit `i` of `mask` (0 or 1): whether a card mask holds card `i`."""
    return (mask >> i) & 1


@njit(cache=True, inline="always")
def nth_bit(mask, n):
    """Index of the n-th (0-based) lowest set bit of `mask` (a uniform draw among a mask's
    moves picks n, then this finds the move)."""
    for _ in range(n):
        mask &= mask - 1
    return lowest_bit(mask)


@njit(cache=True, inline="always")
def mask_bits(mask, out):
    """Write the indices of the set bits of `mask` into `out`, ascending; return their count
    (a mask of legal cards or moves as the list of them)."""
    n = 0
    while mask:
        out[n] = lowest_bit(mask)
        mask &= mask - 1
        n += 1
    return n
