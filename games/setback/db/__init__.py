"""Setback's part of the database layer (`db/`): its key codec (`keys.py`), its database player
(`player.py`: a seat's view -> key of the database's layout -> move), strategy files read into
memory with a database's reading face (`strategy_store.py`), and its strategies as the policy
arrays rollout search reads (`policy_arrays.py`)."""
