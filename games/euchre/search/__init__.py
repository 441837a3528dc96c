"""Euchre's part of the search layer (`search/`: uses `games/` only, and the abstraction to weigh
worlds by a policy): `card_location.py`, `worlds.py`."""
