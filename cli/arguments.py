"""Argument types shared by the subcommands (argparse reports a bad value and exits 2)."""

from __future__ import annotations

import argparse
import math


def _integer(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None


def positive_int(text: str) -> int:
    """An integer of at least 1."""
    value = _integer(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1: {value}")
    return value


def seed(text: str) -> int:
    """A random seed: an integer in 0 .. 2**64 - 1."""
    value = _integer(text)
    if not 0 <= value < 2**64:
        raise argparse.ArgumentTypeError(f"must be in 0 .. 2**64 - 1: {value}")
    return value


def non_negative_int(text: str) -> int:
    """An integer of at least 0."""
    value = _integer(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be non-negative: {value}")
    return value


def positive_float(text: str) -> float:
    """A finite number greater than 0 (no nan, no inf)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"must be a finite number above 0: {text}")
    return value
