"""Bit tricks on 64-bit card masks, as numba intrinsics (one machine instruction each).

Hands, tricks and captured cards are 52-bit masks held in int64; these helpers count and
locate their bits without loops.
"""

from __future__ import annotations

from numba import njit, types
from numba.extending import intrinsic


@intrinsic
def _ctpop(typingctx, x):
    sig = types.int64(types.int64)

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return sig, codegen


@intrinsic
def _cttz(typingctx, x):
    sig = types.int64(types.int64)

    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], context.get_constant(types.boolean, False))

    return sig, codegen


@intrinsic
def _ctlz(typingctx, x):
    sig = types.int64(types.int64)

    def codegen(context, builder, signature, args):
        return builder.ctlz(args[0], context.get_constant(types.boolean, False))

    return sig, codegen


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
def nth_bit(mask, n):
    """Index of the n-th (0-based) lowest set bit of `mask` (a uniform draw among a mask's
    moves picks n, then this finds the move)."""
    for _ in range(n):
        mask &= mask - 1
    return lowest_bit(mask)
