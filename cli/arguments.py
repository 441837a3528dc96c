"""Argument types shared by the subcommands (argparse reports a bad value and exits 2)."""

from __future__ import annotations

import argparse


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
