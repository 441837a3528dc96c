"""Spades' players (the `play/` layer: above `db/`, `search/`, `abstraction/` and the rules, never
`train/`): `bid_data.py`, `heuristic.py`, `ismcts.py`, `oracle.py`, `search_player.py`,
`tournament.py`, `trickster.py`."""
