"""Setback's part of the search layer (`search/`: uses `games/` only, and the abstraction to weigh
worlds by a policy): `objective.py`, `worlds.py`."""
