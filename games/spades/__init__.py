"""Spades as OpenSpiel 2.0.2's `spades` plays it by default (four seats in two partnerships,
bids Nil or 1..13, bags and their penalty, the game to 500 with the mercy rule at -350): the
numba engine, the readable Python hand, the seat view, the replay and random play."""
