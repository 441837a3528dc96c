"""Euchre's part of the search layer (`search/`: uses `games/` only):
`card_location.py`, `worlds.py`."""
