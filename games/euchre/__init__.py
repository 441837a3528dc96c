"""Euchre as OpenSpiel 2.0.2's `euchre` plays it by default (stick the dealer, no lone
defender): the rules engine (numba core + Python API), the replay and the game to 10."""
