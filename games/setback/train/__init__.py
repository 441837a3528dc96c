"""Setback's part of the training layer (`train/`): its abstract game (`game.py`), the baseline
stage on it (`baseline.py`), the census of its info sets (`census.py`), the baseline's policy
(`baseline_policy.py`), the warm start across its key layouts (`warm_start.py`), the
score-aware bootstrap stage (`bootstrap.py`), the best-response stage against a Setback strategy
(`best_response.py`), the distill stage (`distill.py`) and the evaluation while training
(`evaluation.py`)."""
