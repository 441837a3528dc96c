"""Euchre's players (the `play/` layer: above `db/`, `search/`, `abstraction/` and the rules, never
`train/`): `heuristic.py`, `ismcts.py`, `search_player.py`, `tournament.py`."""
