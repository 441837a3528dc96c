"""Setback's part of the search layer (`search/`: uses `games/` only): the exact solver of a deal's
play (`solver.py`), its worlds (`sampler.py`, `worlds.py`), the single-dummy evaluation of the
bids (`single_dummy.py`) and its learned twin (`learned_evaluator.py`), the bid tables' belief
about the hidden cards (`bid_tables.py`), and the objective of rollout search (`objective.py`)."""
