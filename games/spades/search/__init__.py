"""Spades' part of the search layer (`search/`: uses `games/` only):
`bid_tables.py`, `policy.py`, `worlds.py`."""
