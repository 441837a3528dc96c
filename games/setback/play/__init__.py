"""Setback's players (the `play/` layer: above `db/`, `search/`, `abstraction/` and the rules,
never `train/`): the rule-based `heuristic.py`, the `oracle.py` ceiling, PIMC (`pimc.py`), the
evaluating bidders (`evaluated_bidder.py`: `sds.py`, `nn_bidder.py`; their training data,
`learn_data.py`), rollout search on a blueprint (`search_player.py`; on a policy network,
`net_player.py`), the database player over strategy files read into memory
(`strategy_player.py`), the back-off database player (`backoff.py`), a strategy as a model of the
players (`policy_model.py`), the exact belief (`exact_belief.py`), the bid tables
(`bid_tables.py`) and Trickster Cards' Pitch bot (`trickster.py`)."""
