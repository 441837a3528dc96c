"""Setback's players (the `play/` layer: above `db/`, `search/`, `abstraction/` and the rules,
never `train/`): the rule-based `heuristic.py`, the `oracle.py` ceiling, PIMC (`pimc.py`), the
evaluating bidders (`evaluated_bidder.py`: `sds.py`, `nn_bidder.py`) and Trickster Cards' Pitch
bot (`trickster.py`)."""
