"""Setback (Auction Pitch), "to 11, no smudge": the rules engine (numba core + Python API)."""
